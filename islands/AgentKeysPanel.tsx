import { CredentialRow } from "@/components/profile/RevokeButton.tsx";
import { useState } from "preact/hooks";
import { sendJson } from "@/lib/client/api.ts";
import { useTypedBefore } from "@/lib/client/typed_before.ts";
import { KEY_NAME_MAX } from "@/lib/input_limits.ts";
import { type Scope, SCOPE_DESCRIPTIONS, SCOPES } from "@/lib/agent/scopes.ts";

interface KeyInfo {
  id: string;
  name: string;
  prefix: string;
  scopes: Scope[];
  createdAt: number;
  lastUsedAt: number | null;
}

interface Props {
  keys: KeyInfo[];
  max: number;
}

/** The id of the checkbox for `scope`. */
const scopeId = (scope: Scope) => `key-scope-${scope}`;

/**
 * Agent API keys: create with a choice of scopes (the key is shown once, with a copy
 * button), list with what each may do, revoke (with a confirmation step).
 */
export default function AgentKeysPanel(props: Props) {
  const [keys, setKeys] = useState<KeyInfo[]>(props.keys);
  // A name typed and scopes ticked or cleared before this script ran are kept.
  const [name, setName] = useTypedBefore("key-name");
  const chosen: Record<Scope, [boolean, (on: boolean) => void]> = {
    read: useTypedBefore(scopeId("read"), true),
    write: useTypedBefore(scopeId("write"), true),
  };
  const scopes = SCOPES.filter((s) => chosen[s][0]);
  const [fresh, setFresh] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const full = keys.length >= props.max;

  const create = async (e: Event) => {
    e.preventDefault();
    if (busy || full) return;
    if (scopes.length === 0) {
      setError("Choose at least one of read and write.");
      return;
    }
    setBusy(true);
    setError(null);
    const r = await sendJson<{ key: string; info: KeyInfo }>("POST", "/api/profile/agent-keys", {
      name: name.trim() || undefined,
      scopes,
    });
    setBusy(false);
    if (!r.ok) {
      setError(r.error);
      return;
    }
    setKeys([...keys, r.data.info]);
    setFresh(r.data.key);
    setCopied(false);
    setName("");
    for (const s of SCOPES) chosen[s][1](true);
  };

  const revoke = async (id: string) => {
    if (confirming !== id) {
      setConfirming(id);
      return;
    }
    setBusy(true);
    setError(null);
    const r = await sendJson<{ ok: boolean }>(
      "DELETE",
      `/api/profile/agent-keys?id=${encodeURIComponent(id)}`,
    );
    setBusy(false);
    setConfirming(null);
    if (!r.ok && r.status !== 404) {
      setError(r.error);
      return;
    }
    setKeys(keys.filter((k) => k.id !== id));
  };

  const copy = async () => {
    if (!fresh) return;
    try {
      await navigator.clipboard.writeText(fresh);
      setCopied(true);
    } catch {
      setError("Copy failed — select the key and copy it by hand.");
    }
  };

  return (
    <div class="stack agent-keys">
      {fresh && (
        <div class="alert alert-ok new-key" role="status">
          <p>
            <strong>Your new key.</strong>{" "}
            Copy it now — it is shown only once and cannot be recovered.
          </p>
          <div class="row">
            <code class="key-text" data-testid="new-key">{fresh}</code>
            <button type="button" class="btn btn-small" onClick={copy}>
              {copied ? "Copied" : "Copy"}
            </button>
            <button type="button" class="btn btn-small" onClick={() => setFresh(null)}>
              I saved it
            </button>
          </div>
        </div>
      )}
      {error && <p class="alert alert-error" role="alert">{error}</p>}
      <form class="stack" onSubmit={create}>
        <div class="row">
          <label class="visually-hidden" for="key-name">Key name</label>
          <input
            id="key-name"
            type="text"
            class="grow"
            placeholder="Name, e.g. “research agent”"
            maxLength={KEY_NAME_MAX}
            value={name}
            onInput={(e) => setName((e.target as HTMLInputElement).value)}
            disabled={full}
          />
          <button type="submit" class="btn btn-primary" disabled={busy || full}>Create key</button>
        </div>
        <fieldset class="choice" disabled={full}>
          <legend>The key may</legend>
          {SCOPES.map((s) => (
            <label key={s} class="row">
              <input
                id={scopeId(s)}
                type="checkbox"
                name="scopes"
                value={s}
                checked={chosen[s][0]}
                onChange={(e) => chosen[s][1]((e.target as HTMLInputElement).checked)}
              />
              <span>
                <strong>{s}</strong> — {SCOPE_DESCRIPTIONS[s]}
              </span>
            </label>
          ))}
        </fieldset>
      </form>
      <p class="hint">
        {keys.length} of {props.max} keys in use.
        {full ? " Revoke a key to create another." : ""}
      </p>
      {keys.length === 0
        ? <p class="empty">No keys yet. Create one to let an agent ask, reply and vote as you.</p>
        : (
          <ul class="list" data-testid="key-list">
            {keys.map((k) => (
              <CredentialRow
                key={k.id}
                title={
                  <>
                    <strong>{k.name}</strong> <code>{k.prefix}</code>
                  </>
                }
                scopes={k.scopes}
                scopesTestId="key-scopes"
                since="created"
                createdAt={k.createdAt}
                lastUsedAt={k.lastUsedAt}
                confirming={confirming === k.id}
                busy={busy}
                onRevoke={() => revoke(k.id)}
                what={` key ${k.name}`}
              />
            ))}
          </ul>
        )}
    </div>
  );
}
