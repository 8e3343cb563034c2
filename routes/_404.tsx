import { isPrivateDebate, PRIVATE_ROUNDTABLE, PrivateDebate } from "@/components/PrivateDebate.tsx";
import { Head } from "@/lib/fresh/head.ts";
import { define } from "@/lib/state.ts";

/** Not-found page; a private debate's link says it is private instead. */
export default define.page(function NotFound({ url, error, state }) {
  if (isPrivateDebate(error)) {
    const roundtable = (error as Error).message === PRIVATE_ROUNDTABLE;
    return (
      <>
        <Head>
          <title>{roundtable ? "Private roundtable · Parley" : "Private debate · Parley"}</title>
        </Head>
        <PrivateDebate user={state.user} url={url} roundtable={roundtable} />
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
