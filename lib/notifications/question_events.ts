/**
 * The live question page (`GET /api/questions/:id/events`): `kv.watch` on the question's
 * version key (bumped in the op of every answer, vote, edit, delete, accept and moderation
 * of the thread — whoever writes it, a person, the AI avatar or the expert panel;
 * lib/community/questions/version.ts), answering the counts each time.
 *
 * @module
 */
import { shownMessageCount } from "../community/questions/read.ts";
import { counterValue } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import { watchStream } from "../http/sse.ts";

/**
 * The SSE body: `event: changed`, `data: {messageCount, upvotes, downvotes}` at once and
 * on every change of the thread. Every stream of one question in this process follows
 * one watch and one read of the counts per change. `onClose` runs once when the stream
 * ends (its slot is given back there).
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const body = questionEvents(kv, "q-1", { onClose: () => {} });
 * ```
 */
export function questionEvents(
  kv: Deno.Kv,
  questionId: string,
  options: { onClose?: () => void } = {},
): ReadableStream<Uint8Array> {
  return watchStream(kv, {
    keys: [keys.questionVersion(questionId)],
    share: `question:${questionId}`,
    onClose: options.onClose,
    render: async () => {
      const [messages, up, down, hidden] = await kv.getMany([
        keys.messageCount(questionId),
        keys.voteCount("question", questionId, "up"),
        keys.voteCount("question", questionId, "down"),
        keys.hiddenMessageCount(questionId),
      ]);
      return ["changed", {
        messageCount: shownMessageCount(counterValue(messages.value), counterValue(hidden.value)),
        upvotes: counterValue(up.value),
        downvotes: counterValue(down.value),
      }];
    },
  }).body;
}
