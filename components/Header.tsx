import { Avatar } from "@/components/Avatar.tsx";
import { ThemeForm } from "@/components/ThemeForm.tsx";
import NotificationBell from "@/islands/NotificationBell.tsx";
import type { AppState } from "@/lib/state.ts";

const NAV = [
  { href: "/", label: "Questions" },
  { href: "/ask", label: "Ask" },
  { href: "/debate", label: "Debate" },
  { href: "/docs/api", label: "API" },
];

/** Where to come back after signing in from this page (a failed sign-in's error dropped). */
function signInReturnTo(url: URL): string {
  return url.searchParams.has("error") ? url.pathname : url.pathname + url.search;
}

/** Site header: brand, navigation, theme, and the sign-in link or the user's menu. */
export function Header({ state, url }: { state: AppState; url: URL }) {
  const path = url.pathname;
  const user = state.user;
  const current = (href: string) =>
    href === "/" ? path === "/" : path === href || path.startsWith(href + "/");
  return (
    <header class="site-header">
      <a class="skip-link" href="#main">Skip to content</a>
      <div class="container">
        <a class="brand" href="/">
          Par<span>ley</span>
        </a>
        {state.services.config.localMode && (
          <span class="badge-local" title="Local sign-in and an offline stand-in model">
            Local mode
          </span>
        )}
        <nav class="nav" aria-label="Main">
          {NAV.map((n) => (
            <a key={n.href} href={n.href} aria-current={current(n.href) ? "page" : undefined}>
              {n.label}
            </a>
          ))}
          {state.moderation && (
            <a href="/mod" aria-current={current("/mod") ? "page" : undefined}>
              Moderation
              {state.moderation.waiting > 0 && (
                <>
                  <span class="visually-hidden">({state.moderation.waiting} waiting)</span>
                  <span class="badge unread-badge" aria-hidden="true" data-testid="mod-waiting">
                    {state.moderation.waiting}
                  </span>
                </>
              )}
            </a>
          )}
        </nav>
        <div class="header-tools">
          <ThemeForm theme={state.theme} path={path + url.search} />
          {user
            ? (
              <div class="user-menu" data-testid="user-menu">
                <NotificationBell unread={0} current={path === "/notifications"} />
                <a class="user-chip" href="/profile" title="Your profile">
                  <Avatar name={user.name} src={user.image} testId="user-avatar" />
                  <span data-testid="user-name" dir="auto">{user.name}</span>
                </a>
                <form method="post" action="/api/auth/logout" class="signout-form">
                  <button type="submit" class="btn btn-small">Sign out</button>
                </form>
              </div>
            )
            : (
              <a
                class="btn btn-small btn-primary"
                href={path === "/signin" || path.startsWith("/auth/")
                  ? "/signin"
                  : `/signin?${new URLSearchParams({ returnTo: signInReturnTo(url) })}`}
              >
                Sign in
              </a>
            )}
        </div>
      </div>
    </header>
  );
}
