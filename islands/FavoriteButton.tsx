import { Star } from "@/components/icons.gen.ts";
import { useState } from "preact/hooks";
import { sendJson } from "@/lib/client/api.ts";

interface Props {
  targetType: "question" | "message";
  targetId: string;
  favorited: boolean;
  /** Where to sign in when signed out (null when signed in). */
  signInHref: string | null;
  /** What is favorited, for screen readers. */
  label: string;
}

/**
 * Favorite toggle: optimistic, confirmed by the server's state, rolled back with a
 * visible message on failure; a sign-in prompt when signed out.
 */
export default function FavoriteButton(props: Props) {
  const [favorited, setFavorited] = useState(props.favorited);
  const [error, setError] = useState<string | null>(null);
  const [prompt, setPrompt] = useState(false);
  const [busy, setBusy] = useState(false);

  const toggle = async () => {
    if (props.signInHref) {
      setPrompt(true);
      return;
    }
    if (busy) return;
    const before = favorited;
    setFavorited(!before);
    setError(null);
    setBusy(true);
    const r = await sendJson<{ favorited: boolean }>("POST", "/api/favorites", {
      targetType: props.targetType,
      targetId: props.targetId,
    });
    setBusy(false);
    if (r.ok) {
      setFavorited(r.data.favorited);
    } else {
      setFavorited(before);
      setError(`Not saved: ${r.error}`);
    }
  };

  return (
    <div class="favorite" data-busy={busy ? "true" : "false"}>
      <button
        type="button"
        class="btn btn-small favorite-btn"
        aria-pressed={favorited}
        aria-label={`Favorite ${props.label}`}
        onClick={toggle}
      >
        <Star class={favorited ? "icon icon-filled" : "icon"} aria-hidden="true" />
        <span>{favorited ? "Favorited" : "Favorite"}</span>
      </button>
      {error && <p class="inline-error" role="alert">{error}</p>}
      {prompt && props.signInHref && (
        <p class="signin-prompt" role="status">
          <a href={props.signInHref}>Sign in</a> to keep favorites.
        </p>
      )}
    </div>
  );
}
