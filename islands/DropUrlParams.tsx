import { useEffect } from "preact/hooks";

interface Props {
  /** Query parameters to drop from the address once the page has shown them. */
  names: string[];
}

/**
 * Makes a one-time notice one-time: the page shows "Your question is live." for `?asked=1`
 * (and "Your message was posted." for `?posted=`), then this drops those parameters from
 * the address with `history.replaceState` — no navigation, the `#fragment` kept — so a
 * reload, a bookmark or Back never shows the notice again. Renders nothing.
 */
export default function DropUrlParams({ names }: Props) {
  useEffect(() => {
    const url = new URL(location.href);
    const present = names.filter((n) => url.searchParams.has(n));
    if (present.length === 0) return;
    for (const n of present) url.searchParams.delete(n);
    history.replaceState(history.state, "", `${url.pathname}${url.search}${url.hash}`);
  }, []);
  return null;
}
