import { AuthorLine } from "@/components/AuthorLine.tsx";
import { HiddenBanner } from "@/components/HiddenBanner.tsx";
import { EditedNote } from "@/components/Lifecycle.tsx";
import { Markdown } from "@/components/Markdown.tsx";
import { ago } from "@/components/RelativeTime.tsx";
import type { MessageViewBase as MessageView } from "@/lib/community/messages/model.ts";
import { cachedComponent, type CachedPart } from "@/lib/fresh/cached_component.ts";
import { expertById } from "@/lib/panel/experts.ts";

/** What a message's body shows; nothing here depends on who views it. */
export interface MessageBodyProps {
  m: MessageView;
  questionId: string;
  /** The message it replies to (its id and author's name), for a reply. */
  parent: { id: string; name: string } | null;
  /** Nested deeper than the page indents: says whom it replies to. */
  deep: boolean;
  /** Hidden by a moderator (shown to its author and moderators only, with a banner). */
  hidden: boolean;
  now: number;
}

/** A message's author line, reply hint, hidden banner, text and edit note (no islands). */
function MessageBodyParts({ m, questionId, parent, deep, hidden, now }: MessageBodyProps) {
  return (
    <>
      <AuthorLine
        author={m.author}
        createdAt={m.createdAt}
        createdBy={m.createdBy}
        now={now}
        verb={parent ? "replied" : "answered"}
        via={m.via}
        standIn={m.standIn}
        expertTitle={m.expertId ? expertById(m.expertId)?.title ?? "" : undefined}
        draftedWithAi={m.draftedWithAi}
      />
      {parent && deep && (
        <p class="hint">
          In reply to <a href={`#${encodeURIComponent(parent.id)}`} dir="auto">{parent.name}</a>
        </p>
      )}
      {hidden && <HiddenBanner what="answer" />}
      <Markdown text={m.content} idPrefix={`${m.id}-`} newAccount={m.newAccount} />
      <EditedNote questionId={questionId} messageId={m.id} editedAt={m.editedAt} now={now} />
    </>
  );
}

/**
 * The same markup for every viewer until a prop or the age texts change: its key is its
 * props, with the clock counted through the ages it shows (lib/fresh/cached_component.ts).
 */
const BODY: CachedPart<MessageBodyProps> = {
  name: "message-body",
  tag: "div",
  attrs: { class: "message-body" },
  derive: {
    now: ({ m, now }) => [ago(m.createdAt, now), m.editedAt === null ? "" : ago(m.editedAt, now)],
  },
};

/** A message's body in its `<div class="message-body">`, rendered once per content. */
export function MessageBody(props: MessageBodyProps) {
  return cachedComponent(BODY, MessageBodyParts, props);
}
