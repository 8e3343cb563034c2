/**
 * Which Deno may open a store. KV values are V8-serialized, and an older V8 cannot read
 * what a newer one wrote (measured: a store written by Deno 2.9.6 fails under Deno 2.5.0
 * with `RangeError: could not deserialize value` on its first read, docs/decisions.md#store-version). So
 * the store records the newest Deno that has written to it, under
 * {@link DENO_VERSION_KEY}, and a process on an older Deno stops before it reads any
 * other value.
 *
 * The version is stored as UTF-8 bytes (a `Uint8Array`), which KV keeps raw rather than
 * V8-serialized: every Deno, older or newer, can read it.
 *
 * @module
 */
import { updateAtomically } from "./atomic.ts";

/** The meta key holding the newest Deno version that has written to the store. */
export const DENO_VERSION_KEY: Deno.KvKey = ["meta", "denoVersion"];

/** `[major, minor, patch]` of a Deno version such as `"2.10.1"`, or null when it is not one. */
function versionParts(version: string): [number, number, number] | null {
  const m = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}

/**
 * Compare two Deno versions numerically, part by part (so 2.10.0 is newer than 2.9.6):
 * negative when `a` is older, zero when equal, positive when `a` is newer. Anything after
 * the patch number (a canary or pre-release tag) is ignored.
 *
 * @example
 * ```ts
 * compareDenoVersions("2.10.0", "2.9.6") > 0; // true
 * ```
 */
export function compareDenoVersions(a: string, b: string): number {
  const pa = versionParts(a);
  const pb = versionParts(b);
  if (!pa || !pb) throw new RangeError(`not a Deno version: ${pa ? b : a}`);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i] - pb[i];
  return 0;
}

/** What {@link checkDenoVersion} found. */
export type DenoVersionOutcome =
  | {
    ok: true;
    /** The version the store records now. */
    storeVersion: string;
    /** The version it recorded before this call raised it (null: not raised). */
    raisedFrom: string | null;
  }
  | {
    ok: false;
    /** `older`: this Deno is older than the store's; `unreadable`: the record is not a version. */
    reason: "older" | "unreadable";
    /** What the store records (as much as could be read). */
    storeVersion: string;
    running: string;
  };

/** The recorded version as text (Parley writes bytes; a string is accepted when readable). */
function recordedText(value: unknown): string | null {
  if (value === null) return null;
  if (value instanceof Uint8Array) return new TextDecoder().decode(value);
  return typeof value === "string" ? value : String(value);
}

/**
 * Check the store against the running Deno and, when `mode` is `"write"`, raise the
 * recorded version to the running one if it is newer (never lower it). The raise is an
 * atomic check-and-set, so instances starting at once on one store agree: the newest
 * version wins whatever the order. `"read"` only checks (a backup must not mark a store
 * it merely read). A store with no record gets the running version (in `"write"` mode).
 *
 * @example
 * ```ts
 * const kv = await Deno.openKv(":memory:");
 * const outcome = await checkDenoVersion(kv, "write");
 * if (!outcome.ok) console.error(denoVersionSentence(outcome));
 * kv.close();
 * ```
 */
export async function checkDenoVersion(
  kv: Deno.Kv,
  mode: "read" | "write",
  running: string = Deno.version.deno,
): Promise<DenoVersionOutcome> {
  return await updateAtomically<DenoVersionOutcome>(async () => {
    let entry: Deno.KvEntryMaybe<unknown>;
    try {
      entry = await kv.get(DENO_VERSION_KEY);
    } catch (err) {
      // Written V8-serialized by a newer Deno than this one (never by Parley, which writes
      // bytes): it cannot be read here, and neither can anything else that Deno wrote.
      if (err instanceof RangeError) {
        return { op: null, result: { ok: false, reason: "unreadable", storeVersion: "", running } };
      }
      throw err;
    }
    const recorded = recordedText(entry.value);
    if (recorded !== null && versionParts(recorded) === null) {
      return {
        op: null,
        result: { ok: false, reason: "unreadable", storeVersion: recorded.slice(0, 40), running },
      };
    }
    const order = recorded === null ? 1 : compareDenoVersions(running, recorded);
    if (order < 0) {
      return { op: null, result: { ok: false, reason: "older", storeVersion: recorded!, running } };
    }
    if (order === 0 || mode === "read") {
      return {
        op: null,
        result: { ok: true, storeVersion: recorded ?? running, raisedFrom: null },
      };
    }
    const op = kv.atomic().check(entry).set(DENO_VERSION_KEY, new TextEncoder().encode(running));
    return { op, result: { ok: true, storeVersion: running, raisedFrom: recorded } };
  });
}

/** A failed {@link DenoVersionOutcome}. */
export type DenoVersionRefusal = Extract<DenoVersionOutcome, { ok: false }>;

/**
 * The one sentence a process prints when it stops because the store is newer than its
 * Deno: both versions, and the two ways on.
 *
 * @example
 * ```ts
 * const sentence = denoVersionSentence({
 *   ok: false,
 *   reason: "older",
 *   storeVersion: "2.9.6",
 *   running: "2.5.0",
 * });
 * ```
 */
export function denoVersionSentence(refusal: DenoVersionRefusal): string {
  const { storeVersion, running } = refusal;
  if (refusal.reason === "unreadable") {
    return `Stopped before reading the store: Deno ${running} cannot read its record of the ` +
      `Deno that wrote it (${JSON.stringify(DENO_VERSION_KEY)}${
        storeVersion ? ` = ${JSON.stringify(storeVersion)}` : ""
      }), so a newer Deno probably wrote it; run under that Deno, or restore a backup into a ` +
      `new store under Deno ${running} (deno task restore).`;
  }
  return `Stopped before reading the store: Deno ${storeVersion} has written to it and this is ` +
    `Deno ${running}, which cannot read what a newer Deno wrote; run under Deno ${storeVersion} ` +
    `or newer, or, to bring the data back to Deno ${running}, take a backup under Deno ` +
    `${storeVersion} (deno task backup) and restore it into a new store under Deno ${running} ` +
    `(deno task restore).`;
}
