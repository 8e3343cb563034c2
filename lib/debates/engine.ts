/**
 * The debate engine: accept a debate (choose the opponent, save it `in_progress`), then
 * run it — 5 rounds with the user's agent first, each turn streamed and clipped, each
 * message saved as it completes, then the judge's synthesis (validated, repaired once,
 * else salvaged or defaulted) — and report every step as a {@link DebateEvent}.
 *
 * The run does not depend on anyone listening: events go to a {@link DebateWriter}
 * that stores them under the debate's lease (lib/debates/lease.ts) and hands them to
 * whoever listens, and the debate is saved either way. Each complete message is stored
 * with its `message` event in one op, so a run resumed by another instance
 * ({@link runDebate}'s `resumed`) continues after the last stored message. Any failure
 * ends the run with an `error` event and the stored debate marked `failed`; losing the
 * lease ends it silently (the new holder carries on).
 *
 * @module
 */
import { jsonAnswer } from "../llm/json.ts";
import { type ChatMessage, type LlmClient, LlmError } from "../llm/types.ts";
import { MessageClipper } from "./clip.ts";
import { choosePersona, type Persona } from "./personas.ts";
import { type Debaters, synthesisPrompt, turnPrompt } from "./prompts.ts";
import { type DebateWriter, LeaseLostError } from "./writer.ts";
import type { JobRunner } from "../jobs/runner.ts";
import { recordEarnedBadges } from "../profile/stats.ts";
import { keys } from "../kv/keys.ts";
import {
  type DebateEvent,
  type DebateMessage,
  MESSAGE_MAX_CHARS,
  type Role,
  salvageSynthesis,
  SYNTHESIS_TEMPERATURE,
  TURN_TEMPERATURE,
  TURNS,
  withoutRepeats,
} from "./model.ts";
import { type DebateRequest, SynthesisSchema } from "../schemas/debate.ts";
import {
  appendMessageOps,
  completeDebateOps,
  createDebate,
  type DebateRecord,
  failDebate,
  failDebateOps,
  newDebateId,
} from "./store.ts";

/** What the engine needs. */
export interface DebateDeps {
  kv: Deno.Kv;
  llm: LlmClient;
  now: () => number;
}

/** Receives the debate's events (may ignore them once nobody listens). */
export type Emit = (event: DebateEvent) => void;

/**
 * What a resumer needs to continue a debate: the validated request and the opponent,
 * kept under `["debates_running", id]` while the debate runs.
 */
export interface RunningDebate {
  userId: string;
  request: DebateRequest;
  opponentId: string;
}

/** The job kind of debates (lib/debates/job.ts). */
export const DEBATE_JOB = "debate";

/** Token budget of one turn: room for 200 characters and a little more to clip. */
const TURN_MAX_TOKENS = 120;
/** Token budget of the synthesis. */
const SYNTHESIS_MAX_TOKENS = 900;

/** An accepted debate, ready to run. */
export interface AcceptedDebate {
  record: DebateRecord;
  opponent: Persona;
  request: DebateRequest;
}

/**
 * Accept a debate: choose the opponent from the topic and save the debate
 * `in_progress` (with the agent's traits and interests remembered for next time).
 *
 * @example
 * ```ts
 * import type { User } from "@/lib/auth/users.ts";
 * declare const deps: DebateDeps;
 * declare const request: Parameters<typeof acceptDebate>[2];
 * declare const user: User;
 * import { jobRunner } from "@/lib/jobs/runner.ts";
 * const accepted = await acceptDebate(deps, user.id, request, jobRunner(deps.kv));
 * ```
 * @throws when the debate cannot be saved.
 */
export async function acceptDebate(
  deps: DebateDeps,
  userId: string,
  request: DebateRequest,
  jobs: JobRunner,
): Promise<AcceptedDebate> {
  const opponent = choosePersona(request.topic);
  const now = deps.now();
  const record: DebateRecord = {
    id: newDebateId(now),
    userId,
    topic: request.topic,
    userProfile: {
      id: userId,
      name: request.userProfile.name,
      avatar: request.userProfile.avatar ?? null,
      bio: request.userProfile.bio ?? "",
    },
    opponentProfile: {
      id: opponent.id,
      name: opponent.name,
      avatar: opponent.avatar,
      bio: opponent.bio,
      title: opponent.title,
    },
    status: "in_progress",
    synthesis: null,
    messageCount: 0,
    standIn: deps.llm.standIn,
    createdAt: now,
    updatedAt: now,
  };
  const memory = request.userProfile.softMemory
    ? { ...request.userProfile.softMemory, updatedAt: now }
    : undefined;
  const running: RunningDebate = { userId, request, opponentId: opponent.id };
  const created = await createDebate(deps.kv, record, memory, (op) => {
    // The run's job is held by this instance from the start; if it dies, the lease lapses
    // and any instance's resume pass continues it.
    jobs.newJobOps(op, DEBATE_JOB, record.id);
    op.set(keys.debateEventHead(record.id), 0).set(keys.debateRunning(record.id), running);
  });
  if (!created) {
    throw new Error(`Debate id collision: ${record.id}`);
  }
  return { record, opponent, request };
}

/** How one streamed turn is asked for and clipped. */
export interface ClippedTurnOptions {
  /** The speaker's name: a leading `Name:` label the model adds is dropped. */
  speaker: string;
  /** Longest message kept (characters). */
  maxChars: number;
  temperature: number;
  maxTokens: number;
}

/**
 * Stream one turn: forward text as soon as it is certain to stay in the message, stop
 * reading once the message is fixed, and return the clipped message. Debates and
 * roundtables stream their turns through it.
 *
 * @example
 * ```ts
 * import type { LlmClient, ChatMessage } from "@/lib/llm/types.ts";
 * declare const llm: LlmClient;
 * declare const prompt: ChatMessage[];
 * const text = await streamClippedTurn(llm, prompt, {
 *   speaker: "Ada",
 *   maxChars: 200,
 *   temperature: 0.8,
 *   maxTokens: 120,
 * }, (chunk) => console.log(chunk));
 * ```
 * @throws {LlmError} when the model fails or returns nothing.
 */
export async function streamClippedTurn(
  llm: LlmClient,
  prompt: ChatMessage[],
  opts: ClippedTurnOptions,
  onChunk: (text: string) => void,
): Promise<string> {
  const clipper = new MessageClipper(opts.maxChars, opts.speaker);
  for await (
    const delta of llm.stream(prompt, { temperature: opts.temperature, maxTokens: opts.maxTokens })
  ) {
    const ready = clipper.push(delta);
    if (ready) onChunk(ready);
    // Leaving the loop cancels the model's stream: the rest would be clipped anyway.
    if (clipper.settled) break;
  }
  const { content, rest } = clipper.finish();
  if (rest) onChunk(rest);
  if (!content) throw new LlmError("bad_response", "The model returned an empty message");
  return content;
}

/** What a failure says to the person watching (no internals, no secrets). */
function failureMessage(err: unknown): string {
  if (err instanceof LlmError) {
    return err.kind === "timeout"
      ? "The language model took too long to answer."
      : `The language model failed: ${err.message}`;
  }
  return "The debate could not be saved.";
}

/**
 * Run an accepted debate to its end (lib/debates/job.ts calls it from the debate's job).
 * Never rejects: failures become an `error` event and a `failed` record; a run whose job
 * another instance holds (or that shutdown stopped) just stops. `end` adds the job's end
 * to the debate's last op.
 *
 * @example
 * ```ts
 * import { DebateWriter } from "@/lib/debates/writer.ts";
 * import type { JobContext } from "@/lib/jobs/runner.ts";
 * declare const accepted: AcceptedDebate;
 * declare const deps: DebateDeps;
 * declare const ctx: JobContext;
 * await runDebate(deps, accepted, new DebateWriter(deps.kv, ctx.id, ctx, 0), [], ctx.finish);
 * ```
 */
export async function runDebate(
  deps: DebateDeps,
  accepted: AcceptedDebate,
  out: DebateWriter,
  resumed: DebateMessage[] = [],
  end: (op: Deno.AtomicOperation) => void = () => {},
): Promise<void> {
  let record = accepted.record;
  const { opponent, request } = accepted;
  const debaters: Debaters = { topic: request.topic, user: request.userProfile, opponent };
  const messages: DebateMessage[] = [...resumed];
  const emit: Emit = (event) => {
    // Stop streaming at once when the job is not ours any more (taken over, shutdown).
    if (out.lost) throw new LeaseLostError(record.id);
    out.emit(event);
  };
  try {
    if (messages.length === 0) {
      emit({
        type: "init",
        data: {
          id: record.id,
          topic: record.topic,
          userProfile: {
            ...record.userProfile,
            ...(request.userProfile.softMemory
              ? { softMemory: request.userProfile.softMemory }
              : {}),
          },
          opponentProfile: {
            ...record.opponentProfile,
            personality: opponent.personality,
            stance: opponent.stance,
          },
        },
      });
    }
    // A resumed run starts after the last stored message: a turn that was half streamed
    // starts again with a fresh `start` (readers drop its partial text).
    for (let turn = messages.length; turn < TURNS; turn++) {
      const role: Role = turn % 2 === 0 ? "user" : "opponent";
      const name = role === "user" ? record.userProfile.name : opponent.name;
      emit({ type: "start", data: { role, name } });
      const content = await streamClippedTurn(
        deps.llm,
        turnPrompt(debaters, role, messages),
        {
          speaker: name,
          maxChars: MESSAGE_MAX_CHARS,
          temperature: TURN_TEMPERATURE,
          maxTokens: TURN_MAX_TOKENS,
        },
        (text) => emit({ type: "chunk", data: { role, content: text } }),
      );
      const message: DebateMessage = { role, name, content, timestamp: deps.now() };
      const before = record;
      await out.commit([{ type: "message", data: message }], (op) => {
        record = appendMessageOps(op, before, message, message.timestamp);
      });
      messages.push(message);
    }
    emit({ type: "synthesizing", data: {} });
    const { value: judged, source } = await jsonAnswer(
      deps.llm,
      synthesisPrompt(debaters, messages),
      SynthesisSchema,
      {
        temperature: SYNTHESIS_TEMPERATURE,
        maxTokens: SYNTHESIS_MAX_TOKENS,
        fallback: salvageSynthesis,
      },
    );
    if (source === "fallback") {
      console.warn(`Debate ${record.id}: the synthesis failed validation twice; using a safe one`);
    }
    const synthesis = withoutRepeats(judged);
    const before = record;
    await out.commit([
      { type: "synthesis", data: synthesis },
      { type: "done", data: { id: record.id, topic: record.topic, messages, synthesis } },
    ], (op) => {
      record = completeDebateOps(op, before, synthesis, source, deps.now());
      end(op);
    });
    if (synthesis.winner === "user") {
      await recordEarnedBadges(deps.kv, record.userId, deps.now()).catch((err) =>
        console.error(`Debate ${record.id}: could not record badges`, err)
      );
    }
  } catch (err) {
    if (err instanceof LeaseLostError || out.lost) return; // the new holder carries on
    const message = failureMessage(err);
    console.error(`Debate ${record.id} failed:`, err instanceof Error ? err.message : err);
    const failed = record;
    try {
      await out.commit([{ type: "error", data: { message } }], (op) => {
        failDebateOps(op, failed, message, deps.now());
        end(op);
      });
    } catch (saveErr) {
      if (saveErr instanceof LeaseLostError) return;
      console.error(`Debate ${record.id}: could not record the failure`, saveErr);
      try {
        await failDebate(deps.kv, failed, message, deps.now());
      } catch {
        // KV is gone: the debate reads as failed once stale (store.ts).
      }
    }
  }
}
