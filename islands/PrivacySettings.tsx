import { useLayoutEffect, useState } from "preact/hooks";
import { typedBefore } from "@/lib/client/typed_before.ts";

interface Settings {
  activityVisibility: "public" | "private";
  voteHistory: "public" | "private";
  debateArchive: "public" | "private";
  aiAvatar: boolean;
  expertPanel?: boolean;
}

const CHOICES: {
  key: Exclude<keyof Settings, "aiAvatar" | "expertPanel">;
  label: string;
  hint: string;
}[] = [
  {
    key: "activityVisibility",
    label: "Activity feed",
    hint:
      "Who sees the activity on your profile. Only me hides all of it from others; your questions and answers stay public where you posted them.",
  },
  { key: "voteHistory", label: "Vote history", hint: "Who sees what you voted on." },
  { key: "debateArchive", label: "Debate archive", hint: "Who can read your saved debates." },
];

/**
 * What the person changed on this page before its script ran, against the `saved`
 * settings it was drawn with: each choice is read through its "Only me" radio button.
 * Every switch carries `autocomplete="off"`: without it, a back/forward visit has the
 * browser put the switches back as they were when the page was left, which this would
 * take for choices made early and save — undoing a change made elsewhere since.
 */
function changedBefore(saved: Settings): Partial<Settings> {
  const changed: Partial<Settings> = {};
  for (const { key } of CHOICES) {
    const wasPrivate = saved[key] === "private";
    const isPrivate = typedBefore(`privacy-${key}-private`, wasPrivate);
    if (isPrivate !== wasPrivate) changed[key] = isPrivate ? "private" : "public";
  }
  const aiAvatar = typedBefore("privacy-aiAvatar", saved.aiAvatar);
  if (aiAvatar !== saved.aiAvatar) changed.aiAvatar = aiAvatar;
  const expertPanel = typedBefore("privacy-expertPanel", saved.expertPanel !== false);
  if (expertPanel !== (saved.expertPanel !== false)) changed.expertPanel = expertPanel;
  return changed;
}

/** Privacy and AI-avatar switches; each change is saved at once. */
export default function PrivacySettings({ initial }: { initial: Settings }) {
  // Drawn first as saved, so hydration matches the server's HTML.
  const [settings, setSettings] = useState(initial);
  const [status, setStatus] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  // Switches flipped before this script ran show in the page but were never sent: read
  // them before hydration touches anything, and save them as soon as it is done.
  const [early] = useState(() => changedBefore(initial));

  const save = async (patch: Partial<Settings>) => {
    const before = settings;
    setSettings({ ...settings, ...patch });
    setStatus(null);
    try {
      const res = await fetch("/api/profile/settings", {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(patch),
      });
      if (!res.ok) throw new Error(String(res.status));
      setSettings(await res.json());
      setStatus({ kind: "ok", text: "Saved." });
    } catch {
      setSettings(before);
      setStatus({ kind: "error", text: "Could not save that change; it was undone." });
    }
  };

  useLayoutEffect(() => {
    if (Object.keys(early).length > 0) save(early);
  }, []);

  return (
    <div class="stack privacy-settings">
      {CHOICES.map((c) => (
        <fieldset key={c.key} class="choice">
          <legend>{c.label}</legend>
          <p class="hint">{c.hint}</p>
          {(["public", "private"] as const).map((v) => (
            <label key={v} class="inline">
              <input
                id={`privacy-${c.key}-${v}`}
                type="radio"
                name={c.key}
                autocomplete="off"
                value={v}
                checked={settings[c.key] === v}
                onChange={() => save({ [c.key]: v })}
              />{" "}
              {v === "public" ? "Everyone" : "Only me"}
            </label>
          ))}
        </fieldset>
      ))}
      <label class="inline">
        <input
          id="privacy-aiAvatar"
          type="checkbox"
          name="aiAvatar"
          autocomplete="off"
          checked={settings.aiAvatar}
          onChange={(e) => save({ aiAvatar: (e.target as HTMLInputElement).checked })}
        />{" "}
        Let my AI avatar answer new questions for me (at most 10 an hour, in the voice of my bio)
      </label>
      <label class="inline">
        <input
          id="privacy-expertPanel"
          type="checkbox"
          name="expertPanel"
          autocomplete="off"
          checked={settings.expertPanel !== false}
          onChange={(e) => save({ expertPanel: (e.target as HTMLInputElement).checked })}
        />{" "}
        Let the AI expert panel discuss my new questions (labelled AI experts; they never vote)
      </label>
      <div role="status" class={status?.kind === "error" ? "field-error" : "ok-text"}>
        {status?.text ?? ""}
      </div>
    </div>
  );
}
