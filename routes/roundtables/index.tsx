import { page } from "@/lib/fresh/mod.ts";
import { signInHref } from "@/components/SignInPrompt.tsx";
import { RoundtableItem } from "@/components/RoundtableItem.tsx";
import RoundtableStart from "@/islands/RoundtableStart.tsx";
import { EXPERTS } from "@/lib/panel/experts.ts";
import { listPublicRoundtables } from "@/lib/roundtables/access.ts";
import type { RoundtableRecord } from "@/lib/roundtables/model.ts";
import { listUserRoundtables } from "@/lib/roundtables/store.ts";
import { Head } from "@/lib/fresh/head.ts";
import { PageMeta } from "@/lib/seo/page_meta.tsx";
import { define } from "@/lib/state.ts";

/** Roundtables per list. */
const LIST_LIMIT = 20;

interface Data {
  signedIn: boolean;
  mine: RoundtableRecord[];
  open: RoundtableRecord[];
  now: number;
}

export const handler = define.handlers<Data>({
  async GET(ctx) {
    const { kv, now } = ctx.state.services;
    const user = ctx.state.user;
    const [mine, open] = await Promise.all([
      user ? listUserRoundtables(kv, user.id, now(), LIST_LIMIT) : Promise.resolve([]),
      listPublicRoundtables(kv, now(), LIST_LIMIT),
    ]);
    return page({ signedIn: !!user, mine, open, now: now() });
  },
});

/** A list of roundtables, each linking to its page. */
function RoundtableList(
  { items, now, testId, empty }: {
    items: RoundtableRecord[];
    now: number;
    testId: string;
    empty: string;
  },
) {
  if (items.length === 0) return <p class="empty" data-testid={`${testId}-empty`}>{empty}</p>;
  return (
    <ul class="list debate-history" data-testid={testId}>
      {items.map((r) => <RoundtableItem key={r.id} r={r} now={now} testId="roundtable-item" />)}
    </ul>
  );
}

/**
 * /roundtables: start a roundtable (signed in), yours, and the public ones. Signed out
 * there is no form to fill in vain: the page says a roundtable needs signing in.
 */
export default define.page<typeof handler>(function RoundtablesPage({ data, url }) {
  return (
    <>
      <Head>
        <title>Roundtables · Parley</title>
      </Head>
      <PageMeta description="AI experts discuss a topic in rounds while you host: interject, direct questions, and read the minutes." />
      <div class="page-head">
        <h1>Roundtables</h1>
        <a class="btn" href="/debates">Public debates</a>
      </div>
      <p class="muted">
        Three to five AI experts discuss your topic: an opening round, then rounds in which each
        answers another's point. You host: interject, or ask one expert to answer you next. The
        minutes record where they agree, where they differ and each one's position. Everything the
        experts write is AI-written.
      </p>
      {data.signedIn
        ? (
          <RoundtableStart
            experts={EXPERTS.map((e) => ({ id: e.id, name: e.name, title: e.title }))}
          />
        )
        : (
          <section
            class="card stack"
            aria-labelledby="roundtable-signin-title"
            data-testid="roundtable-signin-hint"
          >
            <h2 id="roundtable-signin-title">Sign in to host a roundtable</h2>
            <p>
              A roundtable runs on Parley's language model and is kept with your debates, so hosting
              one needs an account. Public roundtables are listed below.
            </p>
            <p class="row">
              <a class="btn btn-primary" href={signInHref(url)}>Sign in to host</a>
            </p>
          </section>
        )}
      {data.signedIn && (
        <section aria-labelledby="mine-title">
          <h2 id="mine-title">Your roundtables</h2>
          <RoundtableList
            items={data.mine}
            now={data.now}
            testId="my-roundtables"
            empty="Your roundtables will be listed here."
          />
        </section>
      )}
      <section aria-labelledby="public-title">
        <h2 id="public-title">Public roundtables</h2>
        <RoundtableList
          items={data.open}
          now={data.now}
          testId="public-roundtables"
          empty="No public roundtables yet."
        />
      </section>
    </>
  );
});
