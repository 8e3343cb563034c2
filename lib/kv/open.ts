/**
 * Opening the store named by `KV_PATH` — or, on Deno Deploy without `KV_PATH`, the
 * platform's managed, replicated KV.
 *
 * Reads that may be eventual (docs/decisions.md#deno-deploy): see lib/kv/consistency.ts,
 * which lists every read that uses {@link https://docs.deno.com/deploy/kv/manual/operations | `consistency: "eventual"`}
 * and why; every other read — and every read that guards a write — is strong.
 *
 * Every store is opened through here so that its Deno version is checked (and, for a
 * writer, raised) before anything else is read: see lib/kv/deno_version.ts.
 *
 * @module
 */
import { withLockRetry } from "./retry.ts";
import { checkDenoVersion, denoVersionSentence } from "./deno_version.ts";
import { openFailureLine } from "./storage_errors.ts";

/** Raised by {@link openKv} when the store was written by a newer Deno than this one. */
export class StoreVersionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StoreVersionError";
  }
}

/** How {@link openKv} treats the store's Deno version. */
export interface OpenKvOptions {
  /**
   * `"write"` (the default) raises the recorded version to this Deno's when it is newer;
   * `"read"` only checks, for a process that never writes (a backup).
   */
  access?: "read" | "write";
}

/**
 * Open Deno KV at a file path, `:memory:`, or a KV Connect URL (`http(s)://…`, which
 * authenticates with `DENO_KV_ACCESS_TOKEN` from the environment). A file path's folder
 * is created first so a fresh checkout needs no manual step. `undefined` opens the
 * default database: on Deno Deploy the project's managed KV; elsewhere a SQLite file
 * under `DENO_DIR` (`location_data/`), which is where the deployment test points it.
 *
 * Before it returns, the store's Deno version is checked: when a newer Deno has written to
 * it the store is closed and {@link StoreVersionError} thrown, whose message is the one
 * sentence to print ({@link openKvOrExit} prints it and exits).
 *
 * @example
 * ```ts
 * const kv = await openKv(":memory:");
 * kv.close();
 * ```
 */
export async function openKv(
  path: string | undefined,
  { access = "write" }: OpenKvOptions = {},
): Promise<Deno.Kv> {
  const kv = await openStore(path);
  const outcome = await checkDenoVersion(kv, access).catch((err) => {
    kv.close();
    throw err;
  });
  if (!outcome.ok) {
    kv.close();
    throw new StoreVersionError(denoVersionSentence(outcome));
  }
  return kv;
}

async function openStore(path: string | undefined): Promise<Deno.Kv> {
  if (path === undefined) return await Deno.openKv();
  if (path !== ":memory:" && !/^https?:\/\//.test(path)) {
    const slash = path.lastIndexOf("/");
    if (slash > 0) await Deno.mkdir(path.slice(0, slash), { recursive: true });
    await createWithPageSize(path);
  }
  // Instances starting together on one SQLite file race to set it up: opening can meet
  // `database is locked` (measured: 3 processes on Deno 2.5.0), and is retried like a commit.
  return await withLockRetry(() => Deno.openKv(path === ":memory:" ? ":memory:" : path));
}

/** The SQLite page size of a store file Parley creates (SQLite's default is 4096). */
export const STORE_PAGE_SIZE = 8192;

/**
 * A new store file is created with {@link STORE_PAGE_SIZE}-byte pages before Deno KV sets it
 * up (a file keeps the page size it was created with). Deno KV's rows are an index b-tree:
 * a row over ~1 KB with 4 KiB pages spills the rest onto an overflow page of its own, so a
 * message or question record of 1–4 KB wasted most of a page; with 8 KiB pages they stay in
 * place (measured with `BENCH_ONLY=bytes`: 13 % less file per question; 16 and 64 KiB pages
 * were no better). Best effort: an existing file is left alone (`deno task backup` and
 * `restore` into a new file convert a store), and any failure here leaves the file to
 * `Deno.openKv` as before.
 */
async function createWithPageSize(path: string): Promise<void> {
  const exists = await Deno.lstat(path).then(() => true, () => false);
  if (exists) return;
  try {
    const { DatabaseSync } = await import("node:sqlite");
    const db = new DatabaseSync(path);
    try {
      // Only a file with no pages yet takes the page size; its first write fixes it (a
      // table made and dropped: Deno 2.5's SQLite cannot VACUUM, it allows no attachment).
      // That write is neither journalled nor synced: SQLite's defaults fsync the file and
      // a rollback journal, 13–25 ms of a new instance's start on a fresh store, for a file
      // that holds no data yet. Deno KV then sets the store up with its own journal (WAL)
      // and sync settings, which write and sync page 1 again; were the machine to stop in
      // between, the file would be as good as never created.
      db.exec(
        "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; " +
          `PRAGMA page_size = ${STORE_PAGE_SIZE}; CREATE TABLE parley_page_size (a); ` +
          "DROP TABLE parley_page_size;",
      );
    } finally {
      db.close();
    }
  } catch {
    // Another instance is creating it, or the folder is read-only: Deno.openKv says so.
  }
}

/**
 * {@link openKv} for a process's entry point (main.ts, scripts): when the store cannot be
 * used it prints one line — no stack — and exits with code 1. That line is the version
 * sentence when a newer Deno wrote the store, else {@link openFailureLine}'s: `KV_PATH`,
 * what is wrong (full, read-only, damaged, not a store, unreadable) and what to do.
 *
 * @example
 * ```ts
 * const kv = await openKvOrExit(Deno.env.get("KV_PATH"));
 * kv.close();
 * ```
 */
export async function openKvOrExit(
  path: string | undefined,
  options?: OpenKvOptions,
): Promise<Deno.Kv> {
  try {
    return await openKv(path, options);
  } catch (err) {
    const line = err instanceof StoreVersionError
      ? err.message
      : openFailureLine({ path, error: err, ...await fileAccess(path) });
    console.error(line);
    Deno.exit(1);
  }
}

/**
 * Whether the store's file can be read and written by this process: SQLite says only
 * "unable to open database file" for a read-only file or folder (a read-only mount).
 */
async function fileAccess(
  path: string | undefined,
): Promise<{ readable?: boolean; writable?: boolean }> {
  if (path === undefined || path === ":memory:" || /^https?:\/\//.test(path)) return {};
  const can = async (opts: Deno.OpenOptions) => {
    try {
      (await Deno.open(path, opts)).close();
      return true;
    } catch {
      return false;
    }
  };
  // A folder opens for reading too, and is no store: only a file counts.
  const isFile = await Deno.stat(path).then((s) => s.isFile, () => false);
  const readable = isFile && await can({ read: true });
  return { readable, writable: readable && await can({ read: true, write: true }) };
}
