import { readJson } from "@/lib/http/body.ts";
import { HttpError } from "@/lib/fresh/mod.ts";
import { openAiError } from "@/lib/http/openai.ts";
import { standInEnabled } from "@/lib/llm/from_config.ts";
import { standInEmbeddings } from "@/lib/llm/standin/embeddings.ts";
import { define } from "@/lib/state.ts";

/** Largest request the stand-in reads (a batch of 32 question texts is ~130 KB). */
const BODY_LIMIT = 1024 * 1024;

/**
 * POST /api/local-llm/v1/embeddings: the offline stand-in's embeddings, OpenAI-compatible
 * (floats or base64). Mounted only in local mode without `LLM_API_KEY`; 404 otherwise.
 */
export const handler = define.handlers({
  async POST(ctx) {
    if (!standInEnabled(ctx.state.services.config)) throw new HttpError(404, "Not found");
    let body: unknown;
    // Errors here answer in OpenAI's shape, which the model clients read.
    try {
      body = await readJson(ctx.req, { limit: BODY_LIMIT });
    } catch (err) {
      if (err instanceof HttpError) return openAiError(err.status, err.message);
      throw err;
    }
    const outcome = standInEmbeddings(body);
    return outcome.ok ? Response.json(outcome.response) : openAiError(400, outcome.message);
  },
});
