/**
 * The debate engine: accept a debate (choose the opponent, save it `in_progress`), then
 * run it — 5 rounds with the user's agent first, each turn streamed and clipped, each
 * message saved as it completes, then the judge's synthesis (validated, repaired once,
 * else salvaged or defaulted) — and report every step as a {@link DebateEvent}.
 *
 * The run does not depend on anyone listening: events go to an `emit` callback that
 * may drop them, and the debate is saved either way. Any failure ends the run with an
 * `error` event and the stored debate marked `failed`.
 *
 * @module
 */
import { jsonAnswer } from "../llm/json.ts";
import { type LlmClient, LlmError } from "../llm/types.ts";
import { MessageClipper } from "./clip.ts";
import { choosePersona, type Persona } from "./personas.ts";
import { type Debaters, synthesisPrompt, turnPrompt } from "./prompts.ts";
import { trackDebate } from "./runner.ts";
import {
  type DebateEvent,
  type DebateMessage,
  MESSAGE_MAX_CHARS,
  type Role,
  salvageSynthesis,
  SYNTHESIS_TEMPERATURE,
  TURN_TEMPERATURE,
  TURNS,
} from "./model.ts";
import { type DebateRequest, SynthesisSchema } from "../schemas/debate.ts";
import {
  appendMessage,
  completeDebate,
  createDebate,
  type DebateRecord,
  failDebate,
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
 * const accepted = await acceptDebate(deps, user.id, request);
 * ```
 * @throws when the debate cannot be saved.
 */
export async function acceptDebate(
  deps: DebateDeps,
  userId: string,
  request: DebateRequest,
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
  if (!await createDebate(deps.kv, record, memory)) {
    throw new Error(`Debate id collision: ${record.id}`);
  }
  return { record, opponent, request };
}

/**
 * Stream one turn: forward text as soon as it is certain to stay in the message, stop
 * reading once the message is fixed, and return the clipped message.
 */
async function streamTurn(
  llm: LlmClient,
  prompt: ReturnType<typeof turnPrompt>,
  speaker: string,
  onChunk: (text: string) => void,
): Promise<string> {
  const clipper = new MessageClipper(MESSAGE_MAX_CHARS, speaker);
  for await (
    const delta of llm.stream(prompt, { temperature: TURN_TEMPERATURE, maxTokens: TURN_MAX_TOKENS })
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
 * Run an accepted debate to its end. Never rejects: failures become an `error` event
 * and a `failed` record.
 *
 * @example
 * ```ts
 * import type { EventStream } from "@/lib/debates/sse.ts";
 * declare const accepted: AcceptedDebate;
 * declare const deps: DebateDeps;
 * declare const events: EventStream;
 * await runDebate(deps, accepted, (e) => events.send(e.type, e.data));
 * ```
 */
export async function runDebate(
  deps: DebateDeps,
  accepted: AcceptedDebate,
  emit: Emit,
): Promise<void> {
  let record = accepted.record;
  const { opponent, request } = accepted;
  const debaters: Debaters = { topic: request.topic, user: request.userProfile, opponent };
  const messages: DebateMessage[] = [];
  try {
    emit({
      type: "init",
      data: {
        id: record.id,
        topic: record.topic,
        userProfile: {
          ...record.userProfile,
          ...(request.userProfile.softMemory ? { softMemory: request.userProfile.softMemory } : {}),
        },
        opponentProfile: {
          ...record.opponentProfile,
          personality: opponent.personality,
          stance: opponent.stance,
        },
      },
    });
    for (let turn = 0; turn < TURNS; turn++) {
      const role: Role = turn % 2 === 0 ? "user" : "opponent";
      const name = role === "user" ? record.userProfile.name : opponent.name;
      emit({ type: "start", data: { role, name } });
      const content = await streamTurn(
        deps.llm,
        turnPrompt(debaters, role, messages),
        name,
        (text) => emit({ type: "chunk", data: { role, content: text } }),
      );
      const message: DebateMessage = { role, name, content, timestamp: deps.now() };
      record = await appendMessage(deps.kv, record, message, message.timestamp);
      messages.push(message);
      emit({ type: "message", data: message });
    }
    emit({ type: "synthesizing", data: {} });
    const { value: synthesis, source } = await jsonAnswer(
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
    record = await completeDebate(deps.kv, record, synthesis, source, deps.now());
    emit({ type: "synthesis", data: synthesis });
    emit({
      type: "done",
      data: { id: record.id, topic: record.topic, messages, synthesis },
    });
  } catch (err) {
    const message = failureMessage(err);
    console.error(`Debate ${record.id} failed:`, err instanceof Error ? err.message : err);
    try {
      await failDebate(deps.kv, record, message, deps.now());
    } catch (saveErr) {
      console.error(`Debate ${record.id}: could not record the failure`, saveErr);
    }
    emit({ type: "error", data: { message } });
  }
}

/**
 * Run an accepted debate detached from the caller: it continues when the caller goes
 * away and is tracked so shutdown can wait for it.
 *
 * @example
 * ```ts
 * import type { EventStream } from "@/lib/debates/sse.ts";
 * declare const accepted: AcceptedDebate;
 * declare const deps: DebateDeps;
 * declare const events: EventStream;
 * startDebateInBackground(deps, accepted, (e) => events.send(e.type, e.data), () => events.close());
 * ```
 */
export function startDebateInBackground(
  deps: DebateDeps,
  accepted: AcceptedDebate,
  emit: Emit,
  onEnd: () => void | Promise<void>,
): void {
  const safeEmit: Emit = (event) => {
    try {
      emit(event);
    } catch (err) {
      // A listener's failure must never stop the debate from being saved.
      console.error("Debate event listener failed", err);
    }
  };
  // The end listener (it frees the debate's capacity slot) is part of the tracked work, so
  // a graceful shutdown that waits for debates also waits for their slots to be freed.
  const run = runDebate(deps, accepted, safeEmit).finally(async () => {
    try {
      await onEnd();
    } catch (err) {
      console.error("Debate end listener failed", err);
    }
  });
  trackDebate(accepted.record.id, run);
}
