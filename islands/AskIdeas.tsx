import { useState } from "preact/hooks";
import { sendJson } from "@/lib/client/api.ts";
import { useTypedBefore } from "@/lib/client/typed_before.ts";

interface Idea {
  title: string;
  description: string;
  tags: string[];
}

/** Put a value in one of the /ask form's fields (the form itself works without JavaScript). */
function fill(id: string, value: string) {
  const el = document.getElementById(id) as HTMLInputElement | HTMLTextAreaElement | null;
  if (!el) return;
  el.value = value;
  el.dispatchEvent(new Event("input", { bubbles: true }));
}

/**
 * "Ideas" on /ask: a keyword → 3 question ideas (`POST /api/ai/question-ideas`); "More
 * ideas" asks for another batch; picking one fills the title, details and tags.
 */
export default function AskIdeas() {
  // A keyword typed before this script ran is kept (and the Ideas button enabled for it).
  const [keyword, setKeyword] = useTypedBefore("ideas-keyword");
  const [ideas, setIdeas] = useState<Idea[]>([]);
  const [batch, setBatch] = useState(0);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const load = async (next: number) => {
    setBusy(true);
    setError(null);
    const r = await sendJson<{ ideas: Idea[] }>("POST", "/api/ai/question-ideas", {
      keyword,
      batch: next,
    });
    setBusy(false);
    if (!r.ok) return setError(r.error);
    setIdeas(r.data.ideas);
    setBatch(next);
  };

  const pick = (idea: Idea) => {
    fill("title", idea.title);
    fill("description", idea.description);
    fill("tags", idea.tags.join(", "));
    setIdeas([]);
    document.getElementById("title")?.focus();
  };

  return (
    <section class="card stack ask-ideas" aria-label="Question ideas" data-testid="ask-ideas">
      <form
        class="row"
        onSubmit={(e) => {
          e.preventDefault();
          if (keyword.trim().length >= 2) load(0);
        }}
      >
        <label for="ideas-keyword">Need an idea?</label>
        <input
          id="ideas-keyword"
          type="text"
          maxLength={60}
          placeholder="A keyword, e.g. sourdough"
          value={keyword}
          onInput={(e) => setKeyword((e.target as HTMLInputElement).value)}
        />
        <button type="submit" class="btn btn-small" disabled={busy || keyword.trim().length < 2}>
          {busy ? "Thinking…" : "Ideas"}
        </button>
      </form>
      {error && <p class="field-error" role="alert">{error}</p>}
      {ideas.length > 0 && (
        <div class="stack" aria-live="polite">
          <ul class="idea-list">
            {ideas.map((idea, i) => (
              <li key={`${batch}-${i}`}>
                <button
                  type="button"
                  class="btn btn-link idea-pick"
                  data-testid="idea"
                  onClick={() => pick(idea)}
                >
                  {idea.title}
                </button>
                {idea.description && <span class="hint">{idea.description}</span>}
              </li>
            ))}
          </ul>
          <div class="row">
            <button
              type="button"
              class="btn btn-small"
              disabled={busy}
              onClick={() => load(batch + 1)}
            >
              More ideas
            </button>
            <span class="hint">
              Ideas are AI suggestions; pick one to fill the form, then edit it.
            </span>
          </div>
        </div>
      )}
    </section>
  );
}
