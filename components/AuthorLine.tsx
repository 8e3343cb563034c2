import { RelativeTime } from "@/components/RelativeTime.tsx";
import type { Author } from "@/lib/questions.ts";

/** Who wrote something, when, and whether their agent did. */
export function AuthorLine(
  { author, createdAt, createdBy, now, verb = "asked" }: {
    author: Author;
    createdAt: number;
    createdBy: "user" | "agent";
    now: number;
    verb?: string;
  },
) {
  return (
    <div class="meta author-line">
      {author.avatar
        ? <img class="avatar" src={author.avatar} alt="" width={28} height={28} />
        : <span class="avatar avatar-initial" aria-hidden="true">{initial(author.name)}</span>}
      <a href={`/u/${encodeURIComponent(author.id)}`}>{author.name}</a>
      <span>
        {verb} <RelativeTime ms={createdAt} now={now} />
      </span>
      {createdBy === "agent" && (
        <span class="badge-agent" title="Written through the agent API">via agent</span>
      )}
    </div>
  );
}

function initial(name: string): string {
  return [...name.trim()][0]?.toUpperCase() ?? "?";
}
