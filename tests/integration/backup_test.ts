/**
 * `deno task backup` and `deno task restore` as child processes on real stores: a store
 * seeded through the real HTTP app (local sign-in, questions, answers, votes, favorites,
 * an agent key) is backed up, restored into a fresh file, and the restored store serves
 * the same answers; damaged, missing and foreign files (before any store file is made) and
 * non-empty stores are refused; a backup over the store, an SQLite file or (without
 * --force) any existing file is refused, and one into a missing folder makes it; an interrupted
 * restore resumes; an interrupted backup leaves only its `.partial`; and a backup taken on
 * this Deno (2.9) restores and serves under the Deploy runtime's Deno (2.5).
 */
import assert from "node:assert/strict";
import { createTestApp, ROOT } from "../helpers/app.ts";
import { CookieJar, freePort, localModeServer } from "../helpers/oauth.ts";
import { collectOutput, localSignIn, step, waitHealthy } from "../helpers/processes.ts";
import { readBuildInfo } from "@/lib/fresh/assets.ts";
import { backupStore } from "@/lib/ops/backup.ts";
import { readBackup } from "@/lib/ops/backup_file.ts";
import { entryLine, parseHeader, parseTrailer } from "@/lib/ops/backup_format.ts";
import { isStoreKey } from "@/lib/ops/backup_scope.ts";
import { restoreStore } from "@/lib/ops/restore.ts";
import { deployDenoVersion } from "../../scripts/deploy_deno.ts";

const tmp = await Deno.makeTempDir({ prefix: "parley-backup-" });
globalThis.addEventListener("unload", () => Deno.removeSync(tmp, { recursive: true }));

/** Run `deno run -A scripts/<script>.ts <args>` on `kvPath` under `deno` (this Deno by default). */
async function runTask(
  script: "backup" | "restore",
  args: string[],
  kvPath: string,
  deno: string[] = [Deno.execPath()],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const [cmd, ...pre] = deno;
  const out = await new Deno.Command(cmd, {
    args: [...pre, "run", "-A", `scripts/${script}.ts`, ...args],
    cwd: ROOT,
    env: { KV_PATH: kvPath, DENO_TLS_CA_STORE: "system" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/** Every entry of a store as backup lines (store records left out), in key order. */
async function dump(kvPath: string): Promise<string[]> {
  const kv = await Deno.openKv(kvPath);
  const lines: string[] = [];
  for await (const e of kv.list({ prefix: [] })) {
    if (!isStoreKey(e.key)) lines.push(entryLine(e.key, e.value));
  }
  kv.close();
  return lines;
}

/** The decompressed lines of a backup file. */
async function fileLines(path: string): Promise<string[]> {
  const file = await Deno.open(path);
  const text = await new Response(file.readable.pipeThrough(new DecompressionStream("gzip")))
    .text();
  return text.split("\n");
}

async function gzip(text: string): Promise<Uint8Array> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

interface Seeded {
  kvPath: string;
  backup: string;
  origin: string;
  ada: CookieJar;
  questionId: string;
  title: string;
  answerText: string;
}

let seeding: Promise<Seeded> | null = null;

/** One store seeded through the real app, and its backup taken by the task (once per file). */
function seeded(): Promise<Seeded> {
  return seeding ??= (async () => {
    const kvPath = `${tmp}/source.kv`;
    const srv = await localModeServer({ kvPath });
    const { origin } = srv;
    const title = "How do backups survive a Deno upgrade";
    const answerText = "With a tagged text encoding that any Deno reads";
    let questionId: string;
    let ada: CookieJar;
    try {
      ada = await localSignIn(origin, "provider_a", { account: "a-1001" });
      const bob = await localSignIn(origin, "provider_c", { account: "c-3001" });
      const write = async (jar: CookieJar, path: string, body: unknown) => {
        const res = await step(origin, jar, path, {
          method: "POST",
          headers: { origin, "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        assert.ok(res.status < 300, `${path}: ${res.status} ${await res.clone().text()}`);
        return await res.json();
      };
      questionId = (await write(ada, "/api/questions", {
        title,
        description: "The store is V8-serialized; Deploy runs an older Deno.",
        tags: ["ops", "deno"],
      })).id;
      const answer = await write(bob, `/api/questions/${questionId}/messages`, {
        content: answerText,
      });
      await write(ada, `/api/questions/${questionId}/messages`, {
        content: "Thanks, that settles it",
        replyTo: answer.id,
      });
      await write(bob, "/api/likes", {
        targetId: questionId,
        targetType: "question",
        voteType: "up",
      });
      await write(ada, "/api/likes", {
        targetId: answer.id,
        targetType: "message",
        voteType: "up",
      });
      await write(ada, "/api/favorites", { targetId: answer.id, targetType: "message" });
      await write(ada, "/api/profile/agent-keys", { name: "backup-bot" });
    } finally {
      await srv.close();
    }
    // Value and key types the app's records hold only some of, and the store's own Deno
    // version record, which a backup never copies.
    const kv = await Deno.openKv(kvPath);
    await kv.set(["backup_test", new Uint8Array([0, 255]), 7n, true, -1.5], {
      at: new Date(1_700_000_000_000),
      bytes: new Uint8Array([1, 2, 3]),
      counters: [new Deno.KvU64(2n ** 63n), -0, NaN, Infinity, undefined, null],
      map: new Map<unknown, unknown>([["k", new Set([1, "x"])]]),
      nested: { deeper: { big: 12345678901234567890n, re: /x+/g } },
    });
    await kv.set(["meta", "denoVersion"], "2.9.6");
    kv.close();

    const backup = `${tmp}/source.backup.gz`;
    const res = await runTask("backup", [backup], kvPath);
    assert.equal(res.code, 0, res.stderr);
    return { kvPath, backup, origin, ada: ada!, questionId: questionId!, title, answerText };
  })();
}

Deno.test({
  name: "a backup holds every entry once, with a header and a trailer that counts and checks them",
  sanitizeResources: false,
  async fn() {
    const s = await seeded();
    const source = await dump(s.kvPath);
    const lines = await fileLines(s.backup);
    assert.equal(lines.at(-1), "", "the file ends with a newline");
    const header = parseHeader(lines[0]);
    assert.ok(header, lines[0]);
    assert.equal(header.deno, Deno.version.deno);
    assert.equal(header.build, (await readBuildInfo(`${ROOT}/.build`)).buildId);
    const trailer = parseTrailer(lines.at(-2)!);
    assert.ok(trailer, lines.at(-2));
    assert.equal(trailer.entries, source.length);
    assert.deepEqual(lines.slice(1, -2), source, "every entry, in key order, nothing else");
    assert.ok(
      !lines.some((l) => l.includes('"denoVersion"')),
      "the store's Deno version is not copied",
    );
    // Sealed secrets are copied as stored: the identities' tokens are ciphertexts.
    const identities = lines.filter((l) => l.startsWith('[["identities"'));
    assert.equal(identities.length, 2);
    for (const l of identities) assert.match(l, /"v1\.[\w-]+\.[\w-]+"/);
  },
});

Deno.test({
  name:
    "a restored store holds exactly the backed-up entries and serves the same pages and API answers",
  sanitizeResources: false,
  async fn() {
    const s = await seeded();
    const target = `${tmp}/restored.kv`;
    const res = await runTask("restore", [s.backup], target);
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, /^Restored \d+ entries/);
    assert.match(res.stderr, /checksum verified/);
    assert.deepEqual(await dump(target), await dump(s.kvPath));
    const restoreRecord = await Deno.openKv(target);
    assert.equal(
      (await restoreRecord.get(["meta", "restore"])).value,
      null,
      "progress record gone",
    );
    // Not copied from the backup: the store records the Deno that restored it.
    const recorded = (await restoreRecord.get<Uint8Array>(["meta", "denoVersion"])).value;
    assert.equal(new TextDecoder().decode(recorded!), Deno.version.deno);
    restoreRecord.close();

    // The same requests (the same signed-in browser) on both stores, same answers.
    const env = { APP_ORIGIN: s.origin };
    const before = await createTestApp({ kvPath: s.kvPath, env });
    const after = await createTestApp({ kvPath: target, env });
    try {
      const paths = [
        "/api/auth/session",
        "/api/questions?sort=new",
        `/api/questions/${s.questionId}`,
        `/questions/${s.questionId}`,
        "/",
        "/profile",
        "/api/profile/agent-keys",
      ];
      for (const path of paths) {
        const init = { headers: { cookie: s.ada.header() } };
        const [a, b] = [await before.request(path, init), await after.request(path, init)];
        assert.equal(b.status, a.status, path);
        assert.equal(a.status, 200, path);
        assert.equal(await b.text(), await a.text(), path);
      }
      const page = await (await after.request(`/questions/${s.questionId}`)).text();
      assert.ok(page.includes(s.title) && page.includes(s.answerText), "the seeded thread");
      const session = await (await after.request("/api/auth/session", {
        headers: { cookie: s.ada.header() },
      })).json();
      assert.ok(session.user?.id, "the session (and the app secret) came back");
    } finally {
      await before.close();
      await after.close();
    }
  },
});

Deno.test({
  name:
    "a damaged, cut-short or foreign backup file is refused with a sentence and nothing is written",
  sanitizeResources: false,
  async fn() {
    const s = await seeded();
    const good = await Deno.readFile(s.backup);
    const lines = await fileLines(s.backup);
    const flipped = good.slice();
    flipped[Math.floor(good.length / 2)] ^= 0x55;
    // An entry changed and re-compressed: the gzip layer is fine, the checksum is not.
    const altered = lines.map((l) => l.replace(s.answerText, "Something else entirely"));
    const cases: [string, Uint8Array | null, RegExp][] = [
      ["cut.gz", good.slice(0, good.length - 40), /is damaged or cut short/],
      // A flipped bit shows as garbage text, or bad compressed data, or a bad gzip CRC.
      ["flipped.gz", flipped, /is damaged/],
      ["altered.gz", await gzip(altered.join("\n")), /do not match the checksum/],
      [
        "no-trailer.gz",
        await gzip(lines.slice(0, -2).join("\n") + "\n"),
        /is cut short: it ends after \d+ entries without its trailer/,
      ],
      ["foreign.gz", await gzip("hello\n"), /is not a Parley backup/],
      ["plain.txt", new TextEncoder().encode(lines.join("\n")), /is damaged or cut short/],
    ];
    await Deno.mkdir(`${tmp}/a-folder.gz`);
    cases.push(["a-folder.gz", null, /a-folder\.gz is a folder, not a backup file/]);
    cases.push(["nope.gz", null, /nope\.gz does not exist/]);
    for (const [name, bytes, sentence] of cases) {
      const file = `${tmp}/${name}`;
      if (bytes) await Deno.writeFile(file, bytes);
      // The file is refused before the store is opened: not even its folder is made.
      const target = `${tmp}/refused-${name}/parley.kv`;
      const res = await runTask("restore", [file], target);
      assert.equal(res.code, 1, `${name}: ${res.stderr}`);
      assert.match(res.stderr, sentence, name);
      assert.match(res.stderr, /refused\./, name);
      assert.doesNotMatch(res.stderr, /\n\s+at /, `${name}: no stack`);
      await assert.rejects(
        Deno.stat(`${tmp}/refused-${name}`),
        Deno.errors.NotFound,
        `${name}: no store created`,
      );
    }
  },
});

/** The SQLite file header: the store is still a store. */
async function isSqlite(path: string): Promise<boolean> {
  const head = (await Deno.readFile(path)).subarray(0, 16);
  return new TextDecoder().decode(head) === "SQLite format 3\0";
}

Deno.test({
  name:
    "a backup is refused over the store, its SQLite files, any SQLite file, a folder and an existing file without --force",
  sanitizeResources: false,
  async fn() {
    const dir = `${tmp}/live`;
    const kvPath = `${dir}/live.kv`;
    await Deno.mkdir(dir);
    await Deno.symlink(dir, `${tmp}/live-link`);
    // Held open like a running server's: its -wal and -shm files exist.
    const server = await Deno.openKv(kvPath);
    await server.set(["users", "u_live"], { id: "u_live" });
    const otherStore = `${tmp}/other-store.kv`;
    const other = await Deno.openKv(otherStore);
    await other.set(["x"], 1);
    other.close();
    try {
      assert.ok((await Deno.stat(`${kvPath}-wal`)).isFile, "the premise: a WAL beside the store");
      // A store named as a target's .partial: the backup would be written over it.
      const partialStore = `${dir}/side.gz.partial`;
      (await Deno.openKv(partialStore)).close();
      const refusals: [string, string[], RegExp][] = [
        [kvPath, [kvPath], /live\.kv is the store being backed up/],
        [kvPath, [`${kvPath}-wal`, "--force"], /live\.kv-wal is the store being backed up/],
        [kvPath, [`${kvPath}-shm`], /live\.kv-shm is the store being backed up/],
        [kvPath, [`${kvPath}-journal`], /live\.kv-journal is the store being backed up/],
        [kvPath, [`${tmp}/live-link/live.kv`, "--force"], /live-link\/live\.kv is the store/],
        [kvPath, [`${dir}/../live/./live.kv`], /is the store being backed up/],
        [partialStore, [`${dir}/side.gz`], /side\.gz\.partial is the store being backed up/],
        [kvPath, [otherStore, "--force"], /other-store\.kv is an SQLite database/],
        [kvPath, [dir, "--force"], /live is a folder/],
        [kvPath, [`${otherStore}/x.gz`], /A folder on the way to .* is a file/],
      ];
      for (const [store, args, sentence] of refusals) {
        const res = await runTask("backup", args, store);
        assert.equal(res.code, 2, `${args}: ${res.stderr}`);
        assert.match(res.stderr, sentence, `${args}`);
        assert.equal(res.stderr.trim().split("\n").length, 1, `${args}: one line, no stack`);
        assert.equal(res.stdout, "");
        if (args[0] !== `${dir}/side.gz`) {
          await assert.rejects(Deno.stat(`${args[0]}.partial`), `${args}: no .partial`);
        }
      }
      assert.ok(await isSqlite(partialStore));
      assert.ok(await isSqlite(kvPath), "the store is still an SQLite store");
      assert.ok(await isSqlite(otherStore));
      // The running server's writes still land in the file others open.
      await server.set(["users", "u_after"], { id: "u_after" });
      const reader = await Deno.openKv(kvPath);
      assert.deepEqual((await reader.get(["users", "u_after"])).value, { id: "u_after" });
      reader.close();

      // An existing file (the only good backup, say) is kept unless --force.
      const good = `${dir}/good.backup.gz`;
      assert.equal((await runTask("backup", [good], kvPath)).code, 0);
      const before = await Deno.readFile(good);
      const kept = await runTask("backup", [good], kvPath);
      assert.equal(kept.code, 2, kept.stderr);
      assert.match(kept.stderr, /good\.backup\.gz already exists: .*--force/);
      assert.deepEqual(await Deno.readFile(good), before, "left as it was");
      await assert.rejects(Deno.stat(`${good}.partial`), Deno.errors.NotFound);
      const forced = await runTask("backup", [good, "--force"], kvPath);
      assert.equal(forced.code, 0, forced.stderr);
      let entries = 0;
      for await (const item of readBackup(good)) if (item.type === "end") entries = item.entries;
      assert.equal(entries, 2);

      const usage = await runTask("backup", [], kvPath);
      assert.equal(usage.code, 2);
      assert.match(usage.stderr, /deno task backup <file> \[--force\]/);
    } finally {
      server.close();
    }
  },
});

Deno.test({
  name: "a backup into a folder that does not exist creates it, as restore does",
  sanitizeResources: false,
  async fn() {
    const kvPath = `${tmp}/small.kv`;
    const kv = await Deno.openKv(kvPath);
    await kv.set(["users", "u_small"], { id: "u_small" });
    kv.close();
    const file = `${tmp}/no-such-folder/deeper/small.backup.gz`;
    const res = await runTask("backup", [file], kvPath);
    assert.equal(res.code, 0, res.stderr);
    assert.doesNotMatch(res.stderr, /NotFound|\n\s+at /);
    let entries = 0;
    for await (const item of readBackup(file)) if (item.type === "end") entries = item.entries;
    assert.equal(entries, 1);
  },
});

Deno.test({
  name: "a store that holds data is refused without --force and written over with it",
  sanitizeResources: false,
  async fn() {
    const s = await seeded();
    const target = `${tmp}/busy.kv`;
    const kv = await Deno.openKv(target);
    await kv.set(["users", "u_already_here"], { id: "u_already_here" });
    // The store's own Deno version record alone does not make a store non-empty.
    const empty = `${tmp}/only-version.kv`;
    const kv2 = await Deno.openKv(empty);
    await kv2.set(["meta", "denoVersion"], new TextEncoder().encode("2.5.0"));
    kv.close();
    kv2.close();

    const refused = await runTask("restore", [s.backup], target);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /is not empty \(it holds keys under \["users"\]\).*--force/);
    assert.deepEqual(await dump(target), [
      entryLine(["users", "u_already_here"], { id: "u_already_here" }),
    ]);

    const forced = await runTask("restore", [s.backup, "--force"], target);
    assert.equal(forced.code, 0, forced.stderr);
    const source = await dump(s.kvPath);
    const after = await dump(target);
    assert.deepEqual(after.filter((l) => !l.includes("u_already_here")), source);
    assert.equal(after.length, source.length + 1, "keys the backup does not hold stay");

    const versionOnly = await runTask("restore", [s.backup], empty);
    assert.equal(versionOnly.code, 0, versionOnly.stderr);
    const check = await Deno.openKv(empty);
    assert.equal(
      new TextDecoder().decode((await check.get<Uint8Array>(["meta", "denoVersion"])).value!),
      Deno.version.deno,
      "raised to the restoring Deno, never copied from the backup",
    );
    check.close();
  },
});

/** A store of ~3,000 entries (several restore batches), one of them an expiring session. */
async function manyEntries(): Promise<{ kvPath: string; backup: string }> {
  const kvPath = `${tmp}/many.kv`;
  const kv = await Deno.openKv(kvPath);
  for (let i = 0; i < 3000; i += 500) {
    const op = kv.atomic();
    for (let j = i; j < i + 500; j++) {
      op.set(["items", j], {
        n: j,
        at: new Date(j),
        c: new Deno.KvU64(BigInt(j)),
        s: "x".repeat(j % 97),
      });
    }
    await op.commit();
  }
  await kv.set(["sessions", "s_live"], { userId: "u", expiresAt: Date.now() + 3_600_000 });
  await kv.set(["sessions", "s_gone"], { userId: "u", expiresAt: Date.now() - 1 });
  const backup = `${tmp}/many.backup.gz`;
  await backupStore(kv, backup);
  kv.close();
  return { kvPath, backup };
}

Deno.test({
  name:
    "an interrupted restore resumes after its last committed batch and ends with exactly the backed-up entries",
  sanitizeResources: false,
  async fn() {
    const many = await manyEntries();
    const target = `${tmp}/resumed.kv`;
    const kv = await Deno.openKv(target);
    const stop = new AbortController();
    // Stopped between two batches, as a crash after a commit would leave it.
    await assert.rejects(
      restoreStore(kv, many.backup, {
        onProgress: (phase) => phase === "write" && stop.abort(),
        signal: stop.signal,
      }),
      (err: unknown) => err instanceof DOMException && err.name === "AbortError",
    );
    const progress = (await kv.get<{ sha256: string; done: number }>(["meta", "restore"])).value;
    assert.ok(progress && progress.done > 0 && progress.done < 3002, JSON.stringify(progress));
    let held = 0;
    for await (const e of kv.list({ prefix: [] })) if (!isStoreKey(e.key)) held++;
    assert.equal(held, progress.done, "exactly the committed batches");
    kv.close();

    // Another file cannot be loaded over the unfinished restore without --force.
    const s = await seeded();
    const other = await runTask("restore", [s.backup], target);
    assert.equal(other.code, 1);
    assert.match(other.stderr, /unfinished restore of another backup file/);

    const res = await runTask("restore", [many.backup], target);
    assert.equal(res.code, 0, res.stderr);
    assert.match(
      res.stderr,
      new RegExp(`Resuming: an earlier run restored the first ${progress.done} entries`),
    );
    assert.match(
      res.stdout,
      new RegExp(`resumed after ${progress.done}.*1 expired records left out`),
    );
    const expected = (await dump(many.kvPath)).filter((l) => !l.includes("s_gone"));
    assert.deepEqual(await dump(target), expected);
    const done = await Deno.openKv(target);
    assert.equal((await done.get(["meta", "restore"])).value, null);
    done.close();
  },
});

Deno.test({
  name: "an interrupted backup leaves only <file>.partial, and a re-run writes the whole file",
  sanitizeResources: false,
  async fn() {
    const many = `${tmp}/many.kv`;
    await Deno.stat(many).catch(() => manyEntries());
    const file = `${tmp}/interrupted.backup.gz`;
    const kv = await Deno.openKv(many);
    const stop = new AbortController();
    await assert.rejects(
      backupStore(kv, file, { onProgress: () => stop.abort(), signal: stop.signal }),
      (err: unknown) => err instanceof DOMException && err.name === "AbortError",
    );
    kv.close();
    await assert.rejects(Deno.stat(file), Deno.errors.NotFound);
    assert.ok((await Deno.stat(`${file}.partial`)).isFile);
    const refused = await runTask("restore", [`${file}.partial`], `${tmp}/from-partial.kv`);
    assert.equal(refused.code, 1, "a partial file is not a backup");

    const res = await runTask("backup", [file], many);
    assert.equal(res.code, 0, res.stderr);
    await assert.rejects(Deno.stat(`${file}.partial`), Deno.errors.NotFound);
    let entries = 0;
    for await (const item of readBackup(file)) if (item.type === "end") entries = item.entries;
    assert.equal(entries, (await dump(many)).length);
  },
});

Deno.test({
  name:
    "a backup taken on this Deno restores under Deno Deploy's Deno, and main.ts there serves it",
  sanitizeResources: false,
  async fn() {
    const s = await seeded();
    const deploy = await deployDenoVersion();
    assert.notEqual(Deno.version.deno, deploy, "this check needs a Deno other than the Deploy one");
    const npx = ["npx", "-y", `deno@${deploy}`];
    // The premise: the Deploy Deno cannot read the store this Deno wrote.
    const unreadable = await new Deno.Command("npx", {
      args: [
        ...npx.slice(1),
        "eval",
        "--unstable-kv",
        `const kv = await Deno.openKv(${JSON.stringify(s.kvPath)});` +
        `await kv.get(["questions", ${JSON.stringify(s.questionId)}]);`,
      ],
      env: { DENO_TLS_CA_STORE: "system" },
      stdout: "null",
      stderr: "piped",
    }).output();
    assert.match(new TextDecoder().decode(unreadable.stderr), /could not deserialize value/);
    const target = `${tmp}/under-deploy-deno.kv`;
    const res = await runTask("restore", [s.backup], target, npx);
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stderr, /checksum verified/);

    // The Deploy Deno's own binary (not npx's wrapper, so SIGTERM reaches the server).
    const which = await new Deno.Command("npx", {
      args: [...npx.slice(1), "eval", "console.log(Deno.version.deno, Deno.execPath())"],
      env: { DENO_TLS_CA_STORE: "system" },
      stdout: "piped",
      stderr: "null",
    }).output();
    const [version, deployDeno] = new TextDecoder().decode(which.stdout).trim().split(" ");
    assert.equal(version, deploy);
    const port = freePort();
    const origin = `http://127.0.0.1:${port}`;
    const child = new Deno.Command(deployDeno, {
      args: ["run", "-A", "main.ts"],
      cwd: ROOT,
      env: {
        KV_PATH: target,
        PORT: String(port),
        HOSTNAME: "127.0.0.1",
        APP_ORIGIN: origin,
        LOCAL_MODE: "on",
        EXPERT_PANEL_PER_DAY: "0",
        DENO_TLS_CA_STORE: "system",
      },
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const output = collectOutput(child);
    try {
      await waitHealthy(origin).catch((err) => {
        throw new Error(`${err.message}\n${output()}`);
      });
      const page = await fetch(`${origin}/questions/${s.questionId}`);
      const html = await page.text();
      assert.equal(page.status, 200, output());
      assert.ok(html.includes(s.title), "the question");
      assert.ok(html.includes(s.answerText), "its answer");
      const api = await (await fetch(`${origin}/api/questions/${s.questionId}`)).json();
      assert.equal(api.upvotes, 1);
      assert.doesNotMatch(output(), /could not deserialize|RangeError/);
    } finally {
      child.kill("SIGTERM");
      await child.status;
    }
  },
});
