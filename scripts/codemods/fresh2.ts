/**
 * The one-time codemod that moved route modules from Fresh 1's handler shape to Fresh 2's
 * (lib/fresh accepted both shapes while it ran). Two passes, each followed by `deno fmt`:
 *
 * - `bodies`: inside every `(req, ctx)` handler or middleware, `req` becomes `ctx.req`
 *   (the parameter is renamed `_req`); `ctx.render(data, init)` becomes `page(data,
 *   init)`; `return ctx.renderNotFound()` becomes `throw new HttpError(404)`; a bare
 *   `new Response(null, {status, headers: {location}})` becomes `ctx.redirect(location,
 *   status)`; `new HttpError(status, message, extra, headers)` becomes Fresh 2's
 *   `new HttpError(status, message, {extra, headers})`; `err.toResponse()` becomes
 *   `errorResponse(err)`; `HttpError` is imported from lib/fresh.
 * - `signatures`: `(_req, ctx)` becomes `(ctx)`, and a `_middleware` file's
 *   `export const handler = define.middleware(…)` becomes `export default …`.
 *
 * Anything it cannot rewrite safely it prints, for a hand edit.
 *
 * Usage: `deno run -A scripts/codemods/fresh2.ts bodies|signatures <file>…`
 *
 * @module
 */
import ts from "npm:typescript@5.9.3";

type Edit = { start: number; end: number; text: string };

const HANDLER_PARAMS = { first: ["req", "_req"], second: ["ctx"] };

function isFunctionLike(node: ts.Node): node is ts.SignatureDeclaration & { body?: ts.Node } {
  return ts.isArrowFunction(node) || ts.isFunctionExpression(node) ||
    ts.isMethodDeclaration(node) || ts.isFunctionDeclaration(node);
}

/** A `(req, ctx)` function: a handler or middleware in Fresh 1's shape. */
function handlerParams(node: ts.Node): [ts.ParameterDeclaration, ts.ParameterDeclaration] | null {
  if (!isFunctionLike(node) || node.parameters.length !== 2) return null;
  const [a, b] = node.parameters;
  if (!ts.isIdentifier(a.name) || !ts.isIdentifier(b.name)) return null;
  if (!HANDLER_PARAMS.first.includes(a.name.text)) return null;
  if (!HANDLER_PARAMS.second.includes(b.name.text)) return null;
  return [a, b];
}

/** True when `node` declares its own `name` (a nested parameter or variable). */
function declares(node: ts.Node, name: string): boolean {
  if (isFunctionLike(node)) {
    return node.parameters.some((p) => ts.isIdentifier(p.name) && p.name.text === name);
  }
  return ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.name.text === name;
}

/** Edits turning every reference to the parameter `req` inside `body` into `ctx.req`. */
function reqReferences(body: ts.Node, file: ts.SourceFile, warn: (m: string) => void): Edit[] {
  const edits: Edit[] = [];
  const visit = (node: ts.Node) => {
    if (node !== body && declares(node, "req")) {
      warn(`a nested declaration of req at ${where(file, node)}: left as it is`);
      return;
    }
    if (ts.isShorthandPropertyAssignment(node) && node.name.text === "req") {
      edits.push({ start: node.getStart(file), end: node.getEnd(), text: "req: ctx.req" });
      return;
    }
    if (ts.isIdentifier(node) && node.text === "req") {
      const parent = node.parent;
      const isName = (ts.isPropertyAccessExpression(parent) && parent.name === node) ||
        (ts.isPropertyAssignment(parent) && parent.name === node) ||
        (ts.isMethodDeclaration(parent) && parent.name === node) ||
        (ts.isPropertySignature(parent) && parent.name === node);
      if (!isName) edits.push({ start: node.getStart(file), end: node.getEnd(), text: "ctx.req" });
    }
    ts.forEachChild(node, visit);
  };
  visit(body);
  return edits;
}

function where(file: ts.SourceFile, node: ts.Node): string {
  const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
  return `${file.fileName}:${line + 1}`;
}

function isCtxCall(node: ts.Node, method: string): node is ts.CallExpression {
  return ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) &&
    ts.isIdentifier(node.expression.expression) && node.expression.expression.text === "ctx" &&
    node.expression.name.text === method;
}

/** `{ status: N, headers: { location: X } }` → [X, N] as written, else null. */
function redirectParts(init: ts.Expression, file: ts.SourceFile): [string, string] | null {
  if (!ts.isObjectLiteralExpression(init) || init.properties.length !== 2) return null;
  let status: string | null = null;
  let location: string | null = null;
  for (const p of init.properties) {
    if (!ts.isPropertyAssignment(p) || !ts.isIdentifier(p.name)) return null;
    if (p.name.text === "status") status = p.initializer.getText(file);
    else if (p.name.text === "headers") {
      const h = p.initializer;
      if (!ts.isObjectLiteralExpression(h) || h.properties.length !== 1) return null;
      const only = h.properties[0];
      if (!ts.isPropertyAssignment(only) || only.name.getText(file) !== "location") return null;
      location = only.initializer.getText(file);
    } else return null;
  }
  return status && location ? [location, status] : null;
}

/** The specifier a file uses for a module of lib/, relative in lib/ and `@/` elsewhere. */
function libSpecifier(fileName: string, target: string): string {
  if (!fileName.startsWith("lib/")) return `@/${target}`;
  const from = fileName.split("/").slice(0, -1);
  const to = target.split("/");
  let i = 0;
  while (i < from.length && from[i] === to[i]) i++;
  const up = from.length - i;
  return (up === 0 ? "./" : "../".repeat(up)) + to.slice(i).join("/");
}

const ERRORS_MODULE = /(^|\/)(http\/)?errors\.ts$/;

function bodies(fileName: string, source: string, warn: (m: string) => void): string {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const edits: Edit[] = [];
  let needsPage = false;
  let needsHttpError = false;
  let needsErrorResponse = false;
  let importsHttpError: ts.ImportDeclaration | null = null;
  let handlerDepth = 0;

  const visit = (node: ts.Node) => {
    const params = handlerParams(node);
    if (params) {
      const [req] = params;
      if ((req.name as ts.Identifier).text === "req") {
        const fn = node as ts.SignatureDeclaration & { body?: ts.Node };
        edits.push({ start: req.name.getStart(file), end: req.name.getEnd(), text: "_req" });
        if (fn.body) edits.push(...reqReferences(fn.body, file, warn));
      }
      handlerDepth++;
      ts.forEachChild(node, visit);
      handlerDepth--;
      return;
    }
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const spec = node.moduleSpecifier.text;
      const names = node.importClause?.namedBindings;
      if (
        ERRORS_MODULE.test(spec) && names && ts.isNamedImports(names) &&
        names.elements.some((e) => e.name.text === "HttpError")
      ) {
        importsHttpError = node;
      }
    }
    if (isCtxCall(node, "render")) {
      const callee = node.expression;
      edits.push({ start: callee.getStart(file), end: callee.getEnd(), text: "page" });
      needsPage = true;
    }
    if (isCtxCall(node, "renderNotFound")) {
      const parent = node.parent;
      if (ts.isReturnStatement(parent) && node.arguments.length === 0) {
        edits.push({
          start: parent.getStart(file),
          end: parent.getEnd(),
          text: "throw new HttpError(404);",
        });
        needsHttpError = true;
      } else {
        warn(`ctx.renderNotFound() in another form at ${where(file, node)}: edit by hand`);
      }
    }
    if (
      handlerDepth > 0 && ts.isNewExpression(node) &&
      node.expression.getText(file) === "Response" &&
      node.arguments?.length === 2 && node.arguments[0].kind === ts.SyntaxKind.NullKeyword
    ) {
      const parts = redirectParts(node.arguments[1], file);
      if (parts) {
        edits.push({
          start: node.getStart(file),
          end: node.getEnd(),
          // 302 is ctx.redirect()'s default.
          text: `ctx.redirect(${parts[0]}${parts[1] === "302" ? "" : `, ${parts[1]}`})`,
        });
        return;
      }
    }
    if (
      ts.isNewExpression(node) && node.expression.getText(file) === "HttpError" &&
      (node.arguments?.length ?? 0) >= 3
    ) {
      const [status, message, extra, headers] = node.arguments!.map((a) => a.getText(file));
      const options = [
        extra === "{}" ? null : `extra: ${extra}`,
        headers === undefined ? null : headers === "headers" ? "headers" : `headers: ${headers}`,
      ].filter((o) => o !== null).join(", ");
      edits.push({
        start: node.getStart(file),
        end: node.getEnd(),
        text: `new HttpError(${status}, ${message}${options ? `, { ${options} }` : ""})`,
      });
      return;
    }
    if (
      ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === "toResponse" && node.arguments.length === 0
    ) {
      const target = node.expression.expression.getText(file);
      edits.push({
        start: node.getStart(file),
        end: node.getEnd(),
        text: `errorResponse(${target})`,
      });
      needsErrorResponse = true;
    }
    ts.forEachChild(node, visit);
  };
  visit(file);

  // Imports: HttpError and page from lib/fresh, errorResponse from lib/http/errors.ts.
  const isRoute = !fileName.startsWith("lib/");
  const freshModule = isRoute ? "@/lib/fresh/mod.ts" : libSpecifier(fileName, "lib/fresh/error.ts");
  const fromFresh = new Set<string>();
  if (needsPage) fromFresh.add("page");
  if (needsHttpError || importsHttpError) fromFresh.add("HttpError");
  const lines: string[] = [];
  if (needsPage && !isRoute) warn(`${fileName}: page() outside routes/; import it by hand`);
  if (fromFresh.size) {
    lines.push(`import { ${[...fromFresh].sort().join(", ")} } from "${freshModule}";`);
  }
  if (needsErrorResponse) {
    lines.push(
      `import { errorResponse } from "${libSpecifier(fileName, "lib/http/errors.ts")}";`,
    );
  }
  // The old HttpError import gives way to the new lines (in its place); else they go
  // after the last import.
  const existing = importsHttpError as ts.ImportDeclaration | null;
  if (existing) {
    const names = (existing.importClause!.namedBindings as ts.NamedImports).elements
      .map((e) => e.getText(file)).filter((n) => n !== "HttpError");
    const spec = (existing.moduleSpecifier as ts.StringLiteral).text;
    if (names.length) lines.unshift(`import { ${names.join(", ")} } from "${spec}";`);
    edits.push({ start: existing.getStart(file), end: existing.getEnd(), text: lines.join("\n") });
  } else if (lines.length) {
    // First, as Fresh 2's docs import `fresh` first.
    const first = file.statements.find(ts.isImportDeclaration);
    const at = first ? first.getStart(file) : 0;
    edits.push({ start: at, end: at, text: `${lines.join("\n")}\n` });
  }
  return apply(source, edits);
}

function signatures(fileName: string, source: string): string {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const edits: Edit[] = [];
  const visit = (node: ts.Node) => {
    const params = handlerParams(node);
    if (params) {
      const [req, ctx] = params;
      edits.push({ start: req.getStart(file), end: ctx.getStart(file), text: "" });
    }
    if (
      /(^|\/)_middleware\.ts$/.test(fileName) && ts.isVariableStatement(node) &&
      node.getText(file).startsWith("export const handler = define.middleware(")
    ) {
      const start = node.getStart(file);
      edits.push({ start, end: start + "export const handler =".length, text: "export default" });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return apply(source, edits);
}

/** Apply `edits` from the end; overlapping edits would garble the file, so they throw. */
function apply(source: string, edits: Edit[]): string {
  let out = source;
  let floor = Infinity;
  for (const e of edits.sort((a, b) => b.start - a.start)) {
    if (e.end > floor) throw new Error(`Overlapping edits at offset ${e.start}`);
    out = out.slice(0, e.start) + e.text + out.slice(e.end);
    floor = e.start;
  }
  return out;
}

if (import.meta.main) {
  const [pass, ...files] = Deno.args;
  if (pass !== "bodies" && pass !== "signatures") {
    console.error("Usage: deno run -A scripts/codemods/fresh2.ts bodies|signatures <file>…");
    Deno.exit(2);
  }
  let changed = 0;
  for (const f of files) {
    const source = await Deno.readTextFile(f);
    let out: string;
    try {
      out = pass === "bodies"
        ? bodies(f, source, (m) => console.warn(`${f}: ${m}`))
        : signatures(f, source);
    } catch (err) {
      console.warn(`${f}: ${(err as Error).message}; left as it is, edit by hand`);
      continue;
    }
    if (out !== source) {
      await Deno.writeTextFile(f, out);
      changed++;
    }
  }
  console.log(`${pass}: ${changed} of ${files.length} files rewritten`);
}
