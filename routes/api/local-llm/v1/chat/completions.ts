import { readJson } from "@/lib/http/body.ts";
import { HttpError } from "@/lib/fresh/mod.ts";
import { completionResponse, openAiError } from "@/lib/http/openai.ts";
import { standInEnabled } from "@/lib/llm/from_config.ts";
import { standInCompletion } from "@/lib/llm/standin/server.ts";
import { define } from "@/lib/state.ts";

/** Largest prompt the stand-in reads (a debate's synthesis prompt is a few KB). */
const BODY_LIMIT = 256 * 1024;

/**
 * POST /api/local-llm/v1/chat/completions: the offline stand-in model, OpenAI-compatible
 * (streaming and not). Mounted only in local mode without `LLM_API_KEY`; 404 otherwise.
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
    return completionResponse(standInCompletion(body));
  },
});
