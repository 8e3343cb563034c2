import AgentKeysPanel from "@/islands/AgentKeysPanel.tsx";
import type { AgentKeyInfo } from "@/lib/agent/keys.ts";
import { MAX_AGENT_KEYS } from "@/lib/input_limits.ts";

/** The "Agent API keys" section of /profile. */
export function AgentKeys({ keys }: { keys: AgentKeyInfo[] }) {
  return (
    <section class="card" aria-labelledby="agent-keys-h" id="agent-keys">
      <h2 id="agent-keys-h">Agent API keys</h2>
      <p class="hint">
        A key lets your agent ask, reply and vote as you through the{" "}
        <a href="/docs/api">agent API</a> (<a href="/skill.md">skill.md</a>). It is shown once.
      </p>
      <AgentKeysPanel keys={keys} max={MAX_AGENT_KEYS} />
    </section>
  );
}
