import { Head } from "@/lib/fresh/head.ts";
import { HttpError } from "@/lib/fresh/mod.ts";
import { define } from "@/lib/state.ts";

/** Headings of the client errors a page shows (others: the generic one). */
const CLIENT_HEADINGS: Record<number, string> = {
  400: "This link is not valid",
  403: "You can't see this",
  429: "Too many requests",
};

/**
 * Error page. A client error met while opening a page (a stale page link, a private page)
 * says what was wrong in the error's own sentence — written for people, as every
 * `HttpError` message is; a server failure shows no details.
 */
export default define.page(function ErrorPage({ error }) {
  if (error instanceof HttpError && error.status < 500) {
    const heading = CLIENT_HEADINGS[error.status] ?? "This page can't be shown";
    return (
      <>
        <Head>
          <title>{heading} · Parley</title>
        </Head>
        <div class="empty">
          <h1>{heading}</h1>
          <p>{error.message}</p>
          <p>
            <a class="btn btn-primary" href="/">Back to the questions</a>
          </p>
        </div>
      </>
    );
  }
  return (
    <>
      <Head>
        <title>Something went wrong · Parley</title>
      </Head>
      <div class="empty">
        <h1>Something went wrong</h1>
        <p>The server could not finish this request. It has been logged; please try again.</p>
        <p>
          <a class="btn" href="/">Back to the questions</a>
        </p>
      </div>
    </>
  );
});
