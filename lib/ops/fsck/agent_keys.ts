/**
 * Agent keys (lib/agent/keys.ts): every key in an owner's list has its lookup record
 * (by hash) and every lookup record is in its owner's list; each owner's key count equals
 * their listed keys.
 *
 * Repairs: a listed key without its lookup record cannot be used and is taken off the
 * list; a lookup record missing from its owner's list — a key that works but its owner
 * can neither see nor revoke — is put back on the list. Examples name the owner's list
 * row, never the key's hash.
 *
 * @module
 */
import { keys } from "../../kv/keys.ts";
import type { AgentKeyRecord } from "../../agent/keys.ts";
import { defineInvariant } from "./invariant.ts";
import { runPass } from "./pass.ts";
import { withTally } from "./tally.ts";

const NAME = "agent keys";

/** The problems this invariant reports. */
export const AGENT_KEY_PROBLEMS = {
  counter: "agent key count differs from the owner's listed keys",
  unusable: "listed agent key without its lookup record",
  unlisted: "agent key missing from its owner's list",
  malformed: "malformed agent key record",
} as const;

function isKey(v: unknown): v is AgentKeyRecord {
  const r = v as AgentKeyRecord | null;
  return !!r && typeof r.id === "string" && typeof r.userId === "string" &&
    typeof r.hash === "string";
}

/**
 * Agent key lookups, owners' lists and counts (see the module doc).
 *
 * @example
 * ```ts
 * import { FsckReport } from "./report.ts";
 * declare const kv: Deno.Kv;
 * const report = new FsckReport();
 * await agentKeysInvariant.check(kv, report); // or .repair(kv, report)
 * report.clean;
 * ```
 */
export const agentKeysInvariant = defineInvariant(
  NAME,
  "every listed agent key has its lookup record and every lookup record is listed; key counts",
  (kv, report, repair) =>
    withTally({ encoding: "number" }, async (tally) => {
      await tally.snapshot(kv, ["agent_key_count"]);
      await runPass<unknown>(kv, report, repair, {
        invariant: NAME,
        label: "lookups",
        prefix: ["agent_keys"],
        reads: (e) => isKey(e.value) ? [keys.agentKeyByUser(e.value.userId, e.value.id)] : [],
        judge: (e, got) => {
          const r = e.value;
          if (!isKey(r) || r.hash !== e.key[1]) {
            return [{ kind: AGENT_KEY_PROBLEMS.malformed, key: ["agent_keys", "…"] }];
          }
          const row = got[0];
          return row.versionstamp !== null ? [] : [{
            kind: AGENT_KEY_PROBLEMS.unlisted,
            key: row.key,
            fix: (op) => op.set(row.key, r),
          }];
        },
      });
      await runPass<unknown>(kv, report, repair, {
        invariant: NAME,
        label: "owners' lists",
        prefix: ["agent_keys_by_user"],
        reads: (e) => isKey(e.value) ? [keys.agentKey(e.value.hash)] : [],
        judge: (e, got) => {
          const r = e.value;
          const found = got[0]?.value;
          const fine = isKey(r) && r.id === e.key[2] && r.userId === e.key[1] && isKey(found) &&
            found.id === r.id && found.userId === r.userId;
          return fine ? [] : [{
            kind: AGENT_KEY_PROBLEMS.unusable,
            removes: true,
            fix: (op) => op.delete(e.key),
          }];
        },
        counted: async (e, _got, standing) => {
          if (standing) await tally.add(keys.agentKeyCount(e.key[1] as string));
        },
      });
      await tally.settle(kv, report, { invariant: NAME, kind: AGENT_KEY_PROBLEMS.counter, repair });
    }),
);
