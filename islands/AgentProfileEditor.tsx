import { X } from "@/components/icons.gen.ts";
import { useState } from "preact/hooks";
import { SpeakerAvatar } from "@/components/DebateView.tsx";
import { useTypedBefore } from "@/lib/client/typed_before.ts";
import { SOFT_MEMORY_ITEM_MAX, SOFT_MEMORY_ITEMS_MAX } from "@/lib/input_limits.ts";

/** Limits shared with the API's validation (lib/schemas/debate.ts). */
const MAX_ITEMS = SOFT_MEMORY_ITEMS_MAX;
const MAX_CHARS = SOFT_MEMORY_ITEM_MAX;

interface Props {
  name: string;
  avatar: string | null;
  bio: string;
  traits: string[];
  interests: string[];
  /** Editing is off while a debate runs. */
  disabled?: boolean;
  /** Told about every change (only when used inside another island). */
  onChange?: (soft: { traits: string[]; interests: string[] }) => void;
}

/** An editable list of short words: chips with a remove button and an input to add one. */
function ChipList(
  { label, hint, items, disabled, onItems, testId }: {
    label: string;
    hint: string;
    items: string[];
    disabled?: boolean;
    onItems: (items: string[]) => void;
    testId: string;
  },
) {
  const inputId = `${testId}-input`;
  // A word typed before this script ran is kept, ready to add.
  const [draft, setDraft] = useTypedBefore(inputId);
  const [problem, setProblem] = useState("");
  const add = () => {
    const value = draft.replace(/\s+/g, " ").trim();
    if (!value) return;
    if (value.length > MAX_CHARS) return setProblem(`At most ${MAX_CHARS} characters.`);
    if (items.length >= MAX_ITEMS) return setProblem(`At most ${MAX_ITEMS} entries.`);
    if (items.some((i) => i.toLowerCase() === value.toLowerCase())) {
      return setProblem("Already in the list.");
    }
    setProblem("");
    setDraft("");
    onItems([...items, value]);
  };
  return (
    <div class="chip-editor" data-testid={testId}>
      <label for={inputId}>
        {label} <span class="hint">{hint}</span>
      </label>
      <ul class="tags chip-list">
        {items.map((item) => (
          <li key={item} class="tag chip">
            {item}
            <button
              type="button"
              class="chip-remove"
              aria-label={`Remove ${item}`}
              disabled={disabled}
              onClick={() => onItems(items.filter((i) => i !== item))}
            >
              <X class="icon" aria-hidden="true" />
            </button>
          </li>
        ))}
      </ul>
      <div class="row chip-add">
        <input
          id={inputId}
          type="text"
          class="grow"
          value={draft}
          maxLength={MAX_CHARS}
          disabled={disabled}
          aria-invalid={problem ? "true" : undefined}
          onInput={(e) => setDraft((e.target as HTMLInputElement).value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              add();
            }
          }}
        />
        <button type="button" class="btn btn-small" disabled={disabled} onClick={add}>
          Add
        </button>
      </div>
      {problem && <p class="field-error">{problem}</p>}
    </div>
  );
}

/**
 * The agent profile a debate uses: name, avatar and bio from the user's profile, and
 * editable traits and interests (the agent's "soft memory").
 */
export default function AgentProfileEditor(props: Props) {
  const [traits, setTraits] = useState(props.traits);
  const [interests, setInterests] = useState(props.interests);
  const update = (next: { traits: string[]; interests: string[] }) => {
    setTraits(next.traits);
    setInterests(next.interests);
    props.onChange?.(next);
  };
  return (
    <section class="card agent-profile" aria-labelledby="agent-profile-title">
      <div class="row">
        <SpeakerAvatar side={{ name: props.name, avatar: props.avatar }} large />
        <div class="grow">
          <h2 id="agent-profile-title" class="agent-name">{props.name}</h2>
          <p class="muted agent-bio">
            {props.bio || "No bio yet — your agent argues as a thoughtful generalist."}
          </p>
          <p class="hint">
            Name, picture and bio come from <a href="/profile">your profile</a>.
          </p>
        </div>
      </div>
      <ChipList
        label="Traits"
        hint="how your agent argues, e.g. calm, blunt"
        items={traits}
        disabled={props.disabled}
        testId="agent-traits"
        onItems={(items) => update({ traits: items, interests })}
      />
      <ChipList
        label="Interests"
        hint="what it cares about, e.g. transit, data"
        items={interests}
        disabled={props.disabled}
        testId="agent-interests"
        onItems={(items) => update({ traits, interests: items })}
      />
    </section>
  );
}
