/**
 * Right-to-left text (issue 27, item 12): every place a page shows a title, a post, a name
 * or a tag that a person wrote lets the browser pick its direction (`dir="auto"` on the
 * element or an ancestor), so Arabic and Hebrew read right to left inside an English page.
 */
import assert from "node:assert/strict";
import { parseHTML } from "linkedom";
import { createTestApp } from "../helpers/app.ts";
import { answer, ask, getAs, member } from "../helpers/community.ts";

const NAME = "ليلى حسن";
const TITLE = "كيف أحفظ البيانات في Deno KV؟";
const DESCRIPTION = "أريد أن أخزن الأسئلة والأجوبة بترتيب زمني.";
const TAG = "برمجة";
const ANSWER = "השתמשו במפתחות שמתחילים בזמן היצירה.";
const ANSWERER = "דוד לוי";

/** The text nodes of the page's body that contain `needle`, with their nearest `dir`. */
function directionsOf(html: string, needle: string): string[] {
  const { document } = parseHTML(html);
  const found: string[] = [];
  const walk = (node: Node) => {
    for (const child of node.childNodes) {
      if (child.nodeType === 3 && (child.textContent ?? "").includes(needle)) {
        const holder = (child.parentNode as Element).closest("[dir]");
        // Where it was left without a direction, say which element holds it.
        const parent = child.parentNode as Element;
        found.push(
          holder
            ? String(holder.getAttribute("dir"))
            : `<${parent.tagName} class="${parent.className}">`,
        );
      } else if (
        child.nodeType === 1 &&
        !["SCRIPT", "STYLE", "TEMPLATE"].includes((child as Element).tagName) &&
        // Words for screen readers only (a button's "… David's answer") are never drawn.
        !(child as Element).classList.contains("visually-hidden")
      ) {
        walk(child);
      }
    }
  };
  walk(document.body);
  return found;
}

Deno.test("titles, posts, names and tags written in Arabic or Hebrew carry dir=auto", async () => {
  const t = await createTestApp();
  try {
    const layla = await member(t, NAME);
    const david = await member(t, ANSWERER);
    const qid = await ask(t, layla, { title: TITLE, description: DESCRIPTION, tags: [TAG] });
    await answer(t, david, qid, ANSWER);
    const pages: [string, string[]][] = [
      ["/", [TITLE, DESCRIPTION, TAG, NAME]],
      [`/questions/${qid}`, [TITLE, DESCRIPTION, TAG, NAME, ANSWER, ANSWERER]],
      [`/u/${layla.id}`, [NAME, TITLE]],
      [`/u/${david.id}?tab=answers`, [ANSWERER, TITLE, ANSWER]],
      [`/?tag=${encodeURIComponent(TAG)}`, [TITLE]],
    ];
    for (const [path, texts] of pages) {
      const res = await getAs(t, layla, path);
      assert.equal(res.status, 200, path);
      const html = await res.text();
      for (const text of texts) {
        const dirs = directionsOf(html, text);
        assert.ok(dirs.length > 0, `${path} shows “${text}”`);
        assert.deepEqual(
          dirs,
          dirs.map(() => "auto"),
          `${path}: every “${text}” sits in dir="auto"`,
        );
      }
    }
  } finally {
    await t.close();
  }
});
