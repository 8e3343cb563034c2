/**
 * Questions' embedding vectors, stored beside the question (lib/kv/keys.ts, "Semantic
 * rerank"): `["question_vector", id]` holds the vector of the question's text, and
 * `["embedding_pending", id]` says the text changed since (or was never embedded). The
 * marker is written in the question's own atomic op (create, edit, restore), so no change
 * can miss its vector; {@link embedPendingQuestions} — right after the write, or the job
 * (./embedding_job.ts) later — writes the vector and deletes the marker in one op that
 * checks the question is still the one embedded. A delete or hide removes both in its op.
 *
 * Questions only: search ranks questions, so only questions get vectors.
 *
 * @module
 */
import { commit, getAll } from "../kv/atomic.ts";
import { keys } from "../kv/keys.ts";
import { sha256Hex } from "../ids.ts";
import type { QuestionRecord } from "../community/questions/model.ts";
import type { Embedder, EmbedOptions } from "./embeddings.ts";
import { encodeVector } from "./vectors.ts";

/** A question's stored vector. */
export interface QuestionVector {
  /** The embeddings model that made it. */
  model: string;
  /** Its length. */
  dims: number;
  /** The L2-normalized Float32 values' little-endian bytes (lib/search/vectors.ts). */
  v: Uint8Array;
  /** sha-256 (hex) of the text embedded: an unchanged text is never embedded twice. */
  text: string;
}

/** The marker of a question whose vector is missing or stale. */
export interface PendingEmbedding {
  /** Times the model refused this question's text (the job gives up after a few). */
  failures: number;
}

/** Most characters of a question embedded (its start says what it is about). */
export const EMBEDDED_TEXT_MAX = 4_000;

/**
 * Mark a question's vector as missing or stale, inside the op that creates or changes it.
 *
 * @example
 * ```ts
 * import { commit } from "@/lib/kv/atomic.ts";
 * declare const kv: Deno.Kv;
 * await commit(kv, (op) => markEmbeddingPending(op.set(["questions", "q-1"], {}), "q-1"));
 * ```
 */
export function markEmbeddingPending(
  op: Deno.AtomicOperation,
  questionId: string,
): Deno.AtomicOperation {
  return op.set(keys.embeddingPending(questionId), { failures: 0 } satisfies PendingEmbedding);
}

/**
 * Remove a question's vector and marker, inside the op that deletes or hides it (a hidden
 * or deleted question is never a search result, so it needs no vector).
 *
 * @example
 * ```ts
 * import { commit } from "@/lib/kv/atomic.ts";
 * declare const kv: Deno.Kv;
 * await commit(kv, (op) => dropQuestionVector(op, "q-1"));
 * ```
 */
export function dropQuestionVector(
  op: Deno.AtomicOperation,
  questionId: string,
): Deno.AtomicOperation {
  return op.delete(keys.questionVector(questionId)).delete(keys.embeddingPending(questionId));
}

/**
 * The text of a question that is embedded: title, tags and the start of the description.
 *
 * @example
 * ```ts
 * embeddedTextOf({ title: "Atomic counters?", tags: ["kv"], description: "How do I…" });
 * // "Atomic counters?\nkv\nHow do I…"
 * ```
 */
export function embeddedTextOf(
  q: Pick<QuestionRecord, "title" | "description" | "tags">,
): string {
  return [q.title, q.tags.join(", "), q.description].filter(Boolean).join("\n")
    .slice(0, EMBEDDED_TEXT_MAX);
}

/** True when `vec` was made by `embedder`'s model at its length (else it cannot be compared). */
export function vectorFits(
  vec: QuestionVector | null | undefined,
  embedder: Pick<Embedder, "model" | "dims">,
): vec is QuestionVector {
  return !!vec && vec.model === embedder.model && vec.dims === embedder.dims &&
    vec.v instanceof Uint8Array && vec.v.byteLength === vec.dims * 4;
}

/** A question that is not a search result: gone, deleted or hidden. */
function retired(q: QuestionRecord | null): boolean {
  return !q || q.deletedAt !== undefined || q.hiddenAt !== undefined;
}

/** Options of {@link embedPendingQuestions}. */
export interface EmbedPendingOptions extends EmbedOptions {
  /** Adds a background job's fence to every commit (lib/jobs/runner.ts). */
  fence?: (op: Deno.AtomicOperation) => Deno.AtomicOperation;
}

/** What {@link embedPendingQuestions} did, by question id. */
export interface EmbedPendingOutcome {
  /** A new vector was written (and the marker deleted). */
  embedded: string[];
  /** The marker was deleted without a model call: the text was already embedded, or the question is gone. */
  settled: string[];
  /** The question changed meanwhile: its marker stays for the next try. */
  conflicts: string[];
  /** No marker: nothing to do. */
  notPending: string[];
}

/**
 * Embed the pending questions among `ids` in one model call (keep `ids` to a batch, e.g.
 * 32) and store each vector with its marker's delete, in an op that checks the question
 * and the marker are unchanged. Throws the model's `LlmError` when the call fails (every
 * marker then stays); storage errors propagate too.
 *
 * @example
 * ```ts
 * import type { Embedder } from "@/lib/search/embeddings.ts";
 * declare const kv: Deno.Kv;
 * declare const embedder: Embedder;
 * const out = await embedPendingQuestions(kv, embedder, ["q-1"], { timeoutMs: 2_000 });
 * out.embedded; // ["q-1"]
 * ```
 */
export async function embedPendingQuestions(
  kv: Deno.Kv,
  embedder: Embedder,
  ids: string[],
  opts: EmbedPendingOptions = {},
): Promise<EmbedPendingOutcome> {
  const out: EmbedPendingOutcome = { embedded: [], settled: [], conflicts: [], notPending: [] };
  const fence = opts.fence ?? ((op: Deno.AtomicOperation) => op);
  const entries = await getAll<unknown>(
    kv,
    ids.flatMap((id) => [keys.question(id), keys.embeddingPending(id), keys.questionVector(id)]),
  );
  const settle: Promise<void>[] = [];
  const toEmbed: {
    id: string;
    q: Deno.KvEntryMaybe<unknown>;
    marker: Deno.KvEntryMaybe<unknown>;
    text: string;
    digest: string;
  }[] = [];
  for (const [i, id] of ids.entries()) {
    const [q, marker, vec] = entries.slice(i * 3, i * 3 + 3);
    if (marker.versionstamp === null) {
      out.notPending.push(id);
      continue;
    }
    const question = q.value as QuestionRecord | null;
    if (retired(question)) {
      settle.push(settleMarker(kv, fence, id, q, marker, true, out));
      continue;
    }
    const text = embeddedTextOf(question!);
    const digest = await sha256Hex(text);
    const stored = vec.value as QuestionVector | null;
    if (vectorFits(stored, embedder) && stored.text === digest) {
      settle.push(settleMarker(kv, fence, id, q, marker, false, out));
    } else {
      toEmbed.push({ id, q, marker, text, digest });
    }
  }
  await Promise.all(settle);
  if (toEmbed.length === 0) return out;
  const vectors = await embedder.embed(toEmbed.map((t) => t.text), opts);
  await Promise.all(toEmbed.map(async (t, i) => {
    const record: QuestionVector = {
      model: embedder.model,
      dims: vectors[i].length,
      v: encodeVector(vectors[i]),
      text: t.digest,
    };
    const res = await commit(kv, (op) =>
      fence(op).check(t.q, t.marker)
        .set(keys.questionVector(t.id), record)
        .delete(keys.embeddingPending(t.id)));
    (res.ok ? out.embedded : out.conflicts).push(t.id);
  }));
  return out;
}

/** Delete a marker (and, for a retired question, its vector) if nothing moved meanwhile. */
async function settleMarker(
  kv: Deno.Kv,
  fence: (op: Deno.AtomicOperation) => Deno.AtomicOperation,
  id: string,
  q: Deno.KvEntryMaybe<unknown>,
  marker: Deno.KvEntryMaybe<unknown>,
  dropVector: boolean,
  out: EmbedPendingOutcome,
): Promise<void> {
  const res = await commit(kv, (op) => {
    fence(op).check(q, marker).delete(keys.embeddingPending(id));
    if (dropVector) op.delete(keys.questionVector(id));
  });
  (res.ok ? out.settled : out.conflicts).push(id);
}
