/**
 * One step of a panel job (./job.ts): one expert's message — ask the model with the
 * thread so far, then store the result under the job's fence and a check on the job
 * record, so a holder that lost the job (or missed a task appended meanwhile) writes
 * nothing.
 *
 * @module
 */
import { isPublic } from "../community/visibility.ts";
import { getMessage } from "../community/messages/read.ts";
import { appendEvents, type StoredEvent } from "../kv/event_log.ts";
import { commit } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import type { JobContext } from "../jobs/runner.ts";
import type { MessageRecord } from "../community/messages/model.ts";
import { addMessage } from "../community/messages/write.ts";
import type { QuestionRecord } from "../community/questions/model.ts";
import { type Expert, expertAuthorId } from "./experts.ts";
import { panelMetrics } from "./metrics.ts";
import {
  PANEL_CALL_MS,
  PANEL_UNAVAILABLE,
  type PanelJob,
  panelLog,
  type PanelServices,
  type PanelTask,
} from "./model.ts";
import { expertPrompt } from "./prompts.ts";

/**
 * The expert's message on question `q` (replying to message `replyToId` when set), or
 * null when the model could not answer or answered nothing; a failure is logged, never
 * thrown (the step is then skipped quietly).
 *
 * @example
 * ```ts
 * import { EXPERTS } from "./experts.ts";
 * import type { JobContext } from "@/lib/jobs/runner.ts";
 * import type { QuestionRecord } from "@/lib/community/questions/model.ts";
 * declare const services: import("./model.ts").PanelServices;
 * declare const ctx: JobContext;
 * declare const q: QuestionRecord;
 * const text = await askExpert(services, ctx, EXPERTS[0], q, undefined);
 * ```
 */
export async function askExpert(
  services: PanelServices,
  ctx: Pick<JobContext, "signal">,
  expert: Expert,
  q: QuestionRecord,
  replyToId: string | undefined,
): Promise<string | null> {
  const { kv, llm } = services;
  if (!llm) return null;
  try {
    const thread = await recentThread(kv, q.id);
    const parent = replyToId ? await getMessage(kv, replyToId) : null;
    panelMetrics.modelCalls++;
    const text = await llm.chat(expertPrompt(expert, q, thread, parent), {
      temperature: 0.7,
      maxTokens: 300,
      timeoutMs: PANEL_CALL_MS,
      signal: ctx.signal,
    });
    return text.trim().slice(0, 4000) || null;
  } catch (err) {
    console.warn(`Panel ${q.id}: ${expert.id} could not answer`, String(err));
    return null;
  }
}

/** The last eight public messages of a question's thread (none deleted or hidden), oldest first. */
async function recentThread(kv: Deno.Kv, questionId: string): Promise<MessageRecord[]> {
  const ids: string[] = [];
  for await (
    const e of kv.list<string>({ prefix: ["question_messages", questionId] }, {
      reverse: true,
      limit: 8,
    })
  ) ids.unshift(e.value);
  const got = await kv.getMany<MessageRecord[]>(ids.map((id) => keys.message(id)));
  return got.map((g) => g.value).filter((m): m is MessageRecord => !!m && isPublic(m));
}

/**
 * Store one step's result under the job's check (its fencing token): the expert's message
 * through `addMessage` — like every message it reaches the open question page — with the
 * job's progress, the `message` event and a completed round's `discussionRounds` in the
 * message's own op; or, when there is no message to write, a quiet `skipped` event. A
 * lost check (the job was claimed elsewhere, or a task appended) writes nothing: the
 * caller's loop reads the job again.
 *
 * @example
 * ```ts
 * import type { JobContext } from "@/lib/jobs/runner.ts";
 * import type { QuestionRecord } from "@/lib/community/questions/model.ts";
 * import type { PanelJob, PanelServices, PanelTask } from "./model.ts";
 * declare const services: PanelServices;
 * declare const ctx: JobContext;
 * declare const held: Deno.KvEntryMaybe<PanelJob>;
 * declare const task: PanelTask;
 * declare const q: QuestionRecord;
 * await writeStep(services, ctx, held, task, undefined, null, undefined, q); // skipped
 * ```
 */
export async function writeStep(
  services: PanelServices,
  ctx: JobContext,
  held: Deno.KvEntryMaybe<PanelJob>,
  task: PanelTask,
  expert: Expert | undefined,
  content: string | null,
  replyToId: string | undefined,
  q: QuestionRecord,
): Promise<void> {
  const { kv } = services;
  const job = held.value!;
  const log = panelLog(job.questionId);
  const progress = (op: Deno.AtomicOperation, events: StoredEvent[], written: string | null) => {
    ctx.fence(op).check(held);
    const seq = appendEvents(op, log, job.seq, events);
    op.set(
      keys.panelJob(job.questionId),
      { ...job, step: job.step + 1, written: [...job.written, written], seq } satisfies PanelJob,
    );
  };
  // The round is complete when the next task belongs to another round (or none is left).
  const next = job.tasks[job.step + 1];
  const round = task.round !== undefined && (!next || next.round !== task.round)
    ? task.round
    : undefined;
  let replyTo = replyToId;
  while (content && expert) {
    const r = await addMessage(kv, {
      questionId: q.id,
      author: { id: expertAuthorId(expert.id), name: expert.name, avatar: null },
      content,
      replyTo,
      createdBy: "system",
      authorType: "ai",
      expertId: expert.id,
      standIn: services.llm?.standIn,
    }, {
      now: services.now(),
      idPrefix: "msg-expert-",
      notify: "nobody",
      authorFollows: false,
      updateQuestion: round === undefined
        ? undefined
        : (cur) => cur.discussionRounds < round ? { ...cur, discussionRounds: round } : null,
      within: (op, message) =>
        progress(op, [{
          type: "message",
          data: {
            message: {
              ...message,
              editedAt: null,
              upvotes: 0,
              downvotes: 0,
              likedBy: [],
              dislikedBy: [],
            },
            expertTitle: expert.title,
          },
        }], message.id),
    });
    panelMetrics.commits++;
    // Written; or lost the job / tasks appended meanwhile: the loop reads the job again.
    if (r.ok || r.reason === "check_failed") return;
    // The message it answers is gone (deleted or hidden): answer the question instead.
    if (r.reason === "reply_not_found" && replyTo) {
      replyTo = undefined;
      continue;
    }
    break; // the question was hidden or deleted meanwhile: the step is skipped
  }
  await commit(kv, (op) =>
    progress(op, [{
      type: "skipped",
      data: { expertId: task.expertId, message: PANEL_UNAVAILABLE },
    }], null));
  panelMetrics.commits++;
}
