/**
 * What the profile's credential lists share (agent keys, connected apps): the date text of
 * "created / last used", and the Revoke button with its confirmation step.
 *
 * @module
 */
import { RelativeTime } from "@/components/RelativeTime.tsx";

/**
 * A credential's date in the site's one date style (relative, the exact time on hover, a
 * `<time datetime>`), or "never".
 *
 * @example
 * ```tsx
 * <CredentialDate ms={null} />; // never
 * ```
 */
export function CredentialDate({ ms }: { ms: number | null }) {
  return ms === null ? <>never</> : <RelativeTime ms={ms} />;
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
