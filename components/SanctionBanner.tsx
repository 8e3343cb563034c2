import type { Sanction } from "@/lib/moderation/sanctions.ts";
import { sanctionMessage } from "@/lib/moderation/sanctions.ts";

/**
 * The banner a silenced person sees on every page (docs/interface.md#sanctions): what, why
 * and until when. Signed-in pages are never shared, so it reaches only them.
 */
export function SanctionBanner({ sanction }: { sanction: Sanction | undefined }) {
  if (!sanction) return null;
  return (
    <div class="container">
      <p class="alert alert-error" role="status" data-testid="sanction-banner">
        {sanctionMessage(sanction)}
      </p>
    </div>
  );
}
