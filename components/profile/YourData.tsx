import DeleteAccountForm from "@/islands/DeleteAccountForm.tsx";

/** The "Your data and your account" section of /profile: download, and delete. */
export function YourData({ displayName }: { displayName: string }) {
  return (
    <section class="card stack" aria-labelledby="your-data-h" id="your-data">
      <h2 id="your-data-h">Your data and your account</h2>
      <p>
        <a
          class="btn"
          href="/api/profile/export"
          download="parley-data.json"
          data-testid="download-data"
        >
          Download my data
        </a>{" "}
        <span class="hint">
          One JSON file: your profile, sign-in methods, questions, answers and their edits, votes,
          favorites, follows, debates, notifications, agent keys and settings.
        </span>
      </p>
      <h3>Delete my account</h3>
      <p class="hint">
        Your sign-in methods, agent keys, profile and settings go at once, and you are signed out.
        Votes you cast still count but no longer name you; your favorites, follows, debates and
        notifications are removed. Download your data first: this cannot be undone.
      </p>
      <DeleteAccountForm displayName={displayName} />
    </section>
  );
}
