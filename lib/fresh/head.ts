/**
 * `<Head>`: pages put `<title>`, meta tags and links into the document head from
 * anywhere in their tree, as with Fresh 2's `Head` from `fresh/runtime`.
 *
 * @module
 */
import type { ComponentChildren, VNode } from "preact";

let collected: ComponentChildren[] | null = null;

/** Run `render` while collecting `<Head>` children; returns them with its result. */
export function collectHead<T>(render: () => T): { result: T; head: ComponentChildren[] } {
  const previous = collected;
  const head: ComponentChildren[] = [];
  collected = head;
  try {
    return { result: render(), head };
  } finally {
    collected = previous;
  }
}

/**
 * Put children into the document `<head>`. A later `<title>` replaces an earlier one.
 *
 * @example
 * ```tsx
 * import { Head } from "./head.ts";
 *
 * const AskPage = () => (
 *   <>
 *     <Head>
 *       <title>Ask a question · Parley</title>
 *     </Head>
 *     <h1>Ask a question</h1>
 *   </>
 * );
 * ```
 */
export function Head({ children }: { children: ComponentChildren }): VNode | null {
  collected?.push(children);
  return null;
}
