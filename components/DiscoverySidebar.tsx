import { cachedElement } from "@/lib/fresh/html_cache.ts";
import type { Discovery, DiscoveryLink } from "@/lib/community/questions/discovery.ts";

interface Props {
  discovery: Discovery;
  /** The unanswered question suggested (drawn per discovery snapshot), if any. */
  pick: DiscoveryLink | null;
}

const href = (id: string) => `/questions/${encodeURIComponent(id)}`;

/**
 * The home page's sidebar on wide screens (hidden below 1000px by CSS): hot questions, a
 * tag cloud (tags sized by recent use) and a random unanswered question.
 */
export function DiscoverySidebar({ discovery, pick }: Props) {
  // The same markup for everyone who gets the same pick: rendered once per content.
  return cachedElement(
    "aside",
    { class: "discovery", "aria-label": "Discover", "data-testid": "discovery" },
    JSON.stringify(["discovery", discovery, pick]),
    () => <SidebarSections discovery={discovery} pick={pick} />,
  );
}

function SidebarSections({ discovery: d, pick }: Props) {
  const max = Math.max(1, ...d.tags.map((t) => t.count));
  return (
    <>
      <section aria-labelledby="discover-hot">
        <h2 id="discover-hot">Hot right now</h2>
        {d.hot.length === 0 ? <p class="muted">Nothing yet.</p> : (
          <ol class="discovery-hot">
            {d.hot.map((q) => (
              <li key={q.id}>
                <a href={href(q.id)} dir="auto">{q.title}</a>
              </li>
            ))}
          </ol>
        )}
      </section>
      <section aria-labelledby="discover-tags">
        <h2 id="discover-tags">Popular tags</h2>
        {d.tags.length === 0 ? <p class="muted">No tags yet.</p> : (
          <ul class="tag-cloud">
            {d.tags.map(({ tag, count }) => (
              <li key={tag}>
                <a
                  // Four sizes by use (a class, not a style attribute: the CSP allows no
                  // inline style).
                  class={`tag tag-size-${Math.ceil((4 * count) / max)}`}
                  href={`/?tag=${encodeURIComponent(tag)}`}
                  dir="auto"
                  title={count === 1 ? "1 recent question" : `${count} recent questions`}
                >
                  {tag}
                </a>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="discover-unanswered">
        <h2 id="discover-unanswered">Answer something</h2>
        {pick
          ? (
            <p>
              <a href={href(pick.id)} data-testid="random-unanswered" dir="auto">{pick.title}</a>
            </p>
          )
          : <p class="muted">Every recent question has an answer.</p>}
      </section>
    </>
  );
}
