import type { ComponentChildren } from "preact";
import MarkdownField from "@/islands/MarkdownField.tsx";
import CharCount from "@/islands/CharCount.tsx";
import {
  DESCRIPTION_MAX,
  formatCount,
  TAG_MAX_LENGTH,
  TAGS_KEPT,
  TITLE_MAX,
  TITLE_MIN,
} from "@/lib/input_limits.ts";

/** A question form's fields. */
export type QuestionField = "title" | "description" | "tags";

/** Props of {@link QuestionFields}. */
export interface QuestionFieldsProps {
  values: Record<QuestionField, string>;
  /** The message beside each field the last submit got wrong. */
  errors: Partial<Record<QuestionField, string>>;
  /**
   * The ask form: the title is required and its hint says what a title is; the tags show
   * an example. Both forms state the length rules.
   */
  asking?: boolean;
  /** Shown right under the title field (the ask form's similar questions). */
  afterTitle?: ComponentChildren;
}

const invalid = (e: string | undefined) => (e ? "true" : undefined);

/**
 * Title, details (Markdown) and tags of the ask and edit-question forms, each with its
 * message; after a refused submit the caret goes to the first field to fix.
 */
export function QuestionFields(
  { values, errors, asking = false, afterTitle }: QuestionFieldsProps,
) {
  const firstBad = (["title", "description", "tags"] as const).find((f) => errors[f]);
  return (
    <>
      <div>
        <label for="title">Title</label>
        {asking
          ? (
            <input
              id="title"
              name="title"
              type="text"
              required
              minLength={TITLE_MIN}
              value={values.title}
              aria-invalid={invalid(errors.title)}
              autoFocus={firstBad === "title"}
              aria-describedby={errors.title ? "title-error title-hint" : "title-hint"}
            />
          )
          : (
            <input
              id="title"
              name="title"
              type="text"
              value={values.title}
              aria-invalid={invalid(errors.title)}
              autoFocus={firstBad === "title"}
              aria-describedby={errors.title ? "title-error title-hint" : "title-hint"}
            />
          )}
        {/* No maxlength: a pasted title is never cut; the counter shows, the server refuses. */}
        <CharCount inputId="title" max={TITLE_MAX} />
        <p class="hint" id="title-hint">
          {asking
            ? `${TITLE_MIN} to ${TITLE_MAX} characters: the question in one line.`
            : `${TITLE_MIN} to ${TITLE_MAX} characters.`}
        </p>
        {errors.title && <p class="field-error" id="title-error">{errors.title}</p>}
        {afterTitle}
      </div>
      <div>
        <label for="description">
          Details{" "}
          <span class="hint">
            (optional, Markdown, up to {formatCount(DESCRIPTION_MAX)} characters)
          </span>
        </label>
        <MarkdownField
          id="description"
          name="description"
          value={values.description}
          maxLength={DESCRIPTION_MAX}
          invalid={Boolean(errors.description)}
          autoFocus={firstBad === "description"}
          describedBy={errors.description ? "description-error" : undefined}
        />
        {errors.description && (
          <p class="field-error" id="description-error">{errors.description}</p>
        )}
      </div>
      <div>
        <label for="tags">
          Tags <span class="hint">(optional)</span>
        </label>
        <input
          id="tags"
          name="tags"
          type="text"
          value={values.tags}
          placeholder={asking ? "deno, kv, preact" : undefined}
          aria-invalid={invalid(errors.tags)}
          autoFocus={firstBad === "tags"}
          aria-describedby={errors.tags ? "tags-error tags-hint" : "tags-hint"}
        />
        <p class="hint" id="tags-hint">
          Comma-separated; the first {TAGS_KEPT} are kept, each up to {TAG_MAX_LENGTH} characters.
        </p>
        {errors.tags && <p class="field-error" id="tags-error">{errors.tags}</p>}
      </div>
    </>
  );
}
