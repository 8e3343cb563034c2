/** What the author of a post hidden by moderation sees above it. */
export function HiddenBanner({ what }: { what: "question" | "answer" }) {
  return (
    <p class="alert alert-warn hidden-banner" role="note" data-testid="hidden-banner">
      <strong>Hidden by moderators.</strong> Only you and the moderators can see this {what}{" "}
      until a moderator reviews it.
    </p>
  );
}
