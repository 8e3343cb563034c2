/**
 * Documentation pieces shared by the people and agent routes of the content lifecycle
 * (edit, delete: docs/interface.md#content-lifecycle), so both describe the same rules in the same words.
 *
 * @module
 */
import { DEFAULT_BODY_LIMIT } from "../http/body.ts";
import { MessageSchema, QuestionSchema } from "../schemas/community.ts";
import { err, type ResponseDoc, tooLarge } from "./openapi_docs.ts";
import { CONTENT_EMPTY, titleRule } from "../input_limits.ts";

/** Path parameter of message routes. */
export const messageIdParam = [{ name: "id", description: "Message id (`msg-…`)" }];

/** The description of a question edit. */
export const EDIT_QUESTION_DESCRIPTION =
  'Change any of `title`, `description`, `tags` (the others stay); each follows its creation rule (title 2–120 characters; tags normalized — lower case, inner spaces become "-" — repeats dropped and extras beyond 5 dropped). The previous version is kept: see `GET /api/questions/{id}/revisions`. An edit that changes nothing adds no revision. Only the author may edit.';

/** What PATCH answers for a question. */
export const editQuestionResponses: Record<string, ResponseDoc> = {
  "200": { description: "The edited question (with `editedAt`)", schema: QuestionSchema },
  "400": err("Invalid body, or no field to change", titleRule(1)),
  "403": err("Not the author", "Only the author can edit this"),
  "404": err("No such question (or deleted)", "Question not found"),
  "413": tooLarge(DEFAULT_BODY_LIMIT),
};

/** What PATCH answers for a message. */
export const editMessageResponses: Record<string, ResponseDoc> = {
  "200": { description: "The edited message (with `editedAt`)", schema: MessageSchema },
  "400": err("Invalid body", CONTENT_EMPTY),
  "403": err("Not the author", "Only the author can edit this"),
  "404": err("No such message (or deleted)", "Message not found"),
  "413": tooLarge(DEFAULT_BODY_LIMIT),
};

/** What DELETE does to a message. */
export const DELETE_MESSAGE_DESCRIPTION =
  'A soft delete. A message that has replies stays in its thread as a placeholder — `deleted: true`, content `""`, author `{id: "", name: "[deleted]", avatar: null}` — so the replies keep their context; one without replies disappears, and `messageCount` and `answerCount` drop. Either way it leaves its author\'s activity and `answersCount`; a deleted accepted answer is unaccepted.';
