/**
 * The one way routes validate input with the shared schemas: a failure is a 400 whose
 * `error` names the first problem in words (or a fixed message docs/interface.md#errors pins) and whose
 * `issues` list every bad field with the place it came from (docs/interface.md#errors).
 *
 * @module
 */
import type { z } from "zod";
import { HttpError } from "../fresh/error.ts";
import { misspeltFieldsMessage } from "./closed.ts";

/** Where validated input came from: a JSON body or the query string. */
export type InputPlace = "body" | "query";

/** Options of {@link parseInput}. */
export interface ParseOptions {
  /**
   * Where the data came from (default `"body"`). An issue with the whole input (an
   * unknown field of a strict object, a body that is not an object) has the path
   * `"(body)"` or `"(query)"`; an issue with a field has the field's path (`"tags.0"`,
   * or the query parameter's name).
   */
  in?: InputPlace;
  /** The `error` text instead of the first issue's message (docs/interface.md#errors fixes some). */
  message?: string;
}

/** One entry of a 400's `issues` list. */
export interface Issue {
  path: string;
  message: string;
}

/**
 * The `issues` list of a 400: one entry per bad field, its path naming the field, or
 * the place (`(body)`, `(query)`) when the issue is with the whole input.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * const parsed = z.object({ limit: z.number() }).safeParse({ limit: "x" });
 * if (!parsed.success) describeIssues(parsed.error, "query"); // [{path: "limit", …}]
 * ```
 */
export function describeIssues(error: z.ZodError, place: InputPlace = "body"): Issue[] {
  return error.issues.map((i) => ({
    path: i.path.map(String).join(".") || `(${place})`,
    message: i.message,
  }));
}

/**
 * Parse `data` with `schema` or throw a 400 `{error, issues}`.
 *
 * @example
 * ```ts
 * import { LikeBody, QuestionsQuery } from "@/lib/schemas/community.ts";
 * import { readJson } from "@/lib/http/body.ts";
 * declare const req: Request;
 * declare const url: URL;
 * const body = parseInput(LikeBody, asObject(await readJson(req)));
 * const query = parseInput(QuestionsQuery, queryObject(url), { in: "query" });
 * ```
 */
export function parseInput<S extends z.ZodType>(
  schema: S,
  data: unknown,
  opts: ParseOptions = {},
): z.infer<S> {
  const parsed = schema.safeParse(data);
  // A body field that looks like one the schema takes (lib/schemas/closed.ts) is refused.
  const misspelt = opts.in === "query" ? null : misspeltFieldsMessage(schema, data);
  if (parsed.success && !misspelt) return parsed.data;
  const issues = parsed.success ? [] : describeIssues(parsed.error, opts.in);
  if (misspelt) issues.push({ path: `(${opts.in ?? "body"})`, message: misspelt });
  // The misspelt field leads when the schema's own issue is a missing field — most likely
  // that one, misspelt (`{"contnet": …}`: "content is missing" would not say so).
  const leading = misspelt && (parsed.success || missingField(parsed.error, data))
    ? misspelt
    : parsed.error?.issues[0]?.message;
  throw new HttpError(400, opts.message ?? leading ?? "Invalid request", { extra: { issues } });
}

/** True when one of the issues is about a top-level field `data` does not have. */
function missingField(error: z.ZodError, data: unknown): boolean {
  const fields = data !== null && typeof data === "object" ? data as Record<string, unknown> : {};
  return error.issues.some((i) => i.path.length === 1 && fields[String(i.path[0])] === undefined);
}

/** The query string as a plain object (last value of a repeated name wins). */
export function queryObject(url: URL): Record<string, string> {
  return Object.fromEntries(url.searchParams);
}

/** A JSON body that is an object (anything else counts as an empty object). */
export function asObject(data: unknown): Record<string, unknown> {
  return data !== null && typeof data === "object" && !Array.isArray(data)
    ? data as Record<string, unknown>
    : {};
}
