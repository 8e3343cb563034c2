/**
 * Page weight: the bytes of the 30-answer question page of the throughput goals
 * (bench/goals.ts's server, bench/speed_worker.ts `serve`, over HTTP) as sent, raw and with
 * `Accept-Encoding: br`, signed out and signed in, and how much of the raw HTML is inline
 * `<svg>` (count and bytes) and `<use>` references.
 * `deno run -A bench/page_weight.ts [tree]` (default: this tree; another tree's root
 * measures that tree with this script, e.g. a checkout of the commit before a change).
 *
 * Last measured (Deno 2.9.6), before the icon sprite (7e565e8) → after: signed out
 * 205,685 → 165,984 bytes raw, 9,599 → 8,988 as brotli, 153 `<svg>` of 79,002 → 39,301
 * bytes; signed in 272,184 → 224,864 raw, 12,537 → 11,782 brotli, 186 `<svg>` of 92,371 →
 * 45,051 bytes (docs/decisions.md, "Page weight").
 *
 * @module
 */
import { startTree } from "./harness.ts";

const ROOT = new URL("..", import.meta.url).pathname.replace(/\/$/, "");

interface Info {
  url: string;
  questionId: string;
  viewerCookie: string;
}

/** Count and total bytes of the `<svg>…</svg>` elements in `html`, and its `<use>`s. */
function svgWeight(html: string): { count: number; bytes: number; uses: number } {
  let count = 0;
  let total = 0;
  for (const m of html.matchAll(/<svg\b[\s\S]*?<\/svg>/g)) {
    count++;
    total += new TextEncoder().encode(m[0]).length;
  }
  return { count, bytes: total, uses: html.match(/<use\b/g)?.length ?? 0 };
}

/**
 * GET `url` with `headers` as the bytes sent, undecoded (by curl: Deno's fetch decodes a
 * `Content-Encoding` body, and so, at times, does its node:http).
 */
async function get(
  url: string,
  headers: Record<string, string>,
): Promise<{ body: Uint8Array; encoding: string | null }> {
  const dir = await Deno.makeTempDir({ prefix: "parley-weight-get-" });
  try {
    const args = ["-sf", "-D", `${dir}/head`, "-o", `${dir}/body`, url];
    for (const [k, v] of Object.entries(headers)) args.push("-H", `${k}: ${v}`);
    const out = await new Deno.Command("curl", { args }).output();
    if (!out.success) throw new Error(`curl ${url} failed`);
    const head = await Deno.readTextFile(`${dir}/head`);
    const encoding = /^content-encoding:\s*(\S+)/im.exec(head)?.[1] ?? null;
    return { body: await Deno.readFile(`${dir}/body`), encoding };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) {
  const tree = Deno.args[0] ?? ROOT;
  if (!Deno.env.get("BENCH_QUESTIONS")) Deno.env.set("BENCH_QUESTIONS", "1000");
  const dir = await Deno.makeTempDir({ prefix: "parley-weight-" });
  const srv = await startTree<Info>(tree, "serve", `${dir}/weight.kv`);
  try {
    const { url, questionId, viewerCookie } = srv.info;
    for (const [name, cookie] of [["signed out", ""], ["signed in", viewerCookie]]) {
      const headers: Record<string, string> = cookie ? { cookie } : {};
      const page = `${url}/questions/${questionId}`;
      // A few loads first: the first signed-out load fills the page cache, and the first
      // renders of a new page may lack what is computed after them.
      for (let i = 0; i < 3; i++) await get(page, headers);
      const plain = await get(page, headers);
      const html = new TextDecoder().decode(plain.body);
      const raw = plain.body.length;
      // A new instance loads brotli (node:zlib) after its first compressible answer, and
      // gzips or sends as is until it has: ask until the answer is brotli.
      const br1 = { ...headers, "accept-encoding": "br" };
      let sent = await get(page, br1);
      for (let i = 0; i < 20 && sent.encoding !== "br"; i++) {
        await new Promise((r) => setTimeout(r, 50));
        sent = await get(page, br1);
      }
      const { body, encoding } = sent;
      const br = body.length;
      const svg = svgWeight(html);
      console.log(
        `question page, 30 answers, ${name}: ${raw} bytes raw, ${br} ${encoding ?? "raw"} · ` +
          `${svg.count} <svg> (${svg.bytes} bytes), ${svg.uses} <use>`,
      );
    }
  } finally {
    await srv.stop();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}
