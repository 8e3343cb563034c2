/**
 * Vote privacy (docs/interface.md#votes): `likedBy` / `dislikedBy` name only voters whose vote
 * history is public (their `voteHistory` setting), plus the viewer themself; the counts
 * stay true. One read of the voters' settings per request, shared by every list it serves.
 *
 * @module
 */
import { getAll } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import type { Settings } from "../schemas/profile.ts";

/**
 * Which voters one reader may see named, remembered for the request (a thread page names
 * the same voters on many posts).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const privacy = new VoterPrivacy(kv, "u_1");
 * const named = await privacy.shown(["u_1", "u_2"]); // u_1 always; u_2 if public
 * ```
 */
export class VoterPrivacy {
  readonly #kv: Deno.Kv;
  readonly #viewerId: string | null;
  readonly #public = new Map<string, Promise<boolean>>();

  /** `viewerId`: who reads (null: anonymous, who sees only public voters). */
  constructor(kv: Deno.Kv, viewerId: string | null) {
    this.#kv = kv;
    this.#viewerId = viewerId;
  }

  /** The voters of `ids` the reader may see named, in the same order. */
  async shown(ids: string[]): Promise<string[]> {
    const unknown = [...new Set(ids)].filter((id) =>
      id !== this.#viewerId && !this.#public.has(id)
    );
    if (unknown.length > 0) {
      const read = getAll<Partial<Settings>>(this.#kv, unknown.map(keys.settings));
      unknown.forEach((id, i) =>
        this.#public.set(id, read.then((r) => r[i].value?.voteHistory === "public"))
      );
    }
    const keep = await Promise.all(
      ids.map((id) => id === this.#viewerId ? true : this.#public.get(id)!),
    );
    return ids.filter((_, i) => keep[i]);
  }
}
