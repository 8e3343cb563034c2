/**
 * Debates in KV. A debate is a record (topic, sides, status, synthesis) plus one key per
 * message, so no value grows with the debate; the owner's newest-first index and their
 * debate counters are written in the same atomic op as the record.
 *
 * Status: `in_progress` when accepted, `completed` with the synthesis stored, `failed`
 * with the error when the model or storage failed. A debate whose process died (no
 * update for {@link STALE_AFTER_MS} and no job left to resume it) is read as `failed`, so none is
 * left `in_progress` forever.
 *
 * @module
 */
import { addToCounter, commit, getAll, invertTime, listNewestFirst } from "../kv/atomic.ts";
import { recordEarnedBadges } from "../profile/stats.ts";
import { isLookupId, keys } from "../kv/keys.ts";
import type { JsonSource } from "../llm/json.ts";
import type {
  DebateMessage,
  DebateStatus,
  StoredOpponentProfile,
  StoredUserProfile,
} from "./model.ts";
import type { Synthesis } from "../schemas/debate.ts";

/** A debate as stored (its messages live under their own keys). */
export interface DebateRecord {
  id: string;
  userId: string;
  topic: string;
  userProfile: StoredUserProfile;
  opponentProfile: StoredOpponentProfile;
  status: DebateStatus;
  synthesis: Synthesis | null;
  /** Why a failed debate failed (safe to show). */
  error?: string;
  messageCount: number;
  /** Written by the offline stand-in model (local mode): the UI labels it. */
  standIn: boolean;
  /** Whether the synthesis came straight from the model, after a repair, or is the default. */
  synthesisSource?: JsonSource;
  createdAt: number;
  updatedAt: number;
}

/** A debate with its messages: what pages and the API show. */
export interface Debate extends DebateRecord {
  messages: DebateMessage[];
}

/** The traits and interests a user last gave their agent. */
export interface AgentMemory {
  traits: string[];
  interests: string[];
  updatedAt: number;
}

/** An `in_progress` debate without updates for this long, not running here, has died. */
export const STALE_AFTER_MS = 15 * 60_000;

/** History size (docs/interface.md#resuming-a-debate: the 20 newest). */
export const HISTORY_LIMIT = 20;

/**
 * A debate id: `debate_<timestamp>_<random>`.
 *
 * @example
 * ```ts
 * newDebateId(1700000000000); // "debate_1700000000000_k3j9x0qa2m"
 * ```
 */
export function newDebateId(now = Date.now()): string {
  const bytes = crypto.getRandomValues(new Uint8Array(10));
  let rand = "";
  for (const b of bytes) rand += (b % 36).toString(36);
  return `debate_${now}_${rand}`;
}

/**
 * Save a new debate (`in_progress`), its history index, the user's counter and the agent
 * memory in one atomic op. Returns false when the id is already taken.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * declare const now: number;
 * declare const record: Parameters<typeof createDebate>[1];
 * await createDebate(kv, record, { traits: ["curious"], interests: [], updatedAt: now });
 * ```
 */
export async function createDebate(
  kv: Deno.Kv,
  record: DebateRecord,
  memory?: AgentMemory,
  extra?: (op: Deno.AtomicOperation) => void,
): Promise<boolean> {
  const res = await commit(kv, (op) => {
    op.check({ key: keys.debate(record.id), versionstamp: null })
      .set(keys.debate(record.id), record)
      .set(keys.debateByUser(record.userId, invertTime(record.createdAt), record.id), record.id)
      .set(keys.debateByTime(invertTime(record.createdAt), record.id), record.id);
    if (memory) op.set(keys.debateAgent(record.userId), memory);
    extra?.(op);
  });
  return res.ok;
}

/**
 * Store the next message and the record's new count in one op; returns the new record.
 * The debate's engine is its only writer, so no check is needed.
 */
export async function appendMessage(
  kv: Deno.Kv,
  record: DebateRecord,
  message: DebateMessage,
  now: number,
): Promise<DebateRecord> {
  let next = record;
  await commit(kv, (op) => {
    next = appendMessageOps(op, record, message, now);
  });
  return next;
}

/** {@link appendMessage}'s writes, added to `op` (the caller commits); returns the new record. */
export function appendMessageOps(
  op: Deno.AtomicOperation,
  record: DebateRecord,
  message: DebateMessage,
  now: number,
): DebateRecord {
  const next = { ...record, messageCount: record.messageCount + 1, updatedAt: now };
  op.set(keys.debateMessage(record.id, record.messageCount), message).set(
    keys.debate(record.id),
    next,
  );
  return next;
}

/**
 * Mark a debate completed with its synthesis; the user's debate count (and wins) move in
 * the same op — only completed debates count towards the contribution score — and a
 * first win records the Debater badge.
 */
export async function completeDebate(
  kv: Deno.Kv,
  record: DebateRecord,
  synthesis: Synthesis,
  source: JsonSource,
  now: number,
): Promise<DebateRecord> {
  let next = record;
  await commit(kv, (op) => {
    next = completeDebateOps(op, record, synthesis, source, now);
  });
  if (synthesis.winner === "user") await recordEarnedBadges(kv, record.userId, now);
  return next;
}

/**
 * {@link completeDebate}'s writes, added to `op` (the caller commits, then records
 * badges); also drops the debate from the running index.
 */
export function completeDebateOps(
  op: Deno.AtomicOperation,
  record: DebateRecord,
  synthesis: Synthesis,
  source: JsonSource,
  now: number,
): DebateRecord {
  const next: DebateRecord = {
    ...record,
    status: "completed",
    synthesis,
    synthesisSource: source,
    updatedAt: now,
  };
  op.set(keys.debate(record.id), next).delete(keys.debateRunning(record.id));
  addToCounter(op, keys.userStat(record.userId, "debates"), 1);
  if (synthesis.winner === "user") {
    addToCounter(op, keys.userStat(record.userId, "debate_wins"), 1);
  }
  return next;
}

/** Mark a debate failed with a reason that is safe to show. */
export async function failDebate(
  kv: Deno.Kv,
  record: DebateRecord,
  error: string,
  now: number,
): Promise<DebateRecord> {
  let next = record;
  await commit(kv, (op) => {
    next = failDebateOps(op, record, error, now);
  });
  return next;
}

/** {@link failDebate}'s writes (also drops the running index), added to `op`. */
export function failDebateOps(
  op: Deno.AtomicOperation,
  record: DebateRecord,
  error: string,
  now: number,
): DebateRecord {
  const next: DebateRecord = { ...record, status: "failed", error, updatedAt: now };
  op.set(keys.debate(record.id), next).delete(keys.debateRunning(record.id));
  return next;
}

/** A died `in_progress` debate becomes `failed` (written back once, guarded by a check). */
async function settleStale(
  kv: Deno.Kv,
  entry: Deno.KvEntryMaybe<DebateRecord>,
  now: number,
): Promise<DebateRecord | null> {
  const record = entry.value;
  if (!record) return null;
  if (record.status !== "in_progress" || now - record.updatedAt < STALE_AFTER_MS) return record;
  // Its job still exists: an instance runs it or the next resume pass will.
  if ((await kv.get(keys.job("debate", record.id))).versionstamp !== null) return record;
  const next: DebateRecord = {
    ...record,
    status: "failed",
    error: "The debate was interrupted before it finished.",
    updatedAt: now,
  };
  await commit(
    kv,
    (op) => op.check(entry).set(keys.debate(record.id), next).delete(keys.debateRunning(record.id)),
  );
  return next;
}

/** The messages of a debate, in order. */
export async function listMessages(kv: Deno.Kv, debateId: string): Promise<DebateMessage[]> {
  const out: DebateMessage[] = [];
  for await (const e of kv.list<DebateMessage>({ prefix: keys.debateMessagesPrefix(debateId) })) {
    out.push(e.value);
  }
  return out;
}

/**
 * A debate with its messages, or null.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const debate = await getDebate(kv, "debate_1700000000000_k3j9x0qa2m", Date.now());
 * ```
 */
export async function getDebate(kv: Deno.Kv, id: string, now: number): Promise<Debate | null> {
  if (!isLookupId(id)) return null;
  const entry = await kv.get<DebateRecord>(keys.debate(id));
  const record = await settleStale(kv, entry, now);
  if (!record) return null;
  return { ...record, messages: await listMessages(kv, id) };
}

/**
 * A user's newest debates (at most {@link HISTORY_LIMIT}), newest first, with messages.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * declare const userId: string;
 * const history = await listUserDebates(kv, userId, Date.now());
 * ```
 */
export async function listUserDebates(
  kv: Deno.Kv,
  userId: string,
  now: number,
  limit = HISTORY_LIMIT,
): Promise<Debate[]> {
  const page = await listNewestFirst<string>(kv, keys.debatesByUserPrefix(userId), { limit });
  const entries = await getAll<DebateRecord>(kv, page.values.map(keys.debate));
  const debates = await Promise.all(entries.map(async (entry) => {
    const record = await settleStale(kv, entry, now);
    return record ? { ...record, messages: await listMessages(kv, record.id) } : null;
  }));
  return debates.filter((d): d is Debate => d !== null);
}

/** A line of a debate list (no messages): what history lists and activity feeds show. */
export interface DebateSummary {
  id: string;
  topic: string;
  opponentName: string;
  status: DebateStatus;
  createdAt: number;
  winner?: Synthesis["winner"];
}

/**
 * A user's newest debates as summaries, newest first (no message reads).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * declare const userId: string;
 * const items = await listDebateSummaries(kv, userId, Date.now(), 20);
 * ```
 */
export async function listDebateSummaries(
  kv: Deno.Kv,
  userId: string,
  now: number,
  limit = HISTORY_LIMIT,
): Promise<DebateSummary[]> {
  return (await pageDebateSummaries(kv, userId, now, { limit })).items;
}

/**
 * One page of a user's debate summaries, newest first, with the cursor of the next page.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * declare const userId: string;
 * const { items, cursor } = await pageDebateSummaries(kv, userId, Date.now(), { limit: 20 });
 * ```
 */
export async function pageDebateSummaries(
  kv: Deno.Kv,
  userId: string,
  now: number,
  { limit, cursor }: { limit: number; cursor?: string },
): Promise<{ items: DebateSummary[]; cursor?: string }> {
  const page = await listNewestFirst<string>(kv, keys.debatesByUserPrefix(userId), {
    limit,
    cursor,
  });
  const items = (await debateSummaries(kv, page.values, now)).map((
    { userId: _u, agentName: _a, ...summary },
  ) => summary);
  return { items, cursor: page.cursor };
}

/** A summary with its owner and the name their agent debated under (public lists). */
export interface OwnedDebateSummary extends DebateSummary {
  userId: string;
  agentName: string;
}

/**
 * Summaries of the debates `ids`, in that order, with their owners; missing ones are left out.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const items = await debateSummaries(kv, ["debate_1700000000000_k3j9x0qa2m"], Date.now());
 * ```
 */
export async function debateSummaries(
  kv: Deno.Kv,
  ids: string[],
  now: number,
): Promise<OwnedDebateSummary[]> {
  const items: OwnedDebateSummary[] = [];
  for (const entry of await getAll<DebateRecord>(kv, ids.map(keys.debate))) {
    const d = await settleStale(kv, entry, now);
    if (!d) continue;
    items.push({
      id: d.id,
      userId: d.userId,
      agentName: d.userProfile.name,
      topic: d.topic,
      opponentName: d.opponentProfile.name,
      status: d.status,
      createdAt: d.createdAt,
      ...(d.synthesis ? { winner: d.synthesis.winner } : {}),
    });
  }
  return items;
}

/** The traits and interests the user last gave their agent, or null. */
export async function getAgentMemory(kv: Deno.Kv, userId: string): Promise<AgentMemory | null> {
  return (await kv.get<AgentMemory>(keys.debateAgent(userId))).value;
}

/** The JSON form of a debate (docs/interface.md#debate-stream): ISO dates, no internal fields. */
export interface DebateJson {
  id: string;
  topic: string;
  userProfile: StoredUserProfile;
  opponentProfile: StoredOpponentProfile;
  messages: DebateMessage[];
  synthesis: Synthesis | null;
  status: DebateStatus;
  error?: string;
  userId: string;
  createdAt: string;
  updatedAt: string;
}

/**
 * Shape a debate for the API.
 *
 * @example
 * ```ts
 * declare const debates: Parameters<typeof debateToJson>[0][];
 * Response.json(debates.map(debateToJson));
 * ```
 */
export function debateToJson(d: Debate): DebateJson {
  return {
    id: d.id,
    topic: d.topic,
    userProfile: d.userProfile,
    opponentProfile: d.opponentProfile,
    messages: d.messages,
    synthesis: d.synthesis,
    status: d.status,
    ...(d.error ? { error: d.error } : {}),
    userId: d.userId,
    createdAt: new Date(d.createdAt).toISOString(),
    updatedAt: new Date(d.updatedAt).toISOString(),
  };
}
