/**
 * The `Idempotency-Key` header at the HTTP edge (the records: lib/community/idempotency.ts).
 * A create route wraps its work in {@link idempotentCreate}: without the header nothing
 * changes; with it, a repeat by the same caller within 24 h answers the first response
 * again (same status and body, plus `Idempotent-Replayed: true`) and creates nothing; a
 * repeat while the first is still running answers 409; a repeat with the same key but
 * another request (method, path or body) answers 422; a malformed key answers 400.
 *
 * @module
 */
import {
  claimIdempotencyKey,
  isIdempotencyKey,
  releaseIdempotencyKey,
  storeIdempotentResponse,
} from "../community/idempotency.ts";
import { afterCommit } from "../kv/after_commit.ts";
import { HttpError } from "../fresh/error.ts";
import { sha256Hex } from "../ids.ts";

/** The 409 body of a repeat that overlaps the first request. */
export const IN_PROGRESS_ERROR = "A request with this Idempotency-Key is still in progress";
/** The 422 body of a key used again for another request. */
export const KEY_REUSED_ERROR =
  "This Idempotency-Key was used for a different request (another path or body): send a new key with each new request";

/**
 * A digest of what a request asks: its method, path and validated body (so a retry that
 * only spaces its JSON differently is still the same request).
 */
async function fingerprintOf(req: Request, body: unknown): Promise<string> {
  const path = new URL(req.url).pathname;
  return await sha256Hex(`${req.method} ${path}\n${JSON.stringify(body)}`);
}

/** Adds the idempotency record to the create's atomic op (undefined without a header). */
export type Attach = ((op: Deno.AtomicOperation, resourceId: string) => void) | undefined;

/** What a create gives back: the created resource's id and the response to answer. */
export interface Created {
  resourceId: string;
  response: Response;
}

/**
 * Run a create under the request's `Idempotency-Key` (if any).
 *
 * @example
 * ```ts
 * declare const req: Request;
 * declare const kv: Deno.Kv;
 * const body = { title: "Why KV?" }; // the request's validated body
 * const res = await idempotentCreate(req, body, kv, "user:u1", Date.now(), async (attach) => {
 *   const id = "q-1"; // create, passing `attach` into the same atomic op
 *   return { resourceId: id, response: Response.json({ id }, { status: 201 }) };
 * }, async (id) => Response.json({ id }, { status: 201 }));
 * ```
 */
export async function idempotentCreate(
  req: Request,
  body: unknown,
  kv: Deno.Kv,
  caller: string,
  now: number,
  create: (attach: Attach) => Promise<Created>,
  rebuild: (resourceId: string) => Promise<Response>,
): Promise<Response> {
  const key = req.headers.get("idempotency-key");
  if (key === null) return (await create(undefined)).response;
  if (!isIdempotencyKey(key)) {
    throw new HttpError(400, "Idempotency-Key must be 1 to 255 visible ASCII characters");
  }
  const fingerprint = await fingerprintOf(req, body);
  const found = await claimIdempotencyKey(kv, caller, key, now, fingerprint);
  if (found.state === "in_progress") throw new HttpError(409, IN_PROGRESS_ERROR);
  if (found.state === "mismatch") throw new HttpError(422, KEY_REUSED_ERROR);
  if (found.state === "done") {
    return new Response(found.response.body, {
      status: found.response.status,
      headers: { "content-type": found.response.contentType, "idempotent-replayed": "true" },
    });
  }
  if (found.state === "created") {
    const res = await rebuild(found.resourceId);
    res.headers.set("idempotent-replayed", "true");
    return res;
  }
  let created: Created;
  try {
    created = await create(found.claim.attach);
  } catch (err) {
    await afterCommit("idempotency release", () => releaseIdempotencyKey(kv, caller, key));
    throw err;
  }
  const text = await created.response.text();
  const snapshot = {
    status: created.response.status,
    body: text,
    contentType: created.response.headers.get("content-type") ?? "application/json",
  };
  await afterCommit(
    "idempotency snapshot",
    () => storeIdempotentResponse(kv, caller, key, created.resourceId, snapshot, now, fingerprint),
  );
  return new Response(text, created.response);
}
