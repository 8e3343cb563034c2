/**
 * `BENCH_ONLY=goals`: the throughput goals of the cold-start work, each as min/median/max
 * over BENCH_GOAL_RUNS (default 3) runs beside its same-run baseline, runs alternating with
 * the baseline's so both see the same machine:
 *
 * - `GET /` and a 30-answer question page, signed out, `Accept-Encoding: br`: ≥ 0.5× a
 *   bare Hono JSON route (its own runs, in this process);
 * - the 30-answer question page signed in, over HTTP: ≥ 0.1× bare Hono JSON;
 * - `POST /api/likes`, 200 voters on one question: ≥ 1.0× raw KV `sum` commits/s with 200
 *   writers on the same store, and the counts exact (up counter = voter keys).
 *
 * `BENCH_GOALS=likes` runs only the likes row (`pages` only the three page rows).
 *
 * The app runs as bench/speed_worker.ts serves it (this tree, its own process, a store of
 * BENCH_QUESTIONS questions, default 1,000 here); each ratio is of medians.
 *
 * Before the hit-path work (Deno 2.9.6, 2 shared cores, quiet): `GET /` br
 * 11487/18769/23714 req/s against 57632/66925/72282 (0.28×); the question page br
 * 8000/8153/8213 against 78541/78864/87315 (0.10×); signed in 168/168/172 against
 * 63418/65034/101946 (0.003×: the page is ~240 KB of HTML, ~160 islands, rendered per
 * request); likes 2202/2930/2931 votes/s against raw sum 4420/5037/5309 (0.58×), counts
 * exact. All four goals missed.
 *
 * ## Where a signed-out hit's time goes
 *
 * Per-request CPU (`/proc` of the server, `time` of the loader, 4 s of 50 connections),
 * against a bare Hono JSON route's 6 µs (server) + 8 µs (loader):
 *
 * | | server, before → after | loader (autocannon) |
 * | --- | --- | --- |
 * | `GET /` br | 35 → 12–13 µs | 34–36 → 26 µs (2.9 → 2.6 KB body) |
 * | question page br | 47–55 → 15–16 µs | 95–101 µs (9.6 KB body) |
 *
 * The server's share (lib/http/page_cache.ts): a hit is a `clone()` of a finished
 * Response, answered before Hono dispatches (it was a Response built from 15 stored
 * headers, each validated again, and a Blob body streamed chunked: ~11 µs and a stream per
 * hit); requests arriving during a fill share its compressed bytes (before, each
 * compressed the 200 KB page itself: about a third of the server's busy samples under
 * load); two obsolete security headers went. What is left is mostly Deno's own
 * per-request work and 13 headers.
 *
 * The loader's share is now the larger one, and it is per byte: autocannon appends every
 * body chunk to a string (its `addBody`), a UTF-8 decode that on brotli bytes costs ~5 µs
 * per KB under Deno — 48% of the loader's samples on the question page, which no browser
 * pays. So each row also prints, as information beside the goal's own figure, the same
 * load with bench/load.ts taking bodies as bytes (`bodiesAsBytes`).
 *
 * Last measured (this tree, Deno 2.9.6, 2 cores shared with other engineers' runs, a
 * quiet spell: the baseline as high as before): `GET /` br 23010/24098/24312 req/s against
 * 68509/69123/69699 (0.35×, from 0.28×); bodies as bytes 36578/37579/39107 (0.54×). The
 * question page br 8932/8962/8974 against 63542/67197/68522 (0.13×, from 0.10×); bodies
 * as bytes 33067/33451/34818 (0.50×). In a busy hour (load average 7–8) the branch's
 * starting tree (35877c8) measured 0.14× and 0.08× (as bytes 0.20× and 0.13×) where this one
 * measured 0.29–0.33× and 0.10–0.11× (as bytes 0.48–0.56× and 0.44–0.64×).
 * Both signed-out goals are still missed as measured: at ~5 µs a KB in the loader, 0.5×
 * needs a body under ~1 KB, and the pages are 2.6 and 9.6 KB of brotli; as bytes both are
 * at or above 0.5×.
 *
 * Likes again after the like-path work (`BENCH_GOALS=likes`, Deno 2.9.6, 2 cores shared
 * with other runs, load average 6–9): 3507/3545/3653 votes/s against raw sum
 * 3837/4945/5435 (0.72×), counts exact (up = voter keys = 128) — still missed. What a like
 * costs, from per-thread CPU times of the server under this load (`/proc/<pid>/task`,
 * before → after in alternating runs): the main thread ~190 → ~160 µs, SQLite's thread
 * ~127 → ~95 µs (the raw `sum` costs ~18 and ~70 µs). The cuts: small JSON answers are no
 * longer turned into streams (lib/http/compress.ts), a like reads 6 keys instead of 10
 * (the target's record and counts shared per read in flight, the sanction taken from the
 * session: lib/community/votes.ts), rate-limit logs are a `Float64Array` (lib/limits/
 * window.ts). Left per like: the session read (4 keys) and the voter's own read (2), ~1/20
 * of a group commit, the routing and middleware (about half the main thread), and for a
 * like (not an unlike) waiting for the author's coalesced peak, badges and notice.
 *
 * Likes after the API-path work (branch `apipath`, Deno 2.9.6, 2 cores shared with a
 * cold-start engineer's runs, load average 1.6–2.6): 3971/4707/4722 votes/s against raw
 * sum 2729/4237/5374 (1.11×) and 3718/4143/4748 against 4952/5041/5064 (0.82×); in the
 * quietest spell (load average 1.3) 4103/4768/4839 against 4863/4893/4952 (0.97×); counts
 * exact every time. The branch's starting tree (d1a881a), run in between: 2671/2825/3091
 * against 2699/4349/5055 (0.65×) and 3864/4055/4174 against 3558/4932/5013 (0.82×). The
 * raw `sum` swings between ~2,700 and ~5,000 commits/s from run to run while the likes
 * move less, so the ratio says "met" when another process slows SQLite's commits and
 * "missed" when it does not: against a quiet ~4,900–5,000 the likes' medians of
 * 4,143–4,768 are 0.82–0.97×, so the goal is still (narrowly) missed.
 * Per-thread CPU per like over HTTP (`/proc/<pid>/task`, 4 s of 200 connections,
 * alternating trees): the main thread 179 and 168 → 152 and 156 µs, SQLite's thread
 * ~100–106 µs on both. The cuts, each for every API request unless said: routes of literal
 * segments and `[param]`s are matched segment by segment (URLPattern's exec was ~6% of
 * the main thread; lib/fresh/routes.ts, checked against a URLPattern scan for every route);
 * a body of declared length is read in one `arrayBuffer()` instead of a stream and reader
 * (lib/http/body.ts); a small JSON answer to a client that accepts br no longer copies its
 * headers with `new Headers(res.headers)`, which iterated a dozen headers pair by pair for
 * ~20 µs (lib/http/compress.ts; the same for signed-in pages in routes/_middleware.ts);
 * the rate-limit log is one kind of array and copied whole when all of it is in the window
 * (`timesInWindow` was ~4% of the main thread); a like's follow-ups read the author's
 * statistics with the liked posts' counts in one round trip and reuse the target record
 * the vote read for its notification (lib/community/votes.ts, lib/notifications/hooks.ts).
 * Left, from a CPU profile under this load: KV reads ~25% of the main thread (the session's
 * 4 keys and the voter's 2 are two round trips per like), building and committing the
 * group's op ~20% (each vote's checks, sets and a budget log of up to `limit` times),
 * GC ~6%; routing and the middleware chain are down to a few % each.
 *
 * Final tree, one quiet machine (load average ~1.2), Deno 2.9.6, 3 runs of 5 s each:
 * `GET /` br 26936/27099/28043 req/s against bare Hono JSON 91949/95507/98810 (0.28×; as
 * bytes 60765, 0.64×); the question page br 8430/8830/9194 against 96160/96608/101779
 * (0.09×; as bytes 53757, 0.56×); signed in 180/180/186 against 99078/99821/101446
 * (0.002×); likes 4186/4357/4730 votes/s against raw sum 5027/5161/5182 (0.84×), counts
 * exact. With `deno task start`'s V8 flags (`BENCH_V8_FLAGS`), the next run: 27742 (0.27×),
 * 8646 (0.08×), 177 and 4074/5048 (0.81×) — the same within the noise. The bare baseline
 * reaches ~96–104k req/s on a quiet machine (57–79k when the earlier figures were taken),
 * so the ratios of the two signed-out rows did not rise with the app's own rates (18.8k →
 * 27.1k and 8.2k → 8.8k req/s).
 *
 * Likes after the like-read work (branch `likes2`, Deno 2.9.6, `BENCH_GOALS=likes`, 3 runs
 * of 5 s, this tree and its starting tree 7e565e8 alternating in one quiet spell, load
 * average 1.5–2.2): this tree 4429/4796/4966 votes/s against raw sum 4757/4766/4955
 * (1.01×), 4660/4732/4828 against 4977/4990/4993 (0.95×), 4809/4940/4961 against
 * 4851/4884/4945 (1.01×); the starting tree in between 4021/4428/4623 against
 * 4912/4997/5553 (0.89×), 3939/4389/4656 against 4951/4981/5099 (0.88×), 4064/4500/4554
 * against 4837/4953/5034 (0.91×); later, load 1.3–1.7, this tree 4715/4818/4846 against
 * 4764/4995/5044 (0.96×) and 4712/4780/4786 against 4439/5011/5012 (0.95×), the starting
 * tree between them 3978/4561/4761 against 4596/4893/5041 (0.93×); counts exact every
 * time. So the goal is met or within 5% as measured (medians 0.96× against the starting
 * tree's 0.90×) — at the edge, not clear of it (one more run of this tree, as the load
 * rose to 2.2, gave 0.66×). Per-thread CPU per like (`/proc/<pid>/task`, 5 s of the load
 * after 12 s that grow the budget logs as the row's later runs have them, two alternating
 * runs each, load average 1.1–1.5): the main thread 156–161 → 138–147 µs, SQLite's thread
 * 135–138 → 94–97 µs, V8's GC threads 22–24 → 18–21 µs (those runs: 3945 and 4053 →
 * 5019 and 4721 likes/s). The cuts:
 * budget logs are packed bytes (lib/limits/packed_times.ts: varint differences, 1–2 bytes
 * a hit instead of 8; a busy voter's 4.8 KB log spilled past a SQLite page and was read
 * and written whole with every vote); the session and the voter's own keys (the vote, the
 * budget log) are one `getMany` — the route reads the session in its handler
 * (`sessionRead: "handler"`, `userForSession`'s `extra`) — and the target's shared read
 * starts beside it (`startTargetRead`): one read before the group commit instead of two
 * in a row (a 6-key read costs SQLite's thread ~50 µs where 4 + 2 keys cost ~55, and the
 * main thread one op instead of two); request contexts are one class instead of object
 * literals with seven accessor closures each (the framework's path, a cookie-less POST:
 * ~41 → ~32 µs of the main thread). Left per like: one 6-key read and 1/23 of a group
 * commit on SQLite's thread; on the main thread Deno KV's op work (~18% of its samples:
 * per key read and per mutation), GC (~12%, and ~10–25 µs on V8's worker threads; ~52 KB
 * allocated a like), Deno's HTTP serving and Hono's chain. A like (not an unlike) waits
 * ~30 ms for its coalesced follow-ups (the author's peak and badges, the upvote notice)
 * under this load; answering without waiting for them measured no faster (the other
 * stages' queues grew by as much), so they are not what bounds the rate.
 *
 * This round's final tree (likes2, the icon sprite, the lazy flag dialog and the memoized
 * excerpt merged; one quiet machine, load average ~1.2, Deno 2.9.6, 3 runs of 5 s): `GET /`
 * br 26882/27701/29291 req/s against bare Hono 92742/97120/97632 (0.29×; as bytes 0.62×);
 * the question page br 8918/9031/9393 against 93843/96506/97184 (0.09×; as bytes 0.56×);
 * signed in 225/226/227 against 98733/98784/102816 (0.002×; 180 before this round); likes
 * 5214/5217/5332 votes/s against raw sum 4956/4978/5097 (1.05×, met), counts exact.
 *
 * This round (per-request brotli at quality 4, JSON-LD only on signed-out pages, sliced
 * hydration and the unread-count ledger merged; one quiet machine, load average ~1.2, Deno
 * 2.9.6, 3 runs of 5 s): `GET /` br 28923/32474/35355 req/s against bare Hono
 * 101933/105363/110189 (0.31×; as bytes 0.67×; its ceiling 0.30×; under wrk the app 0.42×,
 * its ceiling 0.51×); the question page br 8961/9060/9311 against 103379/108998/109344
 * (0.08×; as bytes 0.58×; ceiling 0.08×; under wrk 0.41× and 0.48×); signed in 288/293/298
 * against 102688/105850/106221 (0.003×; 226 before this round) — and its ceiling, a bare
 * `Deno.serve` sending the same 10,786 bytes of brotli to the same loader, 8561/8652/8665
 * (0.08×): under autocannon no server sending this page reaches the goal's 0.1×; likes
 * 5372/5424/5447 votes/s against raw sum 5320/5324/5371 (1.02×, met), counts exact.
 *
 * ## Why the signed-out rows sit where they do: the ceiling
 *
 * Each signed-out row also measures a ceiling: a bare `Deno.serve` in this process that
 * answers every request with a clone of the very response the app's cache sends (same
 * status, the same 13 headers, the same brotli bytes, taken after the app's first run), and
 * the same three servers again under `wrk` (a C load generator that reads bodies without
 * decoding them), when `wrk` is on PATH. One run (load ~1.2): under autocannon the ceiling
 * is 0.28× (`/`, 2,443 B of brotli) and 0.09× (question page, 8,956 B) where the app
 * measured 0.30× and 0.09× — the app is at the ceiling, and no server sending these bytes
 * reaches 0.5× under this loader. Under wrk the bare Hono route reaches 177–192k req/s, the
 * ceiling 0.51× and 0.45×, the app 0.43× and 0.39× (84–87% of the ceiling). So both rows
 * are bounded by what the runtime costs per response of this size and header count (a
 * `Deno.serve` answering the question page's bytes with 2 headers instead of 13 measured
 * ~108–120k against ~85k with all 13), and by the loader; what the app adds on a hit is
 * ~15% on top of the runtime's own cost.
 *
 * @module
 */
import { Hono } from "hono";
import { get as httpGet } from "node:http";
import { serveOnLoopback } from "../tests/helpers/app.ts";
import {
  formatSpread,
  likesLoad,
  type LoadConfig,
  type LoadResult,
  loadWith,
  spread,
  startTree,
} from "./harness.ts";

const ROOT = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
const RUNS = Number(Deno.env.get("BENCH_GOAL_RUNS") ?? 3);
/** Which rows run: `likes`, `pages`, or all (unset). */
const ONLY = Deno.env.get("BENCH_GOALS") ?? "all";

interface Info {
  url: string;
  questionId: string;
  viewerCookie: string;
  voterCookies: string[];
}

interface Inproc {
  sumRate?: number;
  counts?: { likedBy: number; up: number };
}

/** One goal row: the measure's runs, the baseline's runs and the goal's least ratio. */
function printRow(name: string, unit: string, xs: number[], base: number[], goal: number) {
  const m = spread(xs);
  const b = spread(base);
  const ratio = m.median / b.median;
  console.log(`${name}`);
  console.log(
    `  ${formatSpread(m)} ${unit} vs baseline ${formatSpread(b)} → ${ratio.toFixed(2)}× ` +
      `(goal ≥ ${goal}×: ${ratio >= goal ? "met" : "missed"})`,
  );
  return ratio >= goal;
}

/** Run the section. */
export async function run(): Promise<void> {
  const seconds = Number(Deno.env.get("BENCH_SECONDS") ?? 5);
  if (!Deno.env.get("BENCH_QUESTIONS")) Deno.env.set("BENCH_QUESTIONS", "1000");
  console.log(
    `\n== Throughput goals (min/median/max over ${RUNS} runs of ${seconds} s, beside same-run baselines)`,
  );
  const bare = new Hono().get("/json", (c) => c.json({ ok: true, message: "hello" }));
  const bareSrv = serveOnLoopback(bare.fetch);
  const dir = await Deno.makeTempDir({ prefix: "parley-goals-" });
  const kvPath = `${dir}/goals.kv`;
  const failures: string[] = [];
  try {
    const srv = await startTree<Info>(ROOT, "serve", kvPath);
    const { url, questionId, viewerCookie } = srv.info;
    const measure = async (cfg: Omit<LoadConfig, "seconds">): Promise<LoadResult> => {
      await loadWith({ ...cfg, seconds: 1 }); // warm
      const r = await loadWith({ ...cfg, seconds });
      if (r.non2xx + r.errors > 0) {
        failures.push(`${cfg.url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
      }
      return r;
    };
    const br = [{ "accept-encoding": "br" }];
    const rows: {
      name: string;
      cfg: Omit<LoadConfig, "seconds">;
      goal: number;
      /** Also measure with the loader taking bodies as bytes (a second, labelled line). */
      asBytes?: boolean;
    }[] = [
      {
        name: "GET / signed out, Accept-Encoding: br",
        cfg: { url: `${url}/`, connections: 50, headerSets: br },
        goal: 0.5,
        asBytes: true,
      },
      {
        name: "GET /questions/:id signed out, 30 answers, Accept-Encoding: br",
        cfg: { url: `${url}/questions/${questionId}`, connections: 50, headerSets: br },
        goal: 0.5,
        asBytes: true,
      },
      {
        name: "GET /questions/:id signed in, 30 answers, HTTP",
        cfg: {
          url: `${url}/questions/${questionId}`,
          connections: 50,
          headerSets: [{ cookie: viewerCookie, "accept-encoding": "br" }],
        },
        goal: 0.1,
      },
    ];
    let allMet = true;
    const wrk = await hasWrk();
    for (const row of ONLY === "likes" ? [] : rows) {
      const app: number[] = [];
      const base: number[] = [];
      const asBytes: number[] = [];
      const ceiling: number[] = [];
      const wrkRuns: { app: number; base: number; ceiling: number }[] = [];
      // A row's ceiling: a bare Deno.serve in this process answering the very response the
      // app answers the row's requests (same status, headers and brotli bytes), as a clone
      // of one finished Response — what the runtime and the loader allow these bytes.
      // Taken after the app's first run: for a signed-out row once the page's bytes have
      // outlived a refill and the cache sends them at brotli's best quality
      // (lib/http/page_cache.ts); for the signed-in row, the page as rendered and
      // compressed for its viewer.
      let bound: Awaited<ReturnType<typeof ceilingServer>> | null = null;
      let boundCfg: LoadConfig | null = null;
      try {
        for (let i = 0; i < RUNS; i++) {
          base.push(
            (await measure({ url: `${bareSrv.url}/json`, connections: 50 })).requestsPerSec,
          );
          app.push((await measure(row.cfg)).requestsPerSec);
          if (!bound) {
            bound = await ceilingServer(row.cfg.url, row.cfg.headerSets?.[0] ?? {});
            boundCfg = { ...row.cfg, url: bound.url };
          }
          if (row.asBytes) {
            asBytes.push((await measure({ ...row.cfg, bodiesAsBytes: true })).requestsPerSec);
          }
          if (boundCfg) ceiling.push((await measure(boundCfg)).requestsPerSec);
          if (boundCfg && wrk) {
            wrkRuns.push({
              base: await wrkRate(`${bareSrv.url}/json`, {}, seconds),
              app: await wrkRate(row.cfg.url, row.cfg.headerSets?.[0] ?? {}, seconds),
              ceiling: await wrkRate(boundCfg.url, row.cfg.headerSets?.[0] ?? {}, seconds),
            });
          }
        }
      } finally {
        await bound?.close();
      }
      allMet = printRow(row.name, "req/s", app, base, row.goal) && allMet;
      const baseMedian = spread(base).median;
      const informational = (label: string, xs: number[], over = baseMedian) => {
        const m = spread(xs);
        console.log(
          `  ${label}: ${formatSpread(m)} req/s → ${(m.median / over).toFixed(2)}× (informational)`,
        );
      };
      // Not the goal's measure: the same load with autocannon not decoding each brotli
      // body into a string (bench/load.ts), beside the same baseline runs.
      if (row.asBytes) informational("loader taking bodies as bytes", asBytes);
      if (ceiling.length && bound) {
        informational(
          `ceiling, bare Deno.serve sending the same response (${bound.bytes} B of brotli)`,
          ceiling,
        );
      }
      if (wrkRuns.length) {
        const wb = spread(wrkRuns.map((r) => r.base)).median;
        console.log(
          `  wrk (C loader, reads bodies without decoding), bare Hono ${wb.toFixed(0)} req/s:`,
        );
        informational("  app", wrkRuns.map((r) => r.app), wb);
        informational("  ceiling", wrkRuns.map((r) => r.ceiling), wb);
      }
    }
    if (ONLY !== "pages") allMet = await likesRow(srv, kvPath, seconds, failures) && allMet;
    else await srv.stop();
    console.log(allMet ? "All throughput goals met." : "Some throughput goals missed (above).");
  } finally {
    await bareSrv.close();
    await Deno.remove(dir, { recursive: true });
  }
  if (failures.length) {
    console.error(`\nFailures:\n  ${failures.join("\n  ")}`);
    Deno.exitCode = 1;
  }
}

/**
 * A loopback server answering every request with a clone of the response `url` answers
 * now to the row's headers (fetched twice with `Accept-Encoding: br`, so the second is a
 * page-cache hit on a signed-out row; a signed-in row's page is rendered for its cookie).
 */
async function ceilingServer(
  url: string,
  rowHeaders: Record<string, string>,
): Promise<{ url: string; bytes: number; close(): Promise<void> }> {
  const headers = { ...rowHeaders, "accept-encoding": "br" };
  await (await fetch(url, { headers })).arrayBuffer();
  const res = await fetch(url, { headers });
  const body = new Uint8Array(await res.arrayBuffer());
  // fetch decoded the body: take the brotli bytes again from a raw read of the encoding.
  const raw = res.headers.get("content-encoding") === "br" ? await rawBody(url, headers) : body;
  const kept = [...res.headers].filter(([k]) => k !== "content-length" && k !== "date");
  const template = new Response(raw as BodyInit, { status: res.status, headers: kept });
  const srv = serveOnLoopback(() => template.clone());
  return { url: `${srv.url}${new URL(url).pathname}`, bytes: raw.byteLength, close: srv.close };
}

/** The body bytes `url` sends for `Accept-Encoding: br`, as sent (node:http does not decode). */
function rawBody(url: string, headers: Record<string, string>): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    httpGet(url, { headers }, (res) => {
      const chunks: Uint8Array[] = [];
      res.on("data", (c: Uint8Array) => chunks.push(c));
      res.on("end", () => resolve(concatBytes(chunks)));
      res.on("error", reject);
    }).on("error", reject);
  });
}

/** `parts` as one array. */
function concatBytes(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

/** True when `wrk` (a C load generator) is on PATH. */
async function hasWrk(): Promise<boolean> {
  try {
    return (await new Deno.Command("wrk", { args: ["--version"], stdout: "null", stderr: "null" })
      .output()).code !== 127;
  } catch {
    return false;
  }
}

/** Requests per second `wrk` (1 thread, 50 connections) reaches on `url` in `seconds`. */
async function wrkRate(url: string, headers: Record<string, string>, seconds: number) {
  const args = ["-t1", "-c50", `-d${seconds}s`];
  for (const [k, v] of Object.entries(headers)) args.push("-H", `${k}: ${v}`);
  const run = (a: string[]) =>
    new Deno.Command("wrk", { args: [...a, url], stdout: "piped" }).output();
  await run(["-t1", "-c50", "-d1s"]); // warm
  const out = new TextDecoder().decode((await run(args)).stdout);
  const m = /Requests\/sec:\s+([0-9.]+)/.exec(out);
  if (!m) throw new Error(`wrk printed no rate for ${url}`);
  if (/Non-2xx/.test(out)) throw new Error(`wrk saw non-2xx answers from ${url}`);
  return Number(m[1]);
}

/**
 * The likes row: the server's runs, then (server stopped) raw `sum` runs on the same
 * store, then whether the counts are exact. True when the goal is met.
 */
async function likesRow(
  srv: { info: Info; stop(): Promise<void> },
  kvPath: string,
  seconds: number,
  failures: string[],
): Promise<boolean> {
  const likes: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const r = await likesLoad(srv.info, seconds);
    if (r.non2xx + r.errors > 0) {
      failures.push(`POST /api/likes: ${r.non2xx} non-2xx, ${r.errors} errors`);
    }
    likes.push(r.requestsPerSec);
  }
  await srv.stop();
  const sums: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const w = await startTree<Inproc>(ROOT, "inproc", kvPath, ["sum"]);
    await w.stop();
    sums.push(w.info.sumRate!);
  }
  const c = await startTree<Inproc>(ROOT, "inproc", kvPath, ["counts"]);
  await c.stop();
  const { up, likedBy } = c.info.counts!;
  const met = printRow("POST /api/likes, 200 voters on one question", "votes/s", likes, sums, 1.0);
  console.log(
    `  counts: up=${up}, voter keys=${likedBy} (${up === likedBy ? "exact" : "INCONSISTENT"})`,
  );
  if (up !== likedBy) failures.push("likes: counts differ");
  return met && up === likedBy;
}

if (import.meta.main) await run();
