/**
 * Deleting an account (docs/interface.md#your-account). The person confirms by typing
 * their display name and chooses what happens to their posts: `keep` (they stay, by
 * "deleted user") or `delete` (the normal delete path). At once, in one atomic op, the
 * account itself goes — the user record (replaced by a tombstone, so the id is never
 * reused), the profile, settings, identities (with their sealed provider tokens), agent
 * keys, badges, the avatar's roster row and the agent memory — and the deletion job is
 * created; then every session ends. Everything else (posts, votes, favorites, follows,
 * flags, debates, notifications) is the job's (./delete_job.ts), which starts here at once
 * and which any instance resumes.
 *
 * @module
 */
import { revokeGrantsOf } from "../oauth/tokens.ts";
import { updateAtomically } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import { jobRunner } from "../jobs/runner.ts";
import type { User } from "../auth/users.ts";
import { effectiveProfile, type ProfileRecord } from "../profile/profiles.ts";
import { endSessionsOf } from "../auth/sessions.ts";
import { type AgentKeyRecord, forgetAgentKeys } from "../agent/keys.ts";
import { invalidateReads } from "../community/read_cache.ts";
import { renderedParts } from "../fresh/html_cache.ts";
import { afterCommit } from "../kv/after_commit.ts";
import type { DeletedUser, KeptContent } from "./deleted_user.ts";
import { ACCOUNT_DELETION_JOB, type AccountDeletion } from "./delete_job.ts";
import type { Sanction } from "../moderation/sanctions.ts";
import { carrySanctionOps } from "../moderation/sanction_carry.ts";

/** What the person sends. */
export interface DeleteAccountInput {
  userId: string;
  /** Must equal the display name (surrounding spaces ignored). */
  confirm: string;
  content: KeptContent;
}

/** The outcome: deleted (the job runs on), or why not. */
export type DeleteAccountResult =
  | { ok: true; content: KeptContent }
  | { ok: false; reason: "not_found" | "confirm_mismatch" };

/**
 * Delete the account of `input.userId` (see the module doc).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const r = await deleteAccount(kv, { userId: "u_1", confirm: "Ada", content: "keep" });
 * if (!r.ok) r.reason; // "not_found" | "confirm_mismatch"
 * ```
 */
export async function deleteAccount(
  kv: Deno.Kv,
  input: DeleteAccountInput,
  { now = Date.now() }: { now?: number } = {},
): Promise<DeleteAccountResult> {
  const { userId } = input;
  const jobs = jobRunner(kv);
  let keyHashes: string[] = [];
  const result = await updateAtomically<DeleteAccountResult>(async () => {
    const [user, profile, sanction] = await kv.getMany<[User, ProfileRecord, Sanction]>([
      keys.user(userId),
      keys.profile(userId),
      keys.sanction(userId),
    ]);
    if (!user.value) return { op: null, result: { ok: false, reason: "not_found" } };
    const name = effectiveProfile(user.value, profile.value).displayName;
    if (input.confirm.trim() !== name.trim()) {
      return { op: null, result: { ok: false, reason: "confirm_mismatch" } };
    }
    const [identities, agentKeys, badges] = await Promise.all([
      Array.fromAsync(kv.list<string>({ prefix: keys.identitiesByUserPrefix(userId) })),
      Array.fromAsync(kv.list<AgentKeyRecord>({ prefix: keys.agentKeysByUserPrefix(userId) })),
      Array.fromAsync(kv.list({ prefix: keys.badgePrefix(userId) })),
    ]);
    const op = kv.atomic().check(user, profile)
      .delete(keys.user(userId))
      .set(
        keys.deletedUser(userId),
        { deletedAt: now, content: input.content } satisfies DeletedUser,
      )
      .delete(keys.profile(userId))
      .delete(keys.settings(userId))
      .delete(keys.avatarRoster(userId))
      .delete(keys.debateAgent(userId))
      .delete(keys.agentKeyCount(userId));
    for (const e of identities) {
      op.delete(e.key).delete(keys.identity(e.key[2] as string, e.value));
    }
    // A sanction in force follows the identities to any account they make next.
    op.check(sanction);
    await carrySanctionOps(
      op,
      sanction.value,
      userId,
      identities.map((e) => ({ provider: e.key[2] as string, providerAccountId: e.value })),
      now,
    );
    for (const e of agentKeys) op.delete(e.key).delete(keys.agentKey(e.value.hash));
    for (const e of badges) op.delete(e.key);
    op.set(
      keys.accountDeletion(userId),
      {
        content: input.content,
        phase: "follows",
        done: {},
        startedAt: now,
      } satisfies AccountDeletion,
    );
    jobs.newJobOps(op, ACCOUNT_DELETION_JOB, userId);
    keyHashes = agentKeys.map((e) => e.value.hash);
    return { op, result: { ok: true, content: input.content } };
  });
  if (!result.ok) return result;
  // The account is gone: nothing below may fail the request (the job finishes the rest).
  await afterCommit("account deletion: sessions and caches", async () => {
    forgetAgentKeys(kv, keyHashes);
    await endSessionsOf(kv, userId);
    await revokeGrantsOf(kv, userId); // connected apps' tokens stop with the keys
    renderedParts.clear();
    invalidateReads(kv);
  });
  await afterCommit("account deletion: start its job", async () => {
    if (jobs.has(ACCOUNT_DELETION_JOB)) await jobs.adopt(ACCOUNT_DELETION_JOB, userId);
  });
  return result;
}
