/**
 * The AI expert panel's work (DESIGN.md §9), a job of the runner (lib/jobs/runner.ts):
 * one record per question, `["panel_jobs", questionId]`, holding a queue of tasks (one
 * expert message each) and its progress. Every step commits under the job's fence and a
 * check on this record, so a stalled holder whose job another instance claimed cannot
 * write, and a task appended meanwhile is seen before the job ends.
 *
 * A step is: store a `typing` event, ask the model, then in one atomic op store the
 * message, the job's progress, the `message` event and, when a round completes, the
 * question's `discussionRounds`. A model failure stores a quiet `skipped` event, never a
 * half-written message. A process that dies mid-step leaves its lease to lapse; any
 * instance's resume pass claims the job and redoes the step from scratch.
 *
 * Tasks come from three places: a new question's panel (experts chosen by topic, 2
 * rounds, the second replying to the first), an invitation, and a person's reply to an
 * expert. Invitations and replies append to the same job (reopening a finished one).
 *
 * KV writes of one 3-expert, 2-round panel: 1 (with the question) + 1 selection +
 * 6 × (typing + message) + 1 done = 15 commits when uncontended. Measured with 100 panels
 * started at once (`BENCH_ONLY=panel`): ~14 commits a panel, since budget spends are
 * group-committed ({@link spendPanelBudget}); with each spend retrying its own
 * check-and-set on the shared daily key it was ~30. Every commit retries on
 * `database is locked` (several instances on one SQLite file).
 *
 * @module
 */
import { z } from "zod";
import { perStore } from "../cache.ts";
import { appendEvents, type EventLogKeys, type StoredEvent } from "../kv/event_log.ts";
import { commit } from "../kv/atomic.ts";
import { type GroupCommitter, groupCommitter, submit } from "../kv/group_commit.ts";
import { keys } from "../kv/keys.ts";
import { type JobContext, type JobKind, type JobRunner, jobRunner } from "../jobs/runner.ts";
import { jsonAnswer } from "../llm/json.ts";
import type { ChatMessage, LlmClient } from "../llm/types.ts";
import type { MessageRecord } from "../community/messages/model.ts";
import { addMessage } from "../community/messages/write.ts";
import type { QuestionRecord } from "../community/questions/model.ts";
import {
  type Expert,
  expertAuthorId,
  expertById,
  EXPERTS,
  PANEL_SIZE,
  pickExpertsByTopic,
} from "./experts.ts";

/** The job kind's name (the job id is the question id). */
export const PANEL_JOB = "panel";
/** Deadline of one expert's model call. */
export const PANEL_CALL_MS = 20_000;
/** Rounds of a new question's panel. */
export const PANEL_ROUNDS = 2;
/** The line shown when the panel (or one expert) could not write. */
export const PANEL_UNAVAILABLE = "The panel could not join this discussion.";

/** One expert message to write. */
export interface PanelTask {
  expertId: string;
  /** 1 or 2 for the panel's rounds; absent for invitations and replies. */
  round?: number;
  /** Reply to this message id… */
  replyTo?: string;
  /** …or to the message written by task number `replyToTask` of this job. */
  replyToTask?: number;
  /** Why: the panel, an invitation, or a person's reply. */
  cause: "panel" | "invite" | "reply";
}

/** The job record. */
export interface PanelJob {
  questionId: string;
  /** True until the panel's experts were chosen (new questions only). */
  select: boolean;
  tasks: PanelTask[];
  /** Tasks done (written or skipped). */
  step: number;
  /** Message id of each task done (null when skipped). */
  written: (string | null)[];
  status: "running" | "done";
  /** Last event seq. */
  seq: number;
}

/** What a panel run needs. */
export interface PanelServices {
  kv: Deno.Kv;
  llm?: LlmClient;
  now: () => number;
  config: { expertPanelPerDay: number };
}

/** The panel's event log keys for a question. */
export function panelLog(questionId: string): EventLogKeys {
  return { event: (n) => keys.panelEvent(questionId, n), head: keys.panelEventHead(questionId) };
}

/** Counters of model calls and commits (the bench reads them). */
export const panelMetrics = { modelCalls: 0, commits: 0 };

/**
 * The rows of a new question's panel job, held by this instance, to add to the op that
 * creates the question; after the commit, {@link startPanel} runs it.
 *
 * @example
 * ```ts
 * import { jobRunner } from "@/lib/jobs/runner.ts";
 * declare const kv: Deno.Kv;
 * declare const op: Deno.AtomicOperation;
 * newPanelOps(op, "q-abc", jobRunner(kv));
 * ```
 */
export function newPanelOps(op: Deno.AtomicOperation, questionId: string, jobs: JobRunner): void {
  const job: PanelJob = {
    questionId,
    select: true,
    tasks: [],
    step: 0,
    written: [],
    status: "running",
    seq: 0,
  };
  op.set(keys.panelJob(questionId), job);
  jobs.newJobOps(op, PANEL_JOB, questionId);
}

/**
 * Run the panel job of a question this instance just created, outside the request. Never
 * throws (the question is committed; a resume pass runs a job that did not start here).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * await startPanel(kv, "q-abc");
 * ```
 */
export async function startPanel(kv: Deno.Kv, questionId: string): Promise<void> {
  await jobRunner(kv).adopt(PANEL_JOB, questionId).catch((err) =>
    console.error(`Panel ${questionId}: could not start here`, err)
  );
}

/**
 * Append tasks to a question's job (creating or reopening it) and claim it when free.
 * `guard` adds checks/mutations to the same op (e.g. the once-per-expert invitation row);
 * returns false when the op's checks failed.
 */
export async function addPanelTasks(
  services: PanelServices,
  questionId: string,
  tasks: PanelTask[],
  guard?: (op: Deno.AtomicOperation) => void,
): Promise<boolean> {
  const { kv } = services;
  const jobs = jobRunner(kv);
  for (let attempt = 0; attempt < 8; attempt++) {
    const [entry, held] = await kv.getMany<[PanelJob, unknown]>([
      keys.panelJob(questionId),
      keys.job(PANEL_JOB, questionId),
    ]);
    const cur = entry.value;
    // A job exists while the panel runs (its holder, or a resume pass, will see the new
    // tasks); none: this instance starts one.
    const start = held.versionstamp === null;
    const job: PanelJob = cur ? { ...cur, tasks: [...cur.tasks, ...tasks], status: "running" } : {
      questionId,
      select: false,
      tasks,
      step: 0,
      written: [],
      status: "running",
      seq: 0,
    };
    const res = await commit(kv, (op) => {
      op.check(entry).check(held).set(keys.panelJob(questionId), job);
      if (start) jobs.newJobOps(op, PANEL_JOB, questionId);
      guard?.(op);
    });
    panelMetrics.commits++;
    if (res.ok) {
      if (start) await jobs.adopt(PANEL_JOB, questionId);
      return true;
    }
    // A guard's check failed (not the job's): say so.
    const again = await kv.getMany([keys.panelJob(questionId), keys.job(PANEL_JOB, questionId)]);
    if (
      again[0].versionstamp === entry.versionstamp && again[1].versionstamp === held.versionstamp
    ) return false;
  }
  return false;
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** One request for a panel from a day's budget. */
interface BudgetSpend {
  seq: number;
  day: string;
  limit: number;
}

const DAY_KEY_TTL_MS = 2 * 86_400_000;
const spenders = perStore(budgetSpender);
let spendSeq = 0;

/**
 * Spend one panel from today's budget; false when none is left. Concurrent spends in this
 * process share one check-and-set of the day's count (lib/kv/group_commit.ts): a burst of
 * new questions measured ~15 budget commits a panel when each spend retried its own; now
 * a burst costs about one commit per group. The count is exact across instances: a group
 * whose check fails (another instance spent meanwhile) runs each spend alone through the
 * same check-and-set loop.
 */
async function spendPanelBudget(services: PanelServices): Promise<boolean> {
  const { kv, config } = services;
  return await submit(spenders(kv), {
    seq: ++spendSeq,
    day: dayOf(services.now()),
    limit: config.expertPanelPerDay,
  });
}

function budgetSpender(kv: Deno.Kv): GroupCommitter<BudgetSpend, boolean> {
  return groupCommitter<BudgetSpend, boolean>({
    kv,
    maxItems: 64,
    keyOf: (s) => String(s.seq),
    build: async (op, spends) => {
      // Normally one day; a group that straddles midnight reads both.
      const days = [...new Set(spends.map((s) => s.day))];
      const counts = await kv.getMany<number[]>(days.map(keys.panelDay));
      const used = new Map(days.map((d, i) => [d, counts[i].value ?? 0]));
      const answers = spends.map((s) => {
        const n = used.get(s.day)!;
        if (n >= s.limit) return false;
        used.set(s.day, n + 1);
        return true;
      });
      days.forEach((d, i) => {
        op.check(counts[i]);
        if (used.get(d) !== (counts[i].value ?? 0)) {
          op.set(keys.panelDay(d), used.get(d)!, { expireIn: DAY_KEY_TTL_MS });
        }
      });
      panelMetrics.commits++;
      return answers;
    },
    single: async (s) => {
      const key = keys.panelDay(s.day);
      for (let attempt = 0; attempt < 50; attempt++) {
        const cur = await kv.get<number>(key);
        const used = cur.value ?? 0;
        if (used >= s.limit) return false;
        const res = await commit(
          kv,
          (op) => op.check(cur).set(key, used + 1, { expireIn: DAY_KEY_TTL_MS }),
        );
        panelMetrics.commits++;
        if (res.ok) return true;
        await new Promise((r) => setTimeout(r, Math.random() * 20));
      }
      return false;
    },
  });
}

const Selection = z.object({ experts: z.array(z.string()).min(1).max(PANEL_SIZE) });

/** The panel for a question: model-assisted, the topic ranking as fallback. */
export async function chooseExperts(
  llm: LlmClient | undefined,
  q: QuestionRecord,
): Promise<Expert[]> {
  const text = `${q.title}\n${q.description}\n${q.tags.join(" ")}`;
  const fallback = pickExpertsByTopic(text);
  if (!llm) return fallback;
  try {
    panelMetrics.modelCalls++;
    const roster = EXPERTS.map((e) => `${e.id}: ${e.title} (${e.expertise.join(", ")})`).join("\n");
    const { value } = await jsonAnswer(
      llm,
      [
        {
          role: "system",
          content:
            `Pick the ${PANEL_SIZE} experts best placed to discuss a question. Experts:\n${roster}\n` +
            `Reply with JSON: {"experts": ["id", "id", "id"]}`,
        },
        { role: "user", content: `Topic: ${q.title}\n${q.description}`.slice(0, 2000) },
      ],
      Selection,
      { temperature: 0.2, maxTokens: 60, timeoutMs: PANEL_CALL_MS, fallback: { experts: [] } },
    );
    const picked = [...new Set(value.experts)].map(expertById).filter((e): e is Expert => !!e);
    for (const e of fallback) if (picked.length < PANEL_SIZE && !picked.includes(e)) picked.push(e);
    return picked.slice(0, PANEL_SIZE);
  } catch {
    return fallback;
  }
}

/** The prompt of one expert message. */
export function expertPrompt(
  expert: Expert,
  q: QuestionRecord,
  thread: MessageRecord[],
  replyTo: MessageRecord | null,
): ChatMessage[] {
  const recent = thread.slice(-8).map((m) => `${m.author.name}: ${m.content.slice(0, 600)}`)
    .join("\n");
  const task = replyTo
    ? `Reply to ${replyTo.author.name}, who wrote: "${replyTo.content.slice(0, 800)}". ` +
      `Agree or disagree with reasons, and add something new.`
    : `Answer the question from your field.`;
  return [
    {
      role: "system",
      content: `You are ${expert.name}, ${expert.title}. Your voice: ${expert.voice}. ` +
        `You sit on Parley's AI expert panel, clearly labelled as AI. Be concrete and honest ` +
        `about uncertainty; no greetings, no sign-off, never claim to be human.`,
    },
    {
      role: "user",
      content: `Topic: ${q.title}\n${q.description.slice(0, 1500)}\n\n` +
        (recent ? `Discussion so far:\n${recent}\n\n` : "") +
        `${task} Write 200 to 600 characters.`,
    },
  ];
}

/**
 * The expert panel job kind.
 *
 * @example
 * ```ts
 * import { jobRunner } from "@/lib/jobs/runner.ts";
 * declare const services: PanelServices;
 * jobRunner(services.kv).register(panelJobKind(services));
 * ```
 */
export function panelJobKind(services: PanelServices): JobKind {
  return {
    kind: PANEL_JOB,
    // An instance without a model leaves panels to others.
    canRun: () => services.llm !== undefined,
    run: (ctx) => runPanelJob(services, ctx),
    giveUp: async (ctx) => {
      const entry = await ctx.kv.get<PanelJob>(keys.panelJob(ctx.id));
      await commit(ctx.kv, (op) => {
        ctx.finish(op);
        if (!entry.value) return;
        const seq = appendEvents(op, panelLog(ctx.id), entry.value.seq, [
          { type: "skipped", data: { message: PANEL_UNAVAILABLE, reason: "interrupted" } },
          { type: "done", data: {} },
        ]);
        op.set(keys.panelJob(ctx.id), { ...entry.value, status: "done", seq } satisfies PanelJob);
      });
    },
  };
}

/** Run a panel job this process holds until its queue is empty, it is lost, or it fails. */
async function runPanelJob(services: PanelServices, ctx: JobContext): Promise<void> {
  const { kv } = services;
  const questionId = ctx.id;
  const log = panelLog(questionId);
  for (let guard = 0; guard < 100 && !ctx.signal.aborted; guard++) {
    const entry = await kv.get<PanelJob>(keys.panelJob(questionId));
    const job = entry.value;
    if (!job || job.status !== "running") return;
    const q = (await kv.get<QuestionRecord>(keys.question(questionId))).value;
    // Finishing is checked against the job as read: when a task was appended meanwhile (a
    // person replied to an expert just as the job ended), the commit fails and the loop
    // reads the job again and runs the new task instead of leaving it for the resumer.
    const end = async (events: { type: string; data: unknown }[]): Promise<boolean> => {
      const res = await commit(kv, (op) => {
        ctx.finish(op).check(entry);
        const seq = appendEvents(op, log, job.seq, events);
        op.set(keys.panelJob(questionId), { ...job, status: "done", seq } satisfies PanelJob);
      });
      panelMetrics.commits++;
      return res.ok;
    };
    if (!q || q.deletedAt !== undefined) {
      if (await end([{ type: "done", data: {} }])) return;
      continue;
    }
    if (job.select) {
      const allowed = services.llm !== undefined && await spendPanelBudget(services);
      if (!allowed) {
        const ended = await end([
          { type: "skipped", data: { message: PANEL_UNAVAILABLE, reason: "budget" } },
          { type: "done", data: {} },
        ]);
        if (ended) return;
        continue;
      }
      const experts = await chooseExperts(services.llm, q);
      const tasks: PanelTask[] = [];
      for (let round = 1; round <= PANEL_ROUNDS; round++) {
        experts.forEach((e, i) => {
          const t: PanelTask = { expertId: e.id, round, cause: "panel" };
          // Round 2 answers the next panelist's round-1 message.
          if (round > 1 && experts.length > 1) {
            t.replyToTask = job.tasks.length + (i + 1) % experts.length;
          }
          tasks.push(t);
        });
      }
      const res = await commit(kv, (op) =>
        ctx.fence(op).check(entry).set(
          keys.panelJob(questionId),
          { ...job, select: false, tasks: [...job.tasks, ...tasks] } satisfies PanelJob,
        ));
      panelMetrics.commits++;
      if (!res.ok) return; // lost the job (or a task was appended: the next loop sees it)
      continue;
    }
    if (job.step >= job.tasks.length) {
      if (await end([{ type: "done", data: {} }])) return;
      continue;
    }
    const task = job.tasks[job.step];
    const expert = expertById(task.expertId);
    // Typing: tell the page.
    const typingSeq = job.seq;
    const typedRes = await commit(kv, (op) => {
      ctx.fence(op).check(entry).set(
        keys.panelJob(questionId),
        { ...job, seq: typingSeq + 1 } satisfies PanelJob,
      );
      appendEvents(op, log, typingSeq, [{
        type: "typing",
        data: { expertId: task.expertId, name: expert?.name ?? "", title: expert?.title ?? "" },
      }]);
    });
    panelMetrics.commits++;
    if (!typedRes.ok) continue; // re-read: lost, or tasks appended meanwhile
    const held: Deno.KvEntryMaybe<PanelJob> = {
      key: entry.key,
      value: { ...job, seq: typingSeq + 1 },
      versionstamp: typedRes.versionstamp,
    };
    const replyToId = task.replyTo ??
      (task.replyToTask !== undefined ? job.written[task.replyToTask] ?? undefined : undefined);
    let content: string | null = null;
    if (expert && services.llm) {
      try {
        const thread = await recentThread(kv, questionId);
        const parent = replyToId
          ? (await kv.get<MessageRecord>(keys.message(replyToId))).value
          : null;
        panelMetrics.modelCalls++;
        const text = await services.llm.chat(expertPrompt(expert, q, thread, parent), {
          temperature: 0.7,
          maxTokens: 300,
          timeoutMs: PANEL_CALL_MS,
          signal: ctx.signal,
        });
        content = text.trim().slice(0, 4000) || null;
      } catch (err) {
        console.warn(`Panel ${questionId}: ${expert.id} could not answer`, String(err));
      }
    }
    if (ctx.signal.aborted) return; // shutdown or lost: the next holder redoes this step
    await writeStep(services, ctx, held, task, expert, content, replyToId, q);
  }
}

async function recentThread(kv: Deno.Kv, questionId: string): Promise<MessageRecord[]> {
  const ids: string[] = [];
  for await (
    const e of kv.list<string>({ prefix: ["question_messages", questionId] }, {
      reverse: true,
      limit: 8,
    })
  ) ids.unshift(e.value);
  const got = await kv.getMany<MessageRecord[]>(ids.map((id) => keys.message(id)));
  return got.map((g) => g.value).filter((m): m is MessageRecord => !!m && !m.deletedAt);
}

/**
 * Store one step's result under the job's check (its fencing token): the expert's message
 * through `addMessage` — like every message it reaches the open question page — with the
 * job's progress, the `message` event and a completed round's `discussionRounds` in the
 * message's own op; or, when there is no message to write, a quiet `skipped` event. A
 * lost check (the job was claimed elsewhere, or a task appended) writes nothing: the
 * caller's loop reads the job again.
 */
async function writeStep(
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
