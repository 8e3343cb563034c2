/**
 * Which redirect URIs an app may register and use (the MCP authorization spec and OAuth
 * 2.1 §1.5, RFC 8252 §7.3): `https`, or plain `http` only on a loopback address, where a
 * native app listens on a port of its choosing. No fragment, no credentials.
 *
 * @module
 */

/** Hosts a plain-http redirect URI may name (RFC 8252 §7.3; `localhost` as clients use it). */
export const LOOPBACK_HOSTS: readonly string[] = ["127.0.0.1", "localhost", "[::1]"];

/** Longest redirect URI accepted (characters). */
export const REDIRECT_URI_MAX = 2000;

function isLoopbackHttp(url: URL): boolean {
  return url.protocol === "http:" && LOOPBACK_HOSTS.includes(url.hostname);
}

/**
 * Why `uri` cannot be a redirect URI, or null when it can.
 *
 * @example
 * ```ts
 * redirectUriProblem("http://127.0.0.1:33418/callback"); // null
 * redirectUriProblem("https://app.example/cb"); // null
 * redirectUriProblem("http://app.example/cb"); // "…must use https, or http on a loopback address…"
 * ```
 */
export function redirectUriProblem(uri: string): string | null {
  if (uri.length > REDIRECT_URI_MAX) {
    return `redirect URIs must be at most ${REDIRECT_URI_MAX} characters`;
  }
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return "a redirect URI is not an absolute URL";
  }
  if (url.hash || uri.includes("#")) return "a redirect URI must not have a fragment";
  if (url.username || url.password) return "a redirect URI must not carry credentials";
  if (url.protocol === "https:" && url.hostname) return null;
  if (isLoopbackHttp(url)) return null;
  return "redirect URIs must use https, or http on a loopback address (127.0.0.1, localhost or [::1])";
}

/**
 * True when `presented` is one of the app's `registered` redirect URIs: the same string,
 * or — for a loopback http URI — the same but for the port, which a native app picks when
 * it starts (RFC 8252 §7.3).
 *
 * @example
 * ```ts
 * redirectUriMatches(["http://127.0.0.1/cb"], "http://127.0.0.1:5173/cb"); // true
 * redirectUriMatches(["https://app.example/cb"], "https://app.example/cb?x=1"); // false
 * ```
 */
export function redirectUriMatches(registered: readonly string[], presented: string): boolean {
  if (registered.includes(presented)) return true;
  let url: URL;
  try {
    url = new URL(presented);
  } catch {
    return false;
  }
  if (!isLoopbackHttp(url)) return false;
  const withoutPort = (u: URL) => {
    const copy = new URL(u);
    copy.port = "";
    return copy.href;
  };
  const wanted = withoutPort(url);
  return registered.some((r) => {
    try {
      const reg = new URL(r);
      return isLoopbackHttp(reg) && withoutPort(reg) === wanted;
    } catch {
      return false;
    }
  });
}
