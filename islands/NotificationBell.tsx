import { Bell } from "@/components/icons.gen.ts";
import { useEffect, useState } from "preact/hooks";

interface Props {
  /** The count when the page was rendered (the stream corrects it at once). */
  unread: number;
  current: boolean;
}

/**
 * The header's "Notifications" link with the unread count, live (accessible name
 * "Notifications, 3 unread"; the visible badge is hidden from the name, the words are not): it follows
 * `GET /api/notifications/stream` (EventSource reconnects by itself after a drop, by the
 * stream's `retry:` advice).
 */
export default function NotificationBell(props: Props) {
  const [unread, setUnread] = useState(props.unread);
  useEffect(() => {
    const source = new EventSource("/api/notifications/stream");
    source.addEventListener("unread", (e) => {
      setUnread((JSON.parse((e as MessageEvent).data) as { unread: number }).unread);
    });
    return () => source.close();
  }, []);
  return (
    <a
      class="notification-bell"
      href="/notifications"
      aria-current={props.current ? "page" : undefined}
      data-testid="notification-bell"
    >
      <Bell class="icon" aria-hidden="true" />
      {/* The word is for screen readers; the bell and the count are what the eye needs. */}
      <span class="visually-hidden">Notifications</span>
      {/* Parentheses read well whether or not the browser puts a space before them. */}
      {unread > 0 && <span class="visually-hidden">({unread} unread)</span>}
      {unread > 0 && (
        <span class="badge unread-badge" aria-hidden="true" data-testid="unread-badge">
          {unread > 99 ? "99+" : unread}
        </span>
      )}
    </a>
  );
}
