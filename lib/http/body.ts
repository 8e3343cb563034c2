/**
 * Reading request bodies safely: a size cap, JSON parsing, and zod validation, each
 * failure a 4xx `HttpError` (never a 500).
 *
 * @module
 */
import type { z } from "zod";
import { HttpError } from "./errors.ts";
import { readTextCapped } from "./streams.ts";

/** Default cap for JSON bodies (bytes). */
export const DEFAULT_BODY_LIMIT = 64 * 1024;

/**
 * Read the body as text, refusing more than `limit` bytes with 413 — also when the
 * client sends no Content-Length and streams more.
 */
export async function readTextLimited(req: Request, limit = DEFAULT_BODY_LIMIT): Promise<string> {
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > limit) {
    throw new HttpError(413, `Request body too large (limit ${limit} bytes)`);
  }
  const text = await readTextCapped(req.body, limit);
  if (typeof text === "string") return text;
  if (text.failed === "too_large") {
    throw new HttpError(413, `Request body too large (limit ${limit} bytes)`);
  }
  // The client went away or sent a broken body: its fault, not a server error.
  throw new HttpError(400, "Request body could not be read");
}

/** Options of {@link readJson}. */
export interface ReadJsonOptions {
  limit?: number;
  /** Error text for a body that is not JSON (SPEC.md fixes some). */
  invalidJsonMessage?: string;
}

/**
 * Parse a JSON body (400 `Invalid JSON body` when it is not JSON).
 *
 * @example
 * ```ts
 * declare const req: Request;
 * const body = await readJson(req);
 * ```
 */
export async function readJson(req: Request, opts: ReadJsonOptions = {}): Promise<unknown> {
  const text = await readTextLimited(req, opts.limit);
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, opts.invalidJsonMessage ?? "Invalid JSON body");
  }
}

/** The `issues` list of a 400: one entry per bad field. */
export function describeIssues(error: z.ZodError): { path: string; message: string }[] {
  return error.issues.map((i) => ({
    path: i.path.map(String).join(".") || "(body)",
    message: i.message,
  }));
}

/**
 * Validate data with a zod schema; a failure is a 400 with `issues`.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * const Schema = z.object({ title: z.string() });
 * declare const req: Request;
 * const input = validate(Schema, await readJson(req), "Invalid question");
 * ```
 */
export function validate<S extends z.ZodType>(
  schema: S,
  data: unknown,
  message = "Invalid request",
): z.infer<S> {
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    throw new HttpError(400, message, { issues: describeIssues(parsed.error) });
  }
  return parsed.data;
}

/**
 * Read and validate a JSON body in one step.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * declare const req: Request;
 * const { title } = await readBody(req, z.object({ title: z.string() }));
 * ```
 */
export async function readBody<S extends z.ZodType>(
  req: Request,
  schema: S,
  opts: ReadJsonOptions & { message?: string } = {},
): Promise<z.infer<S>> {
  return validate(schema, await readJson(req, opts), opts.message);
}
