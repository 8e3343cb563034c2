/** A question's tags as links to the feed filtered by each tag. */
export function TagList({ tags }: { tags: string[] }) {
  if (tags.length === 0) return null;
  return (
    <ul class="tags" aria-label="Tags">
      {tags.map((t) => (
        <li key={t}>
          <a class="tag" dir="auto" href={`/?tag=${encodeURIComponent(t)}`}>{t}</a>
        </li>
      ))}
    </ul>
  );
}
