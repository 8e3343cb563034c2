/**
 * The expert panel's data (docs/interface.md#expert-panel): the job record `["panel_jobs", questionId]` and
 * its tasks, what a panel run needs, its event log's keys, and the constants every part of
 * the panel shares. The runner's job kind is in ./job.ts.
 *
 * @module
 */
import type { EventLogKeys } from "../kv/event_log.ts";
import { keys } from "../kv/keys.ts";
import type { LlmClient } from "../llm/types.ts";

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

/**
 * A job record with nothing done yet: a new question's (`select`: its experts are still
 * to be chosen), or one made for invitations and replies (`tasks` already known).
 *
 * @example
 * ```ts
 * const job = newPanelJob("q-abc", { select: true });
 * job.status; // "running"
 * ```
 */
export function newPanelJob(
  questionId: string,
  { select, tasks = [] }: { select: boolean; tasks?: PanelTask[] },
): PanelJob {
  return { questionId, select, tasks, step: 0, written: [], status: "running", seq: 0 };
}

/**
 * The experts in a question's thread: those who wrote there and those with a task still to
 * do (the panel's rounds, an invitation, a reply). A task skipped because the model could
 * not answer leaves its expert out, so they can be invited again.
 *
 * @example
 * ```ts
 * const job = newPanelJob("q-abc", { select: false, tasks: [{ expertId: "omar", cause: "invite" }] });
 * expertsInThread(job); // ["omar"]
 * expertsInThread(null); // []
 * ```
 */
export function expertsInThread(job: PanelJob | null): string[] {
  if (!job) return [];
  const ids = job.tasks
    .filter((_, i) => i >= job.step || (job.written[i] ?? null) !== null)
    .map((task) => task.expertId);
  return [...new Set(ids)];
}

/** What a panel run needs. */
export interface PanelServices {
  kv: Deno.Kv;
  llm?: LlmClient;
  now: () => number;
  config: { expertPanelPerDay: number };
}

/**
 * The panel's event log keys for a question.
 *
 * @example
 * ```ts
 * const log = panelLog("q-abc");
 * log.head; // ["panel_event_head", "q-abc"]
 * ```
 */
export function panelLog(questionId: string): EventLogKeys {
  return { event: (n) => keys.panelEvent(questionId, n), head: keys.panelEventHead(questionId) };
}
