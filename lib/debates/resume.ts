/**
 * The resumer: once per period (on one instance per tick, lib/jobs/schedule.ts) it
 * scans the small index of running debates (`["debates_running", id]`) and claims those whose lease lapsed — their process died
 * or stalled — and continues each from its last stored complete message. A message
 * that was half streamed is generated again from scratch; stored messages are never
 * written twice (each is stored with its event under the lease, lib/debates/lease.ts).
 *
 * {@link resumeStalledDebates} is one pass, a plain function any driver can call (a
 * KV queue message chain here: {@link debateResumeJob}, lib/jobs/schedule.ts).
 *
 * @module
 */
import { keys } from "../kv/keys.ts";
import { commit } from "../kv/atomic.ts";
import type { PeriodicJob } from "../jobs/schedule.ts";
import type { LlmClient } from "../llm/types.ts";
import { type RunningDebate, startDebateInBackground } from "./engine.ts";
import { claimDebate, type DebateLease, INSTANCE_ID } from "./lease.ts";
import { personaById } from "./personas.ts";
import { type DebateRecord, failDebate, listMessages } from "./store.ts";

/** A debate claimed this many times after its first run is given up as failed. */
export const MAX_CLAIMS = 3;

/** What the resumer needs (a subset of the app's services). */
export interface ResumerServices {
  kv: Deno.Kv;
  llm?: LlmClient;
  now: () => number;
}

/**
 * One pass: claim every running debate whose lease expired at `now` and continue it in
 * the background. Returns the ids it took over.
 *
 * @example
 * ```ts
 * declare const services: ResumerServices;
 * const resumed = await resumeStalledDebates(services, Date.now());
 * ```
 */
export async function resumeStalledDebates(
  services: ResumerServices,
  now: number,
  owner = INSTANCE_ID,
): Promise<string[]> {
  const { kv, llm } = services;
  const taken: string[] = [];
  for await (const entry of kv.list<RunningDebate>({ prefix: keys.debatesRunningPrefix() })) {
    const id = entry.key[1] as string;
    const lease = await kv.get<DebateLease>(keys.debateLease(id));
    if (lease.value && lease.value.until > now) continue;
    const record = (await kv.get<DebateRecord>(keys.debate(id))).value;
    if (!record || record.status !== "in_progress") {
      await commit(kv, (op) => op.check(entry).delete(keys.debateRunning(id)));
      continue;
    }
    const opponent = personaById(entry.value.opponentId);
    if (!llm || !opponent) continue; // an instance without a model leaves it to others
    const writer = await claimDebate(kv, id, () => services.now(), owner);
    if (!writer) continue;
    const running: RunningDebate = { ...entry.value, claims: entry.value.claims + 1 };
    if (running.claims > MAX_CLAIMS) {
      await writer.commit([{
        type: "error",
        data: { message: "The debate was interrupted too often and was stopped." },
      }], (op) => {
        op.set(
          keys.debate(id),
          {
            ...record,
            status: "failed",
            error: "The debate was interrupted too often and was stopped.",
            updatedAt: now,
          } satisfies DebateRecord,
        ).delete(keys.debateRunning(id));
      }).catch(async () => {
        await failDebate(kv, record, "The debate was interrupted.", now).catch(() => {});
      });
      await writer.close();
      continue;
    }
    await writer.commit([], (op) => op.set(keys.debateRunning(id), running)).catch(() => {});
    if (writer.lost) continue;
    const messages = await listMessages(kv, id);
    console.log(`Resuming debate ${id} after message ${messages.length}`);
    startDebateInBackground(
      { kv, llm, now: services.now },
      { record: { ...record, messageCount: messages.length }, opponent, request: running.request },
      writer,
      messages,
    );
    taken.push(id);
  }
  return taken;
}

/**
 * The resumer as a {@link PeriodicJob} named `debate-resume` (default every 2 s, so a
 * debate whose instance died is continued within about its 6 s lease plus one period).
 *
 * @example
 * ```ts
 * import { startScheduler } from "@/lib/jobs/schedule.ts";
 * declare const services: ResumerServices;
 * const scheduler = await startScheduler(services.kv, [debateResumeJob(services)]);
 * await scheduler.stop();
 * ```
 */
export function debateResumeJob(
  services: ResumerServices,
  { intervalMs = 2_000 }: { intervalMs?: number } = {},
): PeriodicJob {
  return {
    name: "debate-resume",
    intervalMs,
    run: () => resumeStalledDebates(services, services.now()),
  };
}
