import { HttpError, page } from "@/lib/fresh/mod.ts";
import { RelativeTime } from "@/components/RelativeTime.tsx";
import { WordDiff } from "@/components/WordDiff.tsx";
import { getMessage } from "@/lib/community/messages/read.ts";
import { getQuestion } from "@/lib/community/questions/read.ts";
import { listRevisions, type RevisionRecord } from "@/lib/community/revisions.ts";
import { Head } from "@/lib/fresh/head.ts";
import { define } from "@/lib/state.ts";

interface Data {
  question: { id: string; title: string };
  /** Set when showing one message's revisions (`?message=`). */
  message: { id: string; authorName: string } | null;
  revisions: RevisionRecord[];
  now: number;
}

/**
 * /questions/:id/revisions: every version of the question, newest first, each with a word
 * diff against the one before it; `?message=<id>` shows one answer's or reply's versions.
 */
export const handler = define.handlers<Data>({
  async GET(ctx) {
    const { kv, now } = ctx.state.services;
    const q = await getQuestion(kv, ctx.params.id);
    if (!q) throw new HttpError(404);
    const messageId = ctx.url.searchParams.get("message");
    if (messageId !== null) {
      const m = await getMessage(kv, messageId);
      if (!m || m.questionId !== q.id) throw new HttpError(404);
      return page({
        question: { id: q.id, title: q.title },
        message: { id: m.id, authorName: m.author.name },
        revisions: await listRevisions(kv, "message", m, { content: m.content }),
        now: now(),
      });
    }
    return page({
      question: { id: q.id, title: q.title },
      message: null,
      revisions: await listRevisions(kv, "question", q, {
        title: q.title,
        description: q.description,
        tags: q.tags,
      }),
      now: now(),
    });
  },
});

function Change(
  { name, before, after }: { name: string; before: string | null; after: string },
) {
  // The original: its text as it was, no diff.
  if (before === null) {
    return after
      ? (
        <div class="revision-field">
          <h3>{name}</h3>
          <p class="diff-text">{after}</p>
        </div>
      )
      : null;
  }
  if (before === after) return null;
  return (
    <div class="revision-field">
      <h3>{name}</h3>
      <p class="diff-text">
        <WordDiff before={before} after={after} />
      </p>
    </div>
  );
}

/** The revisions page. */
export default define.page<typeof handler>(function Revisions({ data }) {
  const { question: q, message, revisions, now } = data;
  const qHref = `/questions/${encodeURIComponent(q.id)}`;
  const what = message ? `${message.authorName}'s post` : "this question";
  return (
    <>
      <Head>
        <title>{`Revisions · ${q.title} · Parley`}</title>
        <meta name="robots" content="noindex" />
      </Head>
      <div class="page-head">
        <h1>Revisions of {what}</h1>
      </div>
      <p>
        <a href={message ? `${qHref}#${encodeURIComponent(message.id)}` : qHref}>
          Back to “{q.title}”
        </a>
      </p>
      <ol class="list revisions" data-testid="revisions">
        {revisions.map((r, i) => {
          const prev = revisions[i + 1];
          const text = (x: RevisionRecord, k: "title" | "description" | "content") => x[k] ?? "";
          const tags = (x: RevisionRecord) => (x.tags ?? []).join(" ");
          const was = (f: (x: RevisionRecord) => string) => (prev ? f(prev) : null);
          return (
            <li key={r.revision} class="card revision" data-testid="revision">
              <h2 class="revision-heading">
                {r.revision === 1 ? "Original" : `Revision ${r.revision}`}
                {i === 0 && revisions.length > 1 && (
                  <>
                    {" "}
                    <span class="muted">(current)</span>
                  </>
                )}
              </h2>
              <p class="muted">
                {r.revision === 1 ? "Posted" : "Edited"} by {r.editedBy.name},{" "}
                <RelativeTime ms={r.editedAt} now={now} />
              </p>
              {message
                ? (
                  <Change
                    name="Text"
                    before={was((x) => text(x, "content"))}
                    after={text(r, "content")}
                  />
                )
                : (
                  <>
                    <Change
                      name="Title"
                      before={was((x) => text(x, "title"))}
                      after={text(r, "title")}
                    />
                    <Change
                      name="Details"
                      before={was((x) => text(x, "description"))}
                      after={text(r, "description")}
                    />
                    <Change name="Tags" before={was(tags)} after={tags(r)} />
                  </>
                )}
              {prev && r.revision !== 1 &&
                (message
                  ? text(prev, "content") === text(r, "content")
                  : text(prev, "title") === text(r, "title") &&
                    text(prev, "description") === text(r, "description") &&
                    tags(prev) === tags(r)) &&
                <p class="muted">No visible change.</p>}
            </li>
          );
        })}
      </ol>
    </>
  );
});
