/**
 * What `deno task fsck` found: a count per invariant and kind of problem, a few example
 * keys of each (escaped for a terminal), how many of them a repair fixed, and how many
 * could not be confirmed because a live writer changed them meanwhile.
 *
 * @module
 */
import { type ProgressReporter, progressReporter } from "../progress.ts";

/** One kind of problem of one invariant, as counted. */
export interface Finding {
  invariant: string;
  kind: string;
  /** Problems found (confirmed on a fresh read). */
  count: number;
  /** Of those, fixed by the repair. */
  fixed: number;
  /** Example keys, escaped ({@link escapeKey}). */
  examples: string[];
}

/** Options of {@link FsckReport}. */
export interface FsckReportOptions {
  /** Example keys kept per kind (3 by default). */
  examples?: number;
  /** Where progress lines go (stderr in the task); none by default. */
  progress?: (line: string) => void;
}

/** Longest key part shown in an example (a longer one is cut with "…"). */
const PART_CHARS = 80;

/**
 * A key as one line of printable ASCII: JSON, with every character outside printable
 * ASCII escaped as `\uXXXX` (no terminal control sequence, no bidi override, no
 * newline can pass), bigints as `12n`, bytes as `<n bytes>`, long parts cut.
 *
 * @example
 * ```ts
 * escapeKey(["votes", "question", "q-1\u001b[2J", "u_1"]);
 * // '["votes","question","q-1\\u001b[2J","u_1"]'
 * ```
 */
export function escapeKey(key: readonly Deno.KvKeyPart[]): string {
  const parts = key.map((p) => {
    if (typeof p === "bigint") return `${p}n`;
    if (p instanceof Uint8Array) return `<${p.length} bytes>`;
    if (typeof p === "string" && p.length > PART_CHARS) return `${p.slice(0, PART_CHARS)}…`;
    if (typeof p === "number" && !Number.isFinite(p)) return String(p);
    return p;
  });
  return JSON.stringify(parts).replace(
    /[^\x20-\x7e]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * The findings of one fsck run.
 *
 * @example
 * ```ts
 * const report = new FsckReport();
 * report.found("votes", "vote counter differs from its voter entries", ["vote_counts", "question", "q-1", "up"]);
 * report.clean; // false
 * report.lines(); // ["votes: 1 problem", "  vote counter differs …: 1 (e.g. [\"vote_counts\",…])"]
 * ```
 */
export class FsckReport {
  readonly #findings = new Map<string, Finding>();
  readonly #examples: number;
  readonly #progress?: (line: string) => void;
  /** Problems that a live writer changed before they could be confirmed or fixed. */
  moved = 0;

  constructor(opts: FsckReportOptions = {}) {
    this.#examples = opts.examples ?? 3;
    this.#progress = opts.progress;
  }

  #finding(invariant: string, kind: string): Finding {
    const id = `${invariant}\u0000${kind}`;
    let f = this.#findings.get(id);
    if (!f) {
      f = { invariant, kind, count: 0, fixed: 0, examples: [] };
      this.#findings.set(id, f);
    }
    return f;
  }

  /** Count one problem of `kind` at `key`; `fixed` when the repair has just fixed it. */
  found(invariant: string, kind: string, key: readonly Deno.KvKeyPart[], fixed = false): void {
    const f = this.#finding(invariant, kind);
    f.count++;
    if (fixed) f.fixed++;
    if (f.examples.length < this.#examples) f.examples.push(escapeKey(key));
  }

  /**
   * A progress line writer for one pass: silent unless the report has a sink, and then
   * silent for a pass shorter than a second (a small store prints nothing).
   */
  progress(label: string): ProgressReporter {
    const sink = this.#progress;
    if (!sink) return { update() {}, finish: () => "" };
    let spoke = false;
    const start = performance.now();
    const inner = progressReporter(`fsck ${label}`, (line) => {
      spoke = true;
      sink(line);
    });
    return {
      update: (done) => inner.update(done),
      finish: (done) => {
        if (spoke || performance.now() - start >= 1000) return inner.finish(done);
        return "";
      },
    };
  }

  /** True when no problem was found. */
  get clean(): boolean {
    return this.#findings.size === 0;
  }

  /** Problems found in all. */
  get problems(): number {
    let n = 0;
    for (const f of this.#findings.values()) n += f.count;
    return n;
  }

  /** Problems fixed in all. */
  get fixed(): number {
    let n = 0;
    for (const f of this.#findings.values()) n += f.fixed;
    return n;
  }

  /** Every finding, in the order first seen. */
  findings(): Finding[] {
    return [...this.#findings.values()].map((f) => ({ ...f, examples: [...f.examples] }));
  }

  /** The count of one kind (0 when none). */
  count(invariant: string, kind: string): number {
    return this.#findings.get(`${invariant}\u0000${kind}`)?.count ?? 0;
  }

  /**
   * The report for people: per invariant a line with its total, then per kind its
   * count, what was fixed and the example keys.
   */
  lines(): string[] {
    const out: string[] = [];
    const byInvariant = new Map<string, Finding[]>();
    for (const f of this.#findings.values()) {
      byInvariant.set(f.invariant, [...(byInvariant.get(f.invariant) ?? []), f]);
    }
    for (const [invariant, list] of byInvariant) {
      const total = list.reduce((n, f) => n + f.count, 0);
      out.push(`${invariant}: ${total} ${total === 1 ? "problem" : "problems"}`);
      for (const f of list) {
        const fixed = f.fixed ? `, ${f.fixed} fixed` : "";
        out.push(`  ${f.kind}: ${f.count}${fixed} (e.g. ${f.examples.join(", ")})`);
      }
    }
    if (this.moved > 0) {
      const what = this.moved === 1 ? "suspect was" : "suspects were";
      out.push(
        `${this.moved} ${what} changed by a live writer while being checked and left ` +
          "unjudged (run fsck again, on a quiet store, to judge them)",
      );
    }
    return out;
  }
}
