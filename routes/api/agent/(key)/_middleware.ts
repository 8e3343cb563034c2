import { authenticateAgent, withHeaders } from "@/lib/http/agent.ts";
import { HttpError } from "@/lib/fresh/mod.ts";
import { errorResponse } from "@/lib/http/errors.ts";
import { remoteHostname } from "@/lib/http/remote.ts";
import { rateLimitHeaders } from "@/lib/limits/window.ts";
import { define } from "@/lib/state.ts";

/**
 * Every route in this folder answers to an agent key (`Authorization: Bearer agent_…`) or
 * an OAuth access token: authenticate it and count it against its budget (401 / 429
 * otherwise), put it on `ctx.state.agent` for the handler (which checks its scope with
 * `requireAgent`), and add the `X-RateLimit-*` headers to every answer.
 *
 * An `HttpError` thrown by the handler comes back through `ctx.next()`; it is answered
 * here rather than by the app's error mapper so that its response carries the headers
 * too, and so that the middleware above still sees a response rather than a throw.
 */
export default define.middleware(async (ctx) => {
  let headers: Record<string, string> = {};
  try {
    const agent = await authenticateAgent(
      ctx.state.services,
      ctx.req.headers.get("authorization"),
      remoteHostname(ctx.info),
    );
    ctx.state.agent = agent;
    headers = rateLimitHeaders(agent.rate);
    return withHeaders(await ctx.next(), headers);
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    return withHeaders(errorResponse(err), { ...headers, ...err.headers });
  }
});
