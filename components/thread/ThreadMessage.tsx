import { AcceptedMark } from "@/components/Lifecycle.tsx";
import { FlagAction } from "@/components/PostTools.tsx";
import { VoteAndFavorite } from "@/components/VoteAndFavorite.tsx";
import MessageForm from "@/islands/MessageForm.tsx";
import PostActions from "@/islands/PostActions.tsx";
import ShareButton from "@/islands/ShareButton.tsx";
import type { MessageViewBase as MessageView } from "@/lib/community/messages/model.ts";
import type { ViewedThreadPage as QuestionThreadPage } from "@/lib/community/thread.ts";
import type { VoteType } from "@/lib/community/votes.ts";
import { CONTENT_MAX } from "@/lib/input_limits.ts";
import { MessageBody } from "./MessageBody.tsx";
import { MoreReplies } from "./Pagers.tsx";
import type { ReplyTree } from "./tree.ts";

/** Deepest visual nesting of replies; deeper replies line up at this depth. */
export const MAX_DEPTH = 4;

/** What every message of one thread page shares: the page's data and its viewer. */
export interface ThreadView {
  question: QuestionThreadPage;
  tree: ReplyTree;
  /** The viewer's id (null signed out) and whether they moderate. */
  viewerId: string | null;
  moderator: boolean;
  /** Where the vote buttons send a signed-out viewer (null when signed in). */
  signInHref: string | null;
  /** The viewer's votes and favorites, by target id. */
  votes: Record<string, VoteType>;
  favorites: Record<string, boolean>;
  /** Ids of the posts hidden by a moderator that this viewer still sees. */
  hidden: string[];
  /** The message the viewer just posted (`?posted=`), highlighted. */
  posted: string | null;
  url: URL;
  now: number;
}

/**
 * One answer or reply: its body, its vote, reply, share and flag actions, the author's
 * and moderators' edit and delete, then its replies (indented up to {@link MAX_DEPTH}).
 */
export function ThreadMessage(
  { m, depth, view }: { m: MessageView; depth: number; view: ThreadView },
) {
  const { question: q, tree, viewerId } = view;
  const replies = tree.children.get(m.id) ?? [];
  const parent = m.replyTo ? tree.byId.get(m.replyTo) : undefined;
  const label = `${m.author.name}'s ${parent ? "reply" : "answer"}`;
  const own = viewerId === m.author.id;
  const accepted = !parent && q.acceptedMessageId === m.id;
  // The asker accepts a top-level answer; an AI expert's message is not an answer (only one
  // accepted before that rule can still be unaccepted).
  const acceptable = !parent && viewerId === q.author.id && (m.authorType !== "ai" || accepted);
  const nested = replies.length > 0 && (
    depth < MAX_DEPTH
      ? (
        <ol class="replies">
          {replies.map((r) => <ThreadMessage key={r.id} m={r} depth={depth + 1} view={view} />)}
        </ol>
      )
      : replies.map((r) => <ThreadMessage key={r.id} m={r} depth={depth} view={view} />)
  );
  if (m.deleted) {
    return (
      <li class="message" id={m.id} data-testid="message">
        <article class="card message-card deleted" aria-label="Deleted post">
          <p class="muted">[deleted]</p>
        </article>
        {nested}
      </li>
    );
  }
  return (
    <li class="message" id={m.id} data-testid="message">
      <article
        class={`card message-card${view.posted === m.id ? " just-posted" : ""}${
          accepted ? " accepted" : ""
        }`}
      >
        {accepted && <AcceptedMark />}
        <MessageBody
          m={m}
          questionId={q.id}
          parent={parent ? { id: parent.id, name: parent.author.name } : null}
          deep={depth >= MAX_DEPTH}
          hidden={view.hidden.includes(m.id)}
          now={view.now}
        />
        <div class="row actions">
          <VoteAndFavorite
            targetType="message"
            targetId={m.id}
            upvotes={m.upvotes}
            downvotes={m.downvotes}
            vote={view.votes[m.id] ?? null}
            favorited={view.favorites[m.id] ?? false}
            signInHref={view.signInHref}
            label={label}
            own={own}
          />
          {viewerId !== null && (
            <MessageForm
              questionId={q.id}
              replyTo={m.id}
              replyToName={m.author.name}
              maxLength={CONTENT_MAX}
            />
          )}
          <ShareButton questionId={q.id} messageId={m.id} title={q.title} label={label} />
          <FlagAction
            viewerId={viewerId}
            authorId={m.author.id}
            targetType="message"
            targetId={m.id}
            label={label}
          />
        </div>
        {(own || view.moderator || acceptable) && (
          <PostActions
            kind="message"
            id={m.id}
            questionId={q.id}
            label={own ? `your ${parent ? "reply" : "answer"}` : label}
            content={own ? m.content : undefined}
            maxLength={CONTENT_MAX}
            canEdit={own}
            canDelete={own || view.moderator}
            accepted={acceptable ? accepted : undefined}
          />
        )}
      </article>
      {nested}
      {depth === 1 && <MoreReplies q={q} answerId={m.id} url={view.url} />}
    </li>
  );
}
