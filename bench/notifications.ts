/**
 * `deno task bench` section `notifications` (BENCH_ONLY=notifications): 1,000 open unread
 * streams (`GET /api/notifications/stream`, one user each) held by one process, over
 * loopback, next to same-run baselines:
 *
 * - memory per stream: (RSS and heap after opening − before) ÷ streams, against 1,000 idle
 *   SSE streams on a bare Hono `streamSSE` endpoint that does nothing;
 * - write → event at the client, p50/p99: a notification committed for a random user until
 *   that user's stream delivers the new count, against the raw `kv.watch` latency of one key.
 *
 * Client and server share the process (both sides' memory is in the delta, for both rows).
 * STREAMS (default 1000) and SAMPLES (default 200) bound it.
 */
import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { serveOnLoopback, signInAs } from "../tests/helpers/app.ts";
import { benchApp, row } from "./harness.ts";
import { notifyInOp } from "../lib/notifications/notifications.ts";

const STREAMS = Number(Deno.env.get("STREAMS") ?? 1000);
const SAMPLES = Number(Deno.env.get("SAMPLES") ?? 200);

function mem() {
  const m = Deno.memoryUsage();
  return { rss: m.rss, heap: m.heapUsed };
}

async function settle() {
  for (let i = 0; i < 3; i++) {
    // deno-lint-ignore no-explicit-any
    (globalThis as any).gc?.();
    await new Promise((r) => setTimeout(r, 200));
  }
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p / 100 * s.length))];
}

/** An open stream whose frames are read as they come; `next(pred)` waits for one. */
function follow(res: Response) {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  type Waiter = { pred: (d: string) => boolean; resolve: (t: number) => void };
  const state: { waiter: Waiter | null } = { waiter: null };
  (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let end;
        while ((end = buffer.indexOf("\n\n")) !== -1) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const w = state.waiter;
          if (w && w.pred(frame)) {
            state.waiter = null;
            w.resolve(performance.now());
          }
        }
      }
    } catch { /* closed */ }
  })();
  return {
    next: (pred: (d: string) => boolean) =>
      new Promise<number>((resolve) => state.waiter = { pred, resolve }),
    close: () => reader.cancel().catch(() => {}),
  };
}

async function openMany(url: string, headers: (i: number) => HeadersInit) {
  const streams: ReturnType<typeof follow>[] = [];
  for (let i = 0; i < STREAMS; i += 50) {
    const batch = await Promise.all(
      Array.from(
        { length: Math.min(50, STREAMS - i) },
        (_, j) => fetch(url, { headers: headers(i + j) }),
      ),
    );
    const refused = batch.find((res) => res.status !== 200);
    if (refused) throw new Error(`${url}: a stream was refused (${refused.status})`);
    streams.push(...batch.map(follow));
  }
  return streams;
}

export async function run(): Promise<void> {
  console.log(`\nNotifications — ${STREAMS} open streams in one process, loopback`);

  // Baseline 1: idle SSE streams on bare Hono.
  const bare = new Hono().get("/sse", (c) =>
    streamSSE(c, async (s) => {
      await s.writeSSE({ event: "hello", data: "{}" });
      await new Promise<void>((r) => s.onAbort(() => r()));
    }));
  const bareSrv = serveOnLoopback(bare.fetch);
  await settle();
  const b0 = mem();
  const bareStreams = await openMany(`${bareSrv.url}/sse`, () => ({}));
  await settle();
  const b1 = mem();
  for (const s of bareStreams) s.close();
  await bareSrv.close();

  // Parley: one user per stream.
  // One address opens every stream here, as many people would: lift the per-address cap,
  // and the process cap to the streams held.
  const app = await benchApp({
    env: { STREAMS_PER_IP: "1000000", STREAMS_PER_PROCESS: String(STREAMS + 10) },
  });
  const users: { id: string; cookie: string }[] = [];
  for (let i = 0; i < STREAMS; i++) {
    const { user, cookie } = await signInAs(app, `Bench ${i}`);
    users.push({ id: user.id, cookie });
  }
  const srv = serveOnLoopback(app.app.fetch);
  await settle();
  const p0 = mem();
  const streams = await openMany(
    `${srv.url}/api/notifications/stream`,
    (i) => ({ cookie: users[i].cookie }),
  );
  await new Promise((r) => setTimeout(r, 500));
  await settle();
  const p1 = mem();

  // Write → event at the client.
  const lat: number[] = [];
  const counts = new Map<number, number>();
  for (let k = 0; k < SAMPLES; k++) {
    const i = Math.floor(Math.random() * STREAMS);
    const n = (counts.get(i) ?? 0) + 1;
    counts.set(i, n);
    const seen = streams[i].next((f) => f.includes(`"unread":${n}`));
    const t0 = performance.now();
    const op = app.kv.atomic();
    notifyInOp(op, users[i].id, {
      type: "answer",
      actor: { id: "u-bench", name: "Bench", avatarUrl: null },
      questionId: "q-bench",
      messageId: null,
      answerId: null,
      title: "Bench",
      text: "bench",
    }, Date.now());
    await op.commit();
    lat.push((await seen) - t0);
  }

  // Baseline 2: raw kv.watch of one key.
  const raw: number[] = [];
  const key = ["bench_watch", "k"];
  const reader = app.kv.watch([key]).getReader();
  await reader.read();
  for (let k = 0; k < SAMPLES; k++) {
    const t0 = performance.now();
    await app.kv.set(key, k);
    await reader.read();
    raw.push(performance.now() - t0);
  }
  await reader.cancel();

  for (const s of streams) s.close();
  await srv.close();
  await app.close();

  const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
  const per = (a: { rss: number; heap: number }, b: { rss: number; heap: number }) => ({
    rss: (b.rss - a.rss) / STREAMS,
    heap: (b.heap - a.heap) / STREAMS,
  });
  const bp = per(b0, b1);
  const pp = per(p0, p1);
  console.log(row("bare Hono streamSSE, RSS per idle stream", kib(bp.rss)));
  console.log(row("bare Hono streamSSE, heap per idle stream", kib(bp.heap)));
  console.log(row("notification stream, RSS per stream", kib(pp.rss), pp.rss / bp.rss));
  console.log(row("notification stream, heap per stream", kib(pp.heap), pp.heap / bp.heap));
  const ms = (x: number) => `${x.toFixed(2)} ms`;
  console.log(row("raw kv.watch, write → event p50", ms(pct(raw, 50))));
  console.log(row("raw kv.watch, write → event p99", ms(pct(raw, 99))));
  console.log(
    row("notification, write → client event p50", ms(pct(lat, 50)), pct(lat, 50) / pct(raw, 50)),
  );
  console.log(
    row("notification, write → client event p99", ms(pct(lat, 99)), pct(lat, 99) / pct(raw, 99)),
  );
}

if (import.meta.main) await run();
