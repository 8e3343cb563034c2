import {
  err,
  type OperationDoc,
  retryAfter,
  sessionRateHeaders,
  streamsFull,
  tooLarge,
  unauthorizedSession,
} from "@/lib/agent/openapi_docs.ts";
import { jobRunner } from "@/lib/jobs/runner.ts";
import { sseHeadersFor } from "@/lib/http/sse.ts";
import { requireUser } from "@/lib/http/auth.ts";
import { parseBody } from "@/lib/http/body.ts";
import { HttpError } from "@/lib/fresh/mod.ts";
import { failedWith } from "@/lib/http/errors.ts";
import { enforceRateLimit } from "@/lib/http/rate_limit.ts";
import { debateCapacityError, restrictedError } from "@/lib/http/outcome.ts";
import { remoteHostname } from "@/lib/http/remote.ts";
import { takeStreamSlot } from "@/lib/http/stream_slots.ts";
import { parseInput } from "@/lib/schemas/parse.ts";
import { acquireDebateSlot } from "@/lib/debates/capacity.ts";
import { acceptRoundtable } from "@/lib/roundtables/engine.ts";
import { followRoundtable } from "@/lib/roundtables/events.ts";
import { ROUNDTABLE_JOB, type RoundtableLocal } from "@/lib/roundtables/job.ts";
import { chooseRoundtableExperts } from "@/lib/roundtables/select.ts";
import { roundtableBudgetSpent, spendRoundtableBudget } from "@/lib/roundtables/budget.ts";
import { listPublicRoundtables } from "@/lib/roundtables/access.ts";
import { listItem, listUserRoundtables } from "@/lib/roundtables/store.ts";
import {
  ROUNDTABLE_EVENTS,
  RoundtableListQuery,
  RoundtableListSchema,
  RoundtableRequestSchema,
} from "@/lib/schemas/roundtable.ts";
import { define } from "@/lib/state.ts";

/** Request bodies up to 16 KiB; 4 roundtables a minute per user and address. */
const BODY_LIMIT = 16 * 1024;
const RATE_LIMIT = 4;
const RATE_WINDOW_MS = 60_000;
/** Roundtables per list. */
const LIST_LIMIT = 20;

/** Seconds until the next UTC midnight (when the site's daily budget refills). */
function untilMidnight(now: number): number {
  const next = new Date(now);
  next.setUTCHours(24, 0, 0, 0);
  return Math.max(1, Math.ceil((next.getTime() - now) / 1000));
}

/** The 503 once the site's roundtables for today are spent, with when to come back. */
function siteBudgetSpent(now: number): HttpError {
  const wait = untilMidnight(now);
  return new HttpError(
    503,
    "Parley has held all the roundtables it can today. Try again tomorrow.",
    { extra: { retryAfter: wait }, headers: { "retry-after": String(wait) } },
  );
}

/**
 * GET /api/roundtables?mine=1|public=1: your roundtables or the public ones, newest first.
 * POST /api/roundtables: start a roundtable and stream it (Server-Sent Events, each with
 * its `id:`); it runs on, and is saved, if the client leaves.
 */
export const handler = define.handlers({
  async GET(ctx) {
    const { kv, now } = ctx.state.services;
    const q = parseInput(RoundtableListQuery, Object.fromEntries(ctx.url.searchParams), {
      in: "query",
    });
    if (q.mine) {
      const user = requireUser(ctx.state.user);
      const mine = await listUserRoundtables(kv, user.id, now(), LIST_LIMIT);
      return Response.json({ roundtables: mine.map(listItem) }, {
        headers: { "cache-control": "private, no-store" },
      });
    }
    if (!q.public) throw new HttpError(400, "Say which list: ?mine=1 or ?public=1");
    const items = await listPublicRoundtables(kv, now(), LIST_LIMIT);
    return Response.json({ roundtables: items.map(listItem) }, {
      headers: { "cache-control": "private, no-store" },
    });
  },

  async POST(ctx) {
    const { kv, llm, now, config } = ctx.state.services;
    const user = requireUser(ctx.state.user);
    if (user.sanction) throw restrictedError(user.sanction);
    const request = await parseBody(ctx.req, RoundtableRequestSchema, {
      limit: BODY_LIMIT,
      message: "Invalid roundtable request",
    });
    await enforceRateLimit(
      kv,
      "roundtable",
      `${user.id}:${remoteHostname(ctx.info)}`,
      RATE_LIMIT,
      RATE_WINDOW_MS,
      now(),
    );
    if (!llm) {
      console.error(
        "POST /api/roundtables: no language model (set LLM_API_KEY, or use local mode)",
      );
      throw new HttpError(500, "Failed to start roundtable");
    }
    // Refused for the site's sake before the host's own daily count is taken.
    if (await roundtableBudgetSpent(kv, config.roundtablesPerDay, now())) {
      throw siteBudgetSpent(now());
    }
    const streamSlot = takeStreamSlot(config, ctx.info);
    let slot;
    try {
      const capacity = await acquireDebateSlot(kv, {
        userId: user.id,
        max: config.maxConcurrentDebates,
        perUserPerDay: config.roundtablesPerUserPerDay,
        now,
        quota: "roundtables_daily",
      });
      if (!capacity.ok) throw debateCapacityError(capacity, "roundtables");
      slot = capacity.slot;
      if (!await spendRoundtableBudget(kv, config.roundtablesPerDay, now())) {
        throw siteBudgetSpent(now());
      }
      const jobs = jobRunner(kv);
      const { experts, chosenBy } = await chooseRoundtableExperts(
        llm,
        request.topic,
        request.background ?? "",
        request.expertIds,
      );
      const record = await acceptRoundtable(
        { kv, llm, now },
        user.id,
        request,
        experts,
        chosenBy,
        jobs,
      );
      const taken = slot;
      const local: RoundtableLocal = {
        onEnd: () => taken.release().catch((e) => console.error("Roundtable slot release", e)),
      };
      // The job is ours unless this instance is stopping; then a pass elsewhere runs it.
      if (!await jobs.adopt(ROUNDTABLE_JOB, record.id, local)) await local.onEnd!();
      // The stream is the stored log followed from its start: every event has its id, so
      // a client that drops resumes on GET /api/roundtables/:id/events with Last-Event-ID.
      return new Response(
        followRoundtable(kv, record.id, 0, { onEnd: streamSlot.release }),
        { status: 200, headers: { ...sseHeadersFor(ctx.req), "X-Accel-Buffering": "no" } },
      );
    } catch (err) {
      streamSlot.release();
      await slot?.release();
      throw failedWith(err, "POST /api/roundtables: could not start", "Failed to start roundtable");
    }
  },
});

export const docs: OperationDoc[] = [{
  method: "get",
  path: "/api/roundtables",
  tag: "Roundtables",
  summary: "Your roundtables, or the public ones",
  description:
    `\`?mine=1\` (signed in): your ${LIST_LIMIT} newest; \`?public=1\`: the ${LIST_LIMIT} newest whose owners keep their debate archive public. Newest first.`,
  auth: "public",
  query: RoundtableListQuery,
  responses: {
    "200": { description: "Roundtables, newest first", schema: RoundtableListSchema },
    "400": err("Neither list named", "Say which list: ?mine=1 or ?public=1"),
    "401": unauthorizedSession,
  },
}, {
  method: "post",
  path: "/api/roundtables",
  tag: "Roundtables",
  summary: "Start an AI roundtable on a topic (Server-Sent Events)",
  description:
    "3–5 AI experts from `GET /api/experts` (yours in `expertIds`, else the model chooses for the topic) hold an opening round and then `rounds` discussion rounds (default 3), each expert answering another's point; then the minutes. Everything they write is AI-written. The answer is a `text/event-stream` whose every event carries `id: <n>`: init; per turn speaking, chunk…, statement (round_end after a round's last); interjection when the host speaks; summarizing, minutes, done. `error` may end it. The roundtable is saved (also when the client disconnects) and survives the server instance that runs it; a dropped stream resumes through `GET /api/roundtables/{id}/events`. Public or private by your debate-archive setting. Limits: 4 a minute per user and address, `ROUNDTABLES_PER_USER_PER_DAY` a day per user, `ROUNDTABLES_PER_DAY` site-wide.",
  auth: "session",
  body: RoundtableRequestSchema,
  responses: {
    "200": {
      description: "The roundtable, streamed",
      events: ROUNDTABLE_EVENTS,
      headers: { "Cache-Control": "no-cache", "Connection": "keep-alive" },
    },
    "400": err("Invalid request (with `issues`)", "Invalid roundtable request"),
    "401": unauthorizedSession,
    "403": err("You are silenced or suspended", "You are silenced until …"),
    "413": tooLarge(BODY_LIMIT),
    "429": {
      ...err(
        "More than 4 a minute, or your daily roundtables are spent; `retryAfter` in seconds",
        "Too many roundtables: you can start 10 per day. Try again in 5 hours.",
      ),
      headers: { ...sessionRateHeaders, ...retryAfter },
    },
    "500": err("The roundtable could not start", "Failed to start roundtable"),
    "503": {
      ...streamsFull,
      description:
        "Every debate and roundtable slot is taken, the site's roundtables for today are spent (`retryAfter`: until midnight UTC), or too many live streams are open",
    },
  },
}];
