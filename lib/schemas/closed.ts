/**
 * Bodies that refuse a field that looks like one they take. An agent that misspells a field
 * (`messageID`, `contnet`) or uses another word for it (`body` for `description`) would
 * otherwise have it dropped in silence and its request carried out without it — a vote
 * landing on the question instead of the answer, a question posted without its text. The
 * 400 names the field, the one it most likely meant, and every field the request takes.
 *
 * A field like nothing the request takes (`author`, `userId`) is still ignored, as it always
 * was: the author of a post is the caller, whatever a body claims, and a client sending
 * more than it must is not refused for it.
 *
 * @module
 */
import { z } from "zod";
import { editDistance } from "../text/edit_distance.ts";

/**
 * Other words for a field, as clients use them. A Map: a body's own keys are looked up in
 * it, and `constructor` or `__proto__` must not find an object's inherited members.
 */
const SYNONYMS = new Map<string, readonly string[]>(Object.entries({
  body: ["description", "content"],
  text: ["content", "description"],
  message: ["content"],
  answer: ["content"],
  reply_to: ["replyTo"],
  parentId: ["replyTo"],
  vote: ["voteType"],
  type: ["voteType"],
  message_id: ["messageId"],
  answerId: ["messageId"],
  question: ["title"],
  tag: ["tags"],
}));

/**
 * The known field an unknown one most likely meant, or undefined when it is like none of
 * them: same letters but case, a common other word for it, or a misspelling (one edit in a
 * name of 4–6 letters, two in a longer one).
 */
export function nearestField(unknown: string, known: readonly string[]): string | undefined {
  const lower = unknown.toLowerCase();
  const same = known.find((k) => k.toLowerCase() === lower);
  if (same) return same;
  const synonym = SYNONYMS.get(unknown)?.find((k) => known.includes(k));
  if (synonym) return synonym;
  let best: { field: string; distance: number } | undefined;
  for (const field of known) {
    const allowed = field.length > 6 ? 2 : field.length >= 4 ? 1 : 0;
    const distance = editDistance(lower, field.toLowerCase(), allowed);
    if (distance <= allowed && (!best || distance < best.distance)) best = { field, distance };
  }
  return best?.field;
}

/** `a`, `a and b`, `a, b and c`. */
function listed(words: readonly string[]): string {
  return words.length < 2
    ? words.join("")
    : `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

/**
 * The sentence for fields a request does not take: each one (the first three), the known
 * field it most likely meant, and the fields the request takes.
 *
 * @example
 * ```ts
 * unknownFieldsMessage(["messageID"], ["voteType", "messageId"]);
 * // 'Unknown field "messageID" (did you mean "messageId"?): this request takes voteType and messageId.'
 * ```
 */
export function unknownFieldsMessage(unknown: readonly string[], known: readonly string[]): string {
  const named = unknown.slice(0, 3).map((field) => {
    const near = nearestField(field, known);
    const shown = JSON.stringify(field.slice(0, 60));
    return near ? `${shown} (did you mean ${JSON.stringify(near)}?)` : shown;
  });
  const more = unknown.length > 3 ? ` and ${unknown.length - 3} more` : "";
  const s = unknown.length > 1 ? "s" : "";
  return `Unknown field${s} ${named.join(", ")}${more}: this request takes ${listed(known)}.`;
}

/** The field sets of the bodies made by {@link closedObject} (a schema's clones keep them). */
const closedShapes = new Set<string>();

function shapeKey(fields: readonly string[]): string {
  return [...fields].sort().join("\u0000");
}

/**
 * An object schema whose body refuses a field that looks like one it takes (see the module
 * doc); `parseInput` applies the rule ({@link misspeltFieldsMessage}).
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * const Vote = closedObject({ voteType: z.enum(["up", "down"]), messageId: z.string().optional() });
 * misspeltFieldsMessage(Vote, { voteType: "up", messageID: "m-1" }); // 'Unknown field "messageID" …'
 * ```
 */
export function closedObject<T extends z.core.$ZodLooseShape>(shape: T) {
  closedShapes.add(shapeKey(Object.keys(shape)));
  return z.object(shape);
}

/**
 * The sentence for the fields of `data` that the object schema `schema` does not take —
 * every one (`"all"`: the MCP tools' arguments) or only those that look like one it takes
 * (`"lookalikes"`) — or null when there are none, or `schema` is no object schema.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * const Args = z.object({ questionId: z.string() });
 * unknownFieldsIn(Args, { questionId: "q-1", extra: 1 }, "all"); // 'Unknown field "extra": …'
 * unknownFieldsIn(Args, { questionId: "q-1", extra: 1 }, "lookalikes"); // null
 * ```
 */
export function unknownFieldsIn(
  schema: z.ZodType,
  data: unknown,
  refuse: "all" | "lookalikes",
): string | null {
  if (!(schema instanceof z.ZodObject)) return null;
  if (data === null || typeof data !== "object" || Array.isArray(data)) return null;
  const known = Object.keys(schema.shape);
  const unknown = Object.keys(data).filter((k) =>
    !known.includes(k) && (refuse === "all" || nearestField(k, known) !== undefined)
  );
  return unknown.length ? unknownFieldsMessage(unknown, known) : null;
}

/**
 * For a body of a {@link closedObject} schema: the 400's sentence when `data` carries a
 * field that is not the schema's but looks like one of its fields; otherwise null.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * const Reply = closedObject({ content: z.string() });
 * misspeltFieldsMessage(Reply, { contnet: "hi" }); // 'Unknown field "contnet" (did you mean "content"?): …'
 * misspeltFieldsMessage(Reply, { content: "hi", author: "x" }); // null: not like any field
 * ```
 */
export function misspeltFieldsMessage(schema: z.ZodType, data: unknown): string | null {
  const closed = schema instanceof z.ZodObject &&
    closedShapes.has(shapeKey(Object.keys(schema.shape)));
  return closed ? unknownFieldsIn(schema, data, "lookalikes") : null;
}
