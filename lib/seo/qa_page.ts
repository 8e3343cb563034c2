/**
 * Structured data of a question page (docs/interface.md#discoverable-pages): a
 * schema.org `QAPage` whose `mainEntity` is the `Question` with its answers on this page,
 * typed with `schema-dts`. Only what everyone may see goes in (the page may be rendered
 * for an author or moderator who sees hidden posts): deleted and hidden answers are left
 * out, and a page that shows no answer has no `QAPage` (Google's rules want at least one).
 * Answers written by a model — the AI expert panel, or a member's AI avatar — say so: their
 * `author` is named as AI and `creditText` reads "AI-written …".
 *
 * @module
 */
import type { Answer, Organization, Person, QAPage, WithContext } from "schema-dts";
import { messagePath } from "../community/messages/model.ts";

/** What the structured data needs of a question. */
export interface QaQuestion {
  id: string;
  title: string;
  description: string;
  author: { id: string; name: string };
  createdAt: number;
  editedAt: number | null;
  upvotes: number;
  downvotes: number;
  answerCount: number;
  acceptedMessageId: string | null;
}

/** What the structured data needs of a message of the page. */
export interface QaMessage {
  id: string;
  author: { id: string; name: string };
  authorType: "user" | "agent" | "ai";
  content: string;
  createdAt: number;
  upvotes: number;
  downvotes: number;
  replyTo?: string;
  deleted?: true;
  via?: "ai-avatar";
}

/** The `creditText` of an answer a model wrote. */
export const AI_CREDIT_EXPERT = "AI-written: Parley's AI expert panel, not a person";
/** The `creditText` of an answer a member's AI avatar wrote on its own. */
export const AI_CREDIT_AVATAR = "AI-written: a member's AI avatar";

/** Most characters of a post's `text`; longer posts are cut there, with "…". */
export const QA_TEXT_MAX = 5000;

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * A post's `text`: its whole Markdown source, code included (an excerpt drops code blocks,
 * which left a code-only answer with no text at all), cut at {@link QA_TEXT_MAX} without
 * splitting a surrogate pair.
 */
function postText(markdown: string): string {
  const text = markdown.trim();
  if (text.length <= QA_TEXT_MAX) return text;
  let end = QA_TEXT_MAX - 1;
  if (/[\uD800-\uDBFF]/.test(text[end - 1])) end--;
  return text.slice(0, end).trimEnd() + "…";
}

function personOf(origin: string, author: { id: string; name: string }): Person {
  // A deleted account's kept post ("deleted user") has no profile to link.
  if (!author.id) return { "@type": "Person", name: author.name };
  return {
    "@type": "Person",
    name: author.name,
    url: `${origin}/u/${encodeURIComponent(author.id)}`,
  };
}

function answerOf(origin: string, questionId: string, m: QaMessage): Answer {
  const ai = m.authorType === "ai";
  const author: Person | Organization = ai
    ? { "@type": "Organization", name: `${m.author.name} (AI expert, Parley)` }
    : personOf(origin, m.author);
  const answer: Answer = {
    "@type": "Answer",
    text: postText(m.content),
    dateCreated: iso(m.createdAt),
    upvoteCount: m.upvotes,
    downvoteCount: m.downvotes,
    // The thread's page holding the answer, which need not be the first.
    url: `${origin}${messagePath(questionId, m.id)}`,
    author,
  };
  if (ai) return { ...answer, creditText: AI_CREDIT_EXPERT };
  if (m.via === "ai-avatar") return { ...answer, creditText: AI_CREDIT_AVATAR };
  return answer;
}

/**
 * The `QAPage` of a question page on `origin`: the question with the page's visible
 * top-level answers — the accepted one as `acceptedAnswer`, the others as
 * `suggestedAnswer` — or null when the page shows none. `hidden` names messages the viewer
 * sees but the public does not.
 *
 * @example
 * ```ts
 * const data = qaPage("https://p.example", {
 *   id: "q1", title: "Ferns?", description: "How often?", author: { id: "u1", name: "Ada" },
 *   createdAt: 0, editedAt: null, upvotes: 2, downvotes: 0, answerCount: 1, acceptedMessageId: null,
 * }, [{
 *   id: "m1", author: { id: "u2", name: "Bo" }, authorType: "user", content: "Weekly.",
 *   createdAt: 1, upvotes: 0, downvotes: 0,
 * }], []);
 * data?.mainEntity; // the Question, with "Weekly." as its suggestedAnswer
 * ```
 */
export function qaPage(
  origin: string,
  q: QaQuestion,
  messages: readonly QaMessage[],
  hidden: readonly string[],
): WithContext<QAPage> | null {
  const url = `${origin}/questions/${encodeURIComponent(q.id)}`;
  const withheld = new Set(hidden);
  const answers = messages.filter((m) => !m.replyTo && !m.deleted && !withheld.has(m.id));
  if (answers.length === 0) return null;
  const accepted = answers.find((m) => m.id === q.acceptedMessageId);
  const suggested = answers.filter((m) => m !== accepted);
  return {
    "@context": "https://schema.org",
    "@type": "QAPage",
    url,
    mainEntity: {
      "@type": "Question",
      name: q.title,
      text: postText(q.description || q.title),
      answerCount: q.answerCount,
      upvoteCount: q.upvotes,
      downvoteCount: q.downvotes,
      dateCreated: iso(q.createdAt),
      ...(q.editedAt !== null ? { dateModified: iso(q.editedAt) } : {}),
      author: personOf(origin, q.author),
      ...(accepted ? { acceptedAnswer: answerOf(origin, q.id, accepted) } : {}),
      ...(suggested.length
        ? { suggestedAnswer: suggested.map((m) => answerOf(origin, q.id, m)) }
        : {}),
    },
  };
}

/**
 * `data` as JSON safe inside `<script type="application/ld+json">`: `<`, `>`, `&` and
 * the line separators are escaped, so no text of a post can close the script.
 *
 * @example
 * ```ts
 * jsonLdText({ name: "</script>" }); // '{"name":"\\u003c/script\\u003e"}'
 * ```
 */
export function jsonLdText(data: unknown): string {
  return JSON.stringify(data)
    .replaceAll("<", "\\u003c")
    .replaceAll(">", "\\u003e")
    .replaceAll("&", "\\u0026")
    .replaceAll("\u2028", "\\u2028")
    .replaceAll("\u2029", "\\u2029");
}
