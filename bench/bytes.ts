/**
 * ("Bytes"): what a question with its thread costs in the store, before and after, same run.
 *
 * Each side seeds `BENCH_BYTES_QUESTIONS` (default 2,000) questions with 3 answers and 10
 * up-votes each, the follows and notifications those make, through its own tree's write
 * functions (bench/bytes_worker.ts, in a process of its own), into a fresh KV file. The
 * closed file is VACUUMed and its WAL checkpointed (`node:sqlite`, as bench/search.ts does)
 * and its size divided by the questions is the figure (goal ≤ 10 KB), and beside it the
 * same once the rows that expire are gone (a VACUUMed copy without them). Per key
 * prefix (the key's first part): rows, encoded key bytes and value bytes (KV stores values
 * V8-serialized: this is their stored length) per question.
 *
 * "Before" is {@link BYTES_BEFORE_COMMIT}, the tree before compact storage, checked out and
 * built by bench/before_tree.ts. Environment: BENCH_BYTES_QUESTIONS, BENCH_BYTES_BEFORE (the
 * commit; `none` skips the before side).
 *
 * Last measured (2,000 questions, Deno 2.9.6, one run, `BENCH_BYTES_BEFORE=7e565e8`, the tree
 * before shapes 3–5): 24,166 → 22,893 file bytes a question (k+v 13,790 → 12,588; rows 145.6
 * both). What moved: newest-feed rows hold the question's id instead of a copy of the
 * question (`questions_by_seq` value 822 → 22 B a question; its file cost was 950 B, now
 * small enough to fall outside the 14 costed prefixes); vote rows hold one signed time
 * instead of `{voteType, createdAt}` (`votes` value 390 → 110 B, file 1,782 → 1,503 B);
 * authors' activity rows hold the question id instead of `{id, questionId}`
 * (`messages_by_author` value 192 → 66 B, file 700 → 569 B).
 * Before compact storage (7330456) the figure was ~35.3 KB. The goal (≤ 10 KB) is not met:
 * what is left is rows more than bytes — Deno KV's SQLite expiry index stores every key a
 * second time (7,832 B a question), and of the 145.6 rows a question makes 51 are search
 * postings (`sp`/`sa`, ~4.8 KB), 20 its votes in two indexes (by post for `likedBy`, by voter
 * for profile likes, ~3.2 KB), 11 notifications (~2.5 KB); the message text is ~2.7 KB.
 * A column beside it gives the file once every row written with `expireIn` is gone
 * (notifications after 90 days, per-day and rate-limit rows within days): 22,893 → 19,558
 * B a question (this tree, the next run) — what the older questions of a store cost. With
 * the unread count's expiry ledger (one small key per person per day of unread
 * notifications): 22,913 → 19,571 (145.8 rows a question).
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";
import { onInterrupt, withBeforeTree } from "./before_tree.ts";

/** The last commit before compact storage. */
export const BYTES_BEFORE_COMMIT = "7330456";
/** The goal: bytes per question with 3 answers and 10 votes, after a checkpoint. */
export const BYTES_GOAL = 10 * 1024;

const ROOT = new URL("..", import.meta.url).pathname.replace(/\/$/, "");

/** One prefix's share of a store. */
export interface PrefixBytes {
  prefix: string;
  rows: number;
  keyBytes: number;
  valueBytes: number;
  /**
   * What its rows cost in the file: how much it shrank when they were deleted and the file
   * VACUUMed (measured for the {@link COSTED_PREFIXES} largest prefixes only).
   */
  fileBytes?: number;
}

/** How many of the largest prefixes get their file cost measured (a VACUUM each). */
export const COSTED_PREFIXES = 14;

/** One side's store, measured. */
export interface StoreBytes {
  /** The file after VACUUM and a truncating WAL checkpoint. */
  fileBytes: number;
  /**
   * Of the file: the pages of the `kv` table and of its `expiration_ms` index (Deno KV's
   * SQLite schema indexes every row's expiry with the row's key: each key is stored twice).
   */
  tableBytes: number;
  expiryIndexBytes: number;
  /**
   * The file once every row written with `expireIn` is gone (VACUUMed copy): what a
   * question keeps after its notifications (90 days) and its per-day and rate-limit rows
   * (hours to days) have expired — the share of a store made of questions older than that.
   */
  lastingBytes: number;
  perPrefix: PrefixBytes[];
  seedSeconds: number;
}

/**
 * The first part of an encoded KV key as text (a string part: byte 2, then the UTF-8 bytes
 * up to an unescaped 0; other types by their type byte).
 *
 * @example
 * ```ts
 * firstPart(new Uint8Array([2, 0x71, 0, 2, 0x78, 0])); // "q"
 * ```
 */
export function firstPart(key: Uint8Array): string {
  if (key[0] !== 2) return `<type ${key[0]}>`;
  const out: number[] = [];
  for (let i = 1; i < key.length; i++) {
    if (key[i] === 0) {
      if (key[i + 1] === 0xff) {
        out.push(0);
        i++;
        continue;
      }
      break;
    }
    out.push(key[i]);
  }
  return new TextDecoder().decode(new Uint8Array(out));
}

/**
 * Measure a closed store: rows and bytes per first key part, then its file size after
 * VACUUM and `wal_checkpoint(TRUNCATE)`; then (this changes the store: call it last) the
 * largest prefixes' rows are deleted one prefix at a time, VACUUMing after each, and the
 * file's shrink is that prefix's cost.
 *
 * @example
 * ```ts
 * const m = measureStore("/tmp/store.kv");
 * console.log(m.fileBytes, m.perPrefix.length);
 * ```
 */
export function measureStore(kvPath: string): Omit<StoreBytes, "seedSeconds"> {
  const db = new DatabaseSync(kvPath);
  try {
    const by = new Map<string, PrefixBytes>();
    for (const row of db.prepare("SELECT k, length(v) AS vl FROM kv").iterate()) {
      const k = row.k as Uint8Array;
      const prefix = firstPart(k);
      const p = by.get(prefix) ?? { prefix, rows: 0, keyBytes: 0, valueBytes: 0 };
      p.rows++;
      p.keyBytes += k.length;
      p.valueBytes += Number(row.vl ?? 0);
      by.set(prefix, p);
    }
    db.exec("VACUUM");
    db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    const perPrefix = [...by.values()].sort((a, b) =>
      b.keyBytes + b.valueBytes - (a.keyBytes + a.valueBytes)
    );
    const pages = (name: string) => {
      try {
        const r = db.prepare("SELECT coalesce(sum(pgsize), 0) AS b FROM dbstat WHERE name = ?")
          .get(name) as { b: number };
        return Number(r.b);
      } catch {
        return NaN; // SQLite without the dbstat table
      }
    };
    const fileBytes = Deno.statSync(kvPath).size;
    const tableBytes = pages("kv");
    const expiryIndexBytes = pages("kv_expiration_ms_idx");
    const lastingBytes = withoutExpiring(kvPath);
    let size = fileBytes;
    for (const p of perPrefix.slice(0, COSTED_PREFIXES)) {
      const [lo, hi] = prefixRange(p.prefix);
      db.prepare("DELETE FROM kv WHERE k >= ? AND k < ?").run(lo, hi);
      db.exec("VACUUM");
      db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
      const now = Deno.statSync(kvPath).size;
      p.fileBytes = size - now;
      size = now;
    }
    return { fileBytes, tableBytes, expiryIndexBytes, lastingBytes, perPrefix };
  } finally {
    db.close();
  }
}

/** The size of a VACUUMed copy of the store without its rows that carry an expiry. */
function withoutExpiring(kvPath: string): number {
  const copy = `${kvPath}.lasting`;
  Deno.copyFileSync(kvPath, copy);
  try {
    const db = new DatabaseSync(copy);
    try {
      db.exec("DELETE FROM kv WHERE expiration_ms >= 0");
      db.exec("VACUUM");
      db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    } finally {
      db.close();
    }
    return Deno.statSync(copy).size;
  } finally {
    for (const f of [copy, `${copy}-wal`, `${copy}-shm`]) {
      try {
        Deno.removeSync(f);
      } catch { /* not there */ }
    }
  }
}

/** The encoded key range of a first key part (Deno KV's tuple encoding of a string). */
function prefixRange(name: string): [Uint8Array, Uint8Array] {
  const bytes = new TextEncoder().encode(name);
  return [new Uint8Array([2, ...bytes, 0]), new Uint8Array([2, ...bytes, 1])];
}

async function seedAndMeasure(root: string, kvPath: string, n: number): Promise<StoreBytes> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--config",
      `${root}/deno.json`,
      `${ROOT}/bench/bytes_worker.ts`,
      root,
      kvPath,
      String(n),
    ],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const forget = onInterrupt(() => child.kill("SIGKILL"));
  try {
    const out = await child.output();
    if (!out.success) throw new Error(`bytes_worker failed in ${root}`);
    const lines = new TextDecoder().decode(out.stdout).trim().split("\n");
    const { seconds } = JSON.parse(lines.at(-1)!) as { seconds: number };
    return { ...measureStore(kvPath), seedSeconds: seconds };
  } finally {
    forget();
  }
}

const thousands = (n: number) => Math.round(n).toLocaleString("en-US");

function table(rows: string[][]): void {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  for (const [i, r] of rows.entries()) {
    console.log(r.map((cell, c) => cell.padEnd(widths[c])).join(" | "));
    if (i === 0) console.log(widths.map((w) => "-".repeat(w)).join("-|-"));
  }
}

function printSides(n: number, sides: { name: string; bytes: StoreBytes }[]): void {
  console.log(
    `\nStore bytes per question (3 answers, 10 up-votes, follows and notifications; ${
      thousands(n)
    } questions, file after VACUUM + WAL checkpoint)`,
  );
  const rows = [[
    "side",
    "file bytes/question",
    "goal ≤ 10 KB",
    "of it: kv table",
    "expiry index",
    "rows/q",
    "k+v bytes/q",
    "once expiring rows are gone",
    "seed s",
  ]];
  for (const { name, bytes } of sides) {
    const perQ = bytes.fileBytes / n;
    const rowsQ = bytes.perPrefix.reduce((s, p) => s + p.rows, 0) / n;
    const kvQ = bytes.perPrefix.reduce((s, p) => s + p.keyBytes + p.valueBytes, 0) / n;
    rows.push([
      name,
      thousands(perQ),
      perQ <= BYTES_GOAL ? "met" : "NOT met",
      thousands(bytes.tableBytes / n),
      thousands(bytes.expiryIndexBytes / n),
      rowsQ.toFixed(1),
      thousands(kvQ),
      thousands(bytes.lastingBytes / n),
      bytes.seedSeconds.toFixed(0),
    ]);
  }
  table(rows);
  const prefixes = [...new Set(sides.flatMap((s) => s.bytes.perPrefix.map((p) => p.prefix)))];
  const total = (p: string) =>
    Math.max(...sides.map((s) => {
      const x = s.bytes.perPrefix.find((q) => q.prefix === p);
      return x ? x.keyBytes + x.valueBytes : 0;
    }));
  prefixes.sort((a, b) => total(b) - total(a));
  console.log(
    "\nPer key prefix, per question: rows / key bytes / value bytes [/ file bytes its rows cost]",
  );
  const head = ["prefix", ...sides.map((s) => s.name)];
  const body = prefixes.map((prefix) => [
    prefix,
    ...sides.map((s) => {
      const p = s.bytes.perPrefix.find((q) => q.prefix === prefix);
      return p
        ? `${(p.rows / n).toFixed(2)} / ${thousands(p.keyBytes / n)} / ${
          thousands(p.valueBytes / n)
        }${p.fileBytes === undefined ? "" : ` / ${thousands(p.fileBytes / n)}`}`
        : "—";
    }),
  ]);
  table([head, ...body]);
}

/**
 * Run the section: before and after, same run.
 *
 * @example
 * ```ts
 * await run();
 * ```
 */
export async function run(): Promise<void> {
  const n = Number(Deno.env.get("BENCH_BYTES_QUESTIONS") ?? 2_000);
  const commit = Deno.env.get("BENCH_BYTES_BEFORE") ?? BYTES_BEFORE_COMMIT;
  console.log(`\nBytes: ${thousands(n)} questions with their threads, before and after`);
  const dir = await Deno.makeTempDir({ prefix: "parley-bytes-" });
  const forgetDir = onInterrupt(() => Deno.removeSync(dir, { recursive: true }));
  try {
    const sides: { name: string; bytes: StoreBytes }[] = [];
    const measureBefore = async (root: string | null) => {
      if (!root) return;
      sides.push({
        name: `before (${commit})`,
        bytes: await seedAndMeasure(root, `${dir}/before.kv`, n),
      });
    };
    if (commit === "none") console.log("  before: skipped (BENCH_BYTES_BEFORE=none)");
    else await withBeforeTree(commit, measureBefore);
    sides.push({ name: "this tree", bytes: await seedAndMeasure(ROOT, `${dir}/after.kv`, n) });
    printSides(n, sides);
  } finally {
    forgetDir();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) await run();
