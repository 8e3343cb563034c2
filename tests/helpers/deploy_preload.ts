/**
 * Preloaded (`deno run --preload`) by the Deploy-like process tests: today's Deno Deploy
 * does not support KV queues, so any use of them throws here as it fails there.
 */
const refuse = (name: string) => () => {
  throw new TypeError(`Deno.Kv.prototype.${name} is not supported on Deno Deploy`);
};
Object.defineProperty(Deno.Kv.prototype, "enqueue", { value: refuse("enqueue") });
Object.defineProperty(Deno.Kv.prototype, "listenQueue", { value: refuse("listenQueue") });
Object.defineProperty(Deno.AtomicOperation.prototype, "enqueue", {
  value: refuse("atomic().enqueue"),
});
