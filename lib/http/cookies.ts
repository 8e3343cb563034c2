/**
 * Cookie reading and writing on plain `Request` / `Headers`, so route handlers need
 * no framework context.
 *
 * @module
 */

/** Attributes of a cookie being set. */
export interface CookieOptions {
  maxAge?: number;
  path?: string;
  httpOnly?: boolean;
  secure?: boolean;
  sameSite?: "Lax" | "Strict" | "None";
}

/**
 * All cookies of a request as a record (the first of duplicate names wins).
 *
 * @example
 * ```ts
 * declare const req: Request;
 * const sid = getCookies(req)["parley_session"];
 * ```
 */
export function getCookies(req: Request): Record<string, string> {
  const out: Record<string, string> = {};
  const header = req.headers.get("cookie");
  if (!header) return out;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (!name || name in out) continue;
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    try {
      out[name] = decodeURIComponent(value);
    } catch {
      out[name] = value;
    }
  }
  return out;
}

const SAFE_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * Append a `Set-Cookie` header. Values are URI-encoded; defaults are HttpOnly,
 * SameSite=Lax, Path=/.
 *
 * @example
 * ```ts
 * declare const headers: Headers;
 * declare const id: string;
 * setCookie(headers, "parley_session", id, { maxAge: 3600, secure: true });
 * ```
 */
export function setCookie(
  headers: Headers,
  name: string,
  value: string,
  opts: CookieOptions = {},
): void {
  if (!SAFE_NAME.test(name)) throw new Error(`Invalid cookie name: ${name}`);
  const parts = [`${name}=${encodeURIComponent(value)}`, `Path=${opts.path ?? "/"}`];
  if (opts.maxAge !== undefined) parts.push(`Max-Age=${Math.max(0, Math.floor(opts.maxAge))}`);
  if (opts.httpOnly ?? true) parts.push("HttpOnly");
  if (opts.secure) parts.push("Secure");
  parts.push(`SameSite=${opts.sameSite ?? "Lax"}`);
  headers.append("set-cookie", parts.join("; "));
}

/** A cookie to set, as domain code describes it; the HTTP edge writes it with {@link setCookies}. */
export interface CookieSpec {
  name: string;
  value: string;
  options?: CookieOptions;
}

/** Append a `Set-Cookie` header for each spec, in order. */
export function setCookies(headers: Headers, specs: readonly CookieSpec[]): void {
  for (const c of specs) setCookie(headers, c.name, c.value, c.options);
}

/** Append a `Set-Cookie` that deletes `name`. */
export function deleteCookie(headers: Headers, name: string, opts: CookieOptions = {}): void {
  setCookie(headers, name, "", { ...opts, maxAge: 0 });
}
