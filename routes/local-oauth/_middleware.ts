import type { FreshContext } from "@/lib/fresh/types.ts";
import type { AppState } from "@/lib/state.ts";

/**
 * The local identity providers exist only in local mode: with a real provider
 * configured or `LOCAL_MODE=off`, every path under /local-oauth is a 404.
 */
export function handler(_req: Request, ctx: FreshContext<AppState>): Promise<Response> | Response {
  if (!ctx.state.services.config.localMode) return ctx.renderNotFound();
  return ctx.next();
}
