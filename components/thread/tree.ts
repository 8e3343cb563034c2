import type { MessageViewBase as MessageView } from "@/lib/community/messages/model.ts";

/** A thread page's messages as a tree: top-level answers, and replies by parent id. */
export interface ReplyTree {
  roots: MessageView[];
  children: Map<string, MessageView[]>;
  byId: Map<string, MessageView>;
}

/**
 * Replies grouped under the message they answer; top-level answers first. A reply whose
 * parent is not on the page is shown as a top-level message.
 */
export function nestReplies(messages: MessageView[]): ReplyTree {
  const byId = new Map(messages.map((m) => [m.id, m]));
  const children = new Map<string, MessageView[]>();
  const roots: MessageView[] = [];
  for (const m of messages) {
    if (m.replyTo && byId.has(m.replyTo)) {
      const list = children.get(m.replyTo) ?? [];
      list.push(m);
      children.set(m.replyTo, list);
    } else {
      roots.push(m);
    }
  }
  return { roots, children, byId };
}
