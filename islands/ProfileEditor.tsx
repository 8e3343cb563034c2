import { useState } from "preact/hooks";
import { bioProblem, displayNameProblem, imageUrlProblem } from "@/lib/profile/rules.ts";
import { BIO_MAX, DISPLAY_NAME_MAX } from "@/lib/input_limits.ts";
import { Avatar, initials } from "@/components/Avatar.tsx";
import { useTypedBefore } from "@/lib/client/typed_before.ts";

/**
 * Put a saved name and avatar on the page at once: the header's user chip and the
 * profile summary were rendered by the server with the old ones.
 */
function refreshRenderedProfile(name: string, avatarUrl: string | null) {
  for (const id of ["user-avatar", "profile-avatar"]) {
    const el = document.querySelector(`[data-testid="${id}"]`);
    if (!el) continue;
    const fallback = el.querySelector(".avatar-fallback");
    if (fallback) fallback.textContent = initials(name);
    let img = el.querySelector("img");
    if (!avatarUrl) {
      img?.remove();
      continue;
    }
    if (!img) {
      img = document.createElement("img");
      img.className = "avatar-img";
      img.alt = "";
      img.referrerPolicy = "no-referrer";
      el.append(img);
    }
    if (img.getAttribute("src") !== avatarUrl) img.src = avatarUrl;
  }
  const userName = document.querySelector('[data-testid="user-name"]');
  if (userName) userName.textContent = name;
  const heading = document.querySelector('[data-testid="profile-summary"] h1');
  if (heading) heading.textContent = name;
}

interface Props {
  displayName: string;
  avatarUrl: string | null;
  bio: string;
  coverUrl: string | null;
}

type Field = keyof Props;
const FIELDS: Field[] = ["displayName", "avatarUrl", "bio", "coverUrl"];
// The same rule functions as the API; only the offensive-word list stays on the server.
const RULES: Record<Field, (v: string) => string | null> = {
  displayName: (v) => displayNameProblem(v, []),
  avatarUrl: imageUrlProblem,
  bio: bioProblem,
  coverUrl: imageUrlProblem,
};

function fieldErrors(values: Record<Field, string>): Partial<Record<Field, string>> {
  const out: Partial<Record<Field, string>> = {};
  for (const f of FIELDS) {
    const problem = RULES[f](values[f].trim());
    if (problem) out[f] = problem;
  }
  return out;
}

const LABELS: Record<Field, string> = {
  displayName: "Display name",
  avatarUrl: "Avatar URL",
  bio: "Bio",
  coverUrl: "Cover image URL",
};

/**
 * Profile edit form: the API's own rules checked as you type, previews of the avatar
 * and cover, and the server's verdict shown next to each field.
 */
export default function ProfileEditor(props: Props) {
  // Edits made before this script ran are kept, not wiped by hydration.
  const [displayName, setDisplayName] = useTypedBefore("pf-displayName", props.displayName);
  const [avatarUrl, setAvatarUrl] = useTypedBefore("pf-avatarUrl", props.avatarUrl ?? "");
  const [bio, setBio] = useTypedBefore("pf-bio", props.bio);
  const [coverUrl, setCoverUrl] = useTypedBefore("pf-coverUrl", props.coverUrl ?? "");
  const values: Record<Field, string> = { displayName, avatarUrl, bio, coverUrl };
  const setValue: Record<Field, (value: string) => void> = {
    displayName: setDisplayName,
    avatarUrl: setAvatarUrl,
    bio: setBio,
    coverUrl: setCoverUrl,
  };
  const [serverErrors, setServerErrors] = useState<Partial<Record<Field, string>>>({});
  const [status, setStatus] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const [saving, setSaving] = useState(false);
  // The server's verdict on a field shows until that field is edited again.
  const errors: Partial<Record<Field, string>> = { ...fieldErrors(values) };
  for (const f of FIELDS) if (serverErrors[f]) errors[f] = serverErrors[f];
  const invalid = Object.keys(fieldErrors(values)).length > 0;

  const set = (f: Field) => (e: Event) => {
    setValue[f]((e.target as HTMLInputElement).value);
    const { [f]: _cleared, ...rest } = serverErrors;
    setServerErrors(rest);
    setStatus(null);
  };

  const save = async (e: Event) => {
    e.preventDefault();
    if (invalid) return;
    setSaving(true);
    setStatus(null);
    try {
      const res = await fetch("/api/profile/me", {
        method: "PATCH",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(values),
      });
      const body = await res.json().catch(() => ({}));
      if (res.ok) {
        setStatus({ kind: "ok", text: "Profile saved." });
        refreshRenderedProfile(values.displayName.trim(), values.avatarUrl.trim() || null);
      } else {
        const next: Partial<Record<Field, string>> = {};
        for (const i of (body.issues ?? []) as { path: string; message: string }[]) {
          if (FIELDS.includes(i.path as Field)) next[i.path as Field] ??= i.message;
        }
        setServerErrors(next);
        setStatus({ kind: "error", text: body.error ?? `Could not save (${res.status}).` });
      }
    } catch {
      setStatus({ kind: "error", text: "Network error: your changes were not saved." });
    } finally {
      setSaving(false);
    }
  };

  const input = (f: Field, type = "text") => (
    <div>
      <label for={`pf-${f}`}>{LABELS[f]}</label>
      {f === "bio"
        ? (
          <textarea
            id={`pf-${f}`}
            name={f}
            value={values[f]}
            onInput={set(f)}
            maxLength={BIO_MAX * 2}
            aria-invalid={errors[f] ? "true" : undefined}
            aria-describedby={`pf-${f}-msg`}
          />
        )
        : (
          <input
            id={`pf-${f}`}
            name={f}
            type={type}
            value={values[f]}
            onInput={set(f)}
            aria-invalid={errors[f] ? "true" : undefined}
            aria-describedby={`pf-${f}-msg`}
          />
        )}
      <div id={`pf-${f}-msg`} class={errors[f] ? "field-error" : "hint"}>
        {errors[f]
          ? `${LABELS[f]} ${errors[f]}`
          : f === "bio"
          ? `${values.bio.trim().length}/${BIO_MAX} characters`
          : f === "displayName"
          ? `1–${DISPLAY_NAME_MAX} characters: letters, digits, spaces, _ - .`
          : "http or https; leave empty for none"}
      </div>
    </div>
  );

  const preview = (url: string) => !fieldErrors({ ...values, avatarUrl: url }).avatarUrl && url;
  return (
    <form class="stack profile-editor" onSubmit={save} noValidate>
      <div class="profile-preview" aria-label="Preview">
        {preview(values.coverUrl)
          ? <img class="cover-preview" src={values.coverUrl} alt="" />
          : <div class="cover-preview cover-empty" aria-hidden="true" />}
        <div class="row">
          <Avatar
            name={values.displayName.trim() || "?"}
            src={preview(values.avatarUrl) || null}
            size="lg"
          />
          <strong>{values.displayName.trim() || "—"}</strong>
        </div>
      </div>
      {input("displayName")}
      {input("avatarUrl", "url")}
      {input("coverUrl", "url")}
      {input("bio")}
      <div class="row">
        <button type="submit" class="btn btn-primary" disabled={saving || invalid}>
          {saving ? "Saving…" : "Save profile"}
        </button>
        {status && (
          <span role="status" class={status.kind === "ok" ? "ok-text" : "field-error"}>
            {status.text}
          </span>
        )}
      </div>
    </form>
  );
}
