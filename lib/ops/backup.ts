/**
 * `deno task backup`: every key and value of a store into one backup file
 * (lib/ops/backup_format.ts), streamed: one page of the store and one compressed chunk
 * in memory at a time, at any store size.
 *
 * The file is written as `<file>.partial` and renamed to `<file>` only once complete
 * (trailer written, data flushed), so an interrupted backup never leaves a file that looks
 * whole; a re-run starts over (a gzip stream cannot be continued, and a copy from the start
 * is the only one whose checksum covers what the store holds then). A missing folder on
 * the way is created, as restore creates a store's folder. Where a backup may go at all (not
 * over the store itself, nor over an existing file unasked) is lib/ops/backup_target.ts,
 * checked by `deno task backup` before the store is opened.
 *
 * A backup reads the store page by page, each page at one moment, not the whole store
 * at one moment: taken while people write, it can hold a vote without the counter move of
 * the same op. Secrets are copied as stored (sealed), never opened. Values are written as
 * stored but for one thing: a notification that "mark all read" covered carries its read
 * flag (which notifications it covered goes by commit order, and a restore writes them all
 * anew: lib/notifications/unread.ts `notificationsForBackup`).
 *
 * @module
 */
import { createHash } from "node:crypto";
import { dirname } from "node:path";
import { entryLine, headerLine, trailerLine } from "./backup_format.ts";
import { writeCompressed } from "./backup_file.ts";
import { isStoreKey } from "./backup_scope.ts";
import { notificationsForBackup } from "../notifications/unread.ts";

/** Options of {@link backupStore}. */
export interface BackupOptions {
  /** The build id to name in the header (`.build/build.json`), `null` when unknown. */
  build?: string | null;
  now?: () => number;
  /** Called with the number of entries written so far, every few hundred and at the end. */
  onProgress?: (entries: number) => void;
  /** Stops the backup (the `.partial` file stays, like after a crash). */
  signal?: AbortSignal;
}

/** What {@link backupStore} wrote. */
export interface BackupResult {
  entries: number;
  sha256: string;
  /** Size of the compressed file. */
  bytes: number;
}

/** Entries read from the store per page. */
const PAGE = 500;
/** Text handed to the compressor at a time. */
const CHUNK_CHARS = 64 * 1024;

/**
 * Write every key and value of `kv` to `path` (through `path.partial`), creating its folder
 * when missing. Replaces a file at `path`: check it first with `checkBackupTarget`
 * (lib/ops/backup_target.ts).
 *
 * @example
 * ```ts
 * const kv = await Deno.openKv(":memory:");
 * const { entries, sha256 } = await backupStore(kv, "/tmp/parley.backup.gz");
 * kv.close();
 * ```
 */
export async function backupStore(
  kv: Deno.Kv,
  path: string,
  opts: BackupOptions = {},
): Promise<BackupResult> {
  const now = opts.now ?? Date.now;
  const partial = `${path}.partial`;
  const hash = createHash("sha256");
  let entries = 0;
  let sha256 = "";
  async function* chunks(): AsyncGenerator<string> {
    let text = headerLine({
      createdAt: new Date(now()).toISOString(),
      build: opts.build ?? null,
      deno: Deno.version.deno,
    }) + "\n";
    const notification = notificationsForBackup(kv);
    for await (const entry of kv.list({ prefix: [] }, { batchSize: PAGE })) {
      opts.signal?.throwIfAborted();
      if (isStoreKey(entry.key)) continue;
      // Read state a restore could not rebuild goes into the row (lib/notifications/unread.ts).
      const value = entry.key[0] === "notifications" ? await notification(entry) : entry.value;
      text += entryLine(entry.key, value) + "\n";
      entries++;
      if (text.length >= CHUNK_CHARS) {
        hash.update(text);
        yield text;
        text = "";
      }
      if (entries % PAGE === 0) opts.onProgress?.(entries);
    }
    hash.update(text);
    sha256 = hash.digest("hex");
    yield text + trailerLine({ entries, sha256 }) + "\n";
  }
  await Deno.mkdir(dirname(partial), { recursive: true });
  await writeCompressed(partial, chunks());
  await Deno.rename(partial, path);
  opts.onProgress?.(entries);
  return { entries, sha256, bytes: (await Deno.stat(path)).size };
}
