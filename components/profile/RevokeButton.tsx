/**
 * What the profile's credential lists share (agent keys, connected apps): the date text of
 * "created / last used", and the Revoke button with its confirmation step.
 *
 * @module
 */

/**
 * A credential's date in UTC to the minute, or "never".
 *
 * @example
 * ```ts
 * credentialDate(null); // "never"
 * ```
 */
export function credentialDate(ms: number | null): string {
  return ms === null ? "never" : new Date(ms).toISOString().replace("T", " ").slice(0, 16) + " UTC";
}

/** Props of {@link RevokeButton}. */
export interface RevokeButtonProps {
  /** The first press asked for confirmation: this press revokes. */
  confirming: boolean;
  busy: boolean;
  onClick: () => void;
  /** What is revoked, for screen readers: " key ci-bot", " app Claude". */
  what: string;
}

/**
 * Revoke, then "Confirm revoke".
 *
 * @example
 * ```tsx
 * <RevokeButton confirming={false} busy={false} onClick={() => {}} what=" key ci-bot" />;
 * ```
 */
export function RevokeButton({ confirming, busy, onClick, what }: RevokeButtonProps) {
  return (
    <button type="button" class="btn btn-small btn-danger" disabled={busy} onClick={onClick}>
      {confirming ? "Confirm revoke" : "Revoke"}
      <span class="visually-hidden">{what}</span>
    </button>
  );
}
