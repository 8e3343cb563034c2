import { useState } from "preact/hooks";
import { openEventStream } from "@/lib/client/api.ts";
import { useTypedBefore } from "@/lib/client/typed_before.ts";
import { readEventStream } from "@/lib/debates/sse_reader.ts";
import {
  BACKGROUND_MAX_CHARS,
  ROUNDTABLE_DEFAULT_ROUNDS,
  ROUNDTABLE_MAX_EXPERTS,
  ROUNDTABLE_MAX_ROUNDS,
  ROUNDTABLE_MIN_EXPERTS,
  ROUNDTABLE_MIN_ROUNDS,
  TOPIC_MAX_CHARS,
} from "@/lib/input_limits.ts";

interface Props {
  experts: { id: string; name: string; title: string }[];
}

/**
 * The form that starts a roundtable: topic, optional background, the number of discussion
 * rounds, and the experts (the AI's choice, or 3–5 picked by hand). Once the roundtable's
 * first event names its id, the page moves to `/roundtables/:id`, which follows it live.
 */
export default function RoundtableStart({ experts }: Props) {
  // What was typed or chosen before this script ran is kept, not undone by hydration.
  const [topic, setTopic] = useTypedBefore("roundtable-topic");
  const [background, setBackground] = useTypedBefore("roundtable-background");
  const [rounds, setRounds] = useTypedBefore(
    "roundtable-rounds",
    String(ROUNDTABLE_DEFAULT_ROUNDS),
  );
  // The expert checkboxes are drawn only once "Choose them myself" is on, by this island.
  const [choose, setChoose] = useTypedBefore("roundtable-choose", false);
  const [picked, setPicked] = useState<string[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const pickCountOk = picked.length >= ROUNDTABLE_MIN_EXPERTS &&
    picked.length <= ROUNDTABLE_MAX_EXPERTS;

  const submit = async (e: Event) => {
    e.preventDefault();
    if (busy) return;
    if (choose && !pickCountOk) {
      setProblem(`Pick ${ROUNDTABLE_MIN_EXPERTS} to ${ROUNDTABLE_MAX_EXPERTS} experts.`);
      return;
    }
    setBusy(true);
    setProblem(null);
    const abort = new AbortController();
    const r = await openEventStream("POST", "/api/roundtables", {
      body: {
        topic: topic.trim(),
        ...(background.trim() ? { background: background.trim() } : {}),
        rounds: Number(rounds),
        ...(choose ? { expertIds: picked } : {}),
      },
      signal: abort.signal,
    });
    if (!r.ok) {
      setBusy(false);
      setProblem(r.error);
      return;
    }
    let id: string | null = null;
    await readEventStream(r.body, (event) => {
      if (id || event.type !== "init") return;
      id = (event.data as { id: string }).id;
      // The roundtable runs on without this stream: its page follows it from the start.
      abort.abort();
    }).catch(() => {});
    if (id) location.assign(`/roundtables/${encodeURIComponent(id)}`);
    else {
      setBusy(false);
      setProblem("The roundtable could not start. Please try again.");
    }
  };

  const toggle = (expertId: string) =>
    setPicked((p) => p.includes(expertId) ? p.filter((x) => x !== expertId) : [...p, expertId]);

  return (
    <form class="card stack" onSubmit={submit} data-testid="roundtable-form">
      <h2 id="roundtable-form-title">Start a roundtable</h2>
      <label for="roundtable-topic">Topic</label>
      <input
        id="roundtable-topic"
        name="topic"
        required
        maxLength={TOPIC_MAX_CHARS}
        value={topic}
        onInput={(e) => setTopic((e.target as HTMLInputElement).value)}
        placeholder="Should cities charge cars to enter the centre?"
      />
      <label for="roundtable-background">Background (optional)</label>
      <textarea
        id="roundtable-background"
        name="background"
        rows={3}
        maxLength={BACKGROUND_MAX_CHARS}
        value={background}
        onInput={(e) => setBackground((e.target as HTMLTextAreaElement).value)}
      />
      <div class="row">
        <label for="roundtable-rounds">Discussion rounds after the opening</label>
        <select
          id="roundtable-rounds"
          name="rounds"
          value={rounds}
          onChange={(e) => setRounds((e.target as HTMLSelectElement).value)}
        >
          {Array.from(
            { length: ROUNDTABLE_MAX_ROUNDS - ROUNDTABLE_MIN_ROUNDS + 1 },
            (_, i) => ROUNDTABLE_MIN_ROUNDS + i,
          ).map((n) => <option key={n} value={String(n)}>{n}</option>)}
        </select>
      </div>
      <fieldset class="stack">
        <legend>Experts</legend>
        <label class="roundtable-choice">
          <input
            type="radio"
            name="who"
            checked={!choose}
            onChange={() => setChoose(false)}
          />
          <span>
            Let the AI choose {ROUNDTABLE_MIN_EXPERTS}–{ROUNDTABLE_MAX_EXPERTS}{" "}
            experts for the topic
          </span>
        </label>
        <label class="roundtable-choice">
          <input
            id="roundtable-choose"
            type="radio"
            name="who"
            checked={choose}
            onChange={() => setChoose(true)}
          />
          <span>Choose them myself</span>
        </label>
        {choose && (
          <ul class="roundtable-picker" data-testid="roundtable-picker">
            {experts.map((x) => (
              <li key={x.id}>
                <label class="roundtable-choice">
                  <input
                    type="checkbox"
                    value={x.id}
                    checked={picked.includes(x.id)}
                    onChange={() => toggle(x.id)}
                  />
                  <span>
                    {x.name} <span class="hint">{x.title}</span>
                  </span>
                </label>
              </li>
            ))}
          </ul>
        )}
        {choose && (
          <p class="hint" role="status">
            {picked.length} picked ({ROUNDTABLE_MIN_EXPERTS} to {ROUNDTABLE_MAX_EXPERTS}).
          </p>
        )}
      </fieldset>
      <p class="hint">
        Everything the experts say, and the minutes, is written by AI and labelled so.
      </p>
      <p>
        <button class="btn btn-primary" type="submit" disabled={busy || !topic.trim()}>
          {busy ? "Starting…" : "Start the roundtable"}
        </button>
      </p>
      {problem && (
        <p class="alert alert-error" role="alert" data-testid="roundtable-problem">{problem}</p>
      )}
    </form>
  );
}
