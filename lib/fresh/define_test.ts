/** createDefine(): the helpers return what they are given; the types carry State and Data. */
import assert from "node:assert/strict";
import { h } from "preact";
import type { Context } from "./context.ts";
import { createDefine, type PageData } from "./define.ts";
import { type HandlerByMethod, page, type RouteHandler } from "./handlers.ts";
import { createFreshHandler } from "./server.ts";

interface State {
  user: string | null;
}
const define = createDefine<State>();

/** True when A and B are the same type (compile-time). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true
  : false;
function assertType<_T extends true>(): void {}

Deno.test("createDefine().handlers() returns the handlers it is given", () => {
  const methods = { GET: () => new Response("get") };
  assert.equal(define.handlers(methods), methods);
  const one = () => new Response("any");
  assert.equal(define.handlers(one), one);
});

Deno.test("createDefine().page() returns the component it is given", () => {
  const Page = () => h("p", null, "page");
  assert.equal(define.page(Page), Page);
});

Deno.test("createDefine().middleware() returns the middleware it is given, one or a list", () => {
  const one = (ctx: Context<State>) => ctx.next();
  assert.equal(define.middleware(one), one);
  const list = [one, one];
  assert.equal(define.middleware(list), list);
});

Deno.test("createDefine().handlers() types ctx.state as the app's State and page() by Data", () => {
  define.handlers<{ n: number }>({
    GET(ctx) {
      assertType<Equal<typeof ctx.state, State>>();
      return page({ n: 1 });
    },
  });
  define.handlers<{ n: number }>({
    // @ts-expect-error page() is given data of another shape than the declared Data
    GET: () => page({ n: "one" }),
  });
  const fn = define.handlers<{ n: number }>(() => page({ n: 1 }));
  assertType<Equal<typeof fn, RouteHandler<{ n: number }, State>>>();
});

Deno.test("createDefine().page() takes Data from a handler's type, or the data type after never", () => {
  const methods = define.handlers<{ n: number }>({ GET: () => page({ n: 1 }) });
  const fn = define.handlers<{ s: string }>(() => page({ s: "x" }));
  const inferred = define.handlers({ GET: () => page({ n: 1 }) });
  assertType<Equal<PageData<typeof methods>, { n: number }>>();
  assertType<Equal<PageData<typeof fn>, { s: string }>>();
  assertType<Equal<PageData<typeof inferred>, { n: number }>>();
  assertType<Equal<PageData<HandlerByMethod<Date, State>>, Date>>();
  assertType<Equal<PageData<never>, undefined>>();
  define.page<typeof methods>(({ data, state }) => {
    assertType<Equal<typeof data, { n: number }>>();
    assertType<Equal<typeof state, State>>();
    return null;
  });
  define.page<never, { n: number }>(({ data }) => {
    assertType<Equal<typeof data, { n: number }>>();
    return null;
  });
  define.page<never, string[]>(({ data }) => {
    assertType<Equal<typeof data, string[]>>();
    return null;
  });
  define.page(({ data }) => {
    assertType<Equal<typeof data, undefined>>();
    return null;
  });
});

Deno.test("a route typed with define renders its handler's data in its page", async () => {
  const handler = define.handlers({
    GET: (ctx) => page({ greeting: `hello ${ctx.state.user}` }),
  });
  const Page = define.page<typeof handler>(({ data }) => h("p", { id: "greeting" }, data.greeting));
  const serve = createFreshHandler({
    baseUrl: "file:///x/",
    islands: {},
    routes: { "./routes/index.tsx": { handler, default: Page } },
  }, { build: { buildId: "t", client: "client.js", islands: {}, staticFiles: [] } });
  const res = await serve(new Request("http://localhost/"), { state: { user: "ada" } });
  assert.match(await res.text(), /<p id="greeting">hello ada<\/p>/);
});
