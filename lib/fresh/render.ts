/**
 * Rendering a page: the page inside its layouts inside `_app`, `<Head>` content in the
 * head, island props and the boot script before `</body>`. A page without islands gets
 * no script at all.
 *
 * @module
 */
import { type ComponentChildren, type ComponentType, Fragment, h, type VNode } from "preact";
import { renderToString } from "preact-render-to-string";
import { bundleUrl } from "./assets.ts";
import { collectHead } from "./head.ts";
import { collectIslands, scriptSafeJson } from "./islands.ts";
import type { LayoutProps, PageProps, RouteModule } from "./types.ts";
import type { BuildInfo } from "./assets.ts";

/** Everything needed to render one page. */
export interface RenderInput {
  page: ComponentType<PageProps<unknown, never>>;
  props: PageProps<unknown, unknown>;
  layouts: RouteModule[];
  app?: RouteModule;
  skipApp?: boolean;
  nonce: string;
  build: BuildInfo;
  defaultTitle: string;
}

const BODY_SLOT = "__parley_body_slot_7f3a__";

function escapeAttr(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}

/** The boot script: one import per island used, then `boot()`. */
function bootScript(used: Set<string>, build: BuildInfo, nonce: string): string {
  const imports = [...used].map((name, i) => {
    const file = build.islands[name];
    if (!file) throw new Error(`Island "${name}" has no bundle: run \`deno task build\``);
    return `import i${i} from ${JSON.stringify(bundleUrl(file))};`;
  });
  const table = [...used].map((name, i) => `${JSON.stringify(name)}:i${i}`).join(",");
  const src = `import{boot}from${JSON.stringify(bundleUrl(build.client))};${
    imports.join("")
  }boot({${table}});`;
  return `<script type="module" nonce="${escapeAttr(nonce)}">${src}</script>`;
}

/**
 * Render a complete HTML document.
 *
 * @example
 * ```tsx
 * import type { BuildInfo } from "./assets.ts";
 * import { renderDocument } from "./render.ts";
 * import type { PageProps } from "./types.ts";
 *
 * declare const build: BuildInfo;
 * const Home = ({ url }: PageProps) => <p>{url.pathname}</p>;
 * const html = renderDocument({
 *   page: Home,
 *   props: { url: new URL("http://localhost/"), params: {}, data: undefined, state: {}, route: "/" },
 *   layouts: [],
 *   nonce: "n0nce",
 *   build,
 *   defaultTitle: "Parley",
 * });
 * ```
 */
export function renderDocument(input: RenderInput): string {
  const { props, build, nonce } = input;
  const { result, islands } = collectIslands(() =>
    collectHead(() => {
      // Innermost first: the page, then each layout from the nearest folder outwards.
      let inner: ComponentType<Record<string, never>> = () => h(input.page, props as never);
      for (const layout of [...input.layouts].reverse()) {
        const Layout = layout.default as ComponentType<LayoutProps<unknown>> | undefined;
        if (!Layout) continue;
        const Child: ComponentType<Record<string, never>> = inner;
        inner = (): VNode =>
          h(Layout, { ...props, Component: Child } as LayoutProps<unknown>) as VNode;
      }
      const body = renderToString(h(inner, {}));
      const App = input.app?.default as ComponentType<LayoutProps<unknown>> | undefined;
      if (input.skipApp || !App) return body;
      const Slot = () => h(Fragment, null, BODY_SLOT);
      const shell = renderToString(h(App, { ...props, Component: Slot } as LayoutProps<unknown>));
      return shell.replace(BODY_SLOT, () => body);
    })
  );
  let html = result.result;
  const headParts = result.head.map((c: ComponentChildren) => renderToString(h(Fragment, null, c)));
  if (!headParts.some((p) => p.includes("<title"))) {
    headParts.unshift(`<title>${escapeAttr(input.defaultTitle)}</title>`);
  }
  html = injectBefore(html, "</head>", headParts.join(""));
  if (islands.used.size > 0) {
    const state = `<script type="application/json" id="__parley_islands">${
      scriptSafeJson(islands.instances)
    }</script>`;
    html = injectBefore(html, "</body>", state + bootScript(islands.used, build, nonce));
  }
  return html.startsWith("<!DOCTYPE") ? html : `<!DOCTYPE html>${html}`;
}

function injectBefore(html: string, marker: string, insert: string): string {
  // The head closes before any user content; the body's end is the last marker.
  const i = marker === "</head>" ? html.indexOf(marker) : html.lastIndexOf(marker);
  return i === -1 ? html + insert : html.slice(0, i) + insert + html.slice(i);
}
