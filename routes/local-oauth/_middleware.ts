import { HttpError } from "@/lib/fresh/mod.ts";
import { define } from "@/lib/state.ts";

/**
 * The local identity providers exist only in local mode: with a real provider
 * configured or `LOCAL_MODE=off`, every path under /local-oauth is a 404.
 */
export default define.middleware((ctx) => {
  if (!ctx.state.services.config.localMode) throw new HttpError(404);
  return ctx.next();
});
