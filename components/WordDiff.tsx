import { type DiffPart, isWhitespaceChange, wordDiff } from "@/lib/text/word_diff.ts";

const ADDED = "[added: ";
const REMOVED = "[removed: ";

/**
 * A whitespace-only change around kept words: a line break added or removed shows as a
 * small "↵" mark (with words for screen readers), never as a changed word; other spacing
 * changes show as the new spacing, unmarked.
 */
function WhitespaceChange({ part }: { part: DiffPart }) {
  const lineBreak = part.text.includes("\n");
  if (part.kind === "del") {
    if (!lineBreak) return null;
    return (
      <del class="diff-ws" title="Line break removed">
        <span aria-hidden="true">↵</span>
        <span class="visually-hidden">[line break removed]</span>
      </del>
    );
  }
  if (!lineBreak) return <span>{part.text}</span>;
  return (
    <>
      <ins class="diff-ws" title="Line break added">
        <span aria-hidden="true">↵</span>
        <span class="visually-hidden">[line break added]</span>
      </ins>
      {part.text}
    </>
  );
}

/**
 * A word diff from `before` to `after` (lib/text/word_diff.ts): removed words in `<del>`,
 * added ones in `<ins>`, each with words for screen readers ("removed:", "added:") since
 * strike-through and underline alone are not announced; a change of line breaks alone is
 * shown as such ({@link WhitespaceChange}).
 */
export function WordDiff({ before, after }: { before: string; after: string }) {
  const parts: DiffPart[] = wordDiff(before, after);
  if (parts.length === 0) return <span class="muted">(empty)</span>;
  return (
    <span class="diff">
      {parts.map((p, i) =>
        p.kind === "same"
          ? <span key={i}>{p.text}</span>
          : isWhitespaceChange(p)
          ? <WhitespaceChange key={i} part={p} />
          : p.kind === "ins"
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
