import { renderInlineMarkdown, renderMarkdown } from "@/lib/markdown.ts";

/**
 * User Markdown rendered on the server to sanitized HTML (lib/markdown.ts escapes all
 * raw HTML and filters links), the one place pages inject HTML.
 */
export function Markdown(
  { text, idPrefix, newAccount }: {
    text: string;
    idPrefix: string;
    /** A new account wrote it: its links carry `rel="ugc nofollow"`. */
    newAccount?: boolean;
  },
) {
  const html = renderMarkdown(text, idPrefix, { newAccount });
  // deno-lint-ignore react-no-danger
  return <div class="prose" dir="auto" dangerouslySetInnerHTML={{ __html: html }} />;
}

/** A bio: inline Markdown only (lib/markdown.ts `renderInlineMarkdown`), sanitized the same way. */
export function Bio({ text }: { text: string }) {
  return (
    <div
      class="prose bio"
      dir="auto"
      data-testid="bio"
      // deno-lint-ignore react-no-danger
      dangerouslySetInnerHTML={{ __html: renderInlineMarkdown(text) }}
    />
  );
}
