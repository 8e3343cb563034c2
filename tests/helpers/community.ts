/**
 * Helpers for community tests: JSON calls as a signed-in browser or as an agent.
 */
import { saveSettings } from "@/lib/profile/settings.ts";
import { jsonWrite, signInAs, type TestApp } from "./app.ts";

/** A signed-in test user with its cookie. */
export interface Member {
  id: string;
  name: string;
  cookie: string;
}

/** Create a user with a session. */
export async function member(t: TestApp, name: string): Promise<Member> {
  const { user, cookie } = await signInAs(t, name);
  return { id: user.id, name: user.name, cookie };
}

/**
 * A member whose vote history is public: voter lists (`likedBy`, `dislikedBy`) name only
 * such voters (and the reader), so tests that assert voter lists use these.
 */
export async function publicVoter(t: TestApp, name: string): Promise<Member> {
  const m = await member(t, name);
  await saveSettings(t.kv, m.id, { voteHistory: "public" });
  return m;
}

/** POST JSON as a signed-in browser (same origin). */
export async function postAs(
  t: TestApp,
  who: Member | null,
  path: string,
  body: unknown,
): Promise<Response> {
  const headers = who
    ? jsonWrite(t, who.cookie)
    : { origin: t.services.config.appOrigin, "content-type": "application/json" };
  return await t.request(path, {
    method: "POST",
    headers,
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** GET as a signed-in browser. */
export async function getAs(t: TestApp, who: Member | null, path: string): Promise<Response> {
  return await t.request(path, { headers: who ? { cookie: who.cookie } : {} });
}

/** PATCH or DELETE as a signed-in browser (same origin). */
export function sendAs(
  t: TestApp,
  who: Member,
  method: "PATCH" | "DELETE",
  path: string,
  body?: unknown,
): Promise<Response> {
  return t.request(path, {
    method,
    headers: jsonWrite(t, who.cookie),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** Read a JSON response with its status. */
export async function json<T = Record<string, unknown>>(
  res: Response | Promise<Response>,
): Promise<{ status: number; body: T; headers: Headers }> {
  const r = await res;
  return { status: r.status, body: await r.json() as T, headers: r.headers };
}

/** Ask a question through the API; returns its id. */
export async function ask(
  t: TestApp,
  who: Member,
  body: { title: string; description?: string; tags?: string[] },
): Promise<string> {
  const res = await postAs(t, who, "/api/questions", body);
  if (res.status !== 201) throw new Error(`ask failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

/** Answer (or reply to) a question through the API; returns the message id. */
export async function answer(
  t: TestApp,
  who: Member,
  questionId: string,
  content: string,
  replyTo?: string,
): Promise<string> {
  const res = await postAs(t, who, `/api/questions/${questionId}/messages`, { content, replyTo });
  if (res.status !== 201) throw new Error(`answer failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

/** Vote through `POST /api/likes` as `who`; fails unless it answers 200. Returns the answer. */
export async function vote(
  t: TestApp,
  who: Member,
  targetType: "question" | "message",
  targetId: string,
  voteType: "up" | "down" = "up",
): Promise<Record<string, unknown>> {
  const res = await postAs(t, who, "/api/likes", { targetId, targetType, voteType });
  if (res.status !== 200) throw new Error(`vote failed: ${res.status} ${await res.text()}`);
  return await res.json();
}

/** Create an agent key for a member through the key endpoint; returns the key. */
export async function agentKey(t: TestApp, who: Member, name = "test agent"): Promise<string> {
  const res = await postAs(t, who, "/api/profile/agent-keys", { name });
  if (res.status !== 201) throw new Error(`key failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { key: string }).key;
}

/** Call an agent endpoint with a key. */
export async function agentCall(
  t: TestApp,
  key: string | null,
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Response> {
  const headers: Record<string, string> = { ...init.headers };
  if (key !== null) headers.authorization = `Bearer ${key}`;
  if (init.body !== undefined) headers["content-type"] = "application/json";
  return await t.request(path, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers,
    body: init.body === undefined
      ? undefined
      : typeof init.body === "string"
      ? init.body
      : JSON.stringify(init.body),
  });
}
