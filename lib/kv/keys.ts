/**
 * The key schema: every key prefix Parley writes, in one table, with a builder for each.
 * Domain modules build keys only through `keys`, so a reader finds every layout here.
 *
 * | Prefix | Value | Written with / indexes |
 * | --- | --- | --- |
 * | `["meta", "app_secret"]` | string | local mode only, created once |
 * | `["meta", "health"]` | number | the time of the last probe write; read and written by `/healthz` |
 * | `["meta", "shape"]` | number | the shape version of the store's records: set by the compaction migration when every record has the current shapes (lib/ops/compact.ts); absent on stores written before it |
 * | `["users", userId]` | `User` | with `["identities", …]` on first sign-in |
 * | `["sessions", sessionId]` | `Session` | `expireIn` + `expiresAt` checked on read |
 * | `["questions", id]` | `QuestionRecord` | with `["questions_by_time", inv, id]`, `["counters", "questions"]` |
 * | `["questions_by_time", invertTime(createdAt), id]` | id | newest-first feed |
 * | `["counters", name]` | `Deno.KvU64` | `sum` only (never conflicts) |
 * | `["ratelimit_log", bucket, key]` | `HitLog`: packed bytes (lib/limits/packed_times.ts), or `{times}` as written before (accepted hit times in the window, oldest first) | the sliding-window log (lib/limits/window.ts): checked + set per accepted hit; `expireIn` window + 1 min |
 * | `["ratelimit_claims", bucket, key, subBucket]` | `Deno.KvU64` | tokens claimed by all processes in one sub-bucket (window / 9) of a sliced limit (lib/limits/slices.ts): `sum` per claim, in the same op as the delete of the sub-bucket 11 back (`sum` keys cannot expire): a limit key keeps at most ~10 |
 * | `["profiles", userId]` | `ProfileRecord` | customizations; absent until the first edit |
 * | `["settings", userId]` | `Settings` | privacy and AI avatar; absent means defaults |
 * | `["avatar_roster", userId]` | true | users with the AI avatar on; written with settings |
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
 * | `["debates_by_time", invertTime(createdAt), id]` | id | every debate, newest first, written with the record; `/debates` filters it by the owner's `debateArchive` |
 * | `["debate_watchers", id, userId]` | number (first opened at, ms) | one per signed-in member other than the owner who opened `/debates/:id`; with the count below |
 * | `["debate_watches", id]` | number (how many `["debate_watchers", id, …]` there are) | checked + set with the watcher and `["debates_by_watches", …]` (lib/debates/public.ts) |
 * | `["debates_by_watches", -watches, invertTime(createdAt), id]` | id | most-watched order; the old entry is deleted in the same op |
 * | `["debate_agents", userId]` | `AgentMemory` | traits/interests last used for the user's agent |
 * | `["user_stats", userId, "debates" \| "debate_wins"]` | `Deno.KvU64` | debates completed and won, moved when a debate completes |
 * | `["debate_events", debateId, seq]` | `StoredDebateEvent` `{type, data}` | the debate's SSE events, seq 1, 2, …; written by the lease holder with the head (lib/debates/events.ts) |
 * | `["debate_event_head", debateId]` | number (last seq) | set with every event; followers `kv.watch` it |
 * | `["debates_running", debateId]` | `RunningDebate` `{userId, request, opponentId}` | what a resumed run needs: written with the debate (and its job, `["jobs", "debate", id]`), deleted in its last op |
 *
 * Roundtables (lib/roundtables/), laid out like debates:
 *
 * | Key | Value | Written with |
 * |-----|-------|--------------|
 * | `["roundtables", id]` | `RoundtableRecord` (no messages) | with both indexes below, its job and its log's head |
 * | `["roundtable_messages", id, index]` | `RoundtableMessage` | one per turn, with its `statement` event and the record |
 * | `["roundtable_interjections", id, n]` | `StoredInterjection` | the host's words (n = 1, 2, …), written by the owner's request under a check; `afterMessageId` set when the run takes it up |
 * | `["roundtables_by_user", userId, invertTime(createdAt), id]` | id | the owner's newest first |
 * | `["roundtables_by_time", invertTime(createdAt), id]` | id | every roundtable, newest first; the public list filters it by the owner's `debateArchive` |
 * | `["roundtable_events", id, seq]` | `{type, data}` | the SSE events, seq 1, 2, …; written by the job's holder with the head |
 * | `["roundtable_event_head", id]` | number (last seq) | set with every event; followers `kv.watch` it |
 * | `["ai_day", "roundtables", day]` | number | roundtables started that UTC day, site-wide (lib/limits/daily_budget.ts); expires after 2 days |
 *
 * Community (questions, messages, votes, favorites, agent keys). Every row below is written
 * in the same atomic op as the record that causes it, so indexes and counters never drift:
 *
 * | Prefix | Value | Written with / indexes |
 * | --- | --- | --- |
 * | `["question_seq_head"]` | number (last sequence number handed out) | checked + set by every question creation |
 * | `["questions_by_seq", seq]` | question id (older stores: a `QuestionSnapshot` copy of the question until the compaction migration's shape 3, lib/ops/compact.ts; readers take both, `seqRowId`) | dense creation order: page p of n is the key range `(head − p·n, head − (p−1)·n]`, read in one list; the records and their counters are then read side by side (`summarizeIds`) |
 * | `["tag_seq_head", tag]` | number (last per-tag sequence number) | checked + set with the question (tag lower-cased) |
 * | `["questions_by_tag", tag, seq]` | question id | dense per-tag order; the head is the tag's total |
 * | `["sp", stem, impact + questionId]` | `dl·256 + tf` (number) | search postings of a question's own text (lib/search/index.ts): `impact` is one character, the higher the term's BM25 weight in the question the earlier it sorts, so a bounded scan reads the best postings first; short prefix because there are ~25 per question |
 * | `["sa", stem, impact + questionId]` | `dl·256 + tf` | the same for the text of a question's answers (one document per question) |
 * | `["sq", questionId]` / `["sr", questionId]` | `StoredDoc` `{s, w, dl}` | what the question's own / its answers' postings are, so an edit writes only the difference |
 * | `["sd", stem]` | `Deno.KvU64` | documents containing the stem (`sum` ±1): the inverse document frequency |
 * | `["sw", word]` | stem | the term dictionary, by word as written: prefix search lists a range of it; written once per new word |
 * | `["sv", word minus one letter, word]` | 1 | symmetric-delete neighbours of dictionary words of 5+ letters: a typo finds its word by its own deletions |
 * | `["ss", "qdocs" \| "qlen" \| "adocs" \| "alen"]` | `Deno.KvU64` | documents indexed and their summed lengths (BM25's average length) |
 * | `["search_dirty", questionId]` | number (marked at, ms) | the answers' text changed (or the question was hidden, restored, deleted): reindexed after the commit, or by the `search` job |
 * | `["search_backfill"]` | `{cursor, done}` | how far the `search` job's pass over questions created before the index got |
 * | `["question_terms", …]` | question id | the previous index's postings: no longer written; the `search` job deletes them after its backfill |
 * | `["questions_by_author", userId, invertTime(createdAt), id]` | question id | profile activity "questions", newest first |
 * | `["messages", id]` | `MessageRecord` | with the three rows below and the counters |
 * | `["question_messages", questionId, createdAt, id]` | message id | thread order (oldest first) |
 * | `["messages_by_author", userId, invertTime(createdAt), id]` | question id (older stores: `{id, questionId}` until the compaction migration's shape 4, lib/ops/compact.ts; readers take both, `authorRowQuestionId`) | profile activity "answers", newest first |
 * | `["message_counts", questionId]` | `Deno.KvU64` | `sum` ±1 per message |
 * | `["hidden_message_counts", questionId]` | `Deno.KvU64` | `sum` ±1 as a message is hidden / restored (and −1 when a hidden one leaves the thread): served `messageCount` is `message_counts` minus this |
 * | `["hidden_answer_counts", questionId]`, `["hidden_ai_answer_counts", questionId]`, `["hidden_ai_reply_counts", questionId]` | `Deno.KvU64` | the same for the hidden messages among `answer_counts`, `ai_answer_counts` and `ai_reply_counts` (lib/community/messages/model.ts `hiddenCountersOf`), in the same ops: served `answerCount` is `answer_counts` minus the first; never above `hidden_message_counts`, so a reader skips them while that one is 0 |
 * | `["votes", targetType, targetId, userId]` | number: the vote's time, negative for a down-vote (lib/community/vote_rows.ts; older stores: a `VoteRecord` `{voteType, createdAt}` until the compaction migration's shape 5; readers take both, `voteOf`) | the only key a vote checks; listed for `likedBy`/`dislikedBy` |
 * | `["vote_counts", targetType, targetId, "up" \| "down"]` | `Deno.KvU64` | `sum` ±1 (never conflicts, docs/decisions.md#storage) |
 * | `["user_votes", userId, invertTime(createdAt), targetType, targetId]` | `"up" \| "down"` (the key says the rest; older stores: a `UserVoteEntry` copy of it until the compaction migration, lib/community/user_vote_rows.ts) | profile activity "likes", newest first; moved on a switch, deleted on unvote |
 * | `["favorites", userId, targetType, targetId]` | `FavoriteRecord` | one per user and target: created with a check on this key |
 * | `["user_favorites", userId, invertTime(createdAt), targetType, targetId]` | `UserFavoriteEntry` | profile activity "favorites", newest first |
 * | `["favorite_counts", targetType, targetId]` | `Deno.KvU64` | `sum` ±1 |
 * | `["user_stats", userId, stat]` | `Deno.KvU64` | read with `readUserStats` (lib/profile/user_stats.ts); `sum` ±1: `questions`, `answers`, `upvotes_received` (up-votes on the user's questions and answers, moved on unvote/switch), `favorites_received` |
 * | `["user_stats", userId, "best_question_upvotes" \| "best_answer_upvotes"]` | `Deno.KvU64` | `max`: the highest up-vote count one of the user's questions / answers reached (written right after a like that sets a new peak) |
 * | `["user_stats", userId, "answer_accepted"]` | `Deno.KvU64` | `max` 1 once an answer of the user was accepted, in the accept's own op (an account's standing, lib/moderation/standing.ts) |
 * | `["agent_keys", sha256(key)]` | `AgentKeyRecord` | the lookup of a presented key; the key itself is never stored |
 * | `["agent_keys_by_user", userId, keyId]` | `AgentKeyRecord` | the owner's list (the panel) |
 * | `["agent_key_count", userId]` | number | checked on create and revoke (at most 5 keys) |
 *
 * Agents' sign-in: Parley as the OAuth 2.1 authorization server of `/mcp` (lib/oauth/).
 * Codes and tokens are stored only by their SHA-256, like agent keys:
 *
 * | Prefix | Value | Written with / indexes |
 * | --- | --- | --- |
 * | `["oauth_clients", clientId]` | `OAuthClient` `{id, name, redirectUris, createdAt}` | written once by `POST /oauth/register` (dynamic registration, public clients); never changed |
 * | `["oauth_codes", sha256(code)]` | `OAuthCode` (client, user, redirect URI, PKCE challenge, scopes, resource, `usedBy`) | one per approved consent; `expireIn` 60 s + `expiresAt`; the exchange rewrites it with `usedBy` in the grant's own op, so a second redemption finds it and revokes that grant |
 * | `["oauth_grants", grantId]` | `OAuthGrant` `{id, userId, clientId, clientName, scopes, accessHash, refreshHash, createdAt, lastUsedAt, expiresAt}` | one per redeemed code, in one op with its by-user row and its first access and refresh tokens; `expireIn` 30 days + `expiresAt`, renewed by each refresh; deleted with its by-user row and live tokens on revocation |
 * | `["oauth_grants_by_user", userId, grantId]` | `{expiresAt}` (the grant's) | "Connected apps"; written, renewed and deleted with the grant, with the same `expireIn` |
 * | `["oauth_access_tokens", sha256(token)]` | `OAuthAccessToken` `{grantId, userId, scopes, expiresAt}` | `expireIn` 1 h + `expiresAt`; valid only while its grant lives and names it (`accessHash`): a refresh deletes the previous one |
 * | `["oauth_refresh_tokens", sha256(token)]` | `OAuthRefreshToken` `{grantId, clientId, expiresAt, rotatedAt}` | `expireIn` 30 days + `expiresAt`; a refresh sets `rotatedAt` on the old one (kept until it expires) in the op that writes the new one, so presenting a rotated token revokes the grant |
 *
 * AI avatar job (lib/avatar) and participation (lib/participation):
 *
 * | Prefix | Value | Written with / indexes |
 * | --- | --- | --- |
 * | `["avatar_job"]` | `AvatarTickState` `{lastTickAt, cursor}` | a tick is taken with a check-and-set on this key, so ticks are ≥30 s apart whoever runs them (the runner's `["jobs", "avatar", "main"]` makes one instance run it) |
 * | `["avatar_answered", userId, questionId]` | `{messageId, answeredAt}` | checked absent and set in the same op as the avatar's answer: never two answers per user and question |
 * | `["avatar_answer_log", userId]` | `{times: number[]}` (the ≤10 newest answer times) | checked and rewritten with each avatar answer: the sliding hourly cap |
 * | `["participation_drafts", userId, draftId]` | `StoredDraft` (what the agent is about to post) | written by the preview with `expireIn` 30 min + `expiresAt`; deleted, under a check on its versionstamp, by the post |
 *
 * Hardening:
 *
 * | Prefix | Value | Written with / indexes |
 * | --- | --- | --- |
 * | `["idempotency", caller, key]` | `IdempotencyRecord` `{state, resourceId?, response?, expiresAt}` | claimed `pending` (check absent, 60 s lease); set `created` in the same atomic op as the created question/message; `done` with the response snapshot after; `expireIn` 24 h + `expiresAt` (lib/community/idempotency.ts) |
 * | `["question_answers", questionId, createdAt, id]` | message id | top-level answers in time order, written with the message: a thread page is one bounded list of this index |
 * | `["answer_counts", questionId]` | `Deno.KvU64` | `sum` +1 per top-level answer by a person or their agent or avatar (`authorType` not `ai`): the served `answerCount`, what "answered"/"Unanswered" and the answer counts of lists read |
 * | `["ai_answer_counts", questionId]` | `Deno.KvU64` | `sum` +1 per top-level message of the AI expert panel (`authorType: "ai"`), which is not an answer; the thread's page count is the two counters' sum |
 * | `["ai_reply_counts", questionId]` | `Deno.KvU64` | `sum` +1 per reply by an AI expert (`authorType: "ai"`), −1 when it leaves the thread: the question page's "M replies" counts people's and agents' replies only (`message_counts` minus both AI counters and the answers) |
 * | `["answer_replies", rootAnswerId, createdAt, id]` | message id | every reply under one top-level answer (at any depth) in time order, written with the message; a page lists at most 50 per answer |
 * | `["panel_jobs", questionId]` | `PanelJob` `{tasks, step, written, status, seq, …}` | the AI expert panel of a question (lib/panel/job.ts): created with the question and its runner job `["jobs", "panel", questionId]`; every step (one expert message) commits under the job's fence and a check on this record |
 * | `["panel_events", questionId, seq]` | `StoredEvent` `{type, data}` | the panel's SSE events (typing, message, done, failed), seq 1, 2, … (lib/kv/event_log.ts) |
 * | `["panel_event_head", questionId]` | number (last seq) | set with every event; followers `kv.watch` it |
 * | `["panel_day", day]` | number (panels started that UTC day) | checked + set when a panel starts: the `EXPERT_PANEL_PER_DAY` budget; `expireIn` 2 days |
 * | `["insights", questionId, "map" \| "summary"]` | `StoredInsight` `{value, messageCount, generatedAt, counterAt, acceptedAt, basis, signature, retryAt?}` | a question's cached opinion map / thread summary (lib/insights/): written only by its job `["jobs", "insights", questionId]` under the job's fence; read by `GET /api/questions/:id/map` and `/summary` and the question page |
 * | `["insights_day", day]` | number (maps and summaries written that UTC day) | checked + set before each model call of the insights job: the `INSIGHTS_PER_DAY` budget; `expireIn` 2 days |
 * | `["expert_invites", questionId, expertId]` | `{by, at}` | checked absent and set with the invited expert's job: once per expert and question |
 * | `["reply_counts", rootAnswerId]` | `Deno.KvU64` | `sum` +1 per reply under the answer: "N replies" and the reply pages |
 * | `["answers_by_score", questionId, 0 − score, createdAt, id]` | `true` | every top-level answer in `sort=votes` order (up − down descending, ties oldest first), the accepted one included (the reader puts it first): written with the answer (score 0), moved by the op of every vote that changes its score, removed by the op that deletes it (a "[deleted]" placeholder with replies keeps its row); lib/community/answer_order.ts |
 * | `["answer_score", messageId]` | number (the score of its `answers_by_score` row) or `"removed"` | the row's pointer: every op that moves or removes the row checks and rewrites it, so two writers never leave two rows |
 * | `["answers_by_score_built", questionId]` | `true` | the question's `answers_by_score` rows are complete (set with the question; for older questions by `backfillAnswerOrder`); without it `sort=votes` ranks every answer from its counters |
 * | `["debate_leases"]` | `{leases: {slotId: until}}` (≤ `MAX_CONCURRENT_DEBATES` live entries) | checked + set when a debate starts and ends; each running debate renews its lease every 20 s, an unrenewed one lapses after 90 s, so a crashed process's slot frees itself (lib/debates/capacity.ts) |
 *
 * Content lifecycle (edit, delete, accept; docs/interface.md):
 *
 * | Prefix | Value | Written with / indexes |
 * | --- | --- | --- |
 * | `["question_seqs", questionId]` | `QuestionSeqEntry` `{seq, tags: {tag: seq}}` | written with the question (and rewritten by a tag edit): where its feed rows are, so an edit or delete can move them |
 * | `["seq_holes", feed, seq]` | question id | a removed row of a dense feed (`feed` = `"all"` or `"tag:<tag>"`), written with the delete/tag edit/hide that removed it; a page read skips them (lib/community/questions/holes.ts); a restore puts its question's row back in its place and deletes it |
 * | `["seq_hole_counts", feed]` | `Deno.KvU64` | `sum` ±1 per hole made / filled: a tag feed's live total is its head minus this |
 * | `["revisions", targetType, targetId, revision]` | `RevisionRecord` | one per version, written by the edit that makes it (revision 1, the original, with the first edit); lib/community/revisions.ts |
 * | `["accepted_answers", questionId]` | message id | the accepted answer; set/cleared by `POST /api/questions/:id/accept`, cleared in the op that deletes that answer; moved to the key below by the op that hides it |
 * | `["hidden_accepted_answers", questionId]` | message id | an accepted answer set aside while it is hidden (lib/moderation/moderation.ts): the op that restores it moves it back to `accepted_answers` (unless the asker accepted another since); cleared by any accept or unaccept of the question and by the answer's delete |
 * | `["direct_reply_counts", messageId]` | `Deno.KvU64` | `sum` +1 per reply whose `replyTo` is the message (−1 when one disappears): a deleted message with replies stays as "[deleted]" |
 *
 * Follows, notifications, live pages and moderation (docs/interface.md):
 *
 * | Prefix | Value | Written with / indexes |
 * | --- | --- | --- |
 * | `["follows", questionId, userId]` | `{at}` | in the op of the question (asker) and of each message (its author); toggled by `POST /api/questions/:id/follow`; listed for the answer fan-out |
 * | `["notifications", userId, id]` | `NotificationRef` `{t, q, m?, a?, by?, n?, u?, r?}`: a reference (kind, question, message, answer, actor id, count, last change, read), rendered from the records when read (lib/notifications/stored.ts); older stores hold `LegacyNotification` copies until the compaction migration | id sorts by time (newest last); written with its cause (lib/notifications/); `expireIn` 90 days (readers drop it from the UTC day 90 days after the one it came on); marking read (some or all), and a follower notification finding more than 200 unread (about one in 50 checks), keep the newest 200 |
 * | `["notification_unread", userId]` | `Deno.KvU64` | `sum` +1 per new unread, −1 per one read, trimmed or expired: the unread count, and the key the stream `kv.watch`es (lib/notifications/unread.ts) |
 * | `["notification_unread", userId, "mark"]` | number (when it was set) | "mark all read": notifications written before it (by versionstamp: commit order, not clocks) are read (lib/notifications/unread.ts `isUnread`) |
 * | `["notification_unread_due", userId, dueDay]` | `Deno.KvU64` | moved in the same op as the counter, by the same amount: how much of the count expires when UTC day `dueDay` begins; a read takes begun days off the counter and deletes them (lib/notifications/unread.ts) |
 * | `["notification_daily", userId, targetType, targetId, day]` | notification id | the `upvotes` entry of a post for a UTC day; `expireIn` 2 days |
 * | `["question_version", questionId]` | `Deno.KvU64` | `sum` +1 in the op of every answer, vote, edit, delete, accept and moderation of the thread: the key `GET /api/questions/:id/events` watches |
 * | `["flags", targetType, targetId, userId]` | `FlagRecord` `{reason, note, createdAt}` | one per user and target, checked absent (lib/moderation/flags.ts) |
 * | `["mod_queue", targetType, targetId]` | `ModQueueEntry` | with each flag (count, weight, reasons, flaggers with standing); hidden at weight 3; removed by a moderator's decision |
 * | `["hidden_posts", targetType, targetId]` | `{at, by}` | with the record's `hiddenAt` (feeds read the records, whose `hiddenAt` leaves them out) |
 * | `["mod_log", invertTime(at), id]` | `ModLogEntry` | one per moderator action, in the action's op; newest first |
 * | `["withdrawn", "debate" \| "roundtable", id]` | `Withdrawal` `{reason, at, by}` | set by a moderator's `withdraw`, deleted by `restore`, each with its `["mod_log", …]` entry (lib/moderation/withdrawals.ts); read by the debate and roundtable read gates, lists and the sitemap |
 *
 * Background jobs (lib/jobs/: debates, expert panels, the avatar, fan-outs):
 *
 * | Prefix | Value | Written with / indexes |
 * | --- | --- | --- |
 * | `["jobs", kind, id]` | `JobRecord` `{owner, claims, due, released}` | written with the work it runs (a debate, a panel) or by the first pass (periodic jobs); its versionstamp is the fence every commit of the run checks; deleted in the op of the job's last write; the resume pass lists this prefix |
 * | `["fanout_jobs", messageId]` | `FanoutState` `{n, skip, cursor, sent}` | an answer's notification to every follower (lib/notifications/fanout.ts): written in the answer's op with its job; each batch of 100 moves `cursor` with its notifications; deleted in the last batch's op |
 * | `["job_lease", kind, id]` | `LeaseTerm` `{owner, until}` | renewed every 2 s under the fence, lapses after 6 s; `until: 0` once released at shutdown |
 *
 * Accounts: export, deletion and sanctions (lib/account/, lib/moderation/sanctions.ts):
 *
 * | Prefix | Value | Written with / indexes |
 * | --- | --- | --- |
 * | `["sessions_by_user", userId, sha256(token)]` | `{expiresAt}` | with the session (same `expireIn`): what ends every session of a person at once (deletion, suspension); sessions from before it are refused on read instead |
 * | `["authored", userId, "question" \| "message", postId]` | `true` | in the op that creates a person's question or message (never an AI expert's), never removed by a soft delete: every post a person wrote, deleted ones included, for their account's deletion |
 * | `["follows_by_user", userId, questionId]` | `{at}` | with every `["follows", questionId, userId]` set or deleted: a person's follows |
 * | `["flags_by_user", userId, targetType, targetId]` | `true` | with the flag: a person's flags |
 * | `["deleted_users", userId]` | `DeletedUser` `{deletedAt, content}` | the tombstone of a deleted account, written in the op that deletes `["users", userId]`, never removed: a new user's op checks it absent, so an id is never reused |
 * | `["account_deletions", userId]` | `AccountDeletion` (phase, cursor, counts) | the progress of the deletion job `["jobs", "account-deletion", userId]` (lib/account/delete_job.ts): written with the tombstone, moved by every batch under the job's fence, deleted in its last op |
 * | `["votes", targetType, targetId, "anon_…"]` | the vote's value, moved as it was | a deleted account's vote: moved off its voter's key (a fresh random id per vote, so no two of them link), counts unchanged; it has no `user_votes` row |
 * | `["flags", targetType, targetId, "anon_…"]` | `FlagRecord` | a deleted account's flag, moved the same way (the queue's weight unchanged) |
 * | `["sanctions", userId]` | `Sanction` `{action: "silence" \| "suspend", reason, until, at, by}` | set by `POST /api/mod/users/:id`, deleted by `lift`, with its `["mod_log", …]` entry; read with the session, the agent key and every write; past `until` it is void |
 *
 * Operations (lib/ops/):
 *
 * | Prefix | Value | Written with / indexes |
 * | --- | --- | --- |
 * | `["meta", "restore"]` | `RestoreProgress` `{sha256, done}` (lib/ops/restore.ts) | set in the op of every batch `deno task restore` commits, deleted when it ends: a re-run resumes after `done` entries; never backed up or restored |
 *
 * Semantic rerank (lib/search/: question_vectors.ts, embedding_job.ts, rerank.ts):
 *
 * | Prefix | Value | Written with / indexes |
 * | --- | --- | --- |
 * | `["question_vector", questionId]` | `QuestionVector` `{model, dims, v, text}` (`v`: the L2-normalized Float32 values' little-endian bytes, a `Uint8Array`, 1 KiB at 256 dims; `text`: sha-256 of the embedded text) | set with the delete of the marker below, in one op checking the question's versionstamp; deleted in the op that deletes or hides the question |
 * | `["embedding_pending", questionId]` | `PendingEmbedding` `{failures}` | set in the question's own op at create, edit and restore (and by the backfill for older questions); deleted with the vector's write, or with the question's delete/hide |
 * | `["embedding_job"]` | `EmbeddingJobState` `{failures, retryAt, backfill: {model, dims, cursor?, done}}` | the embeddings job's backoff and its resumable backfill cursor over `["questions"]`; written under the job's fence |
 * | `["query_vector", sha256(model, dims, normalized query)]` | `CachedQueryVector` `{model, dims, v, expiresAt}` | a search query's vector; `expireIn` 1 day + `expiresAt` |
 *
 * Discovery (lib/seo/sitemap_rolls.ts) and backfills:
 *
 * | Prefix | Value | Written with / indexes |
 * | --- | --- | --- |
 * | `["sitemap_roll_head", kind]` | number (members numbered so far) | `kind` = `tags`, `profiles`, `debates`; checked + set by the roll job with each batch |
 * | `["sitemap_roll", kind, n]` | name (a tag, a user id, a debate id) | dense, append-only numbering: sitemap page p of n is the key range `((p−1)·n, p·n]`, so a URL never changes page; what is no longer public is left out when a page is read |
 * | `["sitemap_roll_member", kind, name]` | n | the member's number: checked absent before numbering, written with the roll row |
 * | `["sitemap_roll_walk", kind]` | `RollWalk` `{after, walkedAt}` | where the roll job's walk of the source stands; checked + set with each batch under the job's fence |
 * | `["backfills", name]` | `BackfillProgress` `{after, indexed, doneAt?}` | a resumable backfill's progress (`debates_by_time`: lib/debates/time_index_backfill.ts), checked + set with each batch under its job's fence |
 *
 * Later features add their rows here, next to their builders — and a derived row or counter
 * its check to `deno task fsck` (lib/ops/fsck/invariants.ts), which holds every row above
 * that is written "with" a record to agreeing with it.
 *
 * @module
 */

/** Per-user statistics kept as counters under `["user_stats", userId, name]`. */
export type UserStatName =
  | "questions"
  | "answers"
  | "upvotes_received"
  | "favorites_received"
  | "best_question_upvotes"
  | "best_answer_upvotes"
  | "debates"
  | "debate_wins"
  | "answer_accepted";

/** Key builders, one per prefix of the table above. */
/** Longest id a request may name; stored ids are far shorter. */
export const MAX_LOOKUP_ID_LENGTH = 200;

/**
 * True when `id` can name a stored record. Ids come from URLs and bodies; an over-long
 * one would overflow KV's 2 KiB key limit (a thrown error, so a 500) instead of simply
 * not being found.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * declare const id: string;
 * const entry = isLookupId(id) ? await kv.get(keys.question(id)) : null;
 * ```
 */
export function isLookupId(id: string): boolean {
  return id.length > 0 && id.length <= MAX_LOOKUP_ID_LENGTH;
}

export const keys = {
  appSecret: (): Deno.KvKey => ["meta", "app_secret"],
  health: (): Deno.KvKey => ["meta", "health"],
  /** The store's record shape version (lib/ops/compact.ts). */
  storeShape: (): Deno.KvKey => ["meta", "shape"],
  user: (userId: string): Deno.KvKey => ["users", userId],
  usersPrefix: (): Deno.KvKey => ["users"],
  session: (sessionId: string): Deno.KvKey => ["sessions", sessionId],
  question: (id: string): Deno.KvKey => ["questions", id],
  questionsByTimePrefix: (): Deno.KvKey => ["questions_by_time"],
  questionByTime: (inverted: number, id: string): Deno.KvKey => ["questions_by_time", inverted, id],
  counter: (name: string): Deno.KvKey => ["counters", name],
  profile: (userId: string): Deno.KvKey => ["profiles", userId],
  settings: (userId: string): Deno.KvKey => ["settings", userId],
  avatarRoster: (userId: string): Deno.KvKey => ["avatar_roster", userId],
  avatarRosterPrefix: (): Deno.KvKey => ["avatar_roster"],
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
  debatesPrefix: (): Deno.KvKey => ["debates"],
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
  debatesByTimePrefix: (): Deno.KvKey => ["debates_by_time"],
  debateByTime: (inverted: number, id: string): Deno.KvKey => ["debates_by_time", inverted, id],
  debateWatcher: (id: string, userId: string): Deno.KvKey => ["debate_watchers", id, userId],
  debateWatches: (id: string): Deno.KvKey => ["debate_watches", id],
  debatesByWatchesPrefix: (): Deno.KvKey => ["debates_by_watches"],
  debateByWatches: (watches: number, inverted: number, id: string): Deno.KvKey => [
    "debates_by_watches",
    -watches,
    inverted,
    id,
  ],
  debateAgent: (userId: string): Deno.KvKey => ["debate_agents", userId],
  debateEventsPrefix: (debateId: string): Deno.KvKey => ["debate_events", debateId],
  debateEvent: (debateId: string, seq: number): Deno.KvKey => ["debate_events", debateId, seq],
  debateEventHead: (debateId: string): Deno.KvKey => ["debate_event_head", debateId],
  debateRunning: (debateId: string): Deno.KvKey => ["debates_running", debateId],
  // Roundtables (table above).
  roundtable: (id: string): Deno.KvKey => ["roundtables", id],
  roundtableMessagesPrefix: (id: string): Deno.KvKey => ["roundtable_messages", id],
  roundtableMessage: (id: string, index: number): Deno.KvKey => ["roundtable_messages", id, index],
  roundtableInterjectionsPrefix: (id: string): Deno.KvKey => ["roundtable_interjections", id],
  roundtableInterjection: (id: string, n: number): Deno.KvKey => [
    "roundtable_interjections",
    id,
    n,
  ],
  roundtablesByUserPrefix: (userId: string): Deno.KvKey => ["roundtables_by_user", userId],
  roundtableByUser: (userId: string, inverted: number, id: string): Deno.KvKey => [
    "roundtables_by_user",
    userId,
    inverted,
    id,
  ],
  roundtablesByTimePrefix: (): Deno.KvKey => ["roundtables_by_time"],
  roundtableByTime: (inverted: number, id: string): Deno.KvKey => [
    "roundtables_by_time",
    inverted,
    id,
  ],
  roundtableEvent: (id: string, seq: number): Deno.KvKey => ["roundtable_events", id, seq],
  roundtableEventHead: (id: string): Deno.KvKey => ["roundtable_event_head", id],
  aiDay: (budget: string, day: string): Deno.KvKey => ["ai_day", budget, day],
  // Community: questions, messages, votes, favorites, agent keys (table above).
  questionSeqHead: (): Deno.KvKey => ["question_seq_head"],
  questionsBySeqPrefix: (): Deno.KvKey => ["questions_by_seq"],
  questionBySeq: (seq: number): Deno.KvKey => ["questions_by_seq", seq],
  tagSeqHead: (tag: string): Deno.KvKey => ["tag_seq_head", tag],
  tagSeqHeadsPrefix: (): Deno.KvKey => ["tag_seq_head"],
  questionByTag: (tag: string, seq: number): Deno.KvKey => ["questions_by_tag", tag, seq],
  questionsByTagPrefix: (tag: string): Deno.KvKey => ["questions_by_tag", tag],
  searchPostingPrefix: (ns: "sp" | "sa", stem: string): Deno.KvKey => [ns, stem],
  searchPosting: (ns: "sp" | "sa", stem: string, impactAndId: string): Deno.KvKey => [
    ns,
    stem,
    impactAndId,
  ],
  searchDoc: (ns: "sq" | "sr", questionId: string): Deno.KvKey => [ns, questionId],
  searchDocFrequency: (stem: string): Deno.KvKey => ["sd", stem],
  searchWord: (word: string): Deno.KvKey => ["sw", word],
  searchWordPrefix: (): Deno.KvKey => ["sw"],
  searchNeighbour: (deletion: string, word: string): Deno.KvKey => ["sv", deletion, word],
  searchNeighbours: (deletion: string): Deno.KvKey => ["sv", deletion],
  searchStat: (name: "qdocs" | "qlen" | "adocs" | "alen"): Deno.KvKey => ["ss", name],
  searchDirty: (questionId: string): Deno.KvKey => ["search_dirty", questionId],
  searchDirtyPrefix: (): Deno.KvKey => ["search_dirty"],
  searchBackfill: (): Deno.KvKey => ["search_backfill"],
  /** The postings of the index before lib/search (removed by the `search` job's backfill). */
  legacySearchPostings: (): Deno.KvKey => ["question_terms"],
  questionsByAuthorPrefix: (userId: string): Deno.KvKey => ["questions_by_author", userId],
  questionByAuthor: (userId: string, inverted: number, id: string): Deno.KvKey => [
    "questions_by_author",
    userId,
    inverted,
    id,
  ],
  message: (id: string): Deno.KvKey => ["messages", id],
  questionMessagesPrefix: (questionId: string): Deno.KvKey => ["question_messages", questionId],
  questionMessage: (questionId: string, createdAt: number, id: string): Deno.KvKey => [
    "question_messages",
    questionId,
    createdAt,
    id,
  ],
  messagesByAuthorPrefix: (userId: string): Deno.KvKey => ["messages_by_author", userId],
  messageByAuthor: (userId: string, inverted: number, id: string): Deno.KvKey => [
    "messages_by_author",
    userId,
    inverted,
    id,
  ],
  messageCount: (questionId: string): Deno.KvKey => ["message_counts", questionId],
  hiddenMessageCount: (questionId: string): Deno.KvKey => ["hidden_message_counts", questionId],
  hiddenAnswerCount: (questionId: string): Deno.KvKey => ["hidden_answer_counts", questionId],
  hiddenAiAnswerCount: (questionId: string): Deno.KvKey => ["hidden_ai_answer_counts", questionId],
  hiddenAiReplyCount: (questionId: string): Deno.KvKey => ["hidden_ai_reply_counts", questionId],
  questionAnswersPrefix: (questionId: string): Deno.KvKey => ["question_answers", questionId],
  questionAnswer: (questionId: string, createdAt: number, id: string): Deno.KvKey => [
    "question_answers",
    questionId,
    createdAt,
    id,
  ],
  answerCount: (questionId: string): Deno.KvKey => ["answer_counts", questionId],
  aiAnswerCount: (questionId: string): Deno.KvKey => ["ai_answer_counts", questionId],
  aiReplyCount: (questionId: string): Deno.KvKey => ["ai_reply_counts", questionId],
  answerRepliesPrefix: (rootId: string): Deno.KvKey => ["answer_replies", rootId],
  answerReply: (rootId: string, createdAt: number, id: string): Deno.KvKey => [
    "answer_replies",
    rootId,
    createdAt,
    id,
  ],
  replyCount: (rootId: string): Deno.KvKey => ["reply_counts", rootId],
  answersByScorePrefix: (questionId: string): Deno.KvKey => ["answers_by_score", questionId],
  answerByScore: (questionId: string, rank: number, createdAt: number, id: string): Deno.KvKey => [
    "answers_by_score",
    questionId,
    rank,
    createdAt,
    id,
  ],
  answerScore: (messageId: string): Deno.KvKey => ["answer_score", messageId],
  answersByScoreBuilt: (questionId: string): Deno.KvKey => ["answers_by_score_built", questionId],
  votesPrefix: (targetType: string, targetId: string): Deno.KvKey => [
    "votes",
    targetType,
    targetId,
  ],
  vote: (targetType: string, targetId: string, userId: string): Deno.KvKey => [
    "votes",
    targetType,
    targetId,
    userId,
  ],
  voteCount: (targetType: string, targetId: string, dir: "up" | "down"): Deno.KvKey => [
    "vote_counts",
    targetType,
    targetId,
    dir,
  ],
  userVotesPrefix: (userId: string): Deno.KvKey => ["user_votes", userId],
  userVote: (
    userId: string,
    inverted: number,
    targetType: string,
    targetId: string,
  ): Deno.KvKey => [
    "user_votes",
    userId,
    inverted,
    targetType,
    targetId,
  ],
  favorite: (userId: string, targetType: string, targetId: string): Deno.KvKey => [
    "favorites",
    userId,
    targetType,
    targetId,
  ],
  userFavoritesPrefix: (userId: string): Deno.KvKey => ["user_favorites", userId],
  userFavorite: (
    userId: string,
    inverted: number,
    targetType: string,
    targetId: string,
  ): Deno.KvKey => ["user_favorites", userId, inverted, targetType, targetId],
  favoriteCount: (targetType: string, targetId: string): Deno.KvKey => [
    "favorite_counts",
    targetType,
    targetId,
  ],
  userStat: (userId: string, stat: UserStatName): Deno.KvKey => ["user_stats", userId, stat],
  agentKey: (hash: string): Deno.KvKey => ["agent_keys", hash],
  agentKeysByUserPrefix: (userId: string): Deno.KvKey => ["agent_keys_by_user", userId],
  agentKeyByUser: (userId: string, keyId: string): Deno.KvKey => [
    "agent_keys_by_user",
    userId,
    keyId,
  ],
  agentKeyCount: (userId: string): Deno.KvKey => ["agent_key_count", userId],
  // Agents' sign-in (OAuth; table above).
  oauthClient: (clientId: string): Deno.KvKey => ["oauth_clients", clientId],
  oauthCode: (digest: string): Deno.KvKey => ["oauth_codes", digest],
  oauthGrant: (grantId: string): Deno.KvKey => ["oauth_grants", grantId],
  oauthGrantsByUserPrefix: (userId: string): Deno.KvKey => ["oauth_grants_by_user", userId],
  oauthGrantByUser: (userId: string, grantId: string): Deno.KvKey => [
    "oauth_grants_by_user",
    userId,
    grantId,
  ],
  oauthAccessToken: (digest: string): Deno.KvKey => ["oauth_access_tokens", digest],
  oauthRefreshToken: (digest: string): Deno.KvKey => ["oauth_refresh_tokens", digest],
  avatarJob: (): Deno.KvKey => ["avatar_job"],
  /** A background job's record; its versionstamp is the run's fence (lib/jobs/lease.ts). */
  job: (kind: string, id: string): Deno.KvKey => ["jobs", kind, id],
  /** Every background job, for the resume pass. */
  jobsPrefix: (): Deno.KvKey => ["jobs"],
  /** An answer's follower fan-out (lib/notifications/fanout.ts). */
  fanoutJob: (messageId: string): Deno.KvKey => ["fanout_jobs", messageId],
  /** Until when a job's holder keeps it. */
  jobLease: (kind: string, id: string): Deno.KvKey => ["job_lease", kind, id],
  avatarAnswered: (userId: string, questionId: string): Deno.KvKey => [
    "avatar_answered",
    userId,
    questionId,
  ],
  avatarAnswerLog: (userId: string): Deno.KvKey => ["avatar_answer_log", userId],
  participationDraft: (userId: string, draftId: string): Deno.KvKey => [
    "participation_drafts",
    userId,
    draftId,
  ],
  debateLeases: (): Deno.KvKey => ["debate_leases"],
  idempotency: (caller: string, key: string): Deno.KvKey => ["idempotency", caller, key],
  rateLimitLog: (bucket: string, key: string): Deno.KvKey => ["ratelimit_log", bucket, key],
  rateLimitClaims: (bucket: string, key: string, subBucket: number): Deno.KvKey => [
    "ratelimit_claims",
    bucket,
    key,
    subBucket,
  ],
  questionSeqs: (questionId: string): Deno.KvKey => ["question_seqs", questionId],
  seqHolesPrefix: (feed: string): Deno.KvKey => ["seq_holes", feed],
  seqHole: (feed: string, seq: number): Deno.KvKey => ["seq_holes", feed, seq],
  seqHoleCount: (feed: string): Deno.KvKey => ["seq_hole_counts", feed],
  revisionsPrefix: (targetType: string, targetId: string): Deno.KvKey => [
    "revisions",
    targetType,
    targetId,
  ],
  revision: (targetType: string, targetId: string, n: number): Deno.KvKey => [
    "revisions",
    targetType,
    targetId,
    n,
  ],
  acceptedAnswer: (questionId: string): Deno.KvKey => ["accepted_answers", questionId],
  hiddenAcceptedAnswer: (questionId: string): Deno.KvKey => ["hidden_accepted_answers", questionId],
  directReplyCount: (messageId: string): Deno.KvKey => ["direct_reply_counts", messageId],
  // Follows, notifications, live pages, moderation (table above).
  follow: (questionId: string, userId: string): Deno.KvKey => ["follows", questionId, userId],
  followsPrefix: (questionId: string): Deno.KvKey => ["follows", questionId],
  notificationsPrefix: (userId: string): Deno.KvKey => ["notifications", userId],
  notification: (userId: string, id: string): Deno.KvKey => ["notifications", userId, id],
  notificationUnread: (userId: string): Deno.KvKey => ["notification_unread", userId],
  notificationUnreadDuePrefix: (userId: string): Deno.KvKey => ["notification_unread_due", userId],
  notificationUnreadDue: (userId: string, dueDay: number): Deno.KvKey => [
    "notification_unread_due",
    userId,
    dueDay,
  ],
  notificationDaily: (
    userId: string,
    targetType: string,
    targetId: string,
    day: number,
  ): Deno.KvKey => ["notification_daily", userId, targetType, targetId, day],
  questionVersion: (questionId: string): Deno.KvKey => ["question_version", questionId],
  flag: (targetType: string, targetId: string, userId: string): Deno.KvKey => [
    "flags",
    targetType,
    targetId,
    userId,
  ],
  modQueuePrefix: (): Deno.KvKey => ["mod_queue"],
  modQueue: (targetType: string, targetId: string): Deno.KvKey => [
    "mod_queue",
    targetType,
    targetId,
  ],
  hiddenPost: (targetType: string, targetId: string): Deno.KvKey => [
    "hidden_posts",
    targetType,
    targetId,
  ],
  withdrawn: (kind: string, id: string): Deno.KvKey => ["withdrawn", kind, id],
  modLogPrefix: (): Deno.KvKey => ["mod_log"],
  modLog: (inverted: number, id: string): Deno.KvKey => ["mod_log", inverted, id],
  panelJob: (questionId: string): Deno.KvKey => ["panel_jobs", questionId],
  panelEvent: (questionId: string, seq: number): Deno.KvKey => ["panel_events", questionId, seq],
  panelEventHead: (questionId: string): Deno.KvKey => ["panel_event_head", questionId],
  panelDay: (day: string): Deno.KvKey => ["panel_day", day],
  insight: (questionId: string, kind: "map" | "summary"): Deno.KvKey => [
    "insights",
    questionId,
    kind,
  ],
  insightsDay: (day: string): Deno.KvKey => ["insights_day", day],
  expertInvite: (questionId: string, expertId: string): Deno.KvKey => [
    "expert_invites",
    questionId,
    expertId,
  ],
  restoreProgress: (): Deno.KvKey => ["meta", "restore"],
  // Semantic rerank (table above).
  /** Every question record, in id order (the embeddings backfill walks it). */
  questionsPrefix: (): Deno.KvKey => ["questions"],
  questionVector: (questionId: string): Deno.KvKey => ["question_vector", questionId],
  embeddingPending: (questionId: string): Deno.KvKey => ["embedding_pending", questionId],
  embeddingPendingPrefix: (): Deno.KvKey => ["embedding_pending"],
  embeddingJob: (): Deno.KvKey => ["embedding_job"],
  queryVector: (digest: string): Deno.KvKey => ["query_vector", digest],
  sitemapRollHead: (kind: string): Deno.KvKey => ["sitemap_roll_head", kind],
  sitemapRoll: (kind: string, n: number): Deno.KvKey => ["sitemap_roll", kind, n],
  sitemapRollMember: (kind: string, name: string): Deno.KvKey => [
    "sitemap_roll_member",
    kind,
    name,
  ],
  sitemapRollWalk: (kind: string): Deno.KvKey => ["sitemap_roll_walk", kind],
  backfill: (name: string): Deno.KvKey => ["backfills", name],
  // Accounts (table above).
  sessionByUser: (userId: string, hash: string): Deno.KvKey => ["sessions_by_user", userId, hash],
  sessionsByUserPrefix: (userId: string): Deno.KvKey => ["sessions_by_user", userId],
  authored: (userId: string, kind: "question" | "message", postId: string): Deno.KvKey => [
    "authored",
    userId,
    kind,
    postId,
  ],
  authoredPrefix: (userId: string): Deno.KvKey => ["authored", userId],
  followByUser: (userId: string, questionId: string): Deno.KvKey => [
    "follows_by_user",
    userId,
    questionId,
  ],
  followsByUserPrefix: (userId: string): Deno.KvKey => ["follows_by_user", userId],
  flagByUser: (userId: string, targetType: string, targetId: string): Deno.KvKey => [
    "flags_by_user",
    userId,
    targetType,
    targetId,
  ],
  flagsByUserPrefix: (userId: string): Deno.KvKey => ["flags_by_user", userId],
  deletedUser: (userId: string): Deno.KvKey => ["deleted_users", userId],
  accountDeletion: (userId: string): Deno.KvKey => ["account_deletions", userId],
  sanction: (userId: string): Deno.KvKey => ["sanctions", userId],
  /** A deleted account's sanction, by a digest of a sign-in identity it had. */
  carriedSanction: (provider: string, identityDigest: string): Deno.KvKey => [
    "sanctions_carried",
    provider,
    identityDigest,
  ],
} as const;
