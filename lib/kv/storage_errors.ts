/**
 * What a failing store means, read from the error Deno KV throws. SQLite reports a full
 * disk, a read-only file and a damaged file as plain errors whose message is all there is
 * (measured on Deno 2.5 and 2.9: a `TypeError("database or disk is full")` from `set`, an
 * `Error("attempt to write a readonly database")`, `"database disk image is malformed"`,
 * `"file is not a database"`), so the message is what is classified.
 *
 * These are not bugs of ours and not bad input: a request that meets one answers 503 with
 * a sentence and `Retry-After` (lib/http/errors.ts `storageError`), `/healthz` reports it
 * (lib/kv/health.ts), and start-up stops with one line naming `KV_PATH`
 * (lib/kv/open.ts `openKvOrExit`). See docs/decisions.md#storage.
 *
 * @module
 */

/** What is wrong with the store. */
export type StoreFailureKind = "full" | "read-only" | "damaged" | "disk";

/** A classified store failure: its kind and the sentence a client is told. */
export interface StoreFailure {
  kind: StoreFailureKind;
  /** One sentence for a client; says nothing of paths or internals. */
  sentence: string;
  /** What is wrong, in a few words ("the disk is full"), for `/healthz` and logs. */
  what: string;
}

/** Seconds a client waits before retrying a request that met a store failure. */
export const STORE_RETRY_AFTER_S = 30;

const PATTERNS: [StoreFailureKind, RegExp][] = [
  ["full", /database or disk is full|SQLITE_FULL|\bENOSPC\b|no space left on device/i],
  [
    "read-only",
    /attempt to write a readonly database|SQLITE_READONLY|\bEROFS\b|read-only file system/i,
  ],
  [
    "damaged",
    /database disk image is malformed|file is not a database|SQLITE_CORRUPT|SQLITE_NOTADB/i,
  ],
  ["disk", /disk I\/O error|SQLITE_IOERR/i],
];

const WHAT: Record<StoreFailureKind, string> = {
  full: "the disk is full",
  "read-only": "the store is read-only",
  damaged: "the store is damaged",
  disk: "the disk reported an error",
};

const SENTENCES: Record<StoreFailureKind, string> = {
  full: "Parley cannot save changes right now: its storage is full. Please retry later.",
  "read-only":
    "Parley cannot save changes right now: its storage is read-only. Please retry later.",
  damaged: "Parley cannot use its storage right now: the store is damaged. Please retry later.",
  disk: "Parley cannot use its storage right now: the disk reported an error. Please retry later.",
};

/**
 * The store failure `err` reports, or null for any other error (a lock, a bug, bad input).
 *
 * @example
 * ```ts
 * storeFailure(new TypeError("database or disk is full"))?.kind; // "full"
 * storeFailure(new Error("boom")); // null
 * ```
 */
export function storeFailure(err: unknown): StoreFailure | null {
  const message = err instanceof Error ? err.message : typeof err === "string" ? err : "";
  if (!message) return null;
  for (const [kind, pattern] of PATTERNS) {
    if (pattern.test(message)) return { kind, sentence: SENTENCES[kind], what: WHAT[kind] };
  }
  return null;
}

/** What opening the store met, as {@link openFailureLine} reads it. */
export interface OpenFailureFacts {
  /** `KV_PATH` as configured (undefined: the platform's default store). */
  path: string | undefined;
  /** What `Deno.openKv` (or the first read) threw. */
  error: unknown;
  /** Whether the file exists and this process may read it (undefined: not known). */
  readable?: boolean;
  /** Whether this process may open the file for writing (undefined: not known). */
  writable?: boolean;
}

/**
 * The one line start-up prints when the store cannot be opened: what `KV_PATH` names, what
 * is wrong, and what to do. No stack.
 *
 * @example
 * ```ts
 * openFailureLine({ path: "data/parley.kv", error: new Error("file is not a database") });
 * // "Cannot start: KV_PATH=data/parley.kv is not a Deno KV store (file is not a database). …"
 * ```
 */
export function openFailureLine({ path, error, readable, writable }: OpenFailureFacts): string {
  const where = path === undefined ? "the default store (KV_PATH unset)" : `KV_PATH=${path}`;
  const raw = (error instanceof Error ? error.message : String(error)).split("\n")[0];
  // SQLite appends the path to some messages; the line names it once, first.
  const reason = path ? raw.replace(`: ${path}`, "").trim() : raw.trim();
  const kind = storeFailure(error)?.kind;
  if (kind === "full") {
    return `Cannot start: the disk holding ${where} is full (${reason}). ` +
      "Free some space there, then start again.";
  }
  if (
    kind === "read-only" || (/unable to open database file/i.test(reason) && readable && !writable)
  ) {
    return `Cannot start: ${where} is read-only (${reason}). ` +
      "Give this process write access to the file and its folder, or point KV_PATH at a writable copy.";
  }
  if (/file is not a database|SQLITE_NOTADB/i.test(reason)) {
    return `Cannot start: ${where} is not a Deno KV store (${reason}). ` +
      "Point KV_PATH at the store's file, or restore a backup into a new path with `deno task restore`.";
  }
  if (kind === "damaged") {
    return `Cannot start: ${where} is damaged (${reason}). ` +
      "Restore the last backup into a new path with `deno task restore` and point KV_PATH at it.";
  }
  if (kind === "disk") {
    return `Cannot start: the disk holding ${where} reported an error (${reason}). ` +
      "Check the disk, or restore the last backup elsewhere with `deno task restore`.";
  }
  return `Cannot start: ${where} cannot be opened (${reason}). ` +
    "Check that KV_PATH names a file (or a folder to create it in) this process may read and write.";
}
