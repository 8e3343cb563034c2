/**
 * ("Speed"): every row of the table, before and after in the same run.
 *
 * "Before" is the tree before the speed work ({@link BEFORE_COMMIT}), which the bench
 * checks out into a temporary git worktree, builds and removes (bench/before_tree.ts; on a
 * tarball or shallow clone the column is skipped with a line saying so); "after" is this
 * checkout. Each runs as its own server process over its own KV file seeded identically
 * (bench/speed_worker.ts, with the tree's own modules), and each figure is printed next to
 * its same-run baseline: a bare Hono JSON route (HTTP rows) or raw KV `sum` commits with
 * 200 writers on the same store (votes). The `sort=votes` row (after only: the before tree
 * has no answer order) reads page 1 of a 10,000-answer question. Then the page cache's
 * invalidation strategies (1 s TTL vs `kv.watch` on a version key).
 *
 * Environment: BENCH_SECONDS (default 5), BENCH_QUESTIONS (default 100000),
 * BENCH_LONG_ANSWERS (default 10000: the `sort=votes` question), BENCH_BEFORE (the
 * before commit, default {@link BEFORE_COMMIT}; `none` skips the column), BENCH_BASE_DIR
 * (an already built tree to use as "before" instead of checking one out).
 *
 * @module
 */
import { Hono } from "hono";
import { encode, loadZlib } from "../lib/http/compress.ts";
import { serveOnLoopback } from "../tests/helpers/app.ts";
import { likesLoad, type LoadConfig, type LoadResult, loadWith, startTree } from "./harness.ts";
import { BEFORE_COMMIT, onInterrupt, withBeforeTree } from "./before_tree.ts";

const ROOT = new URL("..", import.meta.url).pathname.replace(/\/$/, "");

interface Info {
  url: string;
  questionId: string;
  viewerCookie: string;
  voterCookies: string[];
  agentKeys: string[];
  longQuestionId?: string;
  unbuiltQuestionId?: string;
}

interface Inproc {
  questionSignedIn?: { rps: number; p50: number; p99: number };
  homeSignedIn?: { rps: number; p50: number; p99: number };
  homeBytes?: number;
  questionBytes?: number;
  sumRate?: number;
  counts?: { likedBy: number; up: number };
  questionProfile?: { name: string; share: number }[];
  homeProfile?: { name: string; share: number }[];
}

const f0 = (n: number) => n.toFixed(0);
const f2 = (n: number) => n.toFixed(2);
const lat = (r: { latencyP50: number; latencyP99: number }) => `${r.latencyP50}/${r.latencyP99}`;

function table(rows: string[][]): void {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  for (const [i, r] of rows.entries()) {
    console.log(r.map((cell, c) => cell.padEnd(widths[c])).join(" | "));
    if (i === 0) console.log(widths.map((w) => "-".repeat(w)).join("-|-"));
  }
}

/** Notification latency of `kv.watch` on a version key, and what a bump costs a write. */
async function watchVsTtl(seconds: number): Promise<string[]> {
  const dir = await Deno.makeTempDir({ prefix: "parley-watch-" });
  const out: string[] = [];
  try {
    const path = `${dir}/w.kv`;
    const kv = await Deno.openKv(path);
    const other = await Deno.openKv(path);
    const key = ["bench_version", "questions"];
    await kv.set(["warm"], 1);
    // 1. Same handle / second handle in the same process: time from commit to callback.
    for (
      const [name, watcher] of [["same handle", kv], [
        "second handle, same process",
        other,
      ]] as const
    ) {
      const stream = watcher.watch([key]);
      const reader = stream.getReader();
      await reader.read(); // the current value
      const times: number[] = [];
      let missed = 0;
      for (let i = 0; i < 200; i++) {
        const start = performance.now();
        await kv.atomic().sum(key, 1n).commit();
        const got = await Promise.race([
          reader.read().then(() => true),
          new Promise<false>((r) => setTimeout(() => r(false), 2000)),
        ]);
        if (!got) {
          missed++;
          break;
        }
        times.push(performance.now() - start);
      }
      await reader.cancel();
      times.sort((a, b) => a - b);
      out.push(
        times.length
          ? `kv.watch (${name}): bump → callback p50 ${f2(times[times.length >> 1])} ms, p99 ${
            f2(times[Math.floor(times.length * 0.99)])
          } ms over ${times.length} bumps`
          : `kv.watch (${name}): no notification within 2 s (missed ${missed})`,
      );
    }
    // 2. Another process: does a watch see a write made by another process on the file?
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "eval",
        `const kv = await Deno.openKv(${JSON.stringify(path)});
         const r = kv.watch([${JSON.stringify(key)}]).getReader();
         await r.read(); console.log("ready");
         const s = performance.now();
         const t = setTimeout(() => { console.log("none"); Deno.exit(0); }, 3000);
         await r.read(); clearTimeout(t); console.log("seen " + (performance.now() - s).toFixed(1)); Deno.exit(0);`,
      ],
      stdout: "piped",
      env: { DENO_NO_UPDATE_CHECK: "1" },
    }).spawn();
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (!text.includes("ready")) text += (await reader.read()).value ?? "";
    const before = performance.now();
    await kv.atomic().sum(key, 1n).commit();
    while (!/seen|none/.test(text)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
    }
    await child.status;
    const seen = /seen ([\d.]+)/.exec(text);
    out.push(
      seen
        ? `kv.watch (another process on the file): seen after ${f2(performance.now() - before)} ms`
        : "kv.watch (another process on the file): NOT seen within 3 s — on a local SQLite file a watcher sees only its own process's writes, so a TTL is needed anyway",
    );
    // 3. What the version bump costs every write: 200 writers, set vs set + sum(version).
    const rate = async (bump: boolean) => {
      const end = performance.now() + seconds * 1000;
      const start = performance.now();
      let n = 0;
      await Promise.all(Array.from({ length: 200 }, async (_, w) => {
        while (performance.now() < end) {
          const op = kv.atomic().set(["row", w, n], n);
          if (bump) op.sum(key, 1n);
          await op.commit();
          n++;
        }
      }));
      return n / ((performance.now() - start) / 1000);
    };
    const plain = await rate(false);
    const bumped = await rate(true);
    out.push(
      `writes, 200 writers: ${f0(plain)}/s plain vs ${f0(bumped)}/s with a version sum (${
        f2(bumped / plain)
      }×)`,
    );
    other.close();
    kv.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  return out;
}

/** Run the speed table, with a before tree built for the run (or none). */
export async function run(): Promise<void> {
  const seconds = Number(Deno.env.get("BENCH_SECONDS") ?? 5);
  const given = Deno.env.get("BENCH_BASE_DIR");
  const commit = Deno.env.get("BENCH_BEFORE") ?? BEFORE_COMMIT;
  console.log(`\nSpeed — ${seconds}s per run; after = ${ROOT}`);
  if (given) {
    console.log(`  before: ${given} (BENCH_BASE_DIR)`);
    return await runSides(given, seconds);
  }
  if (commit === "none") {
    console.log("  before: skipped (BENCH_BEFORE=none)");
    return await runSides(null, seconds);
  }
  await withBeforeTree(commit, (root) => runSides(root, seconds));
}

/** The table for `baseDir` (the before tree, null for none) and this checkout. */
async function runSides(baseDir: string | null, seconds: number): Promise<void> {
  const withBase = baseDir !== null;
  const dir = await Deno.makeTempDir({ prefix: "parley-speed-" });
  const forgetDir = onInterrupt(() => Deno.removeSync(dir, { recursive: true }));
  const bare = new Hono().get("/json", (c) => c.json({ ok: true, message: "hello" }));
  const bareSrv = serveOnLoopback(bare.fetch);
  const sides: { name: string; root: string }[] = [
    ...(baseDir !== null ? [{ name: "before", root: baseDir }] : []),
    { name: "after", root: ROOT },
  ];
  const servers: Awaited<ReturnType<typeof startTree<Info>>>[] = [];
  try {
    for (const s of sides) {
      const started = performance.now();
      // Only this checkout seeds the sort=votes questions (the before tree has no order).
      const extra = s.root === ROOT ? ["long"] : [];
      servers.push(await startTree<Info>(s.root, "serve", `${dir}/${s.name}.kv`, extra));
      console.log(
        `  ${s.name}: seeded and serving in ${f0((performance.now() - started) / 1000)} s`,
      );
    }
    // Let the stores settle after seeding (SQLite checkpoints the WAL of 100,000 fresh
    // questions; start-up jobs run once): the first row measured a transient otherwise.
    await new Promise((r) => setTimeout(r, 5000));
    const http = async (cfg: Omit<LoadConfig, "url"> & { path: string }) => {
      const res: LoadResult[] = [];
      for (const srv of servers) {
        const { path, ...rest } = cfg;
        await loadWith({ ...rest, url: `${srv.info.url}${path}`, seconds: 1 }); // warm
        res.push(await loadWith({ ...rest, url: `${srv.info.url}${path}`, seconds }));
      }
      return res;
    };
    const bareRun = () => loadWith({ url: `${bareSrv.url}/json`, seconds, connections: 50 });
    await loadWith({ url: `${bareSrv.url}/json`, seconds: 1, connections: 50 });

    const rows: string[][] = [[
      "measure",
      "goal",
      "before",
      "after",
      "baseline",
      "before×",
      "after×",
      "p50/p99 ms before",
      "p50/p99 ms after",
      "p50/p99 ms baseline",
    ]];
    const pick = (r: LoadResult[]) =>
      (withBase ? r : [undefined, ...r]) as (LoadResult | undefined)[];
    const httpRow = (name: string, goal: string, unit: string, r: LoadResult[], b: LoadResult) => {
      const [before, after] = pick(r);
      rows.push([
        name,
        goal,
        before ? `${f0(before.requestsPerSec)} ${unit}` : "-",
        `${f0(after!.requestsPerSec)} ${unit}`,
        `${f0(b.requestsPerSec)} req/s`,
        before ? f2(before.requestsPerSec / b.requestsPerSec) + "×" : "-",
        f2(after!.requestsPerSec / b.requestsPerSec) + "×",
        before ? lat(before) : "-",
        lat(after!),
        lat(b),
      ]);
    };
    const q = (i: number) => servers[i].info.questionId;
    const failures: string[] = [];
    const notesAfterTable: string[] = [];
    const notes: string[] = [];
    const check = (name: string, r: LoadResult[]) =>
      r.forEach((x, i) => {
        if (x.non2xx + x.errors > 0) {
          (sides[i].name === "after" ? failures : notes).push(
            `${name} (${sides[i].name}): ${x.non2xx} non-2xx (${
              x.status5xx ?? "?"
            } ≥500), ${x.errors} errors`,
          );
        }
      });

    // GET / signed out.
    let b = await bareRun();
    let r = await http({ path: "/", connections: 50 });
    check("GET /", r);
    httpRow("GET / signed out, 20 questions, HTTP", "≥ 0.25×", "req/s", r, b);
    // GET /questions/:id signed out — each side its own question id.
    b = await bareRun();
    r = [];
    for (const [i, srv] of servers.entries()) {
      const url = `${srv.info.url}/questions/${q(i)}`;
      await loadWith({ url, seconds: 1, connections: 50 });
      r.push(await loadWith({ url, seconds, connections: 50 }));
    }
    check("GET /questions/:id", r);
    httpRow("GET /questions/:id signed out, 30 answers, HTTP", "≥ 0.20×", "req/s", r, b);
    // The same page as browsers ask for it (every browser sends Accept-Encoding).
    const browser = [{ "accept-encoding": "gzip, deflate, br" }];
    r = [];
    for (const [i, srv] of servers.entries()) {
      const url = `${srv.info.url}/questions/${q(i)}`;
      await loadWith({ url, seconds: 1, connections: 50, headerSets: browser });
      r.push(await loadWith({ url, seconds, connections: 50, headerSets: browser }));
    }
    check("GET /questions/:id (br)", r);
    httpRow("  same, Accept-Encoding as a browser sends it", "(context)", "req/s", r, b);
    // The ceiling for those bytes: a bare route answering the after side's page as a
    // constant, uncompressed and compressed — what the transport and the load generator
    // allow for a body that size, with no app at all.
    const after = servers[servers.length - 1];
    const pageUrl = `${after.info.url}/questions/${q(servers.length - 1)}`;
    const plainBody = new Uint8Array(
      await (await fetch(pageUrl, {
        headers: { "accept-encoding": "identity" },
      })).arrayBuffer(),
    );
    await loadZlib(); // loaded on first use (lib/http/compress.ts), so not loaded here yet
    const brBody = encode(plainBody, "br");
    const constant = serveOnLoopback((req) =>
      req.headers.get("accept-encoding")
        ? new Response(brBody as BodyInit, {
          headers: { "content-type": "text/html; charset=utf-8", "content-encoding": "br" },
        })
        : new Response(plainBody as BodyInit, {
          headers: { "content-type": "text/html; charset=utf-8" },
        })
    );
    const ceiling = [];
    for (const headerSets of [undefined, browser]) {
      await loadWith({ url: constant.url, seconds: 1, connections: 50, headerSets });
      ceiling.push(await loadWith({ url: constant.url, seconds, connections: 50, headerSets }));
    }
    await constant.close();
    notesAfterTable.push(
      `question page body: ${f0(plainBody.length / 1024)} KB (${
        f0(brBody.length / 1024)
      } KB brotli); a bare route answering those bytes as a constant: ${
        f0(ceiling[0].requestsPerSec)
      } req/s = ${f2(ceiling[0].requestsPerSec / b.requestsPerSec)}× bare JSON uncompressed, ${
        f0(ceiling[1].requestsPerSec)
      } req/s = ${
        f2(ceiling[1].requestsPerSec / b.requestsPerSec)
      }× brotli — the most any app can reach for that page on this transport and load generator`,
    );
    // GET /api/questions page 1.
    b = await bareRun();
    r = await http({ path: "/api/questions", connections: 50 });
    check("GET /api/questions", r);
    httpRow("GET /api/questions page 1, 100,000 questions", "≥ 0.20×", "req/s", r, b);
    // GET /api/agent/questions, 50 keys.
    b = await bareRun();
    r = [];
    for (const srv of servers) {
      const cfg = {
        url: `${srv.info.url}/api/agent/questions`,
        connections: 50,
        headerSets: srv.info.agentKeys.map((k) => ({ authorization: `Bearer ${k}` })),
      };
      await loadWith({ ...cfg, seconds: 1 });
      r.push(await loadWith({ ...cfg, seconds }));
    }
    check("GET /api/agent/questions", r);
    httpRow("GET /api/agent/questions, 50 keys, 50 connections", "≥ 0.15×, 0 ≥ 500", "req/s", r, b);
    const agent5xx = r.map((x) => x.status5xx ?? 0);
    // GET /api/questions/:id?sort=votes, 10,000 answers (after only), on one connection:
    // the latency of one read, next to bare Hono JSON on one connection in the same run.
    const long = servers[servers.length - 1].info;
    if (long.longQuestionId && long.unbuiltQuestionId) {
      const one = async (url: string) => {
        await loadWith({ url, seconds: 1, connections: 1 }); // warm
        return await loadWith({ url, seconds, connections: 1 });
      };
      const bare1 = await one(`${bareSrv.url}/json`);
      for (
        const [name, goal, id] of [
          ["GET /api/questions/:id?sort=votes, 10,000 answers", "p50 ≤ 10 ms", long.longQuestionId],
          ["  same, order not built (every answer ranked)", "(context)", long.unbuiltQuestionId],
        ] as const
      ) {
        const x = await one(`${long.url}/api/questions/${id}?sort=votes`);
        if (x.non2xx + x.errors > 0) {
          failures.push(`${name}: ${x.non2xx} non-2xx, ${x.errors} errors`);
        }
        rows.push([
          name,
          goal,
          "-",
          `${f0(x.requestsPerSec)} req/s`,
          `${f0(bare1.requestsPerSec)} req/s (1 conn)`,
          "-",
          f2(x.requestsPerSec / bare1.requestsPerSec) + "×",
          "-",
          lat(x),
          lat(bare1),
        ]);
      }
    }
    // POST /api/likes, 200 voters on one question, against raw sum commits on that store.
    const likes: LoadResult[] = [];
    for (const [i, srv] of servers.entries()) {
      likes.push(await likesLoad({ ...srv.info, questionId: q(i) }, seconds));
    }
    check("POST /api/likes", likes);
    for (const s of servers) await s.stop();
    servers.length = 0;

    // In-process: signed-in pages, bytes per render, raw sum commits, exact counts.
    const inproc: Inproc[] = [];
    for (const s of sides) {
      const w = await startTree<Inproc>(s.root, "inproc", `${dir}/${s.name}.kv`);
      inproc.push(w.info);
      await w.stop();
    }
    // Where the time still goes (after only): the top functions by self time.
    const prof = await startTree<Inproc>(ROOT, "inproc", `${dir}/after.kv`, ["profile"]);
    await prof.stop();
    const [ib, ia] = (withBase ? inproc : [undefined, ...inproc]) as (Inproc | undefined)[];
    const [lb, la] = pick(likes);
    rows.push([
      "POST /api/likes, 200 voters on one question",
      "≥ 0.5× raw sum, exact",
      lb ? `${f0(lb.requestsPerSec)} votes/s` : "-",
      `${f0(la!.requestsPerSec)} votes/s`,
      `${ib ? f0(ib.sumRate!) + " / " : ""}${f0(ia!.sumRate!)} sum/s`,
      lb ? f2(lb.requestsPerSec / ib!.sumRate!) + "×" : "-",
      f2(la!.requestsPerSec / ia!.sumRate!) + "×",
      lb ? lat(lb) : "-",
      lat(la!),
      "-",
    ]);
    const sq = (x?: Inproc) => x?.questionSignedIn;
    rows.push([
      "GET /questions/:id signed in, 30 answers, in-process",
      "≥ 10× before",
      ib ? `${f0(sq(ib)!.rps)} req/s` : "-",
      `${f0(sq(ia)!.rps)} req/s`,
      "before",
      "1×",
      ib ? f2(sq(ia)!.rps / sq(ib)!.rps) + "×" : "-",
      ib ? `${f2(sq(ib)!.p50)}/${f2(sq(ib)!.p99)}` : "-",
      `${f2(sq(ia)!.p50)}/${f2(sq(ia)!.p99)}`,
      "-",
    ]);
    rows.push([
      "bytes allocated per home render (signed in, heap sampler)",
      "≤ ½ before",
      ib ? `${f0(ib.homeBytes! / 1024)} KB` : "-",
      `${f0(ia!.homeBytes! / 1024)} KB`,
      "before",
      "1×",
      ib ? f2(ia!.homeBytes! / ib.homeBytes!) + "×" : "-",
      ib ? `${f2(ib.homeSignedIn!.p50)}/${f2(ib.homeSignedIn!.p99)}` : "-",
      `${f2(ia!.homeSignedIn!.p50)}/${f2(ia!.homeSignedIn!.p99)}`,
      "-",
    ]);
    console.log();
    table(rows);
    for (const n of notesAfterTable) console.log(`\n  ${n}`);
    console.log(
      `\n  agent API responses ≥ 500: ${agent5xx.join(" / ")} (before / after)` +
        `\n  question page bytes per render (signed in): ${
          ib ? f0(ib.questionBytes! / 1024) + " KB before, " : ""
        }${f0(ia!.questionBytes! / 1024)} KB after` +
        `\n  home signed in, in-process: ${ib ? f0(ib.homeSignedIn!.rps) + " req/s before, " : ""}${
          f0(ia!.homeSignedIn!.rps)
        } req/s after`,
    );
    for (const [i, x] of inproc.entries()) {
      const c = x.counts!;
      const ok = c.likedBy === c.up;
      console.log(
        `  likes ${sides[i].name}: up=${c.up}, voter keys=${c.likedBy} (${
          ok ? "exact" : "INCONSISTENT"
        })`,
      );
      if (!ok) {
        (sides[i].name === "after" ? failures : notes).push(
          `likes ${sides[i].name}: counts differ`,
        );
      }
    }
    if (notes.length) console.log(`  before-side failures (not ours): ${notes.join("; ")}`);
    for (
      const [name, top] of [
        ["question page, signed in", prof.info.questionProfile],
        ["home, signed in", prof.info.homeProfile],
      ] as const
    ) {
      console.log(`\nTop costs after, ${name} (CPU profile, share of all samples):`);
      for (const f of top ?? []) {
        console.log(`  ${(f.share * 100).toFixed(1).padStart(5)}%  ${f.name}`);
      }
    }

    console.log("\nPage cache invalidation: 1 s TTL vs kv.watch on a version key");
    for (const line of await watchVsTtl(Math.min(seconds, 3))) console.log(`  ${line}`);
    if (failures.length) {
      console.error(`\nFailures:\n  ${failures.join("\n  ")}`);
      Deno.exitCode = 1;
    }
  } finally {
    for (const s of servers) await s.stop();
    await bareSrv.close();
    await Deno.remove(dir, { recursive: true });
    forgetDir();
  }
}

if (import.meta.main) await run();
