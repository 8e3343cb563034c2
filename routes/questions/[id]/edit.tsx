import { sanctionMessage } from "@/lib/moderation/sanctions.ts";
import { HttpError, page } from "@/lib/fresh/mod.ts";
import { SignInPrompt } from "@/components/SignInPrompt.tsx";
import { type QuestionField, QuestionFields } from "@/components/QuestionFields.tsx";
import { editQuestion } from "@/lib/community/questions/edit.ts";
import { getQuestion } from "@/lib/community/questions/read.ts";
import { Head } from "@/lib/fresh/head.ts";
import { readTextLimited } from "@/lib/http/body.ts";
import { EditQuestionBody } from "@/lib/schemas/community.ts";
import { define } from "@/lib/state.ts";

interface Data {
  id: string;
  values: Record<QuestionField, string>;
  errors: Partial<Record<QuestionField | "form", string>>;
  /** False when the viewer is signed in but not the author (the form is not shown). */
  allowed: boolean;
}

const qPath = (id: string) => `/questions/${encodeURIComponent(id)}`;

/**
 * /questions/:id/edit: the author's edit form for a question (a plain form; works without
 * JavaScript). POST validates with the API's schema and either re-renders with the typed
 * values and the messages beside the fields, or saves (a new revision) and redirects back.
 */
export const handler = define.handlers<Data>({
  async GET(ctx) {
    const { kv } = ctx.state.services;
    const q = await getQuestion(kv, ctx.params.id);
    if (!q) throw new HttpError(404);
    const allowed = ctx.state.user?.id === q.author.id;
    return page({
      id: q.id,
      values: { title: q.title, description: q.description, tags: q.tags.join(", ") },
      errors: allowed || !ctx.state.user ? {} : { form: "Only the author can edit this" },
      allowed,
    }, { status: allowed || !ctx.state.user ? 200 : 403 });
  },
  async POST(ctx) {
    const user = ctx.state.user;
    const id = ctx.params.id;
    if (!user) {
      const returnTo = encodeURIComponent(`${qPath(id)}/edit`);
      return ctx.redirect(`/signin?returnTo=${returnTo}`, 303);
    }
    const form = new URLSearchParams(await readTextLimited(ctx.req, 64 * 1024));
    const values = {
      title: form.get("title") ?? "",
      description: form.get("description") ?? "",
      tags: form.get("tags") ?? "",
    };
    const parsed = EditQuestionBody.safeParse({
      title: values.title,
      description: values.description,
      tags: values.tags.split(","),
    });
    if (!parsed.success) {
      const errors: Data["errors"] = {};
      for (const issue of parsed.error.issues) {
        const field = (issue.path[0] ?? "form") as keyof Data["errors"];
        if (!errors[field]) errors[field] = issue.message;
      }
      return page({ id, values, errors, allowed: true }, { status: 400 });
    }
    const { kv, now } = ctx.state.services;
    const r = await editQuestion(kv, { questionId: id, userId: user.id, edit: parsed.data }, {
      now: now(),
    });
    if (!r.ok) {
      if (r.reason === "question_not_found") throw new HttpError(404);
      return page({
        id,
        values,
        errors: {
          form: r.reason === "restricted"
            ? sanctionMessage(r.sanction)
            : "Only the author can edit this",
        },
        allowed: r.reason === "restricted",
      }, { status: 403 });
    }
    return ctx.redirect(`${qPath(id)}?saved=1`, 303);
  },
});

/** The edit-question page. */
export default define.page<typeof handler>(function EditQuestion({ data, state, url }) {
  const { values, errors } = data;
  const count = Object.keys(errors).length;
  return (
    <>
      <Head>
        <title>Edit question · Parley</title>
      </Head>
      <div class="page-head">
        <h1>Edit question</h1>
      </div>
      {!state.user ? <SignInPrompt url={url} action="edit your question" /> : (
        <>
          {count > 0 && (
            <div class="alert alert-error" role="alert" data-testid="form-errors">
              {errors.form ??
                (count === 1 ? "One field needs attention." : `${count} fields need attention.`)}
            </div>
          )}
          {data.allowed && (
            <form method="post" class="stack card ask-form" noValidate>
              <QuestionFields values={values} errors={errors} />
              <div class="row">
                <button type="submit" class="btn btn-primary">Save changes</button>
                <a class="btn" href={qPath(data.id)}>Cancel</a>
              </div>
            </form>
          )}
        </>
      )}
    </>
  );
});
