/**
 * The key schema: every key prefix Parley writes, in one table, with a builder for each.
 * Domain modules build keys only through `keys`, so a reader finds every layout here.
 *
 * | Prefix | Value | Written with / indexes |
 * | --- | --- | --- |
 * | `["meta", "app_secret"]` | string | local mode only, created once |
 * | `["meta", "health"]` | number | read by `/healthz` |
 * | `["users", userId]` | `User` | with `["identities", …]` on first sign-in |
 * | `["sessions", sessionId]` | `Session` | `expireIn` + `expiresAt` checked on read |
 * | `["questions", id]` | `QuestionRecord` | with `["questions_by_time", inv, id]`, `["counters", "questions"]` |
 * | `["questions_by_time", invertTime(createdAt), id]` | id | newest-first feed |
 * | `["counters", name]` | `Deno.KvU64` | `sum` only (never conflicts) |
 * | `["ratelimit", bucket, key, window]` | number (hits) | `expireIn` two windows |
 * | `["profiles", userId]` | `ProfileRecord` | customizations; absent until the first edit |
 * | `["settings", userId]` | `Settings` | privacy and AI avatar; absent means defaults |
 * | `["avatar_roster", userId]` | true | users with the AI avatar on; written with settings |
 * | `["user_stats", userId, stat]` | `Deno.KvU64` | counters moved by the writes (lib/stats.ts) |
 * | `["badges", userId, badgeId]` | number (earned at, ms) | recorded once by the writes |
 * | `["identities", provider, providerAccountId]` | `IdentityRecord` (tokens AES-GCM sealed) | with `["identities_by_user", …]`, in one op |
 * | `["identities_by_user", userId, provider]` | providerAccountId | lookup by canonical user; one per provider |
 * | `["auth_payloads", sha256(cookie), issueId]` | `PayloadNonce` | one per issued payload; `expireIn` 2 min + `expiresAt`; consumed with the session write |
 * | `["local_oauth_accounts", provider, accountId]` | `LocalAccount` | local mode only |
 * | `["local_oauth_codes", sha256(code)]` | `LocalGrant` | local mode only; one-time, `expireIn` + `expiresAt` |
 * | `["local_oauth_tokens", sha256(token)]` | `LocalGrant` | local mode only; `expireIn` + `expiresAt` |
 * | `["debates", id]` | `DebateRecord` (no messages) | with `["debates_by_user", …]` and the user's counters |
 * | `["debate_messages", debateId, index]` | `DebateMessage` | one per turn, with the record's `messageCount` |
 * | `["debates_by_user", userId, invertTime(createdAt), id]` | id | newest-first history |
 * | `["debate_agents", userId]` | `AgentMemory` | traits/interests last used for the user's agent |
 * | `["counters", "debates:" + userId]`, `["counters", "debate_wins:" + userId]` | `Deno.KvU64` | debates started, debates won |
 *
 * Later features add their rows here, next to their builders.
 *
 * @module
 */

/** Key builders, one per prefix of the table above. */
export const keys = {
  appSecret: (): Deno.KvKey => ["meta", "app_secret"],
  health: (): Deno.KvKey => ["meta", "health"],
  user: (userId: string): Deno.KvKey => ["users", userId],
  session: (sessionId: string): Deno.KvKey => ["sessions", sessionId],
  question: (id: string): Deno.KvKey => ["questions", id],
  questionsByTimePrefix: (): Deno.KvKey => ["questions_by_time"],
  questionByTime: (inverted: number, id: string): Deno.KvKey => ["questions_by_time", inverted, id],
  counter: (name: string): Deno.KvKey => ["counters", name],
  profile: (userId: string): Deno.KvKey => ["profiles", userId],
  settings: (userId: string): Deno.KvKey => ["settings", userId],
  avatarRoster: (userId: string): Deno.KvKey => ["avatar_roster", userId],
  avatarRosterPrefix: (): Deno.KvKey => ["avatar_roster"],
  userStat: (userId: string, stat: string): Deno.KvKey => ["user_stats", userId, stat],
  badge: (userId: string, badgeId: string): Deno.KvKey => ["badges", userId, badgeId],
  badgePrefix: (userId: string): Deno.KvKey => ["badges", userId],
  identity: (provider: string, providerAccountId: string): Deno.KvKey => [
    "identities",
    provider,
    providerAccountId,
  ],
  identitiesByUserPrefix: (userId: string): Deno.KvKey => ["identities_by_user", userId],
  identityByUser: (userId: string, provider: string): Deno.KvKey => [
    "identities_by_user",
    userId,
    provider,
  ],
  authPayloadNoncesOf: (digest: string): Deno.KvKey => ["auth_payloads", digest],
  authPayloadNonce: (digest: string, issueId: string): Deno.KvKey => [
    "auth_payloads",
    digest,
    issueId,
  ],
  localAccountsPrefix: (provider: string): Deno.KvKey => ["local_oauth_accounts", provider],
  localAccount: (provider: string, accountId: string): Deno.KvKey => [
    "local_oauth_accounts",
    provider,
    accountId,
  ],
  localCode: (digest: string): Deno.KvKey => ["local_oauth_codes", digest],
  localToken: (digest: string): Deno.KvKey => ["local_oauth_tokens", digest],
  debate: (id: string): Deno.KvKey => ["debates", id],
  debateMessagesPrefix: (debateId: string): Deno.KvKey => ["debate_messages", debateId],
  debateMessage: (debateId: string, index: number): Deno.KvKey => [
    "debate_messages",
    debateId,
    index,
  ],
  debatesByUserPrefix: (userId: string): Deno.KvKey => ["debates_by_user", userId],
  debateByUser: (userId: string, inverted: number, id: string): Deno.KvKey => [
    "debates_by_user",
    userId,
    inverted,
    id,
  ],
  debateAgent: (userId: string): Deno.KvKey => ["debate_agents", userId],
  rateLimit: (bucket: string, key: string, window: number): Deno.KvKey => [
    "ratelimit",
    bucket,
    key,
    window,
  ],
} as const;
