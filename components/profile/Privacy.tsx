import PrivacySettings from "@/islands/PrivacySettings.tsx";
import type { Settings } from "@/lib/schemas/profile.ts";

/** The "Privacy and AI avatar" section of /profile. */
export function Privacy({ settings }: { settings: Settings }) {
  return (
    <section class="card" aria-labelledby="privacy-h" id="privacy">
      <h2 id="privacy-h">Privacy and AI avatar</h2>
      <p class="hint">
        Your questions and answers are always public. These settings decide who else sees your
        activity, votes and debates.
      </p>
      <PrivacySettings initial={settings} />
    </section>
  );
}
