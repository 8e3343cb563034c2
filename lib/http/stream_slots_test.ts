/** Stream caps: per client address and per process, exact as streams open and end. */
import assert from "node:assert/strict";
import { parseConfig } from "@/lib/config.ts";
import { HttpError } from "@/lib/fresh/error.ts";
import { StreamSlots, takeStreamSlot } from "@/lib/http/stream_slots.ts";

Deno.test("StreamSlots: an address past its cap is refused, and a released slot is free again", () => {
  const slots = new StreamSlots({ perIp: 2, perProcess: 10 });
  const a = slots.take("198.51.100.1");
  const b = slots.take("198.51.100.1");
  assert.ok(a.ok && b.ok);
  assert.deepEqual(slots.take("198.51.100.1"), { ok: false, reason: "per_ip", limit: 2 });
  assert.ok(slots.take("198.51.100.2").ok, "another address has its own count");
  a.release();
  a.release(); // twice counts once
  assert.equal(slots.openFrom("198.51.100.1"), 1);
  assert.ok(slots.take("198.51.100.1").ok);
  assert.equal(slots.open, 3);
});

Deno.test("StreamSlots: the process cap holds across addresses and frees exactly", () => {
  const slots = new StreamSlots({ perIp: 5, perProcess: 3 });
  const taken = ["a", "b", "c"].map((ip) => slots.take(ip));
  assert.deepEqual(slots.take("d"), { ok: false, reason: "per_process", limit: 3 });
  for (const t of taken) if (t.ok) t.release();
  assert.equal(slots.open, 0);
  assert.equal(slots.openFrom("a"), 0);
  assert.ok(slots.take("d").ok);
});

Deno.test("takeStreamSlot(): past the cap a 503 with Retry-After and a sentence", () => {
  const config = parseConfig({ KV_PATH: ":memory:", STREAMS_PER_IP: "1" });
  const info: Deno.ServeHandlerInfo = {
    remoteAddr: { transport: "tcp", hostname: "203.0.113.9", port: 1 },
    completed: Promise.resolve(),
  };
  const slot = takeStreamSlot(config, info);
  assert.throws(() => takeStreamSlot(config, info), (e) => {
    assert.ok(e instanceof HttpError);
    assert.equal(e.status, 503);
    assert.match(e.message, /^Too many live streams from your address: at most 1 at once\./);
    assert.ok(Number(e.headers["retry-after"]) > 0);
    return true;
  });
  slot.release();
  takeStreamSlot(config, info).release();
});
