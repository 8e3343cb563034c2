/**
 * The AI expert panel's work (docs/interface.md#expert-panel), a job of the runner (lib/jobs/runner.ts):
 * one record per question, `["panel_jobs", questionId]`, holding a queue of tasks (one
 * expert message each) and its progress. Every step commits under the job's fence and a
 * check on this record, so a stalled holder whose job another instance claimed cannot
 * write, and a task appended meanwhile is seen before the job ends.
 *
 * A step is: store a `typing` event, ask the model, then in one atomic op store the
 * message, the job's progress, the `message` event and, when a round completes, the
 * question's `discussionRounds` (./step.ts). A model failure stores a quiet `skipped`
 * event, never a half-written message. A process that dies mid-step leaves its lease to
 * lapse; any instance's resume pass claims the job and redoes the step from scratch.
 *
 * Tasks come from three places: a new question's panel (experts chosen by topic, 2
 * rounds, the second replying to the first: ./select.ts, within the day's budget:
 * ./budget.ts), an invitation (./invite.ts), and a person's reply to an expert
 * (./replies.ts). Invitations and replies append to the same job (reopening a finished
 * one). The record and its tasks are in ./model.ts.
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
import { isPublic } from "../community/visibility.ts";
import { appendEvents } from "../kv/event_log.ts";
import { commit } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import { type JobContext, type JobKind, type JobRunner, jobRunner } from "../jobs/runner.ts";
import type { QuestionRecord } from "../community/questions/model.ts";
import { spendPanelBudget } from "./budget.ts";
import { expertById } from "./experts.ts";
import { panelMetrics } from "./metrics.ts";
import {
  newPanelJob,
  PANEL_JOB,
  PANEL_UNAVAILABLE,
  type PanelJob,
  panelLog,
  type PanelServices,
  type PanelTask,
} from "./model.ts";
import { chooseExperts, panelRounds } from "./select.ts";
import { askExpert, writeStep } from "./step.ts";

// Routes read the job record and its event log through this module.
export { type PanelJob, panelLog } from "./model.ts";

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
  op.set(keys.panelJob(questionId), newPanelJob(questionId, { select: true }));
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
 *
 * @example
 * ```ts
 * declare const services: import("./model.ts").PanelServices;
 * await addPanelTasks(services, "q-abc", [{ expertId: "omar", cause: "invite" }]);
 * ```
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
    const job: PanelJob = cur
      ? { ...cur, tasks: [...cur.tasks, ...tasks], status: "running" }
      : newPanelJob(questionId, { select: false, tasks });
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

/**
 * The expert panel job kind.
 *
 * @example
 * ```ts
 * import { jobRunner } from "@/lib/jobs/runner.ts";
 * declare const services: import("./model.ts").PanelServices;
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
    if (!q || !isPublic(q)) {
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
      const tasks = panelRounds(await chooseExperts(services.llm, q), job.tasks.length);
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
    const content = expert ? await askExpert(services, ctx, expert, q, replyToId) : null;
    if (ctx.signal.aborted) return; // shutdown or lost: the next holder redoes this step
    await writeStep(services, ctx, held, task, expert, content, replyToId, q);
  }
}

/**
 * Whether the question's panel is still at work (its experts are about to speak): the
 * question page then says the panel is preparing instead of "no answers yet".
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * if (await panelAtWork(kv, "q-abc")) console.log("The panel is preparing");
 * ```
 */
export async function panelAtWork(kv: Deno.Kv, questionId: string): Promise<boolean> {
  const job = await kv.get<PanelJob>(keys.panelJob(questionId));
  return job.value?.status === "running";
}
