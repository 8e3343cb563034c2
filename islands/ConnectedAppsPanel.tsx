import { CredentialRow } from "@/components/profile/RevokeButton.tsx";
import { useState } from "preact/hooks";
import { sendJson } from "@/lib/client/api.ts";
import type { Scope } from "@/lib/agent/scopes.ts";

interface AppInfo {
  id: string;
  clientName: string;
  scopes: Scope[];
  createdAt: number;
  lastUsedAt: number | null;
}

/**
 * Connected apps (OAuth): what each may do and when it last called, and Revoke (with a
 * confirmation step), which stops every token of that app at once.
 */
export default function ConnectedAppsPanel(props: { apps: AppInfo[] }) {
  const [apps, setApps] = useState<AppInfo[]>(props.apps);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const revoke = async (id: string) => {
    if (confirming !== id) {
      setConfirming(id);
      return;
    }
    setBusy(true);
    setError(null);
    const r = await sendJson<{ ok: boolean }>(
      "DELETE",
      `/api/profile/connected-apps/${encodeURIComponent(id)}`,
    );
    setBusy(false);
    setConfirming(null);
    if (!r.ok && r.status !== 404) {
      setError(r.error);
      return;
    }
    setApps(apps.filter((a) => a.id !== id));
  };

  return (
    <div class="stack connected-apps">
      {error && <p class="alert alert-error" role="alert">{error}</p>}
      {apps.length === 0
        ? (
          <p class="empty">
            No connected apps. An MCP client you point at this site's <code>/mcp</code>{" "}
            asks for your approval here before it can act as you.
          </p>
        )
        : (
          <ul class="list" data-testid="app-list">
            {apps.map((a) => (
              <CredentialRow
                key={a.id}
                title={<strong>{a.clientName}</strong>}
                scopes={a.scopes}
                since="connected"
                createdAt={a.createdAt}
                lastUsedAt={a.lastUsedAt}
                confirming={confirming === a.id}
                busy={busy}
                onRevoke={() => revoke(a.id)}
                what={` app ${a.clientName}`}
              />
            ))}
          </ul>
        )}
    </div>
  );
}
