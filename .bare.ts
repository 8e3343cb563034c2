import { Hono } from "hono";
const app = new Hono().get("/", (c) => c.json({ ok: true }));
Deno.serve({ port: Number(Deno.env.get("PORT")), hostname: "127.0.0.1", onListen() {} }, app.fetch);
