/**
 * The cold-start baseline: a bare Hono app answering `/`, started as Parley's main.ts is
 * (bench/coldstart.ts), on the port in PORT.
 *
 * @module
 */
import { Hono } from "hono";

const app = new Hono().get("/", (c) => c.json({ ok: true, message: "hello" }));
Deno.serve({ port: Number(Deno.env.get("PORT")), hostname: "127.0.0.1", onListen() {} }, app.fetch);
