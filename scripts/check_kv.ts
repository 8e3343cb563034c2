/**
 * `deno task check`'s KV rules for production code (lib, routes, islands, components,
 * scripts, main.ts, dev.ts; tests and the benches, which time raw commits on purpose, are
 * not checked):
 *
 * - Every commit retries (docs/decisions.md#storage: several processes on one SQLite file see
 *   `database is locked`): an atomic op is committed through lib/kv/ — `commit(kv, build)`
 *   or `updateAtomically` of lib/kv/atomic.ts, or `withLockRetry` of lib/kv/retry.ts used
 *   inside lib/kv/. A bare commit call of an op anywhere else is an error.
 * - No KV queues (docs/decisions.md#deno-deploy: today's Deno Deploy has none): neither the queue method of
 *   `Deno.Kv` and of its atomic ops nor the queue listener. A stream controller's
 *   `enqueue` is allowed when the controller is named `…controller` (the receiver is
 *   read from the text, so that name is the convention).
 *
 * Each finding names its file and line; the exit code is 1 when there is one.
 *
 * Run: `deno run --allow-read scripts/check_kv.ts [root]`
 *
 * @module
 */

/** One broken rule. */
export interface KvFinding {
  path: string;
  line: number;
  rule: "bare-commit" | "kv-queue";
  text: string;
}

/** What is checked, relative to the repository root. */
export const CHECKED_ROOTS = [
  "lib",
  "routes",
  "islands",
  "components",
  "scripts",
  "main.ts",
  "dev.ts",
] as const;

/** True for a production source file the rules apply to (`path` relative, with `/`). */
export function isCheckedFile(path: string): boolean {
  if (!/\.tsx?$/.test(path) || /_test\.tsx?$/.test(path)) return false;
  return CHECKED_ROOTS.some((root) => path === root || path.startsWith(`${root}/`));
}

// Built so that this file does not match its own rules.
const BARE_COMMIT = /\.\s*commit\s*\(\s*\)/g;
const QUEUE_LISTENER = new RegExp(`\\blisten${"Q"}ueue\\b`, "g");
/** A call of `enqueue`, with the identifier before its dot, if any (a chained call has none). */
const ENQUEUE = /([A-Za-z_$][\w$]*)?\s*\??\.\s*enqueue\s*\(/g;

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < index; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

/**
 * The rules' findings in one file's text (`path` relative to the repository root, with
 * `/`).
 *
 * @example
 * ```ts
 * declare const source: string;
 * for (const f of findKvViolations("lib/x.ts", source)) console.log(f.line, f.rule);
 * ```
 */
export function findKvViolations(path: string, text: string): KvFinding[] {
  const out: KvFinding[] = [];
  const add = (rule: KvFinding["rule"], index: number) => {
    const line = lineAt(text, index);
    out.push({ path, line, rule, text: text.split("\n")[line - 1].trim() });
  };
  if (!path.startsWith("lib/kv/")) {
    for (const m of text.matchAll(BARE_COMMIT)) {
      add("bare-commit", m.index + m[0].indexOf("commit"));
    }
  }
  for (const m of text.matchAll(QUEUE_LISTENER)) add("kv-queue", m.index);
  for (const m of text.matchAll(ENQUEUE)) {
    if (m[1] && /controller$/i.test(m[1])) continue;
    add("kv-queue", m.index + m[0].lastIndexOf("enqueue"));
  }
  return out.sort((a, b) => a.line - b.line);
}

async function* sourceFiles(root: string, rel: string): AsyncGenerator<string> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(`${root}/${rel}`);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return;
    throw err;
  }
  if (info.isFile) {
    if (isCheckedFile(rel)) yield rel;
    return;
  }
  const names: string[] = [];
  for await (const e of Deno.readDir(`${root}/${rel}`)) names.push(e.name);
  for (const name of names.sort()) yield* sourceFiles(root, `${rel}/${name}`);
}

/**
 * Every finding under `root` (the repository).
 *
 * @example
 * ```ts
 * const findings = await checkKvUse(".");
 * if (findings.length > 0) console.log(findings[0].path);
 * ```
 */
export async function checkKvUse(root: string): Promise<KvFinding[]> {
  const out: KvFinding[] = [];
  for (const top of CHECKED_ROOTS) {
    for await (const path of sourceFiles(root, top)) {
      out.push(...findKvViolations(path, await Deno.readTextFile(`${root}/${path}`)));
    }
  }
  return out;
}

const WHY: Record<KvFinding["rule"], string> = {
  "bare-commit":
    "an atomic op committed without retry; use commit(kv, build) or updateAtomically from lib/kv/atomic.ts",
  "kv-queue":
    "a KV queue call; today's Deno Deploy has no KV queues (docs/decisions.md#deno-deploy)",
};

if (import.meta.main) {
  const findings = await checkKvUse(Deno.args[0] ?? ".");
  for (const f of findings) console.error(`${f.path}:${f.line}: ${WHY[f.rule]}\n    ${f.text}`);
  if (findings.length > 0) {
    console.error(`check_kv: ${findings.length} finding(s)`);
    Deno.exit(1);
  }
}
