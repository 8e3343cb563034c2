import { HttpError } from "@/lib/fresh/mod.ts";
import type { SessionUser } from "@/lib/state.ts";

/** The message of the 404 a private debate's link answers with (routes/debates/[id].tsx). */
export const PRIVATE_DEBATE = "This debate is private";

/** The message of the 404 a private roundtable's link answers with (routes/roundtables/[id].tsx). */
export const PRIVATE_ROUNDTABLE = "This roundtable is private";

/** True when `error` is the 404 of a private debate or roundtable, which `_404` shows as such. */
export function isPrivateDebate(error: unknown): boolean {
  return error instanceof HttpError && error.status === 404 &&
    (error.message === PRIVATE_DEBATE || error.message === PRIVATE_ROUNDTABLE);
}

/**
 * What a private debate's link shows instead of the debate: that it is private, and a way
 * on (start one's own, or sign in if it is one's own).
 */
export function PrivateDebate(
  { user, url, roundtable = false }: { user: SessionUser | null; url: URL; roundtable?: boolean },
) {
  return (
    <div class="empty" data-testid="private-debate">
      <h1>{roundtable ? PRIVATE_ROUNDTABLE : PRIVATE_DEBATE}</h1>
      <p>Its owner keeps their debate archive private, so only they can open this link.</p>
      <p>
        {user
          ? roundtable
            ? <a class="btn btn-primary" href="/roundtables">Host your own roundtable</a>
            : <a class="btn btn-primary" href="/debate">Start your own debate</a>
          : (
            <a
              class="btn btn-primary"
              href={`/signin?${new URLSearchParams({ returnTo: url.pathname })}`}
            >
              Sign in if it is yours
            </a>
          )}
      </p>
    </div>
  );
}
