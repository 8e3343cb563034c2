/** QAPage rules for structured-data-testing-tool (a plain module: the tool is not loaded here). */

/**
 * Google's QAPage requirements (developers.google.com/search/docs/appearance/structured-data/qapage)
 * as a preset: the bundled Google preset has no QAPage rules. Only the first `[*]` of a path
 * is expanded per instance by the tool, so nested lists name their first item.
 */
export const QA_PAGE_PRESET = {
  name: "Google QAPage",
  description: "Required and recommended QAPage properties",
  schema: "QAPage",
  conditional: { test: "QAPage" },
  tests: [
    { test: "QAPage" },
    { test: 'QAPage[*].mainEntity."@type"', expect: "Question" },
    { test: "QAPage[*].mainEntity.name" },
    { test: "QAPage[*].mainEntity.text" },
    { test: "QAPage[*].mainEntity.answerCount" },
    { test: "QAPage[*].mainEntity.upvoteCount" },
    { test: "QAPage[*].mainEntity.dateCreated" },
    { test: "QAPage[*].mainEntity.author.name" },
    { test: "QAPage[*].mainEntity.acceptedAnswer.text" },
    { test: "QAPage[*].mainEntity.acceptedAnswer.url" },
    { test: "QAPage[*].mainEntity.acceptedAnswer.author.name" },
    { test: "QAPage[*].mainEntity.suggestedAnswer[0].text" },
    { test: "QAPage[*].mainEntity.suggestedAnswer[0].url" },
    { test: "QAPage[*].mainEntity.suggestedAnswer[0].upvoteCount" },
    { test: "QAPage[*].mainEntity.suggestedAnswer[0].dateCreated" },
  ],
};
