/**
 * Validation with the shared schemas: a failure is a 400 whose `error` names the first
 * problem in words and whose `issues` list every bad field (DESIGN.md §6 "Errors").
 *
 * @module
 */
import type { z } from "zod";
import { describeIssues } from "../http/body.ts";
import { HttpError } from "../http/errors.ts";

/**
 * Parse `data` with `schema` or throw a 400.
 *
 * @example
 * ```ts
 * import { LikeBody } from "@/lib/schemas/community.ts";
 * import { readJson } from "@/lib/http/body.ts";
 * declare const req: Request;
 * const body = parseInput(LikeBody, await readJson(req));
 * ```
 */
export function parseInput<S extends z.ZodType>(schema: S, data: unknown): z.infer<S> {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  const issues = describeIssues(parsed.error);
  throw new HttpError(400, parsed.error.issues[0]?.message ?? "Invalid request", { issues });
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
