import type { OperationDoc } from "@/lib/agent/openapi_docs.ts";
import { EXPERTS, publicExpert } from "@/lib/panel/experts.ts";
import { ExpertList } from "@/lib/schemas/panel.ts";
import { define } from "@/lib/state.ts";

/** GET /api/experts — the AI expert personas (public). */
export const handler = define.handlers({
  GET() {
    return Response.json({ experts: EXPERTS.map(publicExpert) });
  },
});

export const docs: OperationDoc[] = [{
  method: "get",
  path: "/api/experts",
  tag: "Questions",
  summary: "The AI expert panel's personas",
  description:
    'Experts discuss new questions (messages with `authorType: "ai"`, `createdBy: "system"`, `expertId`). They never vote or favorite and count toward no statistics.',
  auth: "public",
  responses: { "200": { description: "Every expert", schema: ExpertList } },
}];
