/**
 * A fake OpenAI-compatible server on loopback: `POST /v1/chat/completions`, answering
 * as each test says — streamed like OpenAI (`data: {choices:[{delta:{content}}]}` …
 * `data: [DONE]`) or as one JSON completion, an HTTP error, a stream that breaks off,
 * or a request that never answers — and `POST /v1/embeddings`, by default with the
 * stand-in's deterministic vectors (lib/llm/standin/embeddings.ts), or an error, or never.
 */
import { standInEmbeddings } from "@/lib/llm/standin/embeddings.ts";

/** One request the fake received. */
export interface FakeCall {
  /** 0-based order of arrival. */
  index: number;
  stream: boolean;
  model: string;
  temperature?: number;
  max_tokens?: number;
  response_format?: { type: string };
  messages: { role: string; content: string }[];
  authorization: string | null;
}

/** How the fake answers one call. */
export type FakeReply =
  /**
   * Text, streamed in `tokens` (default: words with their leading space) or whole;
   * `delayMs` holds the answer back first (e.g. to make two callers overlap).
   */
  | { text: string; tokens?: string[]; tokenDelayMs?: number; delayMs?: number }
  /** An HTTP error with an OpenAI-shaped body. */
  | { status: number }
  /** Stream `tokens`, then drop the connection. */
  | { breakAfter: string[] }
  /** Never answer (until the client gives up). */
  | { hang: true };

/** One embeddings request the fake received. */
export interface FakeEmbeddingCall {
  /** 0-based order of arrival among embeddings requests. */
  index: number;
  model: string;
  input: string[];
  dimensions?: number;
  authorization: string | null;
}

/** How the fake answers one embeddings call. */
export type FakeEmbeddingReply =
  /** The stand-in's vectors for the inputs, in the encoding asked for (the default). */
  | { standIn: true }
  /** An HTTP error with an OpenAI-shaped body. */
  | { status: number }
  /** Never answer (until the client gives up). */
  | { hang: true };

/** Options of {@link startFakeLlm}. */
export interface FakeLlmOptions {
  /** How each embeddings call is answered (default: the stand-in's vectors). */
  embeddings?: (call: FakeEmbeddingCall) => FakeEmbeddingReply | Promise<FakeEmbeddingReply>;
}

/** A running fake. */
export interface FakeLlm {
  /** Base URL for the client (`…/v1`). */
  baseUrl: string;
  /** Chat completion calls (embeddings calls are counted apart, below). */
  calls: FakeCall[];
  embeddingCalls: FakeEmbeddingCall[];
  /** Env for `createTestApp` that points the app's client here. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** A turn of exactly `n` characters, words separated by spaces. */
export function textOfLength(n: number, seed = "point"): string {
  let out = "";
  let i = 0;
  while (out.length < n) out += (out ? " " : "") + `${seed}${i++}`;
  return out.slice(0, n).trimEnd().padEnd(n, "x");
}

/** A valid synthesis as JSON text. */
export const VALID_SYNTHESIS = JSON.stringify({
  consensus: ["Both value evidence"],
  disagreements: ["How fast to change"],
  winner: "opponent",
  winnerReason: "Answered every point with data.",
  conclusion: "Change carefully, measure, adjust.",
  recommendations: ["Run a pilot first"],
});

/**
 * The default answers: every streamed turn is 150 characters naming its call number,
 * every JSON call a valid synthesis.
 */
export function defaultReply(call: FakeCall): FakeReply {
  return call.stream ? { text: textOfLength(150, `c${call.index}w`) } : { text: VALID_SYNTHESIS };
}

/** A fake model whose debate turns wait, from the `holdFrom`-th call on, until `release`. */
export interface HeldDebateLlm extends FakeLlm {
  /** Let the held turns (and every later one) go. */
  release(): void;
}

/**
 * A fake debate model that holds its turns from call `holdFrom` until the test calls
 * `release` — so a debate is certainly still running while the test looks at it. Turns are
 * 120 characters naming their call, streamed a token each 5 ms; JSON calls get a valid
 * synthesis.
 *
 * @example
 * ```ts
 * const llm = startHeldDebateLlm(2);
 * // … open the running debate …
 * llm.release();
 * ```
 */
export function startHeldDebateLlm(holdFrom: number): HeldDebateLlm {
  let release!: () => void;
  const gate = new Promise<void>((r) => release = r);
  const llm = startFakeLlm(async (c: FakeCall) => {
    if (!c.stream) return { text: VALID_SYNTHESIS };
    if (c.index >= holdFrom) await gate;
    return { text: textOfLength(120, `c${c.index}w`), tokenDelayMs: 5 };
  });
  return { ...llm, release };
}

function tokensOf(text: string): string[] {
  return text.match(/\s*\S+/g) ?? [];
}

/**
 * Start a fake model; `reply` decides each answer (default {@link defaultReply}), at once
 * or when the promise it returns resolves.
 *
 * @example
 * ```ts
 * const llm = startFakeLlm((call) => call.stream ? { text: "x".repeat(300) } : { text: "{}" });
 * const t = await createTestApp({ env: llm.env });
 * ```
 */
export function startFakeLlm(
  reply: (call: FakeCall) => FakeReply | Promise<FakeReply> = defaultReply,
  opts: FakeLlmOptions = {},
): FakeLlm {
  const calls: FakeCall[] = [];
  const embeddingCalls: FakeEmbeddingCall[] = [];
  const hanging = new Set<() => void>();
  const encoder = new TextEncoder();
  const embeddingReply = opts.embeddings ?? (() => ({ standIn: true as const }));
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    if (req.method === "POST" && url.pathname === "/v1/embeddings") {
      const body = await req.json();
      const call: FakeEmbeddingCall = {
        index: embeddingCalls.length,
        model: body.model,
        input: typeof body.input === "string" ? [body.input] : body.input,
        dimensions: body.dimensions,
        authorization: req.headers.get("authorization"),
      };
      embeddingCalls.push(call);
      const answer = await embeddingReply(call);
      if ("hang" in answer) {
        return await new Promise<Response>((resolve) => {
          hanging.add(() => resolve(new Response("gone", { status: 503 })));
        });
      }
      if ("status" in answer) {
        return Response.json({ error: { message: "fake failure", type: "server_error" } }, {
          status: answer.status,
        });
      }
      const outcome = standInEmbeddings(body);
      return outcome.ok
        ? Response.json(outcome.response)
        : Response.json({ error: { message: outcome.message } }, { status: 400 });
    }
    if (req.method !== "POST" || url.pathname !== "/v1/chat/completions") {
      return Response.json({ error: { message: "not found" } }, { status: 404 });
    }
    const body = await req.json();
    const call: FakeCall = {
      index: calls.length,
      stream: body.stream === true,
      model: body.model,
      temperature: body.temperature,
      max_tokens: body.max_tokens,
      response_format: body.response_format,
      messages: body.messages,
      authorization: req.headers.get("authorization"),
    };
    calls.push(call);
    // A test may hold an answer back until it is ready (a promise it resolves).
    const answer = await reply(call);
    if ("hang" in answer) {
      // Answered only when the fake closes (the client gives up long before).
      return await new Promise<Response>((resolve) => {
        hanging.add(() => resolve(new Response("gone", { status: 503 })));
      });
    }
    if ("status" in answer) {
      return Response.json({ error: { message: "fake failure", type: "server_error" } }, {
        status: answer.status,
      });
    }
    const chunk = (content: string) =>
      encoder.encode(
        `data: ${
          JSON.stringify({
            id: "chatcmpl-fake",
            object: "chat.completion.chunk",
            created: 1,
            model: body.model,
            choices: [{ index: 0, delta: { content }, finish_reason: null }],
          })
        }\n\n`,
      );
    if ("breakAfter" in answer) {
      return new Response(
        new ReadableStream({
          async start(c) {
            for (const t of answer.breakAfter) c.enqueue(chunk(t));
            await new Promise((r) => setTimeout(r, 20));
            // Deno logs this error; it is the point of the test, not a failure.
            c.error(new Error("[expected] the fake model drops the connection mid-stream"));
          },
        }),
        { headers: { "content-type": "text/event-stream" } },
      );
    }
    if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
    if (!call.stream) {
      return Response.json({
        id: "chatcmpl-fake",
        object: "chat.completion",
        created: 1,
        model: body.model,
        choices: [{
          index: 0,
          message: { role: "assistant", content: answer.text },
          finish_reason: "stop",
        }],
      });
    }
    const tokens = answer.tokens ?? tokensOf(answer.text);
    let cancelled = false;
    return new Response(
      new ReadableStream({
        async start(c) {
          try {
            for (const t of tokens) {
              if (cancelled) return;
              if (answer.tokenDelayMs) await new Promise((r) => setTimeout(r, answer.tokenDelayMs));
              c.enqueue(chunk(t));
            }
            c.enqueue(encoder.encode("data: [DONE]\n\n"));
            c.close();
          } catch {
            // The client went away.
          }
        },
        cancel() {
          cancelled = true;
        },
      }),
      { headers: { "content-type": "text/event-stream" } },
    );
  });
  const port = (server.addr as Deno.NetAddr).port;
  const baseUrl = `http://127.0.0.1:${port}/v1`;
  return {
    baseUrl,
    calls,
    embeddingCalls,
    env: { LLM_API_KEY: "test-key", LLM_BASE_URL: baseUrl, LLM_MODEL: "fake-model" },
    close: async () => {
      for (const release of hanging) release();
      await server.shutdown();
    },
  };
}
