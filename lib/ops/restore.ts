/**
 * `deno task restore`: load a backup file (lib/ops/backup_format.ts) into an empty store.
 *
 * Two passes over the file, each streaming one line at a time: the first verifies all of
 * it (header, every entry's encoding, entry count, SHA-256) and nothing is written unless
 * it passes (`deno task restore` runs it, {@link verifyBackup}, before it opens the store,
 * so a missing or damaged file leaves no store file behind either); the second writes the
 * entries in atomic batches (at most 999 entries and a bounded size each, under KV's 1000
 * mutations and 800 KB per op). Every batch's op also sets `["meta", "restore"]` to
 * `{sha256, done}`, so the store always says exactly how far a restore got: a re-run with
 * the same file continues after the last committed batch (an interrupted restore resumes by
 * running the same command again), and the record is deleted when the restore ends.
 *
 * A store that holds anything (other than `["meta", "denoVersion"]`) is refused unless
 * `force`: then the backup is written over what is there, and keys the backup does not
 * hold stay. Values are written as decoded (sealed secrets stay sealed); records that
 * expire get their `expireIn` back from `expiresAt` (lib/ops/backup_scope.ts).
 *
 * A backup without `["meta", "shape"]` was taken before compact storage: when the restore
 * ends, the store's shape key and the compaction's progress are removed, so the compaction
 * migration (lib/ops/compact.ts) walks the restored records again.
 *
 * @module
 */
import { commit } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import type { BackupHeader } from "./backup_format.ts";
import { BackupFileError, readBackup } from "./backup_file.ts";
import { isStoreKey, restoredExpireIn } from "./backup_scope.ts";
import { COMPACT_JOB, COMPACT_PROGRESS } from "./compact.ts";

/** The value of `["meta", "restore"]` while a restore is under way. */
export interface RestoreProgress {
  /** SHA-256 of the backup being restored (from its trailer). */
  sha256: string;
  /** Entries of the file (in file order) committed so far. */
  done: number;
}

/** Options of {@link restoreStore}. */
export interface RestoreOptions {
  /** Write into a store that already holds data. */
  force?: boolean;
  now?: () => number;
  /** Called as the passes advance: entries verified, then entries written by this run. */
  onProgress?: (phase: "verify" | "write", done: number) => void;
  /**
   * The file as {@link verifyBackup} found it, when the caller verified it already (before
   * opening the store): the first pass is skipped. The second pass still checks that the
   * file it writes from is the one verified.
   */
  verified?: VerifiedBackup;
  /** Called once the file verified, before anything is written. */
  onVerified?: (info: { header: BackupHeader; entries: number; resumeFrom: number }) => void;
  /** Stops between two batches (what is committed stays, like after a crash). */
  signal?: AbortSignal;
}

/** What {@link restoreStore} did, or the sentence saying why it did nothing. */
export type RestoreOutcome =
  | {
    ok: true;
    header: BackupHeader;
    /** Entries in the file. */
    entries: number;
    /** Entries this run wrote (a resumed run skips those committed before). */
    written: number;
    /** Entries past their `expiresAt`, not written. */
    expired: number;
    /** Entries already committed by an earlier, interrupted run. */
    resumedFrom: number;
  }
  | { ok: false; reason: string };

/** Entries per atomic op (one more mutation is the progress record). */
const BATCH_ENTRIES = 999;
/**
 * Encoded text per op. V8's serialization of a value is at most ~3 times its encoded
 * line (a short double like `0.5` is 3 characters and 9 bytes), so this keeps an op well
 * under KV's 800 KB; a batch that is still too large is split in two.
 */
const BATCH_CHARS = 192 * 1024;
/** Key bytes per op (KV allows 80 KiB). */
const BATCH_KEY_BYTES = 64 * 1024;

const utf8 = new TextEncoder();

/** An upper bound of a key's size in KV's key encoding. */
function keyBytes(key: Deno.KvKey): number {
  let n = 0;
  for (const part of key) {
    if (typeof part === "string" || part instanceof Uint8Array) {
      const bytes = typeof part === "string" ? utf8.encode(part) : part;
      // tag, bytes (a zero byte is escaped as two), terminator
      n += 2 + bytes.length + bytes.filter((b) => b === 0).length;
    } else if (typeof part === "bigint") n += 3 + part.toString(16).length;
    else n += 9;
  }
  return n;
}

interface Pending {
  key: Deno.KvKey;
  value: unknown;
  expireIn?: number;
  /** File index of this entry + 1: `done` once it is committed. */
  through: number;
}

function isSizeError(err: unknown): boolean {
  return err instanceof TypeError && /too large|too many/i.test(err.message);
}

/** Commit `batch` with the progress record; halves it while KV says it is too large. */
async function commitBatch(kv: Deno.Kv, batch: Pending[], sha256: string): Promise<void> {
  const progress: RestoreProgress = { sha256, done: batch[batch.length - 1].through };
  try {
    await commit(kv, (op) => {
      for (const p of batch) op.set(p.key, p.value, p.expireIn ? { expireIn: p.expireIn } : {});
      op.set(keys.restoreProgress(), progress);
    });
  } catch (err) {
    if (!isSizeError(err) || batch.length === 1) throw err;
    const half = Math.ceil(batch.length / 2);
    await commitBatch(kv, batch.slice(0, half), sha256);
    await commitBatch(kv, batch.slice(half), sha256);
  }
}

/** A stored progress record, or null for anything else. */
function progressOf(v: unknown): RestoreProgress | null {
  const p = v as Partial<RestoreProgress> | null;
  return p && typeof p.sha256 === "string" && typeof p.done === "number" && p.done >= 0
    ? { sha256: p.sha256, done: p.done }
    : null;
}

/** The first key of the store that is data (not a store record), or null when empty. */
async function firstDataKey(kv: Deno.Kv): Promise<Deno.KvKey | null> {
  for await (const entry of kv.list({ prefix: [] }, { batchSize: 10 })) {
    if (!isStoreKey(entry.key)) return entry.key;
  }
  return null;
}

/** A backup file that {@link verifyBackup} read to its end and found whole. */
export interface VerifiedBackup {
  header: BackupHeader;
  /** Entries in the file. */
  entries: number;
  /** SHA-256 of the file's lines (from its trailer, checked). */
  sha256: string;
}

/**
 * The first pass of a restore on its own: read the backup at `path` to its end and check
 * all of it (header, every entry, count, checksum) without a store, so a missing, unreadable
 * or damaged file is refused before a store is opened (opening a store file creates it).
 * `onProgress` is called with the entries verified so far.
 *
 * @example
 * ```ts
 * const verified = await verifyBackup("parley.backup.gz");
 * if (!verified.ok) console.error(verified.reason);
 * ```
 */
export async function verifyBackup(
  path: string,
  onProgress?: (entries: number) => void,
): Promise<{ ok: true; backup: VerifiedBackup } | { ok: false; reason: string }> {
  let header: BackupHeader | null = null;
  try {
    for await (const item of readBackup(path)) {
      if (item.type === "header") header = item.header;
      else if (item.type === "entry") {
        if ((item.index + 1) % BATCH_ENTRIES === 0) onProgress?.(item.index + 1);
      } else {
        onProgress?.(item.entries);
        return {
          ok: true,
          backup: { header: header!, entries: item.entries, sha256: item.sha256 },
        };
      }
    }
  } catch (err) {
    if (err instanceof BackupFileError) return { ok: false, reason: err.message };
    throw err;
  }
  return { ok: false, reason: `${path} ended without its trailer.` };
}

/**
 * Verify the backup at `path`, then write it into `kv` (see the module doc).
 *
 * @example
 * ```ts
 * const kv = await Deno.openKv(":memory:");
 * const outcome = await restoreStore(kv, "parley.backup.gz");
 * if (!outcome.ok) console.error(outcome.reason);
 * kv.close();
 * ```
 */
export async function restoreStore(
  kv: Deno.Kv,
  path: string,
  opts: RestoreOptions = {},
): Promise<RestoreOutcome> {
  const now = opts.now ?? Date.now;
  let file: VerifiedBackup;
  if (opts.verified) file = opts.verified;
  else {
    const verified = await verifyBackup(path, (n) => opts.onProgress?.("verify", n));
    if (!verified.ok) return verified;
    file = verified.backup;
  }

  const earlier = progressOf((await kv.get(keys.restoreProgress())).value);
  let resumeFrom = 0;
  if (earlier && earlier.sha256 === file.sha256) {
    resumeFrom = Math.min(earlier.done, file.entries);
  } else if (earlier && !opts.force) {
    return {
      ok: false,
      reason: "The store holds an unfinished restore of another backup file: run the restore " +
        "again with that file to finish it, or pass --force to write this one over it.",
    };
  } else if (!earlier && !opts.force) {
    const first = await firstDataKey(kv);
    if (first) {
      // Only the first part of the key: later parts can be tokens (a session id).
      const where = JSON.stringify([first[0]], printable);
      return {
        ok: false,
        reason: `The store is not empty (it holds keys under ${where}): restore loads a backup ` +
          "into an empty store; pass --force to write the backup over what it holds.",
      };
    }
  }
  opts.onVerified?.({ header: file.header, entries: file.entries, resumeFrom });

  let batch: Pending[] = [];
  let chars = 0;
  let keyBytesInBatch = 0;
  let written = 0;
  let expired = 0;
  /** Whether the backup holds `["meta", "shape"]` (keys.storeShape()). */
  let hasShape = false;
  const flush = async () => {
    if (batch.length === 0) return;
    opts.signal?.throwIfAborted();
    await commitBatch(kv, batch, file.sha256);
    written += batch.length;
    opts.onProgress?.("write", written);
    batch = [];
    chars = 0;
    keyBytesInBatch = 0;
  };
  try {
    for await (const item of readBackup(path)) {
      if (item.type === "end") {
        // The file is read twice; a file replaced in between is not the one verified.
        if (item.sha256 !== file.sha256) {
          throw new BackupFileError(`${path} changed while it was being restored.`);
        }
        break;
      }
      if (item.type !== "entry") continue;
      if (item.key.length === 2 && item.key[0] === "meta" && item.key[1] === "shape") {
        hasShape = true;
      }
      if (item.index < resumeFrom || isStoreKey(item.key)) continue;
      const expireIn = restoredExpireIn(item.key, item.value, now());
      if (expireIn === 0) {
        expired++;
        continue;
      }
      const kb = keyBytes(item.key);
      if (
        batch.length >= BATCH_ENTRIES || chars + item.chars > BATCH_CHARS ||
        keyBytesInBatch + kb > BATCH_KEY_BYTES
      ) await flush();
      batch.push({ key: item.key, value: item.value, expireIn, through: item.index + 1 });
      chars += item.chars;
      keyBytesInBatch += kb;
    }
    await flush();
  } catch (err) {
    if (err instanceof BackupFileError) return { ok: false, reason: err.message };
    throw err;
  }
  opts.onProgress?.("write", written);
  await commit(kv, (op) => {
    op.delete(keys.restoreProgress());
    // Records of older shapes may have come in: the compaction migration looks again.
    // (Its periodic job record goes too: the next resume pass makes it due at once.)
    if (!hasShape) {
      op.delete(keys.storeShape()).delete(keys.backfill(COMPACT_PROGRESS))
        .delete(keys.job(COMPACT_JOB, "main"));
    }
  });
  return {
    ok: true,
    header: file.header,
    entries: file.entries,
    written,
    expired,
    resumedFrom: resumeFrom,
  };
}

/** JSON.stringify replacer for a key part that may be a bigint or bytes. */
function printable(_name: string, v: unknown): unknown {
  if (typeof v === "bigint") return `${v}n`;
  if (v instanceof Uint8Array) return `<${v.length} bytes>`;
  return v;
}
