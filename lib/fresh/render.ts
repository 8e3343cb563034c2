/**
 * Rendering a page: the page inside its layouts inside `_app`, `<Head>` content in the
 * head, island props and the boot script before `</body>`. A page without islands gets
 * no script at all.
 *
 * @module
 */
import {
  type ComponentChildren,
  type ComponentType,
  Fragment,
  type FunctionComponent,
  h,
  type VNode,
} from "preact";
import { renderToString } from "preact-render-to-string";
import { bundleUrl } from "./assets.ts";
import { collectHead } from "./head.ts";
import { collectIslands, islandsJson } from "./islands.ts";
import type { PageProps, RouteModule } from "./types.ts";
import type { BuildInfo } from "./assets.ts";

/** Everything needed to render one page. */
export interface RenderInput {
  page: ComponentType<PageProps<unknown, never>>;
  /** The page's props; each layout and `_app` gets them with its own `Component`. */
  props: PageProps<unknown, unknown>;
  layouts: RouteModule[];
  app?: RouteModule;
  skipApp?: boolean;
  build: BuildInfo;
  defaultTitle: string;
}

function escapeAttr(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}

/**
 * The boot script: one immutable module of the build (`boot.js`, see ./client.ts `start`),
 * which reads the island names from the page's JSON and imports their bundles. No inline
 * script, so the CSP needs no per-response nonce (`script-src 'self'`) and a rendered page
 * can be cached and served to anyone. The bundles are preloaded beside it.
 */
function bootScript(used: Set<string>, build: BuildInfo): string {
  let out = "";
  for (const name of used) {
    const file = build.islands[name];
    if (!file) throw new Error(`Island "${name}" has no bundle: run \`deno task build\``);
    out += `<link rel="modulepreload" href="${escapeAttr(bundleUrl(file))}">`;
  }
  const boot = build.boot ?? "boot.js";
  return `${out}<script type="module" src="${escapeAttr(bundleUrl(boot))}"></script>`;
}

/**
 * Render a complete HTML document.
 *
 * @example
 * ```tsx
 * import type { BuildInfo } from "./assets.ts";
 * import { LOOPBACK_INFO } from "./context.ts";
 * import { renderDocument } from "./render.ts";
 * import type { PageProps } from "./types.ts";
 *
 * declare const build: BuildInfo;
 * const Home = ({ url }: PageProps) => <p>{url.pathname}</p>;
 * const url = new URL("http://localhost/");
 * const html = renderDocument({
 *   page: Home,
 *   props: {
 *     data: undefined,
 *     url,
 *     req: new Request(url),
 *     params: {},
 *     info: LOOPBACK_INFO,
 *     state: {},
 *     route: "/",
 *     error: null,
 *     Component: () => null,
 *   },
 *   layouts: [],
 *   build,
 *   defaultTitle: "Parley",
 * });
 * ```
 */
export function renderDocument(input: RenderInput): string {
  const { props, build } = input;
  const { result, islands } = collectIslands(() =>
    collectHead(() => {
      // One render pass: the page inside each layout from the nearest folder outwards,
      // inside `_app`.
      let inner: FunctionComponent = () => h(input.page, props as never);
      for (let i = input.layouts.length - 1; i >= 0; i--) {
        const Layout = input.layouts[i].default as ComponentType<PageProps> | undefined;
        if (!Layout) continue;
        const Child = inner;
        inner = (): VNode => h(Layout, { ...props, Component: Child }) as VNode;
      }
      const App = input.app?.default as ComponentType<PageProps> | undefined;
      if (input.skipApp || !App) return renderToString(h(inner, {}));
      return renderToString(h(App, { ...props, Component: inner }));
    })
  );
  const html = result.result;
  // Head parts once each (several components may ask for the same script or meta tag).
  const headParts = new Set<string>();
  let titled = false;
  for (const c of result.head) {
    const part = renderToString(h(Fragment, null, c as ComponentChildren));
    if (part.includes("<title")) titled = true;
    headParts.add(part);
  }
  let head = titled ? "" : `<title>${escapeAttr(input.defaultTitle)}</title>`;
  for (const p of headParts) head += p;
  let tail = "";
  if (islands.used.size > 0) {
    tail = `<script type="application/json" id="__parley_islands">${
      islandsJson(islands.instances)
    }</script>${bootScript(islands.used, build)}`;
  }
  // One concatenation: the head closes before any user content; the body's end is the
  // last `</body>`.
  const doctype = html.startsWith("<!DOCTYPE") ? "" : "<!DOCTYPE html>";
  const h1 = html.indexOf("</head>");
  const b1 = tail ? html.lastIndexOf("</body>") : -1;
  if (h1 === -1 || (tail && b1 === -1)) {
    return doctype + injectBefore(injectBefore(html, "</head>", head), "</body>", tail);
  }
  if (!tail) return doctype + html.slice(0, h1) + head + html.slice(h1);
  return doctype + html.slice(0, h1) + head + html.slice(h1, b1) + tail + html.slice(b1);
}

function injectBefore(html: string, marker: string, insert: string): string {
  // The head closes before any user content; the body's end is the last marker.
  const i = marker === "</head>" ? html.indexOf(marker) : html.lastIndexOf(marker);
  return i === -1 ? html + insert : html.slice(0, i) + insert + html.slice(i);
}
