/** The generated manifest: readable import names that stay put when files come and go. */
import assert from "node:assert/strict";
import { manifestIdentifiers, manifestSource } from "./build.ts";

Deno.test("manifestIdentifiers() derives readable names from the paths", () => {
  const ids = manifestIdentifiers({
    routes: [
      "./routes/_app.tsx",
      "./routes/(marketing)/pricing.tsx",
      "./routes/api/questions/[id]/index.ts",
      "./routes/docs/[...path].tsx",
      "./routes/favicon.ico.ts",
      "./routes/local-oauth/_middleware.ts",
    ],
    islands: ["./islands/VoteButtons.tsx", "./islands/forms/Ask.tsx"],
  });
  assert.deepEqual([...ids.values()], [
    "$_app",
    "$marketing_pricing",
    "$api_questions_id_index",
    "$docs_path",
    "$favicon_ico",
    "$local_oauth__middleware",
    "$island_VoteButtons",
    "$island_forms_Ask",
  ]);
});

Deno.test("manifestIdentifiers() suffixes a name two files would share, in file order", () => {
  const ids = manifestIdentifiers({
    routes: ["./routes/q/[id].tsx", "./routes/q/id.tsx", "./routes/q-id.tsx"],
    islands: [],
  });
  assert.deepEqual([...ids.values()], ["$q_id", "$q_id_2", "$q_id_3"]);
});

Deno.test("manifestSource() renames no other import when an island is added", () => {
  const before = {
    routes: ["./routes/index.tsx"],
    islands: ["./islands/Counter.tsx", "./islands/Toggle.tsx"],
  };
  const after = { ...before, islands: ["./islands/Badge.tsx", ...before.islands] };
  const imports = (text: string) => text.split("\n").filter((l) => l.startsWith("import * as"));
  const added = imports(manifestSource(after)).filter((l) =>
    !imports(manifestSource(before)).includes(l)
  );
  assert.deepEqual(added, ['import * as $island_Badge from "./islands/Badge.tsx";']);
});

Deno.test("manifestSource() maps each route to a loader and each island to its import", () => {
  const text = manifestSource({
    routes: ["./routes/index.tsx"],
    islands: ["./islands/Counter.tsx"],
  });
  // Routes load on first use: no static import of any route (main.ts's start-up budget).
  assert.doesNotMatch(text, /^import .* from "\.\/routes\//m);
  assert.match(
    text,
    /^ {4}"\.\/routes\/index\.tsx": \(\) => import\("\.\/routes\/index\.tsx"\),$/m,
  );
  assert.match(text, /^import \* as \$island_Counter from "\.\/islands\/Counter\.tsx";$/m);
  assert.match(text, /^ {4}"\.\/islands\/Counter\.tsx": \$island_Counter,$/m);
});

Deno.test("manifestSource() breaks an entry longer than deno fmt's line width after its arrow", async () => {
  const long = "./routes/.well-known/oauth-protected-resource/index.ts";
  const text = manifestSource({
    routes: ["./routes/index.tsx", long],
    islands: ["./islands/A.tsx"],
  });
  assert.match(
    text,
    /^ {4}"\.\/routes\/\.well-known\/oauth-protected-resource\/index\.ts": \(\) =>\n {6}import\("\.\/routes\/\.well-known\/oauth-protected-resource\/index\.ts"\),$/m,
  );
  assert.match(
    text,
    /^ {4}"\.\/routes\/index\.tsx": \(\) => import\("\.\/routes\/index\.tsx"\),$/m,
  );
  // deno fmt leaves it as generated.
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/manifest.gen.ts`, text);
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["fmt", "--check", "--line-width=100", `${dir}/manifest.gen.ts`],
      stdout: "null",
      stderr: "null",
    }).output();
    assert.equal(out.code, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
