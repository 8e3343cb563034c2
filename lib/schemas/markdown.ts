/**
 * Zod schemas of the Markdown preview (`POST /api/markdown/preview`).
 *
 * @module
 */
import { z } from "zod";
import { CONTENT_MAX, DESCRIPTION_MAX } from "../input_limits.ts";

/** Longest text a preview renders: the longest field that is Markdown. */
export const PREVIEW_MAX = Math.max(CONTENT_MAX, DESCRIPTION_MAX);

/** `{text}`: the Markdown to render, as the form would post it. */
export const MarkdownPreviewBody = z.object({
  text: z.string({ error: "text must be a string" }).max(PREVIEW_MAX, {
    error: `text must be at most ${PREVIEW_MAX} characters`,
  }),
}).meta({ id: "MarkdownPreviewBody" });

/** `{html}`: the sanitized HTML a page would show for that text. */
export const MarkdownPreviewResult = z.object({
  html: z.string().meta({
    description: "Sanitized HTML, exactly as the posted text would be rendered on the page.",
  }),
}).meta({ id: "MarkdownPreviewResult" });
