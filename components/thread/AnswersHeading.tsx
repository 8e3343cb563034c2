/** "2 answers · 3 replies": top-level answers and replies to them, counted apart. */
export function answersHeading(answers: number, replies: number): string {
  if (answers === 0) return "No answers yet";
  const a = answers === 1 ? "1 answer" : `${answers} answers`;
  if (replies <= 0) return a;
  return `${a} · ${replies === 1 ? "1 reply" : `${replies} replies`}`;
}

/** The heading of a question's answers section, which the pagers link back to. */
export function AnswersHeading({ answers, replies }: { answers: number; replies: number }) {
  return <h2 id="answers-heading">{answersHeading(answers, replies)}</h2>;
}
