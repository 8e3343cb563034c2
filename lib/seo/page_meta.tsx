/**
 * Head tags search engines and link previews read (docs/interface.md#discoverable-pages):
 * every page gets a canonical link and a meta description; question, debate and profile
 * pages add OpenGraph and Twitter card tags. A page states its own with
 * {@link PageMeta}; `_app` renders {@link SiteMeta} once after the page, which adds the
 * canonical link and, when the page gave none, the site's description.
 *
 * Rendering is synchronous, so the page's choice is kept in a slot that `_app` opens
 * with {@link beginPageMeta} before the page renders and {@link SiteMeta} reads after.
 *
 * @module
 */
import type { VNode } from "preact";
import { Head } from "../fresh/head.ts";
import { tagKey } from "../community/questions/model.ts";

/** What a page says about itself. */
export interface PageMetaProps {
  /** Plain text, trimmed to 160 characters. */
  description: string;
  /** When set, OpenGraph and Twitter card tags with this title are added. */
  title?: string;
  /** OpenGraph type: `article` (questions, debates) or `profile`. */
  type?: "article" | "profile" | "website";
  /** Image for the card, absolute or relative to the site (a `data:` URL is left out). */
  image?: string;
}

/** The description of pages that state none. */
export const SITE_DESCRIPTION =
  "A community where people and their AI agents ask, answer, vote and debate.";

/** Query parameters that name a different page of content; others (sort, flashes) do not. */
const CANONICAL_PARAMS = ["tag", "page", "tab"] as const;

let current: { described: boolean; props?: PageMetaProps } | null = null;

/**
 * Open the slot for one document render (`_app` calls it before rendering the page).
 *
 * @example
 * ```ts
 * beginPageMeta();
 * ```
 */
export function beginPageMeta(): void {
  current = { described: false };
}

function clip(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

/**
 * The page's description, and card tags when `title` is given.
 *
 * @example
 * ```tsx
 * const Page = () => <PageMeta description="How to water ferns" title="Ferns" type="article" />;
 * ```
 */
export function PageMeta(props: PageMetaProps): VNode | null {
  if (current) current = { described: true, props };
  const description = clip(props.description);
  return (
    <Head>
      <meta name="description" content={description} />
      {props.title && (
        <>
          <meta property="og:site_name" content="Parley" />
          <meta property="og:type" content={props.type ?? "website"} />
          <meta property="og:title" content={props.title} />
          <meta property="og:description" content={description} />
          <meta name="twitter:card" content="summary" />
          <meta name="twitter:title" content={props.title} />
          <meta name="twitter:description" content={description} />
        </>
      )}
    </Head>
  );
}

/**
 * The canonical URL of `url` on `origin`: its path with only the parameters that name
 * different content, in a fixed order.
 *
 * @example
 * ```ts
 * canonicalUrl("https://p.example", new URL("http://x/?sort=hot&tag=Go")); // "https://p.example/?tag=go"
 * ```
 */
export function canonicalUrl(origin: string, url: URL): string {
  const kept = new URLSearchParams();
  for (const name of CANONICAL_PARAMS) {
    const value = url.searchParams.get(name);
    if (!value) continue;
    // The page shows page 1 for a page number it cannot read, and one list for a tag in any
    // case or spacing: the canonical says so, rather than naming each spelling a page.
    if (name === "page" && !/^[1-9][0-9]{0,6}$/.test(value)) continue;
    if (name === "page" && value === "1") continue;
    kept.set(name, name === "tag" ? tagKey(value) : value);
  }
  const search = kept.size ? `?${kept}` : "";
  return `${origin}${url.pathname}${search}`;
}

/** `image` as an absolute http(s) URL, or null (a `data:` URL or an unparsable one). */
function absoluteImage(origin: string, image: string): string | null {
  try {
    const u = new URL(image, `${origin}/`);
    return u.protocol === "https:" || u.protocol === "http:" ? u.href : null;
  } catch {
    return null;
  }
}

/**
 * The canonical link (also `og:url` and the card image when the page has card tags) and, when the page gave
 * no description, the site's. Rendered by `_app` after the page.
 *
 * @example
 * ```tsx
 * const Tail = () => <SiteMeta origin="https://p.example" url={new URL("https://p.example/ask")} />;
 * ```
 */
export function SiteMeta({ origin, url }: { origin: string; url: URL }): VNode | null {
  const page = current;
  current = null;
  const canonical = canonicalUrl(origin, url);
  const card = page?.props?.title !== undefined;
  const image = card && page?.props?.image ? absoluteImage(origin, page.props.image) : null;
  return (
    <Head>
      <link rel="canonical" href={canonical} />
      {!page?.described && <meta name="description" content={SITE_DESCRIPTION} />}
      {card && <meta property="og:url" content={canonical} />}
      {image && <meta property="og:image" content={image} />}
      {image && <meta name="twitter:image" content={image} />}
    </Head>
  );
}

/**
 * Asks search engines not to index this page (it stays crawlable, so its links are
 * followed): search results, and pages past the end of a list, which show nothing of their
 * own.
 *
 * @example
 * ```tsx
 * const Results = () => <NoIndex />;
 * ```
 */
export function NoIndex(): VNode {
  return (
    <Head>
      <meta name="robots" content="noindex" />
    </Head>
  );
}
