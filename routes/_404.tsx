import { Head } from "@/lib/fresh/head.ts";
import { define } from "@/lib/state.ts";

/** Not-found page; a private debate's link says it is private instead. */
export default define.page(function NotFound({ url, data, state }) {
  if ((data as { privateDebate?: boolean } | undefined)?.privateDebate) {
    return (
      <>
        <Head>
          <title>Private debate · Parley</title>
        </Head>
        <div class="empty" data-testid="private-debate">
          <h1>This debate is private</h1>
          <p>Its owner keeps their debate archive private, so only they can open this link.</p>
          <p>
            {state.user ? <a class="btn btn-primary" href="/debate">Start your own debate</a> : (
              <a
                class="btn btn-primary"
                href={`/signin?${new URLSearchParams({ returnTo: url.pathname })}`}
              >
                Sign in if it is yours
              </a>
            )}
          </p>
        </div>
      </>
    );
  }
  return (
    <>
      <Head>
        <title>Not found · Parley</title>
      </Head>
      <div class="empty">
        <h1>Page not found</h1>
        <p>
          Nothing lives at{" "}
          <code>{url.pathname}</code>. It may have been moved, or the link is mistyped.
        </p>
        <p>
          <a class="btn btn-primary" href="/">Back to the questions</a>
        </p>
      </div>
    </>
  );
});
