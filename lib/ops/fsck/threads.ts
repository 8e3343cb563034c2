/**
 * Threads (lib/community/messages/, message_lifecycle.ts, answer_order.ts, accept.ts):
 * every message in its thread has its rows — the thread row, its answer row or its reply
 * row under its top-level answer, its author's activity row while it is live, its row in
 * the vote order at its score — and every such row names a message that is there; each
 * question's message, answer and hidden counters equal its thread's rows (the hidden ones:
 * its rows whose messages are hidden, by kind — lib/community/messages/model.ts
 * `hiddenCountersOf`), each answer's reply counter its replies, each message's direct-reply
 * counter the replies to it; an accepted answer is a live answer of its question that is
 * not hidden, and an accept set aside (`hidden_accepted_answers`) names a hidden one while
 * the question has no accepted answer (lib/moderation/public_counts.ts).
 *
 * What is "in the thread": a live message, and a deleted one whose thread row is still
 * there (a "[deleted]" placeholder, kept because it had replies when it was deleted);
 * a deleted message without its thread row has disappeared (its rows go, its counters
 * moved down). The thread row itself is what tells the two apart: the record alone does
 * not (a placeholder whose replies all disappeared stays a placeholder).
 *
 * Repairs derive rows from the records (a live message's lost rows are written back, the
 * rows of a message that is not in its thread are removed) and the counters from the rows.
 * A message whose question does not exist is reported, never removed. A reply is filed
 * under the top-level answer its chain of parents reaches (`rootAnswerOf`, as the write
 * did); a reply whose parent is missing (a backup that caught the reply and not the
 * message it answers) is filed under where its chain stops, as the app would file it.
 *
 * @module
 */
import { invertTime } from "../../kv/atomic.ts";
import { counterValue } from "../../kv/atomic.ts";
import { keys } from "../../kv/keys.ts";
import type { ScorePointer } from "../../community/answer_order.ts";
import {
  countsTowardStats,
  type MessageRecord,
  rootAnswerOf,
} from "../../community/messages/model.ts";
import { defineInvariant } from "./invariant.ts";
import { runPass, type Verdict } from "./pass.ts";
import { withTally } from "./tally.ts";
import { isLive } from "./targets.ts";

const NAME = "threads";

/** The problems this invariant reports. */
export const THREAD_PROBLEMS = {
  malformed: "malformed message record",
  noQuestion: "message of a question that does not exist (not repaired)",
  noThreadRow: "live message missing from its thread",
  noAnswerRow: "answer in its thread missing from the question's answers",
  noReplyRow: "reply in its thread missing from its answer's replies",
  goneRow: "answer or reply row of a message no longer in its thread",
  noAuthorRow: "live message missing from its author's activity",
  staleAuthorRow: "activity row of a message that is deleted or not its author's",
  legacyAuthorRow:
    "activity row not holding its question's id (older stores held {id, questionId}, the shape before compact storage 4)",
  noScoreRow:
    "answer missing from the vote order, or filed under a score its votes do not add up to",
  goneScoreRow: "vote-order row of an answer that is gone or filed elsewhere",
  strayThreadRow: "thread row that names no message of that question",
  strayAnswerRow: "answers row that names no answer of that question in its thread",
  strayReplyRow: "replies row that names no reply under that answer in its thread",
  badAccepted: "accepted answer that is not a live answer of the question",
  hiddenAccepted:
    "accepted answer that is hidden, not set aside (`hidden_accepted_answers`) until its restore",
  badAside:
    "accept set aside that names no hidden answer of the question, or beside an accepted answer",
  messageCounter: "message counter differs from the thread's rows",
  hiddenCounter:
    "hidden-message counter (all, answers, AI answers or AI replies) differs from the hidden messages in the thread",
  answerCounter: "answer counter differs from the question's answer rows",
  replyCounter: "reply counter differs from the answer's reply rows",
  directCounter: "direct-reply counter differs from the replies to the message",
} as const;

const COUNTERS: Record<string, string> = {
  message_counts: THREAD_PROBLEMS.messageCounter,
  hidden_message_counts: THREAD_PROBLEMS.hiddenCounter,
  hidden_answer_counts: THREAD_PROBLEMS.hiddenCounter,
  hidden_ai_answer_counts: THREAD_PROBLEMS.hiddenCounter,
  hidden_ai_reply_counts: THREAD_PROBLEMS.hiddenCounter,
  answer_counts: THREAD_PROBLEMS.answerCounter,
  ai_answer_counts: THREAD_PROBLEMS.answerCounter,
  ai_reply_counts: THREAD_PROBLEMS.replyCounter,
  reply_counts: THREAD_PROBLEMS.replyCounter,
  direct_reply_counts: THREAD_PROBLEMS.directCounter,
};

function isMessage(v: unknown): v is MessageRecord {
  const m = v as MessageRecord | null;
  return !!m && typeof m.id === "string" && typeof m.questionId === "string" &&
    Number.isFinite(m.createdAt) && typeof m.author?.id === "string";
}

function threadRow(m: MessageRecord): Deno.KvKey {
  return keys.questionMessage(m.questionId, m.createdAt, m.id);
}

function authorRow(m: MessageRecord): Deno.KvKey {
  return keys.messageByAuthor(m.author.id, invertTime(m.createdAt), m.id);
}

function scoreRow(m: MessageRecord, score: number): Deno.KvKey {
  return keys.answerByScore(m.questionId, 0 - score, m.createdAt, m.id);
}

/** A row that must (`want`) or must not be there, as a verdict when it is not so. */
function rowVerdict(
  row: Deno.KvEntryMaybe<unknown>,
  want: boolean,
  value: unknown,
  missing: string,
  extra: string,
): Verdict[] {
  const there = row.versionstamp !== null;
  if (want && !there) return [{ kind: missing, fix: (op) => op.check(row).set(row.key, value) }];
  if (!want && there) return [{ kind: extra, fix: (op) => op.check(row).delete(row.key) }];
  return [];
}

/** Judge one message record against its rows (the module doc says which it needs). */
async function judgeMessage(
  kv: Deno.Kv,
  m: MessageRecord,
  got: Deno.KvEntryMaybe<unknown>[],
): Promise<Verdict[]> {
  const [question, thread, author, answerRow, pointer, built, up, down] = got;
  if (question.versionstamp === null) return [{ kind: THREAD_PROBLEMS.noQuestion }];
  const live = isLive(m);
  const out: Verdict[] = [];
  if (live && thread.versionstamp === null) {
    out.push({ kind: THREAD_PROBLEMS.noThreadRow, fix: (op) => op.set(thread.key, m.id) });
  }
  const inThread = live || thread.versionstamp !== null;
  out.push(
    ...rowVerdict(
      author,
      live && countsTowardStats(m),
      m.questionId,
      THREAD_PROBLEMS.noAuthorRow,
      THREAD_PROBLEMS.staleAuthorRow,
    ),
  );
  if (m.replyTo) {
    const root = await rootAnswerOf(kv, m);
    const row = await kv.get(keys.answerReply(root, m.createdAt, m.id));
    out.push(
      ...rowVerdict(row, inThread, m.id, THREAD_PROBLEMS.noReplyRow, THREAD_PROBLEMS.goneRow),
    );
    return out;
  }
  out.push(
    ...rowVerdict(answerRow, inThread, m.id, THREAD_PROBLEMS.noAnswerRow, THREAD_PROBLEMS.goneRow),
  );
  if (built.versionstamp === null) return out; // an older thread, ranked from its counters
  const p = pointer.value as ScorePointer | null;
  const filed = typeof p === "number" ? p : null;
  if (inThread) {
    const score = counterValue(up.value) - counterValue(down.value);
    const row = filed === score ? await kv.get(scoreRow(m, score)) : null;
    if (filed !== score || row?.versionstamp === null) {
      out.push({
        kind: THREAD_PROBLEMS.noScoreRow,
        fix: (op) => {
          if (row) op.check(row);
          if (filed !== null && filed !== score) op.delete(scoreRow(m, filed));
          op.set(pointer.key, score satisfies ScorePointer).set(scoreRow(m, score), true);
        },
      });
    }
  } else if (filed !== null) {
    out.push({
      kind: THREAD_PROBLEMS.goneScoreRow,
      key: scoreRow(m, filed),
      fix: (op) => op.delete(scoreRow(m, filed)).set(pointer.key, "removed" satisfies ScorePointer),
    });
  }
  return out;
}

/**
 * Thread rows, answer order, accepted answers and thread counters (see the module doc).
 *
 * @example
 * ```ts
 * import { FsckReport } from "./report.ts";
 * declare const kv: Deno.Kv;
 * const report = new FsckReport();
 * await threadsInvariant.check(kv, report); // or .repair(kv, report)
 * report.clean;
 * ```
 */
export const threadsInvariant = defineInvariant(
  NAME,
  "every message in its thread has its thread, answer/reply, activity and vote-order rows and every row its message; thread counters; accepted answers",
  (kv, report, repair) =>
    withTally({}, async (tally) => {
      for (const prefix of Object.keys(COUNTERS)) await tally.snapshot(kv, [prefix]);
      await runPass<unknown>(kv, report, repair, {
        invariant: NAME,
        label: "messages",
        prefix: ["messages"],
        reads: (e) => {
          const m = e.value;
          if (!isMessage(m)) return [];
          const common = [keys.question(m.questionId), threadRow(m), authorRow(m)];
          if (m.replyTo) return common;
          return [
            ...common,
            keys.questionAnswer(m.questionId, m.createdAt, m.id),
            keys.answerScore(m.id),
            keys.answersByScoreBuilt(m.questionId),
            keys.voteCount("message", m.id, "up"),
            keys.voteCount("message", m.id, "down"),
          ];
        },
        judge: (e, got) =>
          isMessage(e.value) && e.value.id === e.key[1]
            ? judgeMessage(kv, e.value, got)
            : [{ kind: THREAD_PROBLEMS.malformed }],
      });
      await runPass<unknown>(kv, report, repair, {
        invariant: NAME,
        label: "thread rows",
        prefix: ["question_messages"],
        reads: (e) => typeof e.value === "string" ? [keys.message(e.value)] : [],
        judge: (e, [m]) => {
          const [, q, createdAt, id] = e.key;
          const r = m?.value;
          const fine = isMessage(r) && r.id === id && e.value === id && r.questionId === q &&
            r.createdAt === createdAt;
          return fine ? [] : [{
            kind: THREAD_PROBLEMS.strayThreadRow,
            removes: true,
            fix: (op) => op.delete(e.key),
          }];
        },
        counted: async (_e, [m], standing) => {
          if (!standing) return;
          const r = m.value as MessageRecord;
          await tally.add(keys.messageCount(r.questionId));
          if (r.hiddenAt !== undefined) await tally.add(keys.hiddenMessageCount(r.questionId));
          if (r.replyTo) await tally.add(keys.directReplyCount(r.replyTo));
          if (r.replyTo && r.authorType === "ai") {
            await tally.add(keys.aiReplyCount(r.questionId));
            if (r.hiddenAt !== undefined) await tally.add(keys.hiddenAiReplyCount(r.questionId));
          }
        },
      });
      await runPass<unknown>(kv, report, repair, {
        invariant: NAME,
        label: "answer rows",
        prefix: ["question_answers"],
        reads: (e) => {
          const [, q, createdAt, id] = e.key;
          return typeof id === "string" && typeof q === "string" && typeof createdAt === "number"
            ? [keys.message(id), keys.questionMessage(q, createdAt, id)]
            : [];
        },
        judge: (e, [m, thread]) => {
          const [, q, createdAt, id] = e.key;
          const r = m?.value;
          const fine = isMessage(r) && !r.replyTo && r.id === id && r.questionId === q &&
            r.createdAt === createdAt && (isLive(r) || thread.versionstamp !== null);
          return fine ? [] : [{
            kind: THREAD_PROBLEMS.strayAnswerRow,
            removes: true,
            fix: (op) => op.delete(e.key),
          }];
        },
        counted: async (e, [m], standing) => {
          if (!standing) return;
          // The AI expert panel's top-level messages are counted apart: they are not answers.
          const r = m?.value as MessageRecord | null;
          const ai = r?.authorType === "ai";
          const q = e.key[1] as string;
          await tally.add(ai ? keys.aiAnswerCount(q) : keys.answerCount(q));
          if (r?.hiddenAt !== undefined) {
            await tally.add(ai ? keys.hiddenAiAnswerCount(q) : keys.hiddenAnswerCount(q));
          }
        },
      });
      await runPass<unknown>(kv, report, repair, {
        invariant: NAME,
        label: "reply rows",
        prefix: ["answer_replies"],
        reads: (e) => typeof e.key[3] === "string" ? [keys.message(e.key[3])] : [],
        judge: async (e, [m]) => {
          const [, root, createdAt, id] = e.key;
          const r = m?.value;
          let fine = isMessage(r) && !!r.replyTo && r.id === id && r.createdAt === createdAt;
          if (fine && !isLive(r)) {
            const thread = await kv.get(threadRow(r as MessageRecord));
            fine = thread.versionstamp !== null;
          }
          fine &&= await rootAnswerOf(kv, r as MessageRecord) === root;
          return fine ? [] : [{
            kind: THREAD_PROBLEMS.strayReplyRow,
            removes: true,
            fix: (op) => op.delete(e.key),
          }];
        },
        counted: async (e, _got, standing) => {
          if (standing) await tally.add(keys.replyCount(e.key[1] as string));
        },
      });
      await runPass<unknown>(kv, report, repair, {
        invariant: NAME,
        label: "activity rows",
        prefix: ["messages_by_author"],
        reads: (e) => typeof e.key[3] === "string" ? [keys.message(e.key[3])] : [],
        judge: (e, [m]) => {
          const r = m?.value;
          const fine = isMessage(r) && isLive(r) && countsTowardStats(r) &&
            r.author.id === e.key[1] && invertTime(r.createdAt) === e.key[2];
          if (!fine) {
            return [{
              kind: THREAD_PROBLEMS.staleAuthorRow,
              removes: true,
              fix: (op) => op.delete(e.key),
            }];
          }
          // Older stores: `{id, questionId}` (the migration's step of shape 4 rewrites it).
          return e.value === r.questionId ? [] : [{
            kind: THREAD_PROBLEMS.legacyAuthorRow,
            fix: (op) => op.check(e).set(e.key, r.questionId),
          }];
        },
      });
      await runPass<unknown>(kv, report, repair, {
        invariant: NAME,
        label: "vote order",
        prefix: ["answers_by_score"],
        reads: (e) =>
          typeof e.key[4] === "string" ? [keys.message(e.key[4]), keys.answerScore(e.key[4])] : [],
        judge: (e, [m, pointer]) => {
          const [, q, rank, createdAt, id] = e.key;
          const r = m?.value;
          const p = pointer?.value;
          const fine = isMessage(r) && !r.replyTo && r.id === id && r.questionId === q &&
            r.createdAt === createdAt && typeof p === "number" && 0 - p === rank;
          return fine ? [] : [{
            kind: THREAD_PROBLEMS.goneScoreRow,
            removes: true,
            fix: (op) => op.delete(e.key),
          }];
        },
      });
      await runPass<unknown>(kv, report, repair, {
        invariant: NAME,
        label: "accepted answers",
        prefix: ["accepted_answers"],
        reads: (e) => typeof e.value === "string" ? [keys.message(e.value)] : [],
        judge: (e, [m]) => {
          const r = m?.value;
          const answer = isMessage(r) && isLive(r) && !r.replyTo && r.questionId === e.key[1];
          if (answer && r.hiddenAt === undefined) return [];
          // Hidden (by a hide from before accepts were set aside): set it aside now.
          if (answer) {
            return [{
              kind: THREAD_PROBLEMS.hiddenAccepted,
              removes: true,
              fix: (op) => op.delete(e.key).set(keys.hiddenAcceptedAnswer(r.questionId), r.id),
            }];
          }
          return [{
            kind: THREAD_PROBLEMS.badAccepted,
            removes: true,
            fix: (op) => op.delete(e.key),
          }];
        },
      });
      await runPass<unknown>(kv, report, repair, {
        invariant: NAME,
        label: "accepts set aside",
        prefix: ["hidden_accepted_answers"],
        reads: (e) =>
          typeof e.value === "string" && typeof e.key[1] === "string"
            ? [keys.message(e.value), keys.acceptedAnswer(e.key[1])]
            : [],
        judge: (e, [m, accepted]) => {
          const r = m?.value;
          const fine = isMessage(r) && isLive(r) && r.hiddenAt !== undefined && !r.replyTo &&
            r.questionId === e.key[1] && accepted.versionstamp === null;
          return fine ? [] : [{
            kind: THREAD_PROBLEMS.badAside,
            removes: true,
            fix: (op) => op.delete(e.key),
          }];
        },
      });
      await tally.settle(kv, report, {
        invariant: NAME,
        kind: (key) => COUNTERS[key[0] as string],
        repair,
      });
    }),
);
