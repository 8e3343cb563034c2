/**
 * The tag rules of docs/interface.md#question-fields as schemas: a question's list of tags
 * ({@link TagsField}) and one tag in a path ({@link TagField}), both normalized by the one
 * canonical form (lib/community/questions/model.ts `tagKey`) and held to
 * {@link TAG_MAX_LENGTH}. Split out of ./community.ts so the router's check of a `[tag]`
 * parameter (lib/app.ts) loads without the rest of the API's schemas.
 *
 * @module
 */
import { z } from "zod";
import { TAG_MAX_LENGTH, tagTooLong } from "../input_limits.ts";
import { normalizeTags, tagKey } from "../community/questions/model.ts";

/**
 * Tags rule of docs/interface.md#question-fields: trimmed, empties dropped, first 5 kept — any number may be sent
 * (the body limit bounds them). Each is normalized (NFKC, lower case, inner whitespace
 * joined by "-") and repeats dropped before the first 5 are taken; a kept tag longer than
 * 40 characters is refused.
 */
export const TagsField = z.array(
  z.string({ error: "Each tag must be text." }),
  { error: "Send tags as a list of words." },
).transform((t) => normalizeTags(t))
  .superRefine((tags, ctx) => {
    const long = tags.find((tag) => tag.length > TAG_MAX_LENGTH);
    if (long !== undefined) ctx.addIssue({ code: "custom", message: tagTooLong(long) });
  })
  .meta({
    description:
      'Any number may be sent. Each is normalized — NFKC, trimmed, lower-cased, inner whitespace joined by "-" (`" Deno  KV "` → `"deno-kv"`) — empty ones and repeats dropped, then the first 5 kept; extras are dropped, not refused. A kept tag may have at most 40 characters.',
  });

/**
 * One tag any question may carry, in its canonical form: the rule of {@link TagsField} for
 * a single tag (any script, `+`, `#` and the like are letters of a tag), so every tag a
 * question holds passes and its feed path (lib/feeds/paths.ts) answers.
 *
 * @example
 * ```ts
 * import { TagField } from "./tags.ts";
 *
 * TagField.parse(" C++ "); // "c++"
 * TagField.parse("日本語"); // "日本語"
 * TagField.safeParse("  ").success; // false
 * ```
 */
export const TagField = z.string({ error: "A tag must be text." }).transform(tagKey).pipe(
  z.string().min(1, { error: "A tag cannot be empty." })
    .max(TAG_MAX_LENGTH, { error: (iss) => tagTooLong(String(iss.input)) }),
);
