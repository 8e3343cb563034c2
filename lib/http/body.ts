/**
 * Reading request bodies safely: a size cap and JSON parsing, each failure a 4xx
 * `HttpError` (never a 500). Validation is `parseInput` (lib/schemas/parse.ts).
 *
 * @module
 */
import type { z } from "zod";
import { asObject, parseInput } from "../schemas/parse.ts";
import { HttpError } from "../fresh/error.ts";
import { readTextCapped } from "./streams.ts";

const UTF8 = new TextDecoder();

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
  if (Number.isFinite(declared)) {
    // A declared length within the limit bounds what the server reads (HTTP ends the body
    // there), so the body is taken whole in one read — no stream and reader per request
    // (`req.body` is not touched: its getter makes the stream), which cost an API write
    // more than its JSON parse. Bytes beyond the limit (a request
    // built in-process with a length that lies) are refused all the same.
    let bytes: ArrayBuffer;
    try {
      bytes = await req.arrayBuffer();
    } catch {
      throw new HttpError(400, "Request body could not be read");
    }
    if (bytes.byteLength > limit) {
      throw new HttpError(413, `Request body too large (limit ${limit} bytes)`);
    }
    return UTF8.decode(bytes);
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
  /** Error text for a body that is not JSON (docs/interface.md#errors fixes some). */
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

/**
 * Read a JSON body and validate it with `schema` in one step: 400 for bad JSON or a bad
 * field (see `parseInput`), 413 over the size limit. A body that is not an object counts
 * as an empty one, so the schema names the missing fields.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * declare const req: Request;
 * const body = await parseBody(req, z.object({ content: z.string() }));
 * ```
 */
export async function parseBody<S extends z.ZodType>(
  req: Request,
  schema: S,
  opts: ReadJsonOptions & { message?: string } = {},
): Promise<z.infer<S>> {
  const data = asObject(await readJson(req, opts));
  return parseInput(schema, data, { in: "body", message: opts.message });
}
