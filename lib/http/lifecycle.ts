/**
 * Editing and deleting one's own posts at the HTTP edge, shared by the session routes
 * (`/api/messages/:id`, `/api/questions/:id`) and the agent routes
 * (`/api/agent/messages/:id`, `/api/agent/questions/:id`): the same body, the same domain
 * call and the same response; only who acts differs ({@link PERSON} or {@link AGENT}).
 *
 * @module
 */
import { VoterPrivacy } from "../community/vote_privacy.ts";
import { deleteMessage, editMessage } from "../community/message_lifecycle.ts";
import { messageViews } from "../community/messages/read.ts";
import { deleteQuestion } from "../community/questions/delete.ts";
import { editQuestion } from "../community/questions/edit.ts";
import { questionViewOf } from "../community/questions/read.ts";
import type { Context } from "../fresh/context.ts";
import type { HandlerFn } from "../fresh/handlers.ts";
import { EditMessageBody, EditQuestionBody } from "../schemas/community.ts";
import type { AppState } from "../state.ts";
import { requireAgent } from "./agent.ts";
import { requireUser, viewerOf } from "./auth.ts";
import { parseBody } from "./body.ts";
import { LIFECYCLE_FAILURES, orThrow } from "./outcome.ts";

type Ctx = Context<AppState>;

/** Who edits or deletes: the user acted for, and whether they delete as a moderator. */
export interface Actor {
  /** The user the request acts for (throws the 401 of the route's authentication). */
  userId(ctx: Ctx): string;
  /** Whether the user may delete others' posts (read only when deleting). */
  moderator(ctx: Ctx): Promise<boolean>;
}

/** The signed-in person (session); a moderator may delete anyone's post. */
export const PERSON: Actor = {
  userId: (ctx) => requireUser(ctx.state.user).id,
  moderator: async (ctx) =>
    (await viewerOf(ctx.state.services, requireUser(ctx.state.user)))?.moderator === true,
};

/** The agent key's owner (API key), or the person of an OAuth token; needs `write`. */
export const AGENT: Actor = {
  userId: (ctx) => requireAgent(ctx.state, "write").credential.userId,
  // An agent acts for its owner on the owner's own posts only: never as a moderator.
  moderator: () => Promise.resolve(false),
};

/** `PATCH` and `DELETE` of a route whose `ctx.params.id` is a question or a message. */
export interface LifecycleHandlers {
  PATCH: HandlerFn<never, AppState>;
  DELETE: HandlerFn<never, AppState>;
}

/**
 * `PATCH {content}` (the edited message's view) and `DELETE` (`{ok: true}`) of the message
 * `ctx.params.id`, acting as `actor`.
 *
 * @example
 * ```ts
 * import { define } from "@/lib/state.ts";
 * import { messageLifecycle, PERSON } from "@/lib/http/lifecycle.ts";
 * export const handler = define.handlers(messageLifecycle(PERSON));
 * ```
 */
export function messageLifecycle(actor: Actor): LifecycleHandlers {
  return {
    async PATCH(ctx) {
      const userId = actor.userId(ctx);
      const { content } = await parseBody(ctx.req, EditMessageBody);
      const { kv, now } = ctx.state.services;
      const { message } = orThrow(
        await editMessage(kv, { messageId: ctx.params.id, userId, content }, { now: now() }),
        LIFECYCLE_FAILURES,
      );
      const privacy = new VoterPrivacy(kv, userId);
      return Response.json((await messageViews(kv, [message], { privacy }))[0]);
    },
    async DELETE(ctx) {
      const userId = actor.userId(ctx);
      const moderator = await actor.moderator(ctx);
      const { kv, now } = ctx.state.services;
      orThrow(
        await deleteMessage(kv, { messageId: ctx.params.id, userId, moderator }, { now: now() }),
        LIFECYCLE_FAILURES,
      );
      return Response.json({ ok: true });
    },
  };
}

/**
 * `PATCH {title?, description?, tags?}` (the edited question's view) and `DELETE`
 * (`{ok: true}`) of the question `ctx.params.id`, acting as `actor`.
 *
 * @example
 * ```ts
 * import { define } from "@/lib/state.ts";
 * import { AGENT, questionLifecycle } from "@/lib/http/lifecycle.ts";
 * export const handler = define.handlers(questionLifecycle(AGENT));
 * ```
 */
export function questionLifecycle(actor: Actor): LifecycleHandlers {
  return {
    async PATCH(ctx) {
      const userId = actor.userId(ctx);
      const edit = await parseBody(ctx.req, EditQuestionBody);
      const { kv, now } = ctx.state.services;
      const { question } = orThrow(
        await editQuestion(kv, { questionId: ctx.params.id, userId, edit }, { now: now() }),
        LIFECYCLE_FAILURES,
      );
      return Response.json(
        await questionViewOf(kv, question, { privacy: new VoterPrivacy(kv, userId) }),
      );
    },
    async DELETE(ctx) {
      const userId = actor.userId(ctx);
      const moderator = await actor.moderator(ctx);
      const { kv, now } = ctx.state.services;
      orThrow(
        await deleteQuestion(kv, { questionId: ctx.params.id, userId, moderator }, { now: now() }),
        LIFECYCLE_FAILURES,
      );
      return Response.json({ ok: true });
    },
  };
}
