/**
 * `<JsonLd>`: a `<script type="application/ld+json">` in the document head.
 *
 * @module
 */
import type { VNode } from "preact";
import { Head } from "../fresh/head.ts";
import { jsonLdText } from "./qa_page.ts";

/**
 * Put `data` into the head as JSON-LD, escaped for a script element.
 *
 * @example
 * ```tsx
 * const Tags = () => <JsonLd data={{ "@context": "https://schema.org", "@type": "WebSite" }} />;
 * ```
 */
export function JsonLd({ data }: { data: unknown }): VNode | null {
  return (
    <Head>
      <script
        type="application/ld+json"
        // jsonLdText leaves no "<", ">" or "&" in the text, so nothing can end the script.
        // deno-lint-ignore react-no-danger
        dangerouslySetInnerHTML={{ __html: jsonLdText(data) }}
      />
    </Head>
  );
}
