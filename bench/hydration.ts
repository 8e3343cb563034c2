/**
 * `BENCH_ONLY=hydration`: what waking a long page's islands costs a phone, before and after,
 * same run. Each side serves the signed-in 30-answer question page of bench/speed_worker.ts
 * (its own tree's code and store); Chromium (playwright-core, /usr/bin/chromium) opens it
 * BENCH_HYDRATION_LOADS times (default 5) at 390×844 with the CPU throttled 4× (a
 * phone-speed CPU), and records the long tasks (over 50 ms, the Long Tasks API) that start
 * once the document is parsed (`domInteractive`) until the root says
 * `data-islands="ready"`: the longest, and the blocking time (the sum of each one's time
 * over 50 ms, as Lighthouse's TBT counts it), min/median/max over the loads.
 *
 * "Before" is BENCH_HYDRATION_BEFORE (default 3df9e64, the tree before sliced hydration),
 * built by bench/before_tree.ts; `none` skips it. Skipped with a line when Chromium is
 * missing. Not part of CI.
 *
 * Last measured (Deno 2.9.6, 2 cores shared with other runs, 5 loads a side): see
 * docs/decisions.md#islands.
 *
 * @module
 */
import { withBeforeTree } from "./before_tree.ts";
import { formatSpread, spread, startTree } from "./harness.ts";
import { launchBrowser } from "../tests/helpers/browser.ts";

const ROOT = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
const LOADS = Number(Deno.env.get("BENCH_HYDRATION_LOADS") ?? 5);
const BEFORE = Deno.env.get("BENCH_HYDRATION_BEFORE") ?? "3df9e64";
/** Where tests/helpers/browser.ts `launchBrowser` finds Chromium. */
const CHROMIUM = Deno.env.get("CHROMIUM_PATH") ?? "/usr/bin/chromium";

interface Info {
  url: string;
  questionId: string;
  viewerCookie: string;
}

/** One side's loads: the longest task and the blocking time of each. */
interface Side {
  name: string;
  longest: number[];
  blocking: number[];
  islands: number;
}

async function measure(root: string, name: string): Promise<Side> {
  const dir = await Deno.makeTempDir({ prefix: "parley-hydration-" });
  const srv = await startTree<Info>(root, "serve", `${dir}/store.kv`);
  const browser = await launchBrowser();
  const side: Side = { name, longest: [], blocking: [], islands: 0 };
  try {
    const { url, questionId, viewerCookie } = srv.info;
    const [cookieName, cookieValue] = viewerCookie.split(/=(.*)/s);
    for (let i = 0; i < LOADS + 1; i++) {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      await context.addCookies([{ name: cookieName, value: cookieValue, url }]);
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
      await page.addInitScript(() => {
        const g = globalThis as unknown as { longTasks: [number, number][] };
        g.longTasks = [];
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) g.longTasks.push([e.startTime, e.duration]);
        }).observe({ type: "longtask", buffered: true });
      });
      await page.goto(`${url}/questions/${questionId}`);
      await page.waitForSelector('html[data-islands="ready"]', { timeout: 60_000 });
      const got = await page.evaluate(() => {
        const g = globalThis as unknown as { longTasks: [number, number][] };
        const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
        return {
          parsed: nav.domInteractive,
          now: performance.now(),
          tasks: g.longTasks,
          islands: document.querySelectorAll("parley-island[data-hydrated]").length,
        };
      });
      await context.close();
      if (i === 0) continue; // warms the server's caches and Chromium's
      const tasks = got.tasks.filter(([start]) => start >= got.parsed && start <= got.now)
        .map(([, d]) => d);
      side.longest.push(tasks.length ? Math.max(...tasks) : 0);
      side.blocking.push(tasks.reduce((s, d) => s + Math.max(0, d - 50), 0));
      side.islands = got.islands;
    }
  } finally {
    await browser.close();
    await srv.stop();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
  return side;
}

/** Run the section. */
export async function run(): Promise<void> {
  console.log(
    `\n== Hydration on a phone-speed CPU (signed-in 30-answer question page, 390×844, ` +
      `4× CPU throttling, ${LOADS} loads; long tasks from parsed to islands ready, ms)`,
  );
  try {
    await Deno.stat(CHROMIUM);
  } catch {
    console.log(`  skipped: no Chromium at ${CHROMIUM} (apt-get install chromium)`);
    return;
  }
  if (!Deno.env.get("BENCH_QUESTIONS")) Deno.env.set("BENCH_QUESTIONS", "200");
  const sides: Side[] = [];
  if (BEFORE !== "none") {
    await withBeforeTree(BEFORE, async (root) => {
      if (root) sides.push(await measure(root, `before (${BEFORE})`));
    });
  }
  sides.push(await measure(ROOT, "this tree"));
  for (const s of sides) {
    console.log(
      `${s.name.padEnd(18)} longest task ${formatSpread(spread(s.longest))}  ` +
        `blocking time ${formatSpread(spread(s.blocking))}  (${s.islands} islands)`,
    );
  }
}
