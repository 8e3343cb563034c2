import { page } from "@/lib/fresh/mod.ts";
import { SignInPrompt } from "@/components/SignInPrompt.tsx";
import { QuestionFields } from "@/components/QuestionFields.tsx";
import { Head } from "@/lib/fresh/head.ts";
import { readTextLimited } from "@/lib/http/body.ts";
import { askQuestion } from "@/lib/community/questions/write.ts";
import { submitQuestionForm } from "@/lib/community/ask_form.ts";
import { isIdempotencyKey } from "@/lib/community/idempotency.ts";
import { NewQuestionBody } from "@/lib/schemas/community.ts";
import { define } from "@/lib/state.ts";
import { newPanelOps, startPanel } from "@/lib/panel/job.ts";
import { jobRunner } from "@/lib/jobs/runner.ts";
import { getSettings } from "@/lib/profile/settings.ts";
import AskIdeas from "@/islands/AskIdeas.tsx";
import SimilarQuestions from "@/islands/SimilarQuestions.tsx";

interface Data {
  values: { title: string; description: string; tags: string; panel: boolean };
  /** The asker turned the panel off in settings: the form's box is off and disabled. */
  panelOff: boolean;
  errors: Partial<Record<"title" | "description" | "tags" | "form", string>>;
  /** The submission's idempotency key: new when the form is shown, kept on a re-render. */
  idempotencyKey: string;
}

const empty = (panelOff: boolean): Data => ({
  values: { title: "", description: "", tags: "", panel: !panelOff },
  panelOff,
  errors: {},
  idempotencyKey: crypto.randomUUID(),
});

/**
 * /ask: a plain form (works without JavaScript). POST validates with the API's schema,
 * re-renders with messages next to the fields, or redirects to the new question. With
 * JavaScript, similar questions appear under the title as it is typed.
 */
export const handler = define.handlers<Data>({
  async GET(ctx) {
    const user = ctx.state.user;
    const { kv, config } = ctx.state.services;
    const panelOff = config.expertPanelPerDay === 0 ||
      (!!user && (await getSettings(kv, user.id)).expertPanel === false);
    return page(empty(panelOff));
  },
  async POST(ctx) {
    const user = ctx.state.user;
    if (!user) {
      return ctx.redirect("/signin?returnTo=%2Fask", 303);
    }
    const form = new URLSearchParams(await readTextLimited(ctx.req, 64 * 1024));
    const { kv, now, config } = ctx.state.services;
    const panelOff = config.expertPanelPerDay === 0 ||
      (await getSettings(kv, user.id)).expertPanel === false;
    const values = {
      title: form.get("title") ?? "",
      description: form.get("description") ?? "",
      tags: form.get("tags") ?? "",
      // An unticked box sends nothing: `panelChoice` says the box was on the form.
      panel: !panelOff && (form.get("panelChoice") !== "1" || form.get("panel") === "1"),
    };
    // The same key on a double submit or a retried POST: one question, never two.
    const sent = form.get("idempotencyKey") ?? "";
    const idempotencyKey = isIdempotencyKey(sent) ? sent : crypto.randomUUID();
    const parsed = NewQuestionBody.safeParse({
      title: values.title,
      description: values.description,
      tags: values.tags.split(","),
    });
    if (!parsed.success) {
      const errors: Data["errors"] = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as keyof Data["errors"];
        if (field && !errors[field]) errors[field] = issue.message;
      }
      return page({ values, errors, idempotencyKey, panelOff }, { status: 400 });
    }
    let panelJob = false;
    const r = await submitQuestionForm(
      kv,
      `user:${user.id}`,
      idempotencyKey,
      now(),
      (extra) =>
        askQuestion(kv, {
          userId: user.id,
          title: parsed.data.title,
          description: parsed.data.description ?? "",
          tags: parsed.data.tags ?? [],
          createdBy: "user",
        }, {
          now: now(),
          idPrefix: "q-",
          limits: config.limits,
          extra: (op, q) => {
            extra(op, q);
            // The panel's job is created with the question (never on a replayed submit).
            if (values.panel) newPanelOps(op, q.id, jobRunner(kv));
          },
        }).then((res) => (panelJob = values.panel && res.ok, res)),
    );
    if (!r.ok) {
      const form = r.reason === "rate_limited" || r.reason === "restricted"
        ? r.message
        : r.reason === "in_progress"
        ? "This question is still being posted — wait a moment, then reload."
        : "Your account was not found.";
      const status = r.reason === "rate_limited"
        ? 429
        : r.reason === "restricted"
        ? 403
        : r.reason === "in_progress"
        ? 409
        : 400;
      const headers = r.reason === "rate_limited"
        ? { "retry-after": String(r.retryAfter) }
        : undefined;
      return page({ values, errors: { form }, idempotencyKey, panelOff }, {
        status,
        headers,
      });
    }
    if (panelJob) await startPanel(kv, r.questionId);
    return ctx.redirect(`/questions/${encodeURIComponent(r.questionId)}?asked=1`, 303);
  },
});

/** The ask page. */
export default define.page<typeof handler>(function Ask({ data, state, url }) {
  const { values, errors } = data;
  const count = Object.keys(errors).length;
  return (
    <>
      <Head>
        <title>Ask a question · Parley</title>
      </Head>
      <div class="page-head">
        <h1>Ask a question</h1>
      </div>
      {!state.user ? <SignInPrompt url={url} action="ask a question" /> : (
        <>
          <AskIdeas />
          <form method="post" action="/ask" class="stack card ask-form" noValidate>
            <input type="hidden" name="idempotencyKey" value={data.idempotencyKey} />
            {count > 0 && (
              <div class="alert alert-error" role="alert" data-testid="form-errors">
                {errors.form && count === 1
                  ? errors.form
                  : count === 1
                  ? "One field needs attention."
                  : `${count} fields need attention.`}
                {errors.form && count > 1 && <>{errors.form}</>}
              </div>
            )}
            <QuestionFields
              values={values}
              errors={errors}
              asking
              afterTitle={<SimilarQuestions inputId="title" />}
            />
            <div>
              <input type="hidden" name="panelChoice" value="1" />
              <label class="inline">
                <input
                  type="checkbox"
                  name="panel"
                  value="1"
                  checked={values.panel}
                  disabled={data.panelOff}
                  aria-describedby="panel-hint"
                />{" "}
                Let the AI expert panel discuss my question
              </label>
              <p class="hint" id="panel-hint">
                {data.panelOff
                  ? "Turned off (in your settings, or on this site)."
                  : "Up to 3 labelled AI experts answer on the page; they never vote."}
              </p>
            </div>
            <div class="row">
              <button type="submit" class="btn btn-primary">Post question</button>
              <a class="btn" href="/">Cancel</a>
            </div>
          </form>
        </>
      )}
    </>
  );
});
