/**
 * Talking to identity providers: real `fetch` with a timeout, a size cap on answers,
 * JSON parsing and zod validation. Every failure is a {@link ProviderError} whose message
 * says what went wrong without quoting the answer (which could hold a token).
 *
 * @module
 */
import type { z } from "zod";
import { readTextCapped } from "../http/streams.ts";

/** How long one provider request may take. */
export const PROVIDER_TIMEOUT_MS = 10_000;
/** Largest provider answer read (profiles and token answers are small). */
const MAX_ANSWER_BYTES = 256 * 1024;

/** A token exchange or profile fetch that failed; the callback answers `auth_failed`. */
export class ProviderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProviderError";
  }
}

/**
 * Send a request to a provider and return its validated JSON answer.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * declare const url: string;
 * const Token = z.object({ access_token: z.string() });
 * const init = { method: "POST", body: "grant_type=authorization_code" };
 * const { access_token } = await providerJson("provider_c token", url, init, Token);
 * ```
 * @throws {ProviderError} on network failure, timeout, non-2xx status, oversize or
 *   non-JSON answer, or an answer that does not match `schema`.
 */
export async function providerJson<S extends z.ZodType>(
  what: string,
  url: string,
  init: RequestInit,
  schema: S,
): Promise<z.infer<S>> {
  let res: Response;
  try {
    res = await fetch(url, {
      ...init,
      redirect: "error",
      signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
    });
  } catch (err) {
    const reason = err instanceof DOMException && err.name === "TimeoutError"
      ? "timed out"
      : "could not be reached";
    throw new ProviderError(`${what} ${reason}`);
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => {});
    throw new ProviderError(`${what} answered ${res.status}`);
  }
  const text = await readLimited(res, what);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new ProviderError(`${what} answered with something other than JSON`);
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    // Field paths only: values could be tokens.
    const fields = parsed.error.issues.map((i) => i.path.join(".") || "(root)").join(", ");
    throw new ProviderError(`${what} answered an unexpected shape (${fields})`);
  }
  return parsed.data;
}

async function readLimited(res: Response, what: string): Promise<string> {
  const text = await readTextCapped(res.body, MAX_ANSWER_BYTES);
  if (typeof text === "string") return text;
  throw new ProviderError(
    text.failed === "too_large"
      ? `${what} answered more than ${MAX_ANSWER_BYTES} bytes`
      : `${what} answer could not be read`,
  );
}
