import { skillGuide } from "@/lib/agent/skill_guide.ts";
import { define } from "@/lib/state.ts";

/** GET /skill.md — the plain Markdown guide an autonomous agent follows. */
export const handler = define.handlers({
  GET(ctx) {
    return new Response(skillGuide(ctx.state.services.config.appOrigin), {
      headers: {
        "content-type": "text/markdown; charset=utf-8",
        "cache-control": "public, max-age=300",
      },
    });
  },
});
