/**
 * The roundtable engine: accept a roundtable (its panel chosen, saved `in_progress` with
 * its job), then run it — an opening round in which every expert states a position, then
 * the discussion rounds in which each expert answers another's specific point; the host's
 * interjections are taken up before the next turn (by the expert they are directed to,
 * who then speaks next); finally the minutes (validated against the panel, repaired once,
 * else salvaged, else the roundtable fails cleanly) — each step reported as a
 * {@link RoundtableEvent} through the fenced writer (lib/jobs/event_writer.ts).
 *
 * Each complete statement is stored with its `statement` event in one op, so a run resumed
 * by another instance continues after the last stored statement; who speaks next is a
 * function of what is stored ({@link planTurn}), so a resumed run makes the same choice.
 *
 * @module
 */
import { commit } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import { jsonAnswer } from "../llm/json.ts";
import { type LlmClient, LlmError } from "../llm/types.ts";
import { type FencedJob, JobEventWriter, LeaseLostError } from "../jobs/event_writer.ts";
import type { JobRunner } from "../jobs/runner.ts";
import { streamClippedTurn } from "../debates/engine.ts";
import { expertById } from "../panel/experts.ts";
import { type Minutes, minutesFor, type RoundtableRequest } from "../schemas/roundtable.ts";
import { ROUNDTABLE_DEFAULT_ROUNDS } from "../input_limits.ts";
import {
  messageJson,
  MINUTES_TEMPERATURE,
  type RoundtableEvent,
  type RoundtableMessage,
  type RoundtableRecord,
  type SeatedExpert,
  STATEMENT_MAX_CHARS,
  STATEMENT_TEMPERATURE,
  type StoredInterjection,
} from "./model.ts";
import { minutesPrompt, statementPrompt, type TurnCue } from "./prompts.ts";
import {
  appendMessageOps,
  completeOps,
  createRoundtableOps,
  failOps,
  listInterjections,
  newRoundtableId,
  ROUNDTABLE_JOB,
} from "./store.ts";
import type { Expert } from "../panel/experts.ts";

/** What the engine needs. */
export interface RoundtableDeps {
  kv: Deno.Kv;
  llm: LlmClient;
  now: () => number;
}

/** Token budget of one statement: room for its characters and a little more to clip. */
const STATEMENT_MAX_TOKENS = 160;
/** Token budget of the minutes. */
const MINUTES_MAX_TOKENS = 1600;

/** The writer of a roundtable's events. */
export type RoundtableWriter = JobEventWriter<RoundtableEvent>;

/**
 * The fenced writer of roundtable `id`'s event log, after event `seq`.
 *
 * @example
 * ```ts
 * import type { JobContext } from "@/lib/jobs/runner.ts";
 * declare const ctx: JobContext;
 * const writer = roundtableWriter(ctx.kv, ctx.id, ctx, 0);
 * ```
 */
export function roundtableWriter(
  kv: Deno.Kv,
  id: string,
  job: FencedJob,
  seq: number,
): RoundtableWriter {
  return new JobEventWriter<RoundtableEvent>(
    kv,
    `Roundtable ${id}`,
    {
      event: (n) => keys.roundtableEvent(id, n),
      head: keys.roundtableEventHead(id),
    },
    job,
    seq,
    {
      speakerOf: (e) => e.type === "chunk" ? e.data.expertId : null,
      textOf: (e) => e.type === "chunk" ? e.data.content : "",
      merge: (expertId, content) => ({ type: "chunk", data: { expertId, content } }),
    },
  );
}

/**
 * Save a new roundtable `in_progress` with its job (held by this instance from the start;
 * if it dies, the lease lapses and any instance's resume pass continues it).
 *
 * @example
 * ```ts
 * import { EXPERTS } from "@/lib/panel/experts.ts";
 * import { jobRunner } from "@/lib/jobs/runner.ts";
 * declare const deps: RoundtableDeps;
 * const record = await acceptRoundtable(deps, "u_1", { topic: "Cars downtown?" }, EXPERTS.slice(0, 3), "model", jobRunner(deps.kv));
 * ```
 * @throws when the roundtable cannot be saved.
 */
export async function acceptRoundtable(
  deps: RoundtableDeps,
  userId: string,
  request: RoundtableRequest,
  experts: Expert[],
  chosenBy: "model" | "host",
  jobs: JobRunner,
): Promise<RoundtableRecord> {
  const now = deps.now();
  const record: RoundtableRecord = {
    id: newRoundtableId(now),
    userId,
    topic: request.topic,
    background: request.background ?? "",
    experts: experts.map((e) => ({ id: e.id, name: e.name, title: e.title })),
    rounds: request.rounds ?? ROUNDTABLE_DEFAULT_ROUNDS,
    status: "in_progress",
    minutes: null,
    messageCount: 0,
    chosenBy,
    standIn: deps.llm.standIn,
    createdAt: now,
    updatedAt: now,
  };
  const res = await commit(deps.kv, (op) => {
    createRoundtableOps(op, record);
    jobs.newJobOps(op, ROUNDTABLE_JOB, record.id);
  });
  if (!res.ok) throw new Error(`Roundtable id collision: ${record.id}`);
  return record;
}

/** The next turn: who speaks, in which round, answering what. */
export interface PlannedTurn {
  expertId: string;
  round: number;
  cue: TurnCue;
  /** Added to answer a directed interjection, outside the round's order. */
  extra: boolean;
  /** This turn closes its round. */
  endsRound: boolean;
}

/**
 * Who speaks next, from what is stored: the round's order (every expert once per round,
 * the opening round 0 first), except that an interjection the run took up is answered by
 * the next turn — by the expert it is directed to, who then speaks out of order. Null when
 * the discussion is over.
 *
 * @example
 * ```ts
 * const experts = [{ id: "ada", name: "Ada", title: "" }, { id: "omar", name: "Omar", title: "" }, { id: "mei", name: "Mei", title: "" }];
 * planTurn(experts, 2, [], [])?.expertId; // "ada"
 * ```
 */
export function planTurn(
  experts: SeatedExpert[],
  rounds: number,
  messages: RoundtableMessage[],
  interjections: StoredInterjection[],
): PlannedTurn | null {
  const n = experts.length;
  const total = n * (rounds + 1);
  const scheduled = messages.filter((m) => !m.extra).length;
  const answered = new Set(messages.map((m) => m.replyTo));
  const open = interjections.find((i) => i.afterMessageId !== undefined && !answered.has(i.id));
  const slot = scheduled < total
    ? { round: Math.floor(scheduled / n), expertId: experts[scheduled % n].id }
    : null;
  const endsRound = (scheduled + 1) % n === 0;
  if (open) {
    const cue: TurnCue = { kind: "host", to: open };
    const directed = open.directTo && experts.some((e) => e.id === open.directTo)
      ? open.directTo
      : undefined;
    if (slot && (!directed || directed === slot.expertId)) {
      return { expertId: slot.expertId, round: slot.round, cue, extra: false, endsRound };
    }
    return {
      expertId: directed ?? experts[0].id,
      round: slot?.round ?? rounds,
      cue,
      extra: true,
      endsRound: false,
    };
  }
  if (!slot) return null;
  const to = [...messages].reverse().find((m) => m.expertId !== slot.expertId);
  const cue: TurnCue = slot.round === 0 || !to ? { kind: "opening" } : { kind: "reply", to };
  return { expertId: slot.expertId, round: slot.round, cue, extra: false, endsRound };
}

/**
 * Keep what is usable from minutes that failed validation: the lists, a stance for each
 * panelist that has one (a panelist without one gets a neutral line). Null when nothing
 * usable came back — the roundtable then fails cleanly.
 *
 * @example
 * ```ts
 * salvageMinutes({ conclusion: "Go slowly." }, [{ id: "ada", name: "Ada", title: "" }]); // null
 * ```
 */
export function salvageMinutes(candidate: unknown, experts: SeatedExpert[]): Minutes | null {
  if (!candidate || typeof candidate !== "object") return null;
  const c = candidate as Record<string, unknown>;
  const list = (v: unknown, max = 10) =>
    Array.isArray(v)
      ? v.filter((s): s is string => typeof s === "string" && s.trim().length > 0)
        .map((s) => s.trim().slice(0, 400)).slice(0, max)
      : [];
  const stances = Array.isArray(c.stances) ? c.stances as Record<string, unknown>[] : [];
  const found = experts.map((e) =>
    stances.find((s) => s && typeof s === "object" && s.expertId === e.id)
  );
  if (!found.some((s) => s && typeof s.position === "string" && s.position.trim())) return null;
  const conclusion = typeof c.conclusion === "string" ? c.conclusion.trim().slice(0, 800) : "";
  const out: Minutes = {
    consensus: list(c.consensus),
    disagreements: list(c.disagreements),
    stances: experts.map((e, i) => {
      const s = found[i];
      const position = typeof s?.position === "string" && s.position.trim()
        ? s.position.trim().slice(0, 600)
        : `${e.name}'s position was not recorded.`;
      return { expertId: e.id, position, keyPoints: list(s?.keyPoints, 6) };
    }),
    conclusion: conclusion || "No conclusion was recorded.",
    openQuestions: list(c.openQuestions),
  };
  return minutesFor(experts.map((e) => e.id)).safeParse(out).success ? out : null;
}

/** What a failure says to the person watching (no internals, no secrets). */
function failureMessage(err: unknown): string {
  if (err instanceof LlmError) {
    return err.kind === "timeout"
      ? "The language model took too long to answer."
      : `The language model failed: ${err.message}`;
  }
  if (err instanceof MinutesError) return err.message;
  return "The roundtable could not be saved.";
}

class MinutesError extends Error {}

/**
 * Run an accepted roundtable to its end (lib/roundtables/job.ts calls it from the job).
 * Never rejects: failures become an `error` event and a `failed` record; a run whose job
 * another instance holds (or that shutdown stopped) just stops. `resumed` are the stored
 * messages; `end` adds the job's end to the last op.
 *
 * @example
 * ```ts
 * import type { JobContext } from "@/lib/jobs/runner.ts";
 * import type { RoundtableRecord } from "@/lib/roundtables/model.ts";
 * declare const deps: RoundtableDeps;
 * declare const record: RoundtableRecord;
 * declare const ctx: JobContext;
 * await runRoundtable(deps, record, roundtableWriter(deps.kv, record.id, ctx, 0), [], ctx.finish);
 * ```
 */
export async function runRoundtable(
  deps: RoundtableDeps,
  accepted: RoundtableRecord,
  out: RoundtableWriter,
  resumed: RoundtableMessage[] = [],
  end: (op: Deno.AtomicOperation) => void = () => {},
): Promise<void> {
  const { kv } = deps;
  let record = accepted;
  const id = record.id;
  const messages = [...resumed];
  const emit = (event: RoundtableEvent) => {
    // Stop streaming at once when the job is not ours any more (taken over, shutdown).
    if (out.lost) throw new LeaseLostError(id);
    out.emit(event);
  };
  try {
    if (out.lastSeq === 0) {
      emit({
        type: "init",
        data: { id, topic: record.topic, experts: record.experts, rounds: record.rounds },
      });
    }
    for (;;) {
      const interjections = await takeUpInterjections(kv, id, messages, out);
      const turn = planTurn(record.experts, record.rounds, messages, interjections);
      if (!turn) break;
      const expert = expertById(turn.expertId);
      if (!expert) throw new Error(`Unknown expert ${turn.expertId}`);
      const replyTo = turn.cue.kind === "opening" ? undefined : turn.cue.to.id;
      emit({
        type: "speaking",
        data: { round: turn.round, expertId: expert.id, ...(replyTo ? { replyTo } : {}) },
      });
      const content = await streamClippedTurn(
        deps.llm,
        statementPrompt(
          expert,
          record,
          messages,
          interjections,
          turn.cue,
          turn.round,
          record.rounds,
        ),
        {
          speaker: expert.name,
          maxChars: STATEMENT_MAX_CHARS,
          temperature: STATEMENT_TEMPERATURE,
          maxTokens: STATEMENT_MAX_TOKENS,
        },
        (text) => emit({ type: "chunk", data: { expertId: expert.id, content: text } }),
      );
      const message: RoundtableMessage = {
        id: `m${messages.length + 1}`,
        expertId: expert.id,
        name: expert.name,
        content,
        round: turn.round,
        ...(replyTo ? { replyTo } : {}),
        timestamp: deps.now(),
        ...(turn.extra ? { extra: true } : {}),
      };
      const events: RoundtableEvent[] = [
        { type: "statement", data: { round: turn.round, message: messageJson(message) } },
      ];
      if (turn.endsRound) events.push({ type: "round_end", data: { round: turn.round } });
      const before = record;
      await out.commit(events, (op) => {
        record = appendMessageOps(op, before, message);
      });
      messages.push(message);
    }
    const interjections = await takeUpInterjections(kv, id, messages, out);
    emit({ type: "summarizing", data: {} });
    const ids = record.experts.map((e) => e.id);
    const { value, source } = await jsonAnswer(
      deps.llm,
      minutesPrompt(record, messages, interjections),
      // Nullable only so the fallback may say "nothing usable": a model never answers null.
      minutesFor(ids).nullable(),
      {
        temperature: MINUTES_TEMPERATURE,
        maxTokens: MINUTES_MAX_TOKENS,
        fallback: (candidate: unknown) => salvageMinutes(candidate, record.experts),
      },
    );
    if (!value) throw new MinutesError("The minutes could not be written.");
    if (source !== "model") console.warn(`Roundtable ${id}: minutes ${source}`);
    const before = record;
    await out.commit(
      [{ type: "minutes", data: value }, { type: "done", data: { id } }],
      (op) => {
        record = completeOps(op, before, value, source, deps.now());
        end(op);
      },
    );
  } catch (err) {
    if (err instanceof LeaseLostError || out.lost) return; // the new holder carries on
    const message = failureMessage(err);
    console.error(`Roundtable ${id} failed:`, err instanceof Error ? err.message : err);
    const failed = record;
    try {
      await out.commit([{ type: "error", data: { message } }], (op) => {
        failOps(op, failed, message, deps.now());
        end(op);
      });
    } catch (saveErr) {
      if (saveErr instanceof LeaseLostError) return;
      console.error(`Roundtable ${id}: could not record the failure`, saveErr);
    }
  }
}

/**
 * Announce the host's pending interjections (an `interjection` event each) and mark them
 * taken up after the last message, in one fenced op; returns every interjection.
 */
async function takeUpInterjections(
  kv: Deno.Kv,
  id: string,
  messages: RoundtableMessage[],
  out: RoundtableWriter,
): Promise<StoredInterjection[]> {
  const all = await listInterjections(kv, id);
  const pending = all.filter((i) => i.afterMessageId === undefined);
  if (pending.length === 0) return all;
  const after = messages.at(-1)?.id ?? null;
  await out.commit(
    pending.map((i) => ({
      type: "interjection",
      data: { id: i.id, text: i.text, ...(i.directTo ? { directTo: i.directTo } : {}) },
    })),
    (op) => {
      for (const i of pending) {
        op.set(keys.roundtableInterjection(id, Number(i.id.slice(1))), {
          ...i,
          afterMessageId: after,
        });
      }
    },
  );
  return all.map((i) => i.afterMessageId === undefined ? { ...i, afterMessageId: after } : i);
}
