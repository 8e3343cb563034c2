/** Count a store's KV calls (bench/kv_calls.ts and the read-bound tests). */
import assert from "node:assert/strict";
import { signInAs, type TestApp } from "./app.ts";

/**
 * A question by "Asker" with `answers` answers (`Answer **0**`…), each by its own member
 * (`A0`…), and a signed-in "Viewer" who wrote nothing: the page the KV-call counts load.
 */
export async function questionWithAnswers(
  t: TestApp,
  answers: number,
  { title, tags }: { title: string; tags?: string[] },
): Promise<{ id: string; viewer: Awaited<ReturnType<typeof signInAs>> }> {
  const write = (cookie: string) => ({
    cookie,
    origin: t.services.config.appOrigin,
    "content-type": "application/json",
  });
  const asker = await signInAs(t, "Asker");
  const q = await t.request("/api/questions", {
    method: "POST",
    headers: write(asker.cookie),
    body: JSON.stringify({ title, tags }),
  });
  const { id } = await q.json() as { id: string };
  for (let i = 0; i < answers; i++) {
    const m = await signInAs(t, `A${i}`);
    const r = await t.request(`/api/questions/${id}/messages`, {
      method: "POST",
      headers: write(m.cookie),
      body: JSON.stringify({ content: `Answer **${i}**` }),
    });
    assert.equal(r.status, 201);
  }
  return { id, viewer: await signInAs(t, "Viewer") };
}

/** A store whose calls are recorded (method and first key) in `log`. */
export function countingKv(kv: Deno.Kv, log: string[]): Deno.Kv {
  return new Proxy(kv, {
    get(target, prop) {
      const v = Reflect.get(target, prop, target);
      if (typeof v !== "function") return v;
      if (!["get", "getMany", "list", "atomic", "set", "delete", "watch"].includes(String(prop))) {
        return v.bind(target);
      }
      return (...args: unknown[]) => {
        const a = args[0] as Deno.KvKey | Deno.KvKey[] | { prefix?: Deno.KvKey };
        const desc = prop === "getMany"
          ? `getMany(${(a as Deno.KvKey[]).length}× ${String((a as Deno.KvKey[])[0]?.[0])})`
          : prop === "list"
          ? `list(${String((a as { prefix?: Deno.KvKey }).prefix?.[0] ?? "range")})`
          : prop === "atomic"
          ? "atomic"
          : `${String(prop)}(${String((a as Deno.KvKey)?.[0])})`;
        log.push(desc);
        return v.apply(target, args);
      };
    },
  });
}

/** How many keys a store was asked for: every `get`, each key of a `getMany`, each listed entry. */
export interface KeysRead {
  keys: number;
}

/**
 * A store that adds to `read.keys` every key it reads (a listed entry counts as one), so
 * a test can hold a read to its page size whatever the data behind it.
 */
export function keyCountingKv(kv: Deno.Kv, read: KeysRead): Deno.Kv {
  return new Proxy(kv, {
    get(target, prop) {
      const v = Reflect.get(target, prop, target);
      if (typeof v !== "function") return v;
      if (prop === "get") {
        return (...args: unknown[]) => {
          read.keys++;
          return v.apply(target, args);
        };
      }
      if (prop === "getMany") {
        return (...args: unknown[]) => {
          read.keys += (args[0] as unknown[]).length;
          return v.apply(target, args);
        };
      }
      if (prop === "list") {
        return (...args: unknown[]) => {
          const it = v.apply(target, args) as Deno.KvListIterator<unknown>;
          const counted = {
            get cursor() {
              return it.cursor;
            },
            async next() {
              const r = await it.next();
              if (!r.done) read.keys++;
              return r;
            },
            [Symbol.asyncIterator]() {
              return counted;
            },
          };
          return counted;
        };
      }
      return v.bind(target);
    },
  });
}
