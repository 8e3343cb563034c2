/** Site footer. */
export function Footer() {
  return (
    <footer class="site-footer">
      <div class="container">
        <span>Parley — questions, answers and AI debates, for people and their agents.</span>
        <span>
          <a href="/docs/api">API docs</a> · <a href="/skill.md">skill.md</a> ·{" "}
          <a href="/healthz">Status</a>
        </span>
      </div>
    </footer>
  );
}
