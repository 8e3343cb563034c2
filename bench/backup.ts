/**
 * Backup, restore and fsck at scale (issue "Operating a real community"): throughput in
 * entries a second and peak memory, each step in a process of its own
 * (bench/backup_worker.ts), next to a baseline measured in the same run on the same store:
 *
 * - backup against a plain `kv.list` walk of the whole store (what reading costs alone);
 * - restore against a plain copy of the store into a new one, 500 entries an op (what
 *   writing costs alone);
 * - fsck's check against the same walk (it reads every key, most of them more than once).
 *
 * The store holds BENCH_BACKUP_QUESTIONS questions, seeded with the domain's own writer
 * (~27 entries each with their index rows and search postings). The default is the
 * issue's 100,000 (2.7 million entries) when the section runs alone (`BENCH_ONLY=backup`)
 * and 20,000 in a run of every section, which keeps that run's time bounded (the steps
 * take minutes at 100,000 on two shared cores). BENCH_BACKUP_FSCK=0 leaves fsck out.
 *
 * Then the backup of a second store, of notifications only (BENCH_BACKUP_PEOPLE people, default
 * 20,000, 5 each, every other person marked all read), beside its own walk: what writing the read
 * flags costs (lib/notifications/unread.ts `notificationsForBackup`).
 *
 * @module
 */
import { keys } from "../lib/kv/keys.ts";
import { writeQuestion } from "../lib/community/questions/write.ts";
import { markRead, notifyInOp } from "../lib/notifications/notifications.ts";
import { planQuestion } from "../lib/search/index.ts";
import { row } from "./harness.ts";
import { seedQuestions } from "./seed.ts";

const WORKER = new URL("./backup_worker.ts", import.meta.url).pathname;

interface StepResult {
  entries: number;
  ms: number;
  peakRssMb: number;
  heapMb: number;
}

async function step(name: string, store: string, file: string, target: string) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", WORKER, name, store, file, target],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error(`backup bench step ${name} failed`);
  const lines = new TextDecoder().decode(out.stdout).trim().split("\n");
  return JSON.parse(lines.at(-1)!) as StepResult;
}

const fmt = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

function rateOf(r: StepResult): number {
  return r.entries / (r.ms / 1000);
}

function memory(r: StepResult): string {
  return `peak RSS ${r.peakRssMb.toFixed(0)} MB, heap ${r.heapMb.toFixed(0)} MB`;
}

/**
 * Run the backup section; `alone` when it is the only section asked for (see the module
 * doc for the store size).
 */
export async function run({ alone = true }: { alone?: boolean } = {}): Promise<void> {
  const questions = Number(Deno.env.get("BENCH_BACKUP_QUESTIONS") ?? (alone ? 100_000 : 20_000));
  const withFsck = Deno.env.get("BENCH_BACKUP_FSCK") !== "0";
  const dir = await Deno.makeTempDir({ prefix: "parley-bench-backup-" });
  try {
    const store = `${dir}/store.kv`;
    const file = `${dir}/store.backup.gz`;
    const seeding = performance.now();
    const kv = await Deno.openKv(store);
    await seedQuestions(kv, questions, "u-bench-backup", { writeQuestion, keys, planQuestion });
    kv.close();
    const seeded = (performance.now() - seeding) / 1000;

    const walk = await step("walk", store, file, `${dir}/unused.kv`);
    const backup = await step("backup", store, file, `${dir}/unused.kv`);
    const copy = await step("copy", store, file, `${dir}/copy.kv`);
    const restore = await step("restore", store, file, `${dir}/restored.kv`);
    const bytes = (await Deno.stat(file)).size;

    console.log(
      `\nBackup and restore — ${fmt.format(questions)} questions, ${
        fmt.format(walk.entries)
      } entries (seeded in ${seeded.toFixed(0)} s), file ${(bytes / 1e6).toFixed(1)} MB`,
    );
    const line = (name: string, r: StepResult, base: StepResult) =>
      console.log(
        row(name, `${fmt.format(rateOf(r))} entries/s`, rateOf(r) / rateOf(base)) +
          `  ${memory(r)}`,
      );
    line("kv.list walk of the store (baseline)", walk, walk);
    line("deno task backup", backup, walk);
    line("copy into a new store, 500 an op (baseline)", copy, copy);
    line("deno task restore (verify + write)", restore, copy);
    if (withFsck) {
      const fsck = await step("fsck", store, file, `${dir}/unused.kv`);
      line("deno task fsck (check)", fsck, walk);
    }
    if (backup.entries !== walk.entries || restore.entries !== walk.entries) {
      console.error("the backup or restore did not hold every entry");
      Deno.exitCode = 1;
    }
    await notificationsStore(dir, rateOf(backup) / rateOf(walk));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** People in the notifications store, 5 notifications each, every other one marked read. */
const PEOPLE = Number(Deno.env.get("BENCH_BACKUP_PEOPLE") ?? 20_000);

/**
 * The same backup of a store made only of notifications: the backup writes the read flag of
 * each one "mark all read" covered, finding the watermarks by a second walk beside the rows
 * (lib/notifications/unread.ts `notificationsForBackup`). Its ratio to the walk, beside the
 * questions store's (`questionsRatio`), is what the flags cost.
 *
 * Last measured (Deno 2.9.6, 2 cores, 20,000 questions and 20,000 people, two runs): the
 * notifications store backed up at 0.48–0.50× its walk (116,000 entries/s, peak RSS 163 MB),
 * the questions store at 0.70×. The same backup loop without the read flags (a script, same
 * run) took 0.81–0.86× the time of this one; with a `get` per person instead of the second
 * walk it took 3.6× as long.
 */
async function notificationsStore(dir: string, questionsRatio: number): Promise<void> {
  const store = `${dir}/notifications.kv`;
  const kv = await Deno.openKv(store);
  const now = Date.now();
  const reply = (i: number) => ({
    type: "reply" as const,
    actor: { id: "u-bench-actor" },
    questionId: "q-bench",
    messageId: `msg-bench-${i}`,
    answerId: null,
  });
  for (let p = 0; p < PEOPLE; p += 50) {
    const op = kv.atomic(); // 50 people × 5 × 3 rows, under KV's 1,000 mutations
    for (let u = p; u < Math.min(p + 50, PEOPLE); u++) {
      for (let i = 0; i < 5; i++) notifyInOp(op, `u-bench-${u}`, reply(i), now - 5_000 + i);
    }
    await op.commit();
  }
  for (let u = 0; u < PEOPLE; u += 2) await markRead(kv, `u-bench-${u}`, undefined, now);
  kv.close();
  const walk = await step("walk", store, `${dir}/n.backup.gz`, `${dir}/unused.kv`);
  const backup = await step("backup", store, `${dir}/n.backup.gz`, `${dir}/unused.kv`);
  console.log(
    `\nA store of notifications only — ${fmt.format(PEOPLE)} people, ${
      fmt.format(walk.entries)
    } entries, every other person marked all read (the backup flags what that covered)`,
  );
  console.log(
    row("kv.list walk of the store (baseline)", `${fmt.format(rateOf(walk))} entries/s`, 1),
  );
  console.log(
    row(
      "deno task backup",
      `${fmt.format(rateOf(backup))} entries/s`,
      rateOf(backup) / rateOf(walk),
    ) + `  ${memory(backup)} (the questions store: ${questionsRatio.toFixed(2)}×)`,
  );
}

if (import.meta.main) await run();
