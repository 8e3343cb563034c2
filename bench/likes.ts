/**
 * The likes row of the speed bench (bench/speed.ts) on its own, for quick before/after runs:
 * `POST /api/likes` with 200 voters (one connection each) on one question, over HTTP, next
 * to raw KV `sum` commits/s with 200 writers on the same store, and whether the likes left
 * exact counts (up counter == voter keys). Each side runs its own tree's code over its own
 * KV file (bench/speed_worker.ts), in the same run.
 *
 * `deno run -A bench/likes.ts [beforeRoot]` — the before side is `beforeRoot` (a built
 * tree) if given, else {@link BEFORE_COMMIT} (or BENCH_BEFORE; `none` skips it) checked out
 * and built for the run (bench/before_tree.ts). BENCH_SECONDS (default 4), BENCH_QUESTIONS
 * (default 1000), BENCH_ROUNDS (default 1: alternate the sides that many times).
 *
 * @module
 */
import { likesLoad, type LoadResult, startTree } from "./harness.ts";
import { BEFORE_COMMIT, withBeforeTree } from "./before_tree.ts";

interface Info {
  url: string;
  questionId: string;
  voterCookies: string[];
}

interface Inproc {
  sumRate?: number;
  counts?: { likedBy: number; up: number };
}

const ROOT = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
const seconds = Number(Deno.env.get("BENCH_SECONDS") ?? 4);
const rounds = Number(Deno.env.get("BENCH_ROUNDS") ?? 1);
if (!Deno.env.get("BENCH_QUESTIONS")) Deno.env.set("BENCH_QUESTIONS", "1000");
const commit = Deno.env.get("BENCH_BEFORE") ?? BEFORE_COMMIT;
if (Deno.args[0]) await runSides(Deno.args[0]);
else if (commit === "none") await runSides(null);
else await withBeforeTree(commit, runSides);

/** Alternate the before tree (if any) and this checkout, `rounds` times. */
async function runSides(before: string | null): Promise<void> {
  const sides = [
    ...(before ? [{ name: "before", root: before }] : []),
    { name: "after", root: ROOT },
  ];
  const dir = await Deno.makeTempDir({ prefix: "parley-likes-" });
  try {
    for (let round = 1; round <= rounds; round++) {
      for (const s of sides) {
        const kvPath = `${dir}/${s.name}-${round}.kv`;
        const srv = await startTree<Info>(s.root, "serve", kvPath);
        let r: LoadResult;
        try {
          r = await likesLoad(srv.info, seconds);
        } finally {
          await srv.stop();
        }
        const w = await startTree<Inproc>(s.root, "inproc", kvPath, ["sum"]);
        await w.stop();
        const c = await startTree<Inproc>(s.root, "inproc", kvPath, ["counts"]);
        await c.stop();
        const sum = w.info.sumRate!;
        const { up, likedBy } = c.info.counts!;
        console.log(
          `${s.name} (round ${round}): ${r.requestsPerSec.toFixed(0)} votes/s, ` +
            `raw sum ${sum.toFixed(0)}/s, ratio ${(r.requestsPerSec / sum).toFixed(2)}×, ` +
            `p50/p99 ${r.latencyP50}/${r.latencyP99} ms, non-2xx ${r.non2xx}, errors ${r.errors}, ` +
            `up=${up} voter keys=${likedBy} (${up === likedBy ? "exact" : "INCONSISTENT"})`,
        );
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
