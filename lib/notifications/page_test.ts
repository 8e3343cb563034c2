import assert from "node:assert/strict";
import { addMessage } from "../community/messages/write.ts";
import { createQuestion } from "../community/questions/write.ts";
import { castVote, userVotesOn, type VoteType } from "../community/votes.ts";
import { favoriteStatuses, toggleFavorite } from "../community/favorites.ts";
import { OWN_INDEX_LIMIT, questionPageViewerState } from "./page.ts";

const author = { id: "u-author", name: "Author", avatar: null };

/** A question with `n` answers by `author`; their ids. */
async function thread(kv: Deno.Kv, title: string, n: number) {
  const q = await createQuestion(kv, { title, author, createdBy: "user" });
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const m = await addMessage(kv, {
      questionId: q.id,
      author,
      content: `answer ${i}`,
      createdBy: "user",
    });
    assert.ok(m.ok);
    ids.push(m.message.id);
  }
  return { qid: q.id, ids };
}

/** The state as per-key reads see it (what the short lists must agree with). */
async function truth(kv: Deno.Kv, userId: string, qid: string, ids: string[]) {
  const [qv, mv, qf, mf] = await Promise.all([
    userVotesOn(kv, userId, "question", [qid]),
    userVotesOn(kv, userId, "message", ids),
    favoriteStatuses(kv, userId, "question", [qid]),
    favoriteStatuses(kv, userId, "message", ids),
  ]);
  return { votes: { ...qv, ...mv }, favorites: { ...qf, ...mf } };
}

for (const elsewhere of [0, OWN_INDEX_LIMIT + 5]) {
  Deno.test(`viewer state on a page matches per-key reads, with ${elsewhere} votes and favorites elsewhere (${elsewhere ? "per-message fallback" : "from the own-index lists"})`, async () => {
    const kv = await Deno.openKv(":memory:");
    try {
      const other = await thread(kv, "Another question with many answers", elsewhere);
      for (const id of other.ids) {
        assert.ok(
          (await castVote(kv, {
            userId: "u-v",
            targetType: "message",
            targetId: id,
            voteType: "up",
          })).ok,
        );
        assert.ok(
          (await toggleFavorite(kv, { userId: "u-v", targetType: "message", targetId: id })).ok,
        );
      }
      const { qid, ids } = await thread(kv, "The page's question", 6);
      const cast = async (
        targetType: "question" | "message",
        targetId: string,
        voteType: VoteType,
      ) => assert.ok((await castVote(kv, { userId: "u-v", targetType, targetId, voteType })).ok);
      await cast("question", qid, "down");
      await cast("message", ids[0], "up");
      await cast("message", ids[2], "down");
      await cast("message", ids[4], "up");
      await cast("message", ids[4], "up"); // a second up withdraws it
      for (const id of [ids[1], ids[2]]) {
        assert.ok(
          (await toggleFavorite(kv, { userId: "u-v", targetType: "message", targetId: id })).ok,
        );
      }
      const state = await questionPageViewerState(kv, "u-v", qid, ids);
      const want = await truth(kv, "u-v", qid, ids);
      assert.deepEqual(state.votes, want.votes);
      assert.deepEqual(state.favorites, want.favorites);
      assert.deepEqual(state.votes, { [qid]: "down", [ids[0]]: "up", [ids[2]]: "down" });
      assert.equal(state.following, false);
    } finally {
      kv.close();
    }
  });
}
