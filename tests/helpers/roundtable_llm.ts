/**
 * A fake model for roundtables (on the fake OpenAI-compatible server of ./fake_llm.ts):
 * the panel's choice and the minutes as JSON built from the prompt's own panel, and each
 * statement a streamed text naming its speaker, its call and whom it answers — so tests
 * can tell from the text which prompt produced it.
 */
import type { FakeCall, FakeReply } from "./fake_llm.ts";

/** What the fake answers when asked to choose the panel. */
export const CHOSEN = ["ingrid", "kwame", "ghost", "noah", "kwame"];

/** The prompt's text, all messages. */
function promptOf(call: FakeCall): string {
  return call.messages.map((m) => m.content).join("\n");
}

/** Valid minutes for the panel named in a minutes prompt (`- id: Name, Title` lines). */
export function minutesFor(prompt: string): string {
  const panel = prompt.slice(prompt.indexOf("Panel:"));
  const ids = [...panel.matchAll(/^- ([\w-]+): /gm)].map((m) => m[1]);
  return JSON.stringify({
    consensus: ["Evidence first"],
    disagreements: ["How fast to move"],
    stances: ids.map((id) => ({
      expertId: id,
      position: `${id} wants a careful pilot`,
      keyPoints: [`${id}'s point`],
    })),
    conclusion: "Pilot, measure, then decide.",
    openQuestions: ["Who pays for the pilot?"],
  });
}

/**
 * The reply to one call: `tokenDelayMs` paces streamed statements.
 *
 * @example
 * ```ts
 * import { startFakeLlm } from "./fake_llm.ts";
 * const llm = startFakeLlm(roundtableReply(5));
 * ```
 */
export function roundtableReply(tokenDelayMs = 0): (call: FakeCall) => FakeReply {
  return (call) => {
    const prompt = promptOf(call);
    if (!call.stream) {
      if (prompt.includes("Choose the panel")) {
        return { text: JSON.stringify({ expertIds: CHOSEN }) };
      }
      return { text: minutesFor(prompt) };
    }
    const speaker = /You are ([^,]+),/.exec(prompt)?.[1] ?? "someone";
    const host = /Reply to the host, who wrote: "([^"]*)"/.exec(prompt)?.[1];
    const to = /Reply to ([^,]+), who wrote/.exec(prompt)?.[1];
    const text = `${speaker} in call ${call.index} ` +
      (host ? `answers the host about: ${host}` : to ? `answers ${to}` : "opens") +
      " with a long enough statement that keeps going for a while so it streams in parts.";
    return { text, tokenDelayMs };
  };
}
