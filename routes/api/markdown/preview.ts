import { err, type OperationDoc, unauthorizedSession } from "@/lib/agent/openapi_docs.ts";
import { requireUser } from "@/lib/http/auth.ts";
import { parseBody } from "@/lib/http/body.ts";
import { HttpError } from "@/lib/fresh/mod.ts";
import { hitRateLimit } from "@/lib/limits/window.ts";
import { renderMarkdown } from "@/lib/markdown.ts";
import { MarkdownPreviewBody, MarkdownPreviewResult, PREVIEW_MAX } from "@/lib/schemas/markdown.ts";
import { define } from "@/lib/state.ts";

/** Previews per user per minute: far above typing-and-clicking, low enough to stop a loop. */
export const PREVIEW_RATE = 60;

/**
 * POST /api/markdown/preview {text} → {html} (session): the forms' Preview tab. The same
 * renderer and sanitizer as the pages, so a preview and the posted result never differ.
 */
export const handler = define.handlers({
  async POST(ctx) {
    const user = requireUser(ctx.state.user);
    const { text } = await parseBody(ctx.req, MarkdownPreviewBody);
    const { kv, now } = ctx.state.services;
    const r = await hitRateLimit(kv, "markdown_preview", user.id, PREVIEW_RATE, 60_000, now());
    if (!r.allowed) {
      throw new HttpError(429, "Too many previews; try again shortly", {
        extra: {
          retryAfter: r.retryAfter,
        },
        headers: { "retry-after": String(r.retryAfter) },
      });
    }
    return Response.json({ html: renderMarkdown(text, "preview-") });
  },
});

export const docs: OperationDoc[] = [{
  method: "post",
  path: "/api/markdown/preview",
  tag: "Questions",
  summary: "Preview Markdown as the site renders it",
  description:
    `Renders \`text\` (at most ${PREVIEW_MAX} characters) with the same Markdown renderer and sanitizer as question and answer pages, so the preview equals the posted result. Signed-in users, ${PREVIEW_RATE} previews a minute.`,
  auth: "session",
  body: MarkdownPreviewBody,
  responses: {
    "200": { description: "The rendered HTML", schema: MarkdownPreviewResult },
    "400": err("text missing, not a string or too long", "text must be a string"),
    "401": unauthorizedSession,
    "429": err(
      `More than ${PREVIEW_RATE} previews in a minute; Retry-After says when to retry`,
      "Too many previews; try again shortly",
    ),
  },
}];
