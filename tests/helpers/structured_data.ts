/**
 * Check a page's structured data with structured-data-testing-tool in a child process
 * (tests/helpers/structured_data_check.ts says why).
 */
import { ROOT } from "./app.ts";

/** The tool's verdict: the tests that passed and failed, by their path. */
export interface StructuredDataResult {
  passed: string[];
  failed: string[];
}

/**
 * Run the Google preset and the QAPage rules on `html`.
 *
 * @example
 * ```ts
 * const { failed } = await checkStructuredData("<html>…</html>");
 * ```
 */
export async function checkStructuredData(html: string): Promise<StructuredDataResult> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-read", "--allow-env", `${ROOT}/tests/helpers/structured_data_check.ts`],
    cwd: ROOT,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(html));
  await writer.close();
  const out = await child.output();
  const text = new TextDecoder().decode(out.stdout).trim();
  if (!out.success || !text) {
    throw new Error(`structured data check failed: ${new TextDecoder().decode(out.stderr)}`);
  }
  return JSON.parse(text.split("\n").at(-1)!) as StructuredDataResult;
}
