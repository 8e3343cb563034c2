/**
 * Backup files on disk: writing lines into one gzip file, and reading one back entry by
 * entry with every check of the format (lib/ops/backup_format.ts) — header first, trailer
 * last, entry count and SHA-256 — in bounded memory: one line at a time, whatever the
 * size of the file.
 *
 * @module
 */
import { createHash } from "node:crypto";
import {
  BackupFormatError,
  type BackupHeader,
  parseEntryLine,
  parseHeader,
  parseTrailer,
} from "./backup_format.ts";

/**
 * The longest line a reader accepts. A value is at most 64 KiB in KV and its encoding at
 * most ~15 times that (an array of `undefined`s); a longer line is not a backup of ours.
 */
const MAX_LINE_CHARS = 4 * 1024 * 1024;

/** A backup file that cannot be read, with a sentence saying why (shown as is). */
export class BackupFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BackupFileError";
  }
}

/** What {@link readBackup} yields: the header, then each entry, then the end. */
export type BackupItem =
  | { type: "header"; header: BackupHeader }
  | { type: "entry"; index: number; key: Deno.KvKey; value: unknown; chars: number }
  | { type: "end"; entries: number; sha256: string };

async function* textLines(path: string): AsyncGenerator<string> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) throw new BackupFileError(`${path} does not exist.`);
    if (err instanceof Deno.errors.PermissionDenied || err instanceof Deno.errors.NotADirectory) {
      throw new BackupFileError(`${path} cannot be read (${err.message}).`);
    }
    throw err;
  }
  // A folder opens for reading too; reading it fails later with a less helpful sentence.
  if ((await file.stat()).isDirectory) {
    file.close();
    throw new BackupFileError(`${path} is a folder, not a backup file.`);
  }
  const text = file.readable
    .pipeThrough(new DecompressionStream("gzip"))
    .pipeThrough(new TextDecoderStream("utf-8", { fatal: true }));
  let rest = "";
  try {
    for await (const chunk of text) {
      // Only the new text can hold the next newline: a long line is scanned once.
      const scanned = rest.length;
      rest += chunk;
      let start = 0;
      for (let nl = rest.indexOf("\n", scanned); nl !== -1; nl = rest.indexOf("\n", start)) {
        yield rest.slice(start, nl);
        start = nl + 1;
      }
      rest = rest.slice(start);
      if (rest.length > MAX_LINE_CHARS) {
        throw new BackupFileError(
          `${path} is not a Parley backup: it has a line longer than ${MAX_LINE_CHARS} characters.`,
        );
      }
    }
  } catch (err) {
    if (err instanceof BackupFileError) throw err;
    // The gzip layer checks its own CRC and length: a cut or altered file fails here.
    throw new BackupFileError(
      `${path} is damaged or cut short: its compressed data does not decompress (${
        err instanceof Error ? err.message : err
      }).`,
    );
  }
  if (rest !== "") {
    throw new BackupFileError(`${path} is cut short: its last line is incomplete.`);
  }
}

/**
 * Read a backup file: yields its header, each entry (decoded, with its 0-based index and
 * the length of its line),
 * and finally its end — only after the trailer was found last, its entry count matched and
 * the SHA-256 of everything before it matched. Throws {@link BackupFileError} with a
 * sentence for anything else, so iterating to the end is the whole verification.
 *
 * @example
 * ```ts
 * for await (const item of readBackup("parley.backup.gz")) {
 *   if (item.type === "entry") console.log(item.key);
 * }
 * ```
 */
export async function* readBackup(path: string): AsyncGenerator<BackupItem> {
  const hash = createHash("sha256");
  let lineNo = 0;
  let entries = 0;
  let trailer: { entries: number; sha256: string } | null = null;
  for await (const line of textLines(path)) {
    lineNo++;
    if (trailer) {
      throw new BackupFileError(`${path} is not a Parley backup: it has lines after its trailer.`);
    }
    if (lineNo === 1) {
      const header = parseHeader(line);
      if (!header) {
        throw new BackupFileError(
          `${path} is not a Parley backup of a format this version reads (its first line is not a parley-kv-backup version 1 header).`,
        );
      }
      hash.update(line + "\n");
      yield { type: "header", header };
      continue;
    }
    trailer = parseTrailer(line);
    if (trailer) continue;
    hash.update(line + "\n");
    let entry;
    try {
      entry = parseEntryLine(line);
    } catch (err) {
      if (!(err instanceof BackupFormatError)) throw err;
      throw new BackupFileError(
        `${path} is damaged: line ${lineNo} is not an entry (${err.message}).`,
      );
    }
    yield {
      type: "entry",
      index: entries++,
      key: entry.key,
      value: entry.value,
      chars: line.length,
    };
  }
  if (lineNo === 0) throw new BackupFileError(`${path} is empty: it is not a Parley backup.`);
  if (!trailer) {
    throw new BackupFileError(
      `${path} is cut short: it ends after ${entries} entries without its trailer (was the backup interrupted?).`,
    );
  }
  if (trailer.entries !== entries) {
    throw new BackupFileError(
      `${path} is damaged: its trailer counts ${trailer.entries} entries but it holds ${entries}.`,
    );
  }
  const sha256 = hash.digest("hex");
  if (sha256 !== trailer.sha256) {
    throw new BackupFileError(
      `${path} is damaged: its contents do not match the checksum in its trailer.`,
    );
  }
  yield { type: "end", entries, sha256 };
}

/**
 * Write `chunks` (text, already split into lines by the caller) gzip-compressed to `path`,
 * flushed to disk before the promise resolves. Reads `chunks` only as fast as the file
 * takes them, so memory stays bounded.
 *
 * @example
 * ```ts
 * async function* lines() {
 *   yield "first line\n";
 * }
 * await writeCompressed("/tmp/example.gz", lines());
 * ```
 */
export async function writeCompressed(path: string, chunks: AsyncIterable<string>): Promise<void> {
  const file = await Deno.open(path, { write: true, create: true, truncate: true });
  let open = true;
  const closeFile = () => {
    if (open) file.close();
    open = false;
  };
  const sink = new WritableStream<Uint8Array>({
    async write(chunk) {
      for (let at = 0; at < chunk.length;) at += await file.write(chunk.subarray(at));
    },
    async close() {
      await file.syncData();
      closeFile();
    },
    abort: closeFile,
  });
  try {
    await ReadableStream.from(chunks)
      .pipeThrough(new TextEncoderStream())
      .pipeThrough(new CompressionStream("gzip"))
      .pipeTo(sink);
  } finally {
    closeFile();
  }
}
