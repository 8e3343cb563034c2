/**
 * Lighthouse on the four pages that represent the site: `/`, a question page, a finished
 * debate (`/debates/:id`) and `/docs/api`, all four categories (performance,
 * accessibility, best practices, SEO), Lighthouse's default mobile emulation and its
 * desktop preset.
 *
 * The store is seeded first in a temp file through the app itself (a question answered by
 * a person and the AI panel, a debate run to its end, both by the offline stand-in model),
 * then `main.ts` serves it in local mode on loopback as in production, and `npx
 * lighthouse` runs Debian's Chromium (`CHROMIUM_PATH`, default /usr/bin/chromium) against
 * it. Prints one line per page and form factor with the four scores and, for any score
 * under 100, the audits that cost it.
 *
 * `deno task build && deno run -A bench/lighthouse.ts [path…]` (about half a minute per page
 * and form factor); paths given (`/`, `/questions/:id`, `/debates/:id`, `/docs/api`) run
 * those alone.
 *
 * @module
 */
import { createTestApp, ROOT, signInAs, waitForJobs } from "../tests/helpers/app.ts";
import { freePort } from "../tests/helpers/oauth.ts";

const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;

/** Seed a question (with the panel's answers) and a finished debate; returns their ids. */
async function seed(kvPath: string): Promise<{ questionId: string; debateId: string }> {
  const t = await createTestApp({ kvPath, env: { EXPERT_PANEL_PER_DAY: "20" } });
  try {
    const { cookie } = await signInAs(t, "Ada Lovelace");
    const headers = {
      cookie,
      origin: t.services.config.appOrigin,
      "content-type": "application/json",
    };
    const asked = await t.request("/api/questions", {
      method: "POST",
      headers,
      body: JSON.stringify({
        title: "How do I keep a long-running Deno KV migration resumable?",
        description:
          "I migrate a few million keys and the process may restart at any time. What should I store, and where?",
        tags: ["deno", "kv"],
      }),
    });
    if (asked.status !== 201) throw new Error(`ask: ${asked.status} ${await asked.text()}`);
    const questionId = ((await asked.json()) as { id: string }).id;
    const answered = await t.request(`/api/questions/${questionId}/messages`, {
      method: "POST",
      headers,
      body: JSON.stringify({
        content: "Write a cursor after each batch, in the same atomic commit as the batch.",
      }),
    });
    await answered.body?.cancel();
    const started = await t.request("/api/debate", {
      method: "POST",
      headers,
      body: JSON.stringify({
        topic: "Should cities build more protected bike lanes?",
        userProfile: { name: "Ada's agent" },
      }),
    });
    if (started.status !== 200) throw new Error(`debate: ${started.status}`);
    // The stream ends when the debate does.
    const text = await started.text();
    const debateId = text.match(/"id":"(debate_[^"]+)"/)?.[1];
    if (!debateId) throw new Error("no debate id in the stream");
    await waitForJobs(60_000);
    return { questionId, debateId };
  } finally {
    await t.close();
  }
}

/** Start main.ts on `kvPath` in local mode; resolves once it answers. */
async function serve(kvPath: string, port: number): Promise<Deno.ChildProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${ROOT}/main.ts`],
    cwd: ROOT,
    env: {
      KV_PATH: kvPath,
      PORT: String(port),
      LOCAL_MODE: "on",
      HOSTNAME: "127.0.0.1",
      APP_ORIGIN: `http://127.0.0.1:${port}`,
    },
    stdout: "null",
    stderr: "null",
  }).spawn();
  for (let i = 0; i < 100; i++) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/`);
      await res.body?.cancel();
      if (res.ok) return child;
    } catch { /* not listening yet */ }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill();
  throw new Error("main.ts did not start");
}

interface LighthouseReport {
  categories: Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] }>;
  audits: Record<string, { score: number | null; title: string; displayValue?: string }>;
}

/** Run Lighthouse once; returns the four scores (0–100) and what cost points. */
async function lighthouse(
  url: string,
  desktop: boolean,
  outDir: string,
): Promise<{ scores: number[]; losses: string[] }> {
  const out = `${outDir}/${crypto.randomUUID()}.json`;
  const args = [
    "-y",
    "lighthouse@12",
    url,
    "--quiet",
    "--output=json",
    `--output-path=${out}`,
    `--only-categories=${CATEGORIES.join(",")}`,
    "--chrome-flags=--headless=new --no-sandbox --disable-gpu",
    ...(desktop ? ["--preset=desktop"] : []),
  ];
  const run = await new Deno.Command("npx", {
    args,
    env: { CHROME_PATH: Deno.env.get("CHROMIUM_PATH") ?? "/usr/bin/chromium" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!run.success) throw new Error(new TextDecoder().decode(run.stderr).slice(-2000));
  const report = JSON.parse(await Deno.readTextFile(out)) as LighthouseReport;
  const scores = CATEGORIES.map((c) => Math.round((report.categories[c].score ?? 0) * 100));
  const losses: string[] = [];
  for (const c of CATEGORIES) {
    for (const ref of report.categories[c].auditRefs) {
      const audit = report.audits[ref.id];
      if (ref.weight > 0 && audit.score !== null && audit.score < 1) {
        losses.push(`${c}: ${audit.title}${audit.displayValue ? ` (${audit.displayValue})` : ""}`);
      }
    }
  }
  return { scores, losses };
}

if (import.meta.main) {
  const dir = await Deno.makeTempDir({ prefix: "parley-lighthouse-" });
  const kvPath = `${dir}/parley.kv`;
  const { questionId, debateId } = await seed(kvPath);
  const port = freePort();
  const server = await serve(kvPath, port);
  const origin = `http://127.0.0.1:${port}`;
  try {
    const all = ["/", `/questions/${questionId}`, `/debates/${debateId}`, "/docs/api"];
    const label = (path: string) => path.replace(questionId, ":id").replace(debateId, ":id");
    const paths = Deno.args.length ? all.filter((p) => Deno.args.includes(label(p))) : all;
    console.log(`Lighthouse (${CATEGORIES.join(" / ")}):`);
    for (const desktop of [false, true]) {
      for (const path of paths) {
        const { scores, losses } = await lighthouse(`${origin}${path}`, desktop, dir);
        const label = path.replace(questionId, ":id").replace(debateId, ":id");
        console.log(
          `  ${desktop ? "desktop" : "mobile "} ${label.padEnd(16)} ${scores.join(" / ")}`,
        );
        for (const loss of losses) console.log(`      ${loss}`);
      }
    }
  } finally {
    server.kill();
    await server.status;
    await Deno.remove(dir, { recursive: true });
  }
}
