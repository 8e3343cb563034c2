import { type DiffPart, wordDiff } from "@/lib/text/word_diff.ts";

const ADDED = "[added: ";
const REMOVED = "[removed: ";

/**
 * A word diff from `before` to `after` (lib/text/word_diff.ts): removed words in `<del>`,
 * added ones in `<ins>`, each with words for screen readers ("removed:", "added:") since
 * strike-through and underline alone are not announced.
 */
export function WordDiff({ before, after }: { before: string; after: string }) {
  const parts: DiffPart[] = wordDiff(before, after);
  if (parts.length === 0) return <span class="muted">(empty)</span>;
  return (
    <span class="diff">
      {parts.map((p, i) =>
        p.kind === "same" ? <span key={i}>{p.text}</span> : p.kind === "ins"
          ? (
            <ins key={i}>
              <span class="visually-hidden">{ADDED}</span>
              {p.text}
              <span class="visually-hidden">]</span>
            </ins>
          )
          : (
            <del key={i}>
              <span class="visually-hidden">{REMOVED}</span>
              {p.text}
              <span class="visually-hidden">]</span>
            </del>
          )
      )}
    </span>
  );
}
