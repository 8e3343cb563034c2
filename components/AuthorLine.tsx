import { Avatar } from "@/components/Avatar.tsx";
import { RelativeTime } from "@/components/RelativeTime.tsx";
import type { Author } from "@/lib/community/questions/model.ts";

/**
 * Who wrote something, when, and whether their agent did: "written by <name>'s agent" for the agent API
 * and agent participation, "AI avatar" for answers the author's avatar wrote on its
 * own, and a "stand-in model" label on text from the offline stand-in (local mode).
 */
export function AuthorLine(
  { author, createdAt, createdBy, now, verb = "asked", via, standIn, expertTitle, draftedWithAi }: {
    author: Author;
    createdAt: number;
    createdBy: "user" | "agent" | "system";
    /** Set on AI expert messages: labelled "AI expert · <title>", no profile link. */
    expertTitle?: string;
    /** Set on messages posted from an AI draft, mostly unedited. */
    draftedWithAi?: boolean;
    now: number;
    verb?: string;
    via?: "ai-avatar";
    standIn?: boolean;
  },
) {
  return (
    <div class="meta author-line">
      <Avatar name={author.name} src={author.avatar} />
      {expertTitle !== undefined
        ? <span class="expert-name" dir="auto">{author.name}</span>
        : author.id
        ? <a href={`/u/${encodeURIComponent(author.id)}`} dir="auto">{author.name}</a>
        : (
          // A deleted account's kept post ("deleted user"): no profile to link.
          <span class="author-gone" data-testid="author-gone" dir="auto">{author.name}</span>
        )}
      <span>
        {verb} <RelativeTime ms={createdAt} now={now} />
      </span>
      {expertTitle !== undefined && (
        <span
          class="badge-agent badge-expert"
          data-testid="badge-expert"
          title="Written by Parley's AI expert panel, not a person"
        >
          AI expert · {expertTitle}
        </span>
      )}
      {draftedWithAi && (
        <span class="badge-agent" data-testid="badge-drafted" title="Posted from an AI draft">
          drafted with AI
        </span>
      )}
      {via === "ai-avatar"
        ? (
          <span
            class="badge-agent badge-avatar"
            data-testid="badge-ai-avatar"
            title={`Written by ${author.name}'s AI avatar`}
          >
            AI avatar
          </span>
        )
        : createdBy === "agent" && (
          <span
            class="badge-agent"
            data-testid="badge-agent"
            title="Written through the agent API or by agent participation"
          >
            written by {author.name}'s agent
          </span>
        )}
      {standIn && (
        <span
          class="badge-standin"
          data-testid="badge-standin"
          title="Local mode: written by Parley's offline stand-in model"
        >
          stand-in model
        </span>
      )}
    </div>
  );
}
