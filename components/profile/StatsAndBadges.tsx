import { BadgeCheck, Circle } from "@/components/icons.gen.ts";
import { RelativeTime } from "@/components/RelativeTime.tsx";
import type { BadgeStatus, Statistics } from "@/lib/profile/stats.ts";

/** Statistics overview and the six badges with their progress. */
export function StatsAndBadges({ stats, badges }: { stats: Statistics; badges: BadgeStatus[] }) {
  const figures: [string, number][] = [
    ["Contribution score", stats.contributionScore],
    ["Questions", stats.questionsCount],
    ["Answers", stats.answersCount],
    ["Debates", stats.debatesCount],
    ["Upvotes received", stats.upvotesReceived],
    ["Favorites received", stats.favoritesReceived],
  ];
  return (
    <section class="card" aria-labelledby="stats-h" data-testid="stats">
      <h2 id="stats-h">Statistics</h2>
      <dl class="stats-grid">
        {figures.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <p class="hint">
        Score: question 5 points, answer 3, upvote received 1, completed debate 10.
      </p>
      <h3>Badges</h3>
      <ul class="badges" data-testid="badges">
        {badges.map((b) => (
          <li key={b.id} class={b.earned ? "badge earned" : "badge"}>
            <strong class="icon-label">
              {b.earned
                ? <BadgeCheck class="icon" aria-hidden="true" />
                : <Circle class="icon" aria-hidden="true" />}
              {b.name}
              <span class="sr-only">{b.earned ? "(earned)" : "(not yet earned)"}</span>
            </strong>
            <span class="hint">{b.description}</span>
            {b.earned
              ? (
                <span class="hint">
                  Earned{b.earnedAt
                    ? (
                      <>
                        {" "}
                        <RelativeTime ms={b.earnedAt} />
                      </>
                    )
                    : ""}
                </span>
              )
              : (
                <span class="badge-progress">
                  <progress
                    max={b.progress.target}
                    value={b.progress.current}
                    aria-label={`${b.name}: ${b.progress.current} of ${b.progress.target}`}
                  >
                    {b.progress.current}/{b.progress.target}
                  </progress>
                  <span class="hint" aria-hidden="true">
                    {b.progress.current} / {b.progress.target}
                  </span>
                </span>
              )}
          </li>
        ))}
      </ul>
    </section>
  );
}
