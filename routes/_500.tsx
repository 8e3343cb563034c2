import { Head } from "@/lib/fresh/head.ts";
import { define } from "@/lib/state.ts";

/** Error page: no details of the failure reach the client. */
export default define.page(function ServerError() {
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
