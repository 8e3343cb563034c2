/**
 * Messages, the write: {@link addMessage} is the one way a message is written — by people
 * and their agents ({@link postMessage}), the AI avatar (lib/avatar) and the expert panel
 * (lib/panel). A message is written with its thread index, its author's activity index,
 * the question's message count, the author's `answers` statistic (./model.ts
 * `countsTowardStats`), the question's version (the open question page's event stream)
 * and its notifications, in one atomic op. The only other entry,
 * {@link writeFirstMessage}, puts the same rows into the op that creates a question
 * together with its first message.
 *
 * @module
 */
import { inSearchDocument, markForReindex, reindexSoon } from "../../search/reindex.ts";
import { afterCommit } from "../../kv/after_commit.ts";
import {
  addToCounter,
  checksAddedBy,
  checksHold,
  invertTime,
  updateAtomically,
} from "../../kv/atomic.ts";
import { isLookupId, keys } from "../../kv/keys.ts";
import { indexNewAnswer } from "../answer_order.ts";
import { budgetOf, type PostingLimits, type RateLimited, spendInOp } from "../../limits/posting.ts";
import type { HitLog } from "../../limits/window.ts";
import { type AfterMessage, afterMessage, messageInOp } from "../../notifications/hooks.ts";
import { authorOf } from "../../profile/profiles.ts";
import { recordEarnedBadges } from "../../profile/stats.ts";
import type { Restricted } from "../../moderation/sanctions.ts";
import { admissionFrom, admissionKeys, budgetsOf } from "../../limits/admission.ts";
import type { QuestionRecord } from "../questions/model.ts";
import { bumpQuestion } from "../questions/version.ts";
import { invalidateReads } from "../read_cache.ts";
import {
  buildMessage,
  countsTowardStats,
  type MessageOptions,
  type MessageRecord,
  type NewMessage,
  rootAnswerOf,
  topLevelCounter,
} from "./model.ts";

/**
 * Add a message's record, index rows, counters and the question's version bump to `op`. A
 * top-level answer joins the question's answer index; a reply joins its top-level answer's
 * reply index (`rootId`, the answer at the top of its reply chain).
 */
function writeMessage(
  op: Deno.AtomicOperation,
  m: MessageRecord,
  rootId?: string,
  searchable = true,
): void {
  if (m.replyTo) {
    const root = rootId ?? m.replyTo;
    op.set(keys.answerReply(root, m.createdAt, m.id), m.id);
    addToCounter(op, keys.replyCount(root), 1);
    addToCounter(op, keys.directReplyCount(m.replyTo), 1);
    // An AI expert's reply is counted apart too: the page's "replies" are people's.
    if (m.authorType === "ai") addToCounter(op, keys.aiReplyCount(m.questionId), 1);
  } else {
    op.set(keys.questionAnswer(m.questionId, m.createdAt, m.id), m.id);
    // An AI expert's message sits in the thread like an answer but is not one: it is
    // counted apart, so "answered", "Unanswered" and answer counts mean people's answers.
    addToCounter(op, topLevelCounter(m), 1);
    indexNewAnswer(op, m); // its `sort=votes` row (../answer_order.ts)
  }
  op.set(keys.message(m.id), m)
    .set(keys.questionMessage(m.questionId, m.createdAt, m.id), m.id);
  addToCounter(op, keys.messageCount(m.questionId), 1);
  bumpQuestion(op, m.questionId); // the open question page hears of it
  // Its text is indexed after the commit, when it is among the messages search reads.
  if (searchable) markForReindex(op, m.questionId, m.createdAt);
  if (!countsTowardStats(m)) return;
  // The key names the message; the value, its question (the activity page reads both).
  op.set(keys.messageByAuthor(m.author.id, invertTime(m.createdAt), m.id), m.questionId);
  // Every post a person wrote, deleted ones included (their account's deletion finds it).
  op.set(keys.authored(m.author.id, "message", m.id), true);
  addToCounter(op, keys.userStat(m.author.id, "answers"), 1);
}

/**
 * Write a question's first message (a top-level answer) into the op that creates the
 * question — the participation endpoint's `ask_new`: the same rows as {@link addMessage}
 * and the version bump. Nobody is notified: the question is new, its one follower is the
 * asker, who wrote it. Call it with the same record on every retry of that op.
 *
 * @example
 * ```ts
 * import { buildMessage } from "@/lib/community/messages/model.ts";
 * import type { Author } from "@/lib/community/questions/model.ts";
 * declare const kv: Deno.Kv;
 * declare const author: Author;
 * const op = kv.atomic();
 * const m = buildMessage({ questionId: "q-1", author, content: "…", createdBy: "agent" });
 * writeFirstMessage(op, m);
 * ```
 */
export function writeFirstMessage(op: Deno.AtomicOperation, m: MessageRecord): void {
  if (m.replyTo) throw new Error("A question's first message is an answer, not a reply");
  writeMessage(op, m);
}

/** Why a message could not be added. */
export type AddMessageResult =
  | { ok: true; message: MessageRecord }
  | { ok: false; reason: "question_not_found" | "reply_not_found" }
  | RateLimited
  | Restricted;

/** A check added by {@link AddMessageOptions.within} no longer holds: nothing was written. */
export interface ChecksFailed {
  ok: false;
  reason: "check_failed";
}

/** Options of {@link addMessage} and {@link postMessage}. */
export interface AddMessageOptions extends MessageOptions {
  /**
   * Rewrite the question record in the same op, under a check (e.g. discussion rounds);
   * returning null leaves it alone (and unchecked).
   */
  updateQuestion?: (q: QuestionRecord) => QuestionRecord | null;
  /** The author's posting limits (`config.limits`); absent = unlimited. */
  limits?: PostingLimits;
  /** Extra mutations committed in the same atomic op (e.g. an idempotency record). */
  extra?: (op: Deno.AtomicOperation, message: MessageRecord) => void;
  /**
   * Who hears of the message besides the open question page, which always does:
   * `"followers"` (default) — a reply notifies its parent's author, an answer the asker and
   * the question's followers; `"nobody"` — an AI expert's message (the asker watches the
   * panel live on the page).
   */
  notify?: "followers" | "nobody";
  /**
   * The author starts following the question (default true: people who answer do). False
   * for an AI avatar, whose owner never saw the question, and an AI expert, who is nobody's
   * account.
   */
  authorFollows?: boolean;
}

/**
 * Options of an {@link addMessage} made by a background job: `within` adds checks and
 * mutations to the message's own atomic op (a lease token checked, the job's progress
 * set). When a check it added no longer holds, nothing is written and the outcome is
 * `check_failed`; other lost checks (the author's rate-limit log, the question under
 * `updateQuestion`) are retried as usual.
 */
export interface FencedMessageOptions extends AddMessageOptions {
  within: (op: Deno.AtomicOperation, message: MessageRecord) => void;
}

/**
 * Add a message to a question (the one write path for messages; see the module doc).
 * `replyTo` must name a live message of the same question. With `updateQuestion`, the
 * question record is rewritten in the same op under a check; without it, nothing on the
 * question is checked, so answers on a busy question never conflict. After the commit,
 * the feed's read cache is dropped, the author's badges are re-derived and the followers
 * are notified; none of that can fail the call.
 *
 * @example
 * ```ts
 * import type { Author } from "@/lib/community/questions/model.ts";
 * declare const author: Author;
 * declare const kv: Deno.Kv;
 * declare const questionId: string;
 * const r = await addMessage(kv, { questionId, author, content: "…", createdBy: "user" });
 * if (r.ok) console.log(r.message.id);
 *
 * // A background job: the message commits only while the job still holds its lease.
 * declare const lease: Deno.KvEntryMaybe<unknown>;
 * const step = await addMessage(kv, { questionId, author, content: "…", createdBy: "system" }, {
 *   within: (op, m) => op.check(lease).set(["job", questionId], { last: m.id }),
 * });
 * if (!step.ok && step.reason === "check_failed") console.log("lost the lease");
 * ```
 */
export function addMessage(
  kv: Deno.Kv,
  input: NewMessage,
  opts?: AddMessageOptions & { within?: undefined },
): Promise<AddMessageResult>;
export function addMessage(
  kv: Deno.Kv,
  input: NewMessage,
  opts: FencedMessageOptions,
): Promise<AddMessageResult | ChecksFailed>;
export async function addMessage(
  kv: Deno.Kv,
  input: NewMessage,
  opts: AddMessageOptions & { within?: FencedMessageOptions["within"] } = {},
): Promise<AddMessageResult | ChecksFailed> {
  if (!isLookupId(input.questionId)) {
    return { ok: false, reason: "question_not_found" };
  }
  const message = buildMessage(input, opts);
  const notify = (opts.notify ?? "followers") === "followers";
  const authorFollows = opts.authorFollows ?? true;
  // The author's `messages` budget is spent in the message's own atomic op.
  const budget = budgetOf(opts.limits, "messages", input.author.id);
  let after: AfterMessage | null = null;
  let searchable = true;
  let callerChecks: Deno.AtomicCheck[] = [];
  const result = await updateAtomically<AddMessageResult | ChecksFailed>(async () => {
    // A retry after a lost check: if it was the caller's, its state moved on — say so.
    if (callerChecks.length > 0 && !(await checksHold(kv, callerChecks))) {
      return { op: null, result: { ok: false, reason: "check_failed" } };
    }
    // One read (KV's most, 10 keys): the question, the parent, the author's hourly log,
    // their sanction and standing, and a new account's daily log; beside it, the first
    // messages of the thread, which are all its search document reads.
    const [entries, inDocument] = await Promise.all([
      kv.getMany([
        keys.question(input.questionId),
        keys.message(input.replyTo && input.replyTo.length <= 200 ? input.replyTo : "\u0000none"),
        budget?.key ?? keys.rateLimitLog("none", "none"),
        ...admissionKeys(input.author.id),
        keys.rateLimitLog("post_new_messages", input.author.id),
      ]),
      inSearchDocument(kv, message),
    ]);
    searchable = inDocument;
    const q = entries[0] as Deno.KvEntryMaybe<QuestionRecord>;
    const parent = entries[1] as Deno.KvEntryMaybe<MessageRecord>;
    const log = entries[2] as Deno.KvEntryMaybe<HitLog>;
    // A silenced or suspended author posts nothing, by any way in (docs/interface.md#sanctions).
    const admission = admissionFrom(entries.slice(3, 9), opts.limits, message.createdAt);
    if (!admission.ok) return { op: null, result: admission };
    if (!q.value || q.value.deletedAt !== undefined || q.value.hiddenAt !== undefined) {
      return { op: null, result: { ok: false, reason: "question_not_found" } };
    }
    if (
      input.replyTo &&
      (parent.value?.questionId !== input.questionId || parent.value.deletedAt !== undefined ||
        parent.value.hiddenAt !== undefined)
    ) {
      return { op: null, result: { ok: false, reason: "reply_not_found" } };
    }
    const rootId = parent.value ? await rootAnswerOf(kv, parent.value) : undefined;
    const op = kv.atomic();
    const refused = budget && spendInOp(op, log, budget, message.createdAt);
    if (refused) return { op: null, result: refused };
    // A new account also spends its daily budget, in the same op (docs/interface.md#new-accounts).
    for (const daily of budgetsOf(opts.limits, "messages", input.author.id, admission.newAccount)) {
      const over = spendInOp(op, entries[9] as Deno.KvEntryMaybe<HitLog>, daily, message.createdAt);
      if (over) return { op: null, result: over };
    }
    if (opts.limits) {
      // Its links carry rel="ugc nofollow" when a new account writes it.
      if (admission.newAccount) message.newAccount = true;
      else delete message.newAccount;
    }
    const updated = opts.updateQuestion?.(q.value);
    if (updated) op.check(q).set(keys.question(q.value.id), updated);
    writeMessage(op, message, rootId, searchable);
    opts.extra?.(op, message);
    if (opts.within) callerChecks = checksAddedBy(op, (o) => opts.within!(o, message));
    after = await messageInOp(kv, op, message, q.value, parent.value, rootId, {
      authorFollows,
      notify,
    });
    return { op, result: { ok: true, message } };
  });
  if (result.ok) {
    // After the commit: nothing here may fail the call (the message exists).
    await afterCommit("message caches and badges", async () => {
      invalidateReads(kv); // message counts in the feed
      if (searchable) await reindexSoon(kv, message.questionId); // its text becomes searchable
      // Prolific; an uncounted message moved no statistic.
      if (countsTowardStats(message)) {
        await recordEarnedBadges(kv, message.author.id, message.createdAt);
      }
    });
    // Followers hear of a new answer (bounded batches; cannot fail the call).
    if (after) {
      await afterCommit("answer notifications", () => afterMessage(kv, after!, message.createdAt));
    }
  }
  return result;
}

/** A message as a user (or their agent) posts it: the author is looked up from `userId`. */
export type PostedMessage = Omit<NewMessage, "author"> & { userId: string };

/** A posted message, or why not: the expected failures of {@link addMessage}, or no author. */
export type PostMessageResult = AddMessageResult | { ok: false; reason: "no_author" };

/**
 * Post a message as a user or their agent: the author snapshot is taken from the user's
 * profile (`no_author` when there is none), then the message is added as by
 * {@link addMessage}.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const r = await postMessage(kv, {
 *   userId: "u1",
 *   questionId: "q-abc",
 *   content: "Use KV.",
 *   createdBy: "user",
 * });
 * if (!r.ok) console.log(r.reason); // "no_author" | "question_not_found" | "reply_not_found"
 * ```
 */
export async function postMessage(
  kv: Deno.Kv,
  { userId, ...input }: PostedMessage,
  opts: AddMessageOptions & { within?: undefined } = {},
): Promise<PostMessageResult> {
  const author = await authorOf(kv, userId);
  if (!author) return { ok: false, reason: "no_author" };
  return await addMessage(kv, { ...input, author }, opts);
}
