/**
 * "Download my data" (docs/interface.md#your-account): one JSON document of everything
 * Parley keeps about a person that is theirs — the account and profile, sign-in methods
 * (provider and subject, email; never a token), questions and answers (deleted ones too:
 * they are theirs), the revisions of their posts, votes, favorites, follows, flags,
 * debates and hosted roundtables with their messages, notifications, agent keys (names and dates) and settings.
 *
 * Nothing of anyone else is in it: votes, favorites, follows and flags name their target
 * by id; notifications carry neither the other person (the actor) nor their text; answers
 * name their question by id.
 *
 * @module
 */
import { getAll } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import type { User } from "../auth/users.ts";
import { listIdentities } from "../auth/identities.ts";
import { listAgentKeys } from "../agent/keys.ts";
import { effectiveProfile, profileJson, type ProfileRecord } from "../profile/profiles.ts";
import { getSettings } from "../profile/settings.ts";
import type { QuestionRecord } from "../community/questions/model.ts";
import type { MessageRecord } from "../community/messages/model.ts";
import type { RevisionRecord } from "../community/revisions.ts";
import { userVoteOf } from "../community/user_vote_rows.ts";
import type { UserFavoriteEntry } from "../community/favorites.ts";
import type { TargetType } from "../community/targets.ts";
import type { FlagRecord } from "../moderation/moderation.ts";
import { notificationOf } from "../notifications/stored.ts";
import { type DebateJson, debateToJson, getDebate } from "../debates/store.ts";
import { getRoundtable, type RoundtableJson, roundtableToJson } from "../roundtables/store.ts";

/** The export's format name and version (the document's first fields). */
export const EXPORT_FORMAT = "parley-account-export";
export const EXPORT_VERSION = 1;

const iso = (ms: number | undefined | null) => ms == null ? null : new Date(ms).toISOString();

/** One question as exported. */
export interface ExportedQuestion {
  id: string;
  title: string;
  description: string;
  tags: string[];
  createdBy: "user" | "agent";
  createdAt: string;
  editedAt: string | null;
  deletedAt: string | null;
  hiddenByModerators: boolean;
}

/** One answer or reply as exported (its question by id only). */
export interface ExportedAnswer {
  id: string;
  questionId: string;
  replyTo: string | null;
  content: string;
  createdBy: "user" | "agent" | "system";
  via: "ai-avatar" | null;
  createdAt: string;
  editedAt: string | null;
  deletedAt: string | null;
  hiddenByModerators: boolean;
}

/** The whole document. */
export interface AccountExport {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  exportedAt: string;
  account: { userId: string; createdAt: string; provider: string; email: string | null };
  profile: ReturnType<typeof profileJson>;
  identities: {
    provider: string;
    subject: string;
    email: string | null;
    name: string;
    createdAt: string;
    updatedAt: string;
  }[];
  questions: ExportedQuestion[];
  answers: ExportedAnswer[];
  revisions: {
    targetType: TargetType;
    targetId: string;
    revision: number;
    editedAt: string;
    title?: string;
    description?: string;
    tags?: string[];
    content?: string;
  }[];
  votes: { targetType: TargetType; targetId: string; voteType: "up" | "down"; createdAt: string }[];
  favorites: { targetType: TargetType; targetId: string; questionId: string; createdAt: string }[];
  follows: { questionId: string; since: string }[];
  flags: {
    targetType: TargetType;
    targetId: string;
    reason: string;
    note: string | null;
    createdAt: string;
  }[];
  debates: DebateJson[];
  roundtables: RoundtableJson[];
  notifications: {
    id: string;
    type: string;
    questionId: string;
    messageId: string | null;
    count: number;
    createdAt: string;
  }[];
  agentKeys: { name: string; createdAt: string; lastUsedAt: string | null }[];
  settings: Record<string, unknown>;
}

async function listAll<T>(kv: Deno.Kv, prefix: Deno.KvKey): Promise<Deno.KvEntry<T>[]> {
  return await Array.fromAsync(kv.list<T>({ prefix }));
}

/** The ids of every post of `userId`: the `authored` index and the activity indexes. */
async function postIds(kv: Deno.Kv, userId: string) {
  const questions = new Set<string>();
  const messages = new Set<string>();
  for (const e of await listAll<true>(kv, keys.authoredPrefix(userId))) {
    (e.key[2] === "question" ? questions : messages).add(e.key[3] as string);
  }
  for (const e of await listAll<string>(kv, keys.questionsByAuthorPrefix(userId))) {
    questions.add(e.value);
  }
  // The activity row's key names the message (its value is the question's id).
  const byAuthor = await listAll<unknown>(kv, keys.messagesByAuthorPrefix(userId));
  for (const e of byAuthor) messages.add(String(e.key[3]));
  return { questions: [...questions], messages: [...messages] };
}

/**
 * The export of `userId`, or null for an unknown (or deleted) account.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const doc = await exportAccount(kv, "u_1", Date.now());
 * if (doc) Response.json(doc);
 * ```
 */
export async function exportAccount(
  kv: Deno.Kv,
  userId: string,
  now: number,
): Promise<AccountExport | null> {
  const [user, profile] = await kv.getMany<[User, ProfileRecord]>([
    keys.user(userId),
    keys.profile(userId),
  ]);
  if (!user.value) return null;
  const ids = await postIds(kv, userId);
  const [questionRecs, messageRecs] = await Promise.all([
    getAll<QuestionRecord>(kv, ids.questions.map(keys.question)),
    getAll<MessageRecord>(kv, ids.messages.map(keys.message)),
  ]);
  // Only what is still theirs (a post's record names its author).
  const questions = questionRecs.flatMap((e) => e.value?.author.id === userId ? [e.value] : [])
    .sort((a, b) => a.createdAt - b.createdAt);
  const messages = messageRecs.flatMap((e) => e.value?.author.id === userId ? [e.value] : [])
    .sort((a, b) => a.createdAt - b.createdAt);
  const revisionLists = await Promise.all([
    ...questions.filter((q) => (q.revision ?? 1) > 1).map((q) =>
      listAll<RevisionRecord>(kv, keys.revisionsPrefix("question", q.id))
        .then((rs) => rs.map((r) => ({ targetType: "question" as const, targetId: q.id, r })))
    ),
    ...messages.filter((m) => (m.revision ?? 1) > 1).map((m) =>
      listAll<RevisionRecord>(kv, keys.revisionsPrefix("message", m.id))
        .then((rs) => rs.map((r) => ({ targetType: "message" as const, targetId: m.id, r })))
    ),
  ]);
  const [
    identities,
    agentKeys,
    settings,
    votes,
    favorites,
    follows,
    flags,
    debates,
    roundtables,
    notes,
  ] = await Promise.all([
    listIdentities(kv, userId),
    listAgentKeys(kv, userId),
    getSettings(kv, userId),
    listAll<unknown>(kv, keys.userVotesPrefix(userId)),
    listAll<UserFavoriteEntry>(kv, keys.userFavoritesPrefix(userId)),
    listAll<{ at: number }>(kv, keys.followsByUserPrefix(userId)),
    listAll<true>(kv, keys.flagsByUserPrefix(userId)),
    listAll<string>(kv, keys.debatesByUserPrefix(userId)),
    listAll<string>(kv, keys.roundtablesByUserPrefix(userId)),
    listAll<unknown>(kv, keys.notificationsPrefix(userId)),
  ]);
  const flagRecs = await getAll<FlagRecord>(
    kv,
    flags.map((f) => keys.flag(f.key[2] as string, f.key[3] as string, userId)),
  );
  const debateDocs: DebateJson[] = [];
  for (const d of debates) {
    const debate = await getDebate(kv, d.value, now);
    if (debate && debate.userId === userId) debateDocs.push(debateToJson(debate));
  }
  const roundtableDocs: RoundtableJson[] = [];
  for (const r of roundtables) {
    const rt = await getRoundtable(kv, r.value, now);
    if (rt && rt.userId === userId) roundtableDocs.push(roundtableToJson(rt));
  }
  const hidden = (r: { hiddenAt?: number }) => r.hiddenAt !== undefined;
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: new Date(now).toISOString(),
    account: {
      userId,
      createdAt: iso(user.value.createdAt)!,
      provider: user.value.provider,
      email: user.value.email,
    },
    profile: profileJson(effectiveProfile(user.value, profile.value)),
    identities: identities.map((i) => ({
      provider: i.provider,
      subject: i.providerAccountId,
      email: i.email,
      name: i.name,
      createdAt: iso(i.createdAt)!,
      updatedAt: iso(i.updatedAt)!,
    })),
    questions: questions.map((q) => ({
      id: q.id,
      title: q.title,
      description: q.description,
      tags: q.tags,
      createdBy: q.createdBy,
      createdAt: iso(q.createdAt)!,
      editedAt: iso(q.editedAt),
      deletedAt: iso(q.deletedAt),
      hiddenByModerators: hidden(q),
    })),
    answers: messages.map((m) => ({
      id: m.id,
      questionId: m.questionId,
      replyTo: m.replyTo ?? null,
      content: m.content,
      createdBy: m.createdBy,
      via: m.via ?? null,
      createdAt: iso(m.createdAt)!,
      editedAt: iso(m.editedAt),
      deletedAt: iso(m.deletedAt),
      hiddenByModerators: hidden(m),
    })),
    revisions: revisionLists.flat().map(({ targetType, targetId, r }) => ({
      targetType,
      targetId,
      revision: r.value.revision,
      editedAt: iso(r.value.editedAt)!,
      ...(r.value.title !== undefined ? { title: r.value.title } : {}),
      ...(r.value.description !== undefined ? { description: r.value.description } : {}),
      ...(r.value.tags !== undefined ? { tags: r.value.tags } : {}),
      ...(r.value.content !== undefined ? { content: r.value.content } : {}),
    })),
    votes: votes.flatMap((e) => {
      const v = userVoteOf(e.key, e.value); // either stored shape
      return v
        ? [{
          targetType: v.targetType,
          targetId: v.targetId,
          voteType: v.voteType,
          createdAt: iso(v.createdAt)!,
        }]
        : [];
    }),
    favorites: favorites.map((f) => ({
      targetType: f.value.targetType,
      targetId: f.value.targetId,
      questionId: f.value.questionId,
      createdAt: iso(f.value.createdAt)!,
    })),
    follows: follows.map((f) => ({ questionId: f.key[2] as string, since: iso(f.value.at)! })),
    flags: flags.flatMap((f, i) => {
      const rec = flagRecs[i].value;
      return rec
        ? [{
          targetType: f.key[2] as TargetType,
          targetId: f.key[3] as string,
          reason: rec.reason,
          note: rec.note,
          createdAt: iso(rec.createdAt)!,
        }]
        : [];
    }),
    debates: debateDocs,
    roundtables: roundtableDocs,
    notifications: notes.flatMap((e) => {
      // Either stored shape (lib/notifications/stored.ts).
      const n = notificationOf(e.key[2] as string, e.value);
      return n
        ? [{
          id: n.id,
          type: n.type,
          questionId: n.questionId,
          messageId: n.messageId,
          count: n.count,
          createdAt: iso(n.createdAt)!,
        }]
        : [];
    }),
    agentKeys: agentKeys.map((k) => ({
      name: k.name,
      createdAt: iso(k.createdAt)!,
      lastUsedAt: iso(k.lastUsedAt),
    })),
    settings: { ...settings },
  };
}
