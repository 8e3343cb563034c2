/**
 * What the profile's credential lists share (agent keys, connected apps): the date text of
 * "created / last used", the Revoke button with its confirmation step, and the row of one
 * credential that puts them together.
 *
 * @module
 */
import type { ComponentChildren } from "preact";
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

/** Props of {@link CredentialRow}. */
export interface CredentialRowProps extends Omit<RevokeButtonProps, "onClick"> {
  /** The credential's name, and anything shown beside it (a key's prefix). */
  title: ComponentChildren;
  scopes: string[];
  /** The verb of its first date: "created", "connected". */
  since: string;
  createdAt: number;
  lastUsedAt: number | null;
  onRevoke: () => void;
  /** `data-testid` of the scopes' text, where a test reads it. */
  scopesTestId?: string;
}

/**
 * One credential in a profile list: name, scopes, its two dates and the Revoke button.
 *
 * @example
 * ```tsx
 * <CredentialRow
 *   title={<strong>ci-bot</strong>}
 *   scopes={["read"]}
 *   since="created"
 *   createdAt={0}
 *   lastUsedAt={null}
 *   confirming={false}
 *   busy={false}
 *   onRevoke={() => {}}
 *   what=" key ci-bot"
 * />;
 * ```
 */
export function CredentialRow(props: CredentialRowProps) {
  return (
    <li class="card row">
      <div class="grow">
        {props.title}
        <div class="meta">
          <span data-testid={props.scopesTestId}>{props.scopes.join(" and ")}</span>
          <span>
            {props.since} <CredentialDate ms={props.createdAt} />
          </span>
          <span>
            last used <CredentialDate ms={props.lastUsedAt} />
          </span>
        </div>
      </div>
      <RevokeButton
        confirming={props.confirming}
        busy={props.busy}
        onClick={props.onRevoke}
        what={props.what}
      />
    </li>
  );
}
