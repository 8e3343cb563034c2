import { useState } from "preact/hooks";
import { sendJson } from "@/lib/client/api.ts";
import { useTypedBefore } from "@/lib/client/typed_before.ts";

type Step = "form" | "confirm" | "working";

/**
 * "Delete my account": type your display name, choose what happens to your posts, then
 * confirm once more. On success the account is gone and this browser is signed out: the
 * page moves to the home page, which says so.
 */
export default function DeleteAccountForm({ displayName }: { displayName: string }) {
  // The name typed and the choice made before this script ran are kept.
  const [typed, setTyped] = useTypedBefore("delete-account-name");
  const [deletePosts, setDeletePosts] = useTypedBefore("delete-account-content-delete", false);
  const content = deletePosts ? "delete" : "keep";
  const [step, setStep] = useState<Step>("form");
  const [error, setError] = useState<string | null>(null);
  const matches = typed.trim() === displayName.trim();

  const submit = (e: Event) => {
    e.preventDefault();
    setError(null);
    if (!matches) {
      setError("Type your name exactly as it is shown above.");
      return;
    }
    setStep("confirm");
  };

  const confirm = async () => {
    setStep("working");
    const r = await sendJson<{ ok: true }>("DELETE", "/api/profile/me", {
      confirm: typed,
      content,
    });
    if (!r.ok) {
      setError(r.error);
      setStep("form");
      return;
    }
    location.assign("/?account=deleted");
  };

  if (step !== "form") {
    return (
      <div
        class="stack delete-account-confirm"
        role="alertdialog"
        aria-labelledby="delete-confirm-h"
      >
        <p id="delete-confirm-h">
          <strong>Delete your account for good?</strong> {content === "keep"
            ? 'Your questions and answers stay, shown as by "deleted user".'
            : "Your questions and answers will be deleted."}{" "}
          You will be signed out and cannot undo this.
        </p>
        <div class="row">
          <button
            type="button"
            class="btn btn-danger"
            data-testid="delete-account-confirm"
            disabled={step === "working"}
            onClick={confirm}
          >
            {step === "working" ? "Deleting…" : "Yes, delete my account"}
          </button>
          <button
            type="button"
            class="btn"
            disabled={step === "working"}
            onClick={() => setStep("form")}
          >
            Cancel
          </button>
        </div>
      </div>
    );
  }

  return (
    <form class="stack delete-account" onSubmit={submit} data-testid="delete-account-form">
      <fieldset class="choice">
        <legend>Your questions and answers</legend>
        <label class="inline">
          <input
            type="radio"
            name="content"
            value="keep"
            checked={!deletePosts}
            onChange={() => setDeletePosts(false)}
          />{" "}
          Keep them, shown as by "deleted user"
        </label>
        <label class="inline">
          <input
            type="radio"
            name="content"
            id="delete-account-content-delete"
            value="delete"
            checked={deletePosts}
            onChange={() => setDeletePosts(true)}
          />{" "}
          Delete them
        </label>
      </fieldset>
      <label>
        To confirm, type <strong>{displayName}</strong> exactly as shown
        <input
          id="delete-account-name"
          type="text"
          name="confirm"
          autocomplete="off"
          value={typed}
          onInput={(e) => setTyped((e.target as HTMLInputElement).value)}
        />
      </label>
      {error && <p class="field-error" role="alert">{error}</p>}
      <p>
        <button type="submit" class="btn btn-danger" data-testid="delete-account">
          Delete my account
        </button>
      </p>
    </form>
  );
}
