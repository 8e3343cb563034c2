/** Human "5 minutes ago" for a Unix-ms time, with the exact time on hover. */
export function RelativeTime({ ms, now = Date.now() }: { ms: number; now?: number }) {
  return (
    <time dateTime={new Date(ms).toISOString()} title={new Date(ms).toUTCString()}>
      {ago(ms, now)}
    </time>
  );
}

/**
 * Short relative time.
 *
 * @example
 * ```ts
 * ago(Date.now() - 90_000); // "1 minute ago"
 * ```
 */
export function ago(ms: number, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - ms) / 1000));
  const units: [number, string][] = [[31536000, "year"], [2592000, "month"], [86400, "day"], [
    3600,
    "hour",
  ], [60, "minute"]];
  for (const [size, name] of units) {
    const n = Math.floor(s / size);
    if (n >= 1) return `${n} ${name}${n === 1 ? "" : "s"} ago`;
  }
  return "just now";
}
