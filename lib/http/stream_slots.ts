/**
 * Caps on live streams: how many event streams one client address, and this whole
 * process, may hold open at once (docs/interface.md#limits). A stream takes a slot before
 * its response is made and gives it back exactly once when it ends for any reason (the
 * client left, the server shut down, the producer failed or finished), so the count is
 * the number of streams open now — never an estimate.
 *
 * The counts live in memory, not in KV: they bound this process's memory, which is what
 * they are for (each instance has its own budget; Deno Deploy gives one 512 MB).
 *
 * @module
 */
import type { Config } from "../config.ts";
import { HttpError } from "../fresh/error.ts";
import { remoteHostname } from "./remote.ts";

/** The caps: open streams per client address and per process. */
export interface StreamCaps {
  perIp: number;
  perProcess: number;
}

/** A taken slot; `release` gives it back (idempotent). */
export interface StreamSlot {
  ok: true;
  release(): void;
}

/** Why no slot was given, with the cap that was reached. */
export interface StreamRefusal {
  ok: false;
  reason: "per_ip" | "per_process";
  limit: number;
}

/** The open streams of one process, counted per client address and in all. */
export class StreamSlots {
  readonly caps: StreamCaps;
  #total = 0;
  readonly #perIp = new Map<string, number>();

  /**
   * @example
   * ```ts
   * const slots = new StreamSlots({ perIp: 20, perProcess: 2000 });
   * ```
   */
  constructor(caps: StreamCaps) {
    this.caps = caps;
  }

  /** Streams open now in this process. */
  get open(): number {
    return this.#total;
  }

  /**
   * Streams open now from `ip`.
   *
   * @example
   * ```ts
   * new StreamSlots({ perIp: 2, perProcess: 10 }).openFrom("203.0.113.7"); // 0
   * ```
   */
  openFrom(ip: string): number {
    return this.#perIp.get(ip) ?? 0;
  }

  /**
   * Take a slot for a stream from `ip`, or say which cap is reached. The process cap is
   * checked first: when the process is full, that is the answer whoever asks.
   *
   * @example
   * ```ts
   * const slots = new StreamSlots({ perIp: 1, perProcess: 10 });
   * const slot = slots.take("203.0.113.7");
   * slots.take("203.0.113.7"); // { ok: false, reason: "per_ip", limit: 1 }
   * if (slot.ok) slot.release();
   * slots.open; // 0
   * ```
   */
  take(ip: string): StreamSlot | StreamRefusal {
    if (this.#total >= this.caps.perProcess) {
      return { ok: false, reason: "per_process", limit: this.caps.perProcess };
    }
    const fromIp = this.#perIp.get(ip) ?? 0;
    if (fromIp >= this.caps.perIp) return { ok: false, reason: "per_ip", limit: this.caps.perIp };
    this.#total++;
    this.#perIp.set(ip, fromIp + 1);
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        this.#total--;
        const left = (this.#perIp.get(ip) ?? 1) - 1;
        if (left > 0) this.#perIp.set(ip, left);
        else this.#perIp.delete(ip);
      },
    };
  }
}

/** One set of slots per configuration object: one per app, so one per process in production. */
const slotsByCaps = new WeakMap<object, StreamSlots>();

/**
 * The slots of the app whose configuration is `owner` (made on first use with `caps`).
 * Tests run several apps in one process; each counts its own streams.
 *
 * @example
 * ```ts
 * const config = { streamCaps: { perIp: 20, perProcess: 2000 } };
 * streamSlotsOf(config, config.streamCaps).open; // 0
 * ```
 */
export function streamSlotsOf(owner: object, caps: StreamCaps): StreamSlots {
  let slots = slotsByCaps.get(owner);
  if (!slots) slotsByCaps.set(owner, slots = new StreamSlots(caps));
  return slots;
}

/** How long a refused client is told to wait before trying again, in seconds. */
export const STREAM_RETRY_AFTER_S = 30;

/**
 * The sentence a refused stream answers with.
 *
 * @example
 * ```ts
 * refusalMessage({ ok: false, reason: "per_ip", limit: 20 });
 * // "Too many live streams from your address: at most 20 at once. Close one or try again in 30 seconds."
 * ```
 */
export function refusalMessage(r: StreamRefusal): string {
  return r.reason === "per_ip"
    ? `Too many live streams from your address: at most ${r.limit} at once. Close one or try again in ${STREAM_RETRY_AFTER_S} seconds.`
    : `Parley is busy: this server holds its most live streams (${r.limit}). Try again in ${STREAM_RETRY_AFTER_S} seconds.`;
}

/**
 * Take a stream slot for a request from the connection `info` came on, under the caps of
 * `config` (`STREAMS_PER_IP`, `STREAMS_PER_PROCESS`), or throw the 503 that refuses it:
 * `{error}` with `Retry-After`. Call it last before making the stream, and hand
 * `release` to the stream so it runs when the stream ends.
 *
 * @example
 * ```ts
 * import { parseConfig } from "@/lib/config.ts";
 * const config = parseConfig({ KV_PATH: ":memory:" });
 * const info: Deno.ServeHandlerInfo = {
 *   remoteAddr: { transport: "tcp", hostname: "203.0.113.7", port: 51000 },
 *   completed: Promise.resolve(),
 * };
 * const slot = takeStreamSlot(config, info);
 * slot.release();
 * ```
 */
export function takeStreamSlot(config: Config, info: Deno.ServeHandlerInfo): StreamSlot {
  const taken = streamSlotsOf(config, config.streams).take(remoteHostname(info));
  if (taken.ok) return taken;
  throw new HttpError(503, refusalMessage(taken), {
    headers: { "retry-after": String(STREAM_RETRY_AFTER_S) },
  });
}
