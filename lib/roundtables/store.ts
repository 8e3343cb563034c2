/**
 * Roundtables in KV, laid out like debates (lib/debates/store.ts): a record, one key per
 * message, one key per host interjection, the owner's and the site's newest-first indexes
 * written with the record. The run (lib/roundtables/engine.ts) is the only writer of the
 * record and the messages; the owner's request only adds interjections, under a check.
 *
 * A roundtable whose process died (no update for {@link STALE_AFTER_MS} and no job left to
 * resume it) is read as `failed`, so none is left `in_progress` forever.
 *
 * @module
 */
import { commit, getAll, invertTime, listNewestFirst, updateAtomically } from "../kv/atomic.ts";
import { isLookupId, keys } from "../kv/keys.ts";
import type { JsonSource } from "../llm/json.ts";
import type { Minutes } from "../schemas/roundtable.ts";
import {
  MAX_INTERJECTIONS,
  messageJson,
  type RoundtableMessage,
  type RoundtableMessageJson,
  type RoundtableRecord,
  type StoredInterjection,
} from "./model.ts";

/** The job kind of roundtables (lib/roundtables/job.ts). */
export const ROUNDTABLE_JOB = "roundtable";

/** An `in_progress` roundtable without updates for this long, and no job, has died. */
export const STALE_AFTER_MS = 15 * 60_000;

/** A roundtable with its messages and interjections: what pages and the API show. */
export interface Roundtable extends RoundtableRecord {
  messages: RoundtableMessage[];
  interjections: StoredInterjection[];
}

/**
 * A roundtable id: `rt_<timestamp>_<random>`.
 *
 * @example
 * ```ts
 * newRoundtableId(1700000000000); // "rt_1700000000000_k3j9x0qa2m"
 * ```
 */
export function newRoundtableId(now = Date.now()): string {
  const bytes = crypto.getRandomValues(new Uint8Array(10));
  let rand = "";
  for (const b of bytes) rand += (b % 36).toString(36);
  return `rt_${now}_${rand}`;
}

/**
 * Add a new roundtable (`in_progress`) and its indexes to `op`, checked to be new.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * import type { RoundtableRecord } from "@/lib/roundtables/model.ts";
 * declare const record: RoundtableRecord;
 * import { commit } from "@/lib/kv/atomic.ts";
 * await commit(kv, (op) => createRoundtableOps(op, record));
 * ```
 */
export function createRoundtableOps(op: Deno.AtomicOperation, record: RoundtableRecord): void {
  const inverted = invertTime(record.createdAt);
  op.check({ key: keys.roundtable(record.id), versionstamp: null })
    .set(keys.roundtable(record.id), record)
    .set(keys.roundtableByUser(record.userId, inverted, record.id), record.id)
    .set(keys.roundtableByTime(inverted, record.id), record.id)
    .set(keys.roundtableEventHead(record.id), 0);
}

/** Store the next message and the record's new count in `op`; returns the new record. */
export function appendMessageOps(
  op: Deno.AtomicOperation,
  record: RoundtableRecord,
  message: RoundtableMessage,
): RoundtableRecord {
  const next = { ...record, messageCount: record.messageCount + 1, updatedAt: message.timestamp };
  op.set(keys.roundtableMessage(record.id, record.messageCount), message)
    .set(keys.roundtable(record.id), next);
  return next;
}

/** Mark the roundtable completed with its minutes, in `op`. */
export function completeOps(
  op: Deno.AtomicOperation,
  record: RoundtableRecord,
  minutes: Minutes,
  source: JsonSource,
  now: number,
): RoundtableRecord {
  const next: RoundtableRecord = {
    ...record,
    status: "completed",
    minutes,
    minutesSource: source,
    updatedAt: now,
  };
  op.set(keys.roundtable(record.id), next);
  return next;
}

/** Mark the roundtable failed with a reason that is safe to show, in `op`. */
export function failOps(
  op: Deno.AtomicOperation,
  record: RoundtableRecord,
  error: string,
  now: number,
): RoundtableRecord {
  const next: RoundtableRecord = { ...record, status: "failed", error, updatedAt: now };
  op.set(keys.roundtable(record.id), next);
  return next;
}

/** The messages of a roundtable, in order. */
export async function listMessages(kv: Deno.Kv, id: string): Promise<RoundtableMessage[]> {
  return (await Array.fromAsync(
    kv.list<RoundtableMessage>({ prefix: keys.roundtableMessagesPrefix(id) }),
  )).map((e) => e.value);
}

/** The host's interjections, oldest first (pending ones included). */
export async function listInterjections(kv: Deno.Kv, id: string): Promise<StoredInterjection[]> {
  return (await Array.fromAsync(
    kv.list<StoredInterjection>({ prefix: keys.roundtableInterjectionsPrefix(id) }),
  )).map((e) => e.value);
}

/** The outcome of {@link addInterjection}. */
export type AddInterjectionResult =
  | { ok: true; interjection: StoredInterjection }
  | { ok: false; reason: "finished" | "too_many" };

/**
 * Add the host's words to a running roundtable; the run takes them up before its next
 * turn. Refused once the roundtable has ended or holds {@link MAX_INTERJECTIONS}.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const r = await addInterjection(kv, "rt_1700000000000_k3j9x0qa2m", { text: "Costs?" }, Date.now());
 * ```
 */
export async function addInterjection(
  kv: Deno.Kv,
  id: string,
  words: { text: string; directTo?: string },
  now: number,
): Promise<AddInterjectionResult> {
  return await updateAtomically<AddInterjectionResult>(async () => {
    const [record, existing] = await Promise.all([
      kv.get<RoundtableRecord>(keys.roundtable(id)),
      listInterjections(kv, id),
    ]);
    if (record.value?.status !== "in_progress") {
      return { op: null, result: { ok: false, reason: "finished" } };
    }
    if (existing.length >= MAX_INTERJECTIONS) {
      return { op: null, result: { ok: false, reason: "too_many" } };
    }
    const n = existing.length + 1;
    const interjection: StoredInterjection = {
      id: `h${n}`,
      text: words.text,
      ...(words.directTo ? { directTo: words.directTo } : {}),
      timestamp: now,
    };
    const key = keys.roundtableInterjection(id, n);
    const op = kv.atomic().check({ key, versionstamp: null }).set(key, interjection);
    return { op, result: { ok: true, interjection } };
  });
}

/** A died `in_progress` roundtable becomes `failed` (written back once, under a check). */
async function settleStale(
  kv: Deno.Kv,
  entry: Deno.KvEntryMaybe<RoundtableRecord>,
  now: number,
): Promise<RoundtableRecord | null> {
  const record = entry.value;
  if (!record) return null;
  if (record.status !== "in_progress" || now - record.updatedAt < STALE_AFTER_MS) return record;
  if ((await kv.get(keys.job(ROUNDTABLE_JOB, record.id))).versionstamp !== null) return record;
  const next: RoundtableRecord = {
    ...record,
    status: "failed",
    error: "The roundtable was interrupted before it finished.",
    updatedAt: now,
  };
  await commit(kv, (op) => op.check(entry).set(keys.roundtable(record.id), next));
  return next;
}

/**
 * A roundtable with its messages and interjections, or null.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const rt = await getRoundtable(kv, "rt_1700000000000_k3j9x0qa2m", Date.now());
 * ```
 */
export async function getRoundtable(
  kv: Deno.Kv,
  id: string,
  now: number,
): Promise<Roundtable | null> {
  if (!isLookupId(id)) return null;
  const record = await settleStale(kv, await kv.get<RoundtableRecord>(keys.roundtable(id)), now);
  if (!record) return null;
  const [messages, interjections] = await Promise.all([
    listMessages(kv, id),
    listInterjections(kv, id),
  ]);
  return { ...record, messages, interjections };
}

/**
 * The records of `ids`, in that order (missing ones left out).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const records = await roundtableRecords(kv, ["rt_1700000000000_k3j9x0qa2m"], Date.now());
 * ```
 */
export async function roundtableRecords(
  kv: Deno.Kv,
  ids: string[],
  now: number,
): Promise<RoundtableRecord[]> {
  const out: RoundtableRecord[] = [];
  for (const entry of await getAll<RoundtableRecord>(kv, ids.map(keys.roundtable))) {
    const r = await settleStale(kv, entry, now);
    if (r) out.push(r);
  }
  return out;
}

/**
 * A user's newest roundtables (records, no messages), newest first.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const mine = await listUserRoundtables(kv, "u_1", Date.now(), 20);
 * ```
 */
export async function listUserRoundtables(
  kv: Deno.Kv,
  userId: string,
  now: number,
  limit: number,
): Promise<RoundtableRecord[]> {
  const page = await listNewestFirst<string>(kv, keys.roundtablesByUserPrefix(userId), { limit });
  return await roundtableRecords(kv, page.values, now);
}

/** The JSON form of a roundtable (`GET /api/roundtables/:id`). */
export interface RoundtableJson {
  id: string;
  topic: string;
  background: string;
  experts: RoundtableRecord["experts"];
  rounds: number;
  status: RoundtableRecord["status"];
  messages: RoundtableMessageJson[];
  interjections: {
    id: string;
    text: string;
    directTo?: string;
    afterMessageId: string | null;
    timestamp: number;
  }[];
  minutes: Minutes | null;
  error?: string;
  userId: string;
  createdAt: string;
  updatedAt: string;
}

/**
 * Shape a roundtable for the API: interjections the run has taken up, no internal fields.
 *
 * @example
 * ```ts
 * declare const rt: Roundtable;
 * Response.json(roundtableToJson(rt));
 * ```
 */
export function roundtableToJson(rt: Roundtable): RoundtableJson {
  return {
    id: rt.id,
    topic: rt.topic,
    background: rt.background,
    experts: rt.experts,
    rounds: rt.rounds,
    status: rt.status,
    messages: rt.messages.map(messageJson),
    interjections: rt.interjections.filter((i) => i.afterMessageId !== undefined).map((i) => ({
      id: i.id,
      text: i.text,
      ...(i.directTo ? { directTo: i.directTo } : {}),
      afterMessageId: i.afterMessageId ?? null,
      timestamp: i.timestamp,
    })),
    minutes: rt.minutes,
    ...(rt.error ? { error: rt.error } : {}),
    userId: rt.userId,
    createdAt: new Date(rt.createdAt).toISOString(),
    updatedAt: new Date(rt.updatedAt).toISOString(),
  };
}

/** One line of a roundtable list. */
export interface RoundtableListItem {
  id: string;
  topic: string;
  experts: RoundtableRecord["experts"];
  status: RoundtableRecord["status"];
  userId: string;
  createdAt: string;
}

/**
 * A record as a list line.
 *
 * @example
 * ```ts
 * import type { RoundtableRecord } from "@/lib/roundtables/model.ts";
 * declare const records: RoundtableRecord[];
 * Response.json({ roundtables: records.map(listItem) });
 * ```
 */
export function listItem(r: RoundtableRecord): RoundtableListItem {
  return {
    id: r.id,
    topic: r.topic,
    experts: r.experts,
    status: r.status,
    userId: r.userId,
    createdAt: new Date(r.createdAt).toISOString(),
  };
}
