import ConnectedAppsPanel from "@/islands/ConnectedAppsPanel.tsx";
import type { ConnectedApp } from "@/lib/oauth/tokens.ts";

/** The "Connected apps" section of /profile: apps that signed in over OAuth, with Revoke. */
export function ConnectedApps({ apps }: { apps: ConnectedApp[] }) {
  return (
    <section class="card" aria-labelledby="connected-apps-h" id="connected-apps">
      <h2 id="connected-apps-h">Connected apps</h2>
      <p class="hint">
        Apps you approved when they connected to Parley by its address (MCP clients such as Claude
        or Cursor). Each acts as you within the permissions you gave it; revoking one signs it out
        at once.
      </p>
      <ConnectedAppsPanel apps={apps} />
    </section>
  );
}
