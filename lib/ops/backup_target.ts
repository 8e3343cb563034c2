/**
 * Where `deno task backup` may write its file: never over the store it backs up (or the
 * store's SQLite companions), never over any SQLite file, never over a folder, and over an
 * existing file only when asked to (`--force`). A backup renamed over the live store would
 * unlink it: a running server keeps writing to the unlinked file and every later write is
 * lost. And the file it would replace may be the only good backup.
 *
 * @module
 */
import { basename, dirname, resolve } from "node:path";

/** Files SQLite keeps beside a store: its write-ahead log, shared memory and rollback journal. */
const COMPANIONS = ["", "-wal", "-shm", "-journal"];

/** The first 16 bytes of every SQLite database file. */
const SQLITE_MAGIC = "SQLite format 3\0";

/** Options of {@link checkBackupTarget}. */
export interface BackupTargetOptions {
  /** The store being backed up (`KV_PATH`); a KV Connect URL or `undefined` is no local file. */
  storePath: string | undefined;
  /** Write over an existing file (never over a store, an SQLite file or a folder). */
  force?: boolean;
}

/** Whether a backup may be written to a path, or the sentence saying why not. */
export type BackupTargetCheck = { ok: true } | { ok: false; reason: string };

/**
 * The absolute path `path` names once every symbolic link of it (or of its nearest folder
 * that exists) is followed: two names of one file resolve alike, existing or not.
 */
async function realPathOf(path: string): Promise<string> {
  const absolute = resolve(path);
  let rest = "";
  for (let at = absolute;; at = dirname(at)) {
    try {
      const real = await Deno.realPath(at);
      return rest === "" ? real : resolve(real, rest);
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound) || dirname(at) === at) return absolute;
      rest = rest === "" ? basename(at) : `${basename(at)}/${rest}`;
    }
  }
}

/** True when the file at `path` starts as an SQLite database does. */
async function isSqliteFile(path: string): Promise<boolean> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch {
    return false;
  }
  try {
    const head = new Uint8Array(SQLITE_MAGIC.length);
    let read = 0;
    while (read < head.length) {
      const n = await file.read(head.subarray(read));
      if (n === null) return false;
      read += n;
    }
    return new TextDecoder().decode(head) === SQLITE_MAGIC;
  } catch {
    return false; // a folder, or unreadable: the other checks speak for it
  } finally {
    file.close();
  }
}

/** The real paths of the store at `storePath` and its companions; none for a remote store. */
async function storeFiles(storePath: string | undefined): Promise<Set<string>> {
  const files = new Set<string>();
  if (storePath === undefined || storePath === ":memory:" || /^https?:\/\//.test(storePath)) {
    return files;
  }
  const store = await realPathOf(storePath);
  for (const suffix of COMPANIONS) {
    files.add(store + suffix);
    // A companion may be a link of its own.
    files.add(await realPathOf(storePath + suffix));
  }
  return files;
}

/**
 * Check that a backup may be written to `target` (and through `target.partial`) before
 * anything is written: refused when either is the store at `storePath` or one of its
 * `-wal`/`-shm`/`-journal` files (compared by real path), when `target` is an SQLite file or
 * a folder, when a folder on the way is a file, and when `target` exists without `force`.
 *
 * @example
 * ```ts
 * const check = await checkBackupTarget("./data/parley.kv", { storePath: "./data/parley.kv" });
 * if (!check.ok) console.error(check.reason); // "… is the store being backed up …"
 * ```
 */
export async function checkBackupTarget(
  target: string,
  { storePath, force = false }: BackupTargetOptions,
): Promise<BackupTargetCheck> {
  const store = await storeFiles(storePath);
  for (const path of [target, `${target}.partial`]) {
    if (store.has(await realPathOf(path))) {
      return {
        ok: false,
        reason: `${path} is the store being backed up (KV_PATH ${storePath}) or one of its ` +
          "SQLite files: a backup written there would destroy the store; name another file.",
      };
    }
  }
  let existing: Deno.FileInfo | null = null;
  try {
    existing = await Deno.stat(target);
  } catch (err) {
    if (err instanceof Deno.errors.NotADirectory) {
      return {
        ok: false,
        reason: `A folder on the way to ${target} is a file: name a file in a folder.`,
      };
    }
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  // Missing folders are created, as restore creates a store's folder.
  if (existing === null) return { ok: true };
  if (existing.isDirectory) {
    return { ok: false, reason: `${target} is a folder: name the backup file in it.` };
  }
  if (await isSqliteFile(target)) {
    return {
      ok: false,
      reason: `${target} is an SQLite database (a store?), not a backup: name another file.`,
    };
  }
  if (!force) {
    return {
      ok: false,
      reason: `${target} already exists: name a new file, or pass --force to replace it.`,
    };
  }
  return { ok: true };
}
