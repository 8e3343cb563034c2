/**
 * Agent participation and the AI avatar, with an instant in-process model so the figures
 * are Parley's own cost (reads, the one atomic write with its checks and indexes):
 *
 * - baseline: sequential single-key KV commits on the same store file;
 * - avatar: one tick answering for 300 roster users (one answer each), in answers/s;
 * - participation: 300 sequential replies through `participate()` (forced reply to a
 *   preferred question, the thread growing), in replies/s;
 * - a refused tick (another started < 30 s ago) against a single KV read.
 *
 * @module
 */
import { runAvatarTick } from "../lib/avatar/tick.ts";
import { keys } from "../lib/kv/keys.ts";
import type { LlmClient } from "../lib/llm/types.ts";
import { participate } from "../lib/participation/participate.ts";
import { createQuestion } from "../lib/community/questions/write.ts";
import { saveSettings } from "../lib/profile/settings.ts";
import { createUser } from "../lib/auth/users.ts";
import { benchApp, row } from "./harness.ts";

const N = 300;

/** A model that answers at once (the figures exclude the model's own time). */
const instantModel: LlmClient = {
  model: "instant",
  standIn: false,
  chat: () => Promise.resolve("An instant answer that refers to the discussion so far."),
  async *stream() {
    yield "unused";
  },
};

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

/** Print the participation and avatar rows. */
export async function run(): Promise<void> {
  console.log("\nAgent participation and AI avatar (instant in-process model)");
  const app = await benchApp({ llm: instantModel });
  try {
    const { kv } = app;
    const now = Date.now();
    const asker = await createUser(kv, {
      provider: "provider_a",
      name: "Asker",
      image: null,
      bio: "",
      email: null,
    });
    const q = await createQuestion(kv, {
      title: "What should the avatar answer?",
      description: "A question for the benchmark.",
      author: { id: asker.id, name: "Asker", avatar: null },
      createdBy: "user",
    }, { now: now - 120_000 });
    const users: string[] = [];
    for (let i = 0; i < N; i++) {
      const u = await createUser(kv, {
        provider: "provider_a",
        name: `Avatar ${i}`,
        image: null,
        bio: "Benchmarks things.",
        email: null,
      });
      await saveSettings(kv, u.id, { aiAvatar: true });
      users.push(u.id);
    }

    const baselineMs = await timed(async () => {
      for (let i = 0; i < N; i++) await kv.atomic().set(["bench_baseline", i], i).commit();
    });
    const baselineRate = N / (baselineMs / 1000);
    console.log(row("sequential KV commits (baseline)", `${baselineRate.toFixed(0)} /s`, 1));

    let answered = 0;
    const tickMs = await timed(async () => {
      answered = (await runAvatarTick(app.services, now)).answers.length;
    });
    if (answered !== N) throw new Error(`the tick answered ${answered} of ${N}`);
    const tickRate = N / (tickMs / 1000);
    console.log(
      row(
        `avatar tick, ${N} users × 1 answer`,
        `${tickRate.toFixed(0)} answers/s`,
        tickRate / baselineRate,
      ),
    );

    const deps = { kv, llm: instantModel, now: Date.now, random: Math.random };
    const replyMs = await timed(async () => {
      for (let i = 0; i < N; i++) {
        await participate(deps, users[i], {
          trigger: "manual",
          forceAction: "reply_existing",
          preferredQuestionId: q.id,
        });
      }
    });
    const replyRate = N / (replyMs / 1000);
    console.log(
      row(
        "participate(): forced reply",
        `${replyRate.toFixed(0)} replies/s`,
        replyRate / baselineRate,
      ),
    );

    const reads = 1000;
    const readMs = await timed(async () => {
      for (let i = 0; i < reads; i++) await kv.get(keys.avatarJob());
    });
    const refusedMs = await timed(async () => {
      for (let i = 0; i < reads; i++) {
        const r = await runAvatarTick(app.services, now + 1000);
        if (r.ran) throw new Error("a tick ran within 30 s of the last");
      }
    });
    const perRead = (readMs * 1000) / reads;
    const perRefused = (refusedMs * 1000) / reads;
    console.log(row("single KV read (baseline)", `${perRead.toFixed(1)} µs`, 1));
    console.log(
      row(
        "refused tick (< 30 s since the last)",
        `${perRefused.toFixed(1)} µs`,
        perRefused / perRead,
      ),
    );
  } finally {
    await app.close();
  }
}

if (import.meta.main) await run();
