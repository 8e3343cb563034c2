/** Count a store's KV calls (bench/kv_calls.ts and the read-bound tests). */
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
