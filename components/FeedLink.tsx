import { Head } from "@/lib/fresh/head.ts";
import { ATOM_TYPE } from "@/lib/feeds/paths.ts";

/**
 * The page's Atom feed, announced in the head as `<link rel="alternate">` so browsers and
 * feed readers find it (docs/interface.md#feeds).
 */
export function FeedLink({ title, href }: { title: string; href: string }) {
  return (
    <Head>
      <link rel="alternate" type={ATOM_TYPE} title={title} href={href} />
    </Head>
  );
}
