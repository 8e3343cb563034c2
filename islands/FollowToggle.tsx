import { Bell, BellOff } from "@/components/icons.gen.ts";
import { useState } from "preact/hooks";
import { sendJson } from "@/lib/client/api.ts";

interface Props {
  questionId: string;
  following: boolean;
}

/** Follow / Following: notifications of new answers to this question (aria-pressed). */
export default function FollowToggle(props: Props) {
  const [following, setFollowing] = useState(props.following);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const toggle = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    const r = await sendJson<{ following: boolean }>(
      "POST",
      `/api/questions/${encodeURIComponent(props.questionId)}/follow`,
      {},
    );
    setBusy(false);
    if (r.ok) setFollowing(r.data.following);
    else setError(`Not saved: ${r.error}`);
  };

  return (
    <div class="follow">
      <button
        type="button"
        class="btn btn-small"
        aria-pressed={following}
        data-testid="follow-toggle"
        onClick={toggle}
      >
        {following
          ? <Bell class="icon" aria-hidden="true" />
          : <BellOff class="icon" aria-hidden="true" />} {following ? "Following" : "Follow"}
      </button>
      {error && <p class="inline-error" role="alert">{error}</p>}
    </div>
  );
}
