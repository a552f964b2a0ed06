#!/usr/bin/env node
// Every sample, validated as users run it (no --today), on other days than today: faketime
// moves the clock of each `facturar validate` run. Not in CI (faketime is a Debian package,
// `apt-get install faketime`); the suite checks the samples on the day it runs.
//   node scripts/any-day.mjs [--edges] [dd/mm/yyyy ...]
// With no days: today, then days that move a date window across a month's, a year's or
// February's end (DAYS below). Each day is run at noon in Argentina; --edges runs it also a few
// seconds after its start and before its end there (UTC−3, while the machine's day differs).
// An invalid sample must exit 3 with exactly the errors samples/invalid/README.md lists for it
// (code and field), a valid one exit 0 with no error; each `date.default` warning on
// comprobante.fecha must name the day tried (the faked clock was the one used). Exits 1 on any
// difference, 2 when it cannot run. Needs the build (`npm run build`).
import { execFile, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const BIN = join(ROOT, "bin", "facturar.js");
const DAYS = [
  "31/12/2026",
  "01/01/2027",
  "31/01/2027",
  "28/02/2027",
  "01/03/2027",
  "30/06/2027",
  "01/07/2027",
  "31/12/2027",
  "29/02/2028",
  "01/03/2028",
];
const NOON = "12:00:00";
const EDGES = ["00:00:05", NOON, "23:59:55"];

const args = process.argv.slice(2);
const edges = args.includes("--edges");
const asked = args.filter((a) => a !== "--edges");
for (const day of asked) {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(day);
  const probe = m ? new Date(Date.UTC(Number(m[3]), Number(m[2]) - 1, Number(m[1]))) : undefined;
  if (!m || probe?.getUTCDate() !== Number(m[1]) || probe.getUTCMonth() !== Number(m[2]) - 1) {
    console.error(`any-day: ${JSON.stringify(day)} is not a day dd/mm/yyyy`);
    process.exit(2);
  }
}
if (spawnSync("faketime", ["-h"], { stdio: "ignore" }).error) {
  console.error("any-day: faketime not found (Debian: apt-get install faketime)");
  process.exit(2);
}
if (!existsSync(join(ROOT, "dist", "cli.js"))) {
  console.error("any-day: no dist/: run `npm run build` first");
  process.exit(2);
}

/** Today in Argentina (UTC−3, no daylight saving), dd/mm/yyyy. */
function argentinaToday() {
  const iso = new Date(Date.now() - 3 * 3_600_000).toISOString();
  return `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
}

/** The table of samples/invalid/README.md by file: the errors (code@field) each must report. */
function invalidTable() {
  const text = readFileSync(join(ROOT, "samples", "invalid", "README.md"), "utf8");
  const byFile = new Map();
  for (const line of text.split("\n")) {
    if (!/^\| [\w.-]+\.(json|csv) \|/.test(line)) continue;
    const [file, code, field] = line
      .split("|")
      .slice(1, 4)
      .map((c) => c.trim());
    byFile.set(file, [...(byFile.get(file) ?? []), `${code}@${field}`]);
  }
  return byFile;
}

const table = invalidTable();
const invalidDir = join(ROOT, "samples", "invalid");
const onDisk = readdirSync(invalidDir).filter((f) => /\.(json|csv)$/.test(f));
const unlisted = onDisk.filter((f) => !table.has(f));
const missing = [...table.keys()].filter((f) => !onDisk.includes(f));
if (unlisted.length > 0 || missing.length > 0) {
  console.error(
    `any-day: samples/invalid and its README's table differ: not in the table ${JSON.stringify(unlisted)},`,
  );
  console.error(`  not on disk ${JSON.stringify(missing)}`);
  process.exit(1);
}
const cases = [
  ...readdirSync(join(ROOT, "samples"))
    .filter((f) => /\.(json|csv)$/.test(f))
    .map((f) => ({ file: `samples/${f}`, expected: [] })),
  ...[...table].map(([f, expected]) => ({ file: `samples/invalid/${f}`, expected })),
];

// The test clock (vitest.config.ts sets it for the suite) would hide the faked one.
const env = { ...process.env, LANG: "C.UTF-8", LC_ALL: "", LC_MESSAGES: "", NO_COLOR: "1", TZ: "UTC" };
delete env.FACTURAR_TODAY;

/** One `facturar validate --json FILE`, at `time` (Argentina) on `day`, or on the real clock. */
function validate(file, day, time) {
  const [d, m, y] = day.split("/");
  const command = time
    ? ["faketime", [`${y}-${m}-${d} ${time} -0300`, process.execPath, BIN, "validate", "--json", file]]
    : [process.execPath, [BIN, "validate", "--json", file]];
  return new Promise((resolve) => {
    execFile(command[0], command[1], { cwd: ROOT, env, maxBuffer: 64 << 20 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

/** What is wrong with one file's run, or undefined. */
function judge({ expected }, day, run) {
  let vouchers;
  try {
    vouchers = run.stdout
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => JSON.parse(l));
  } catch {
    return `no NDJSON (exit ${run.code}): ${run.stderr.trim().split("\n")[0]}`;
  }
  const errors = vouchers.flatMap((v) => v.errors.map((e) => `${e.code}@${e.field}`));
  const problems = [];
  const wantedCode = expected.length > 0 ? 3 : 0;
  if (run.code !== wantedCode) problems.push(`exit ${run.code}, not ${wantedCode}`);
  if (JSON.stringify([...errors].sort()) !== JSON.stringify([...expected].sort()))
    problems.push(`errors [${errors.join(", ")}], not [${expected.join(", ")}]`);
  const clocks = vouchers
    .flatMap((v) => v.warnings)
    .filter((w) => w.code === "date.default" && w.field === "comprobante.fecha" && !w.message.includes(day));
  if (clocks.length > 0) problems.push(`dated on another day than ${day}: ${clocks[0].message}`);
  if (vouchers.length === 0) problems.push(`no voucher read (exit ${run.code}): ${run.stderr.trim().split("\n")[0]}`);
  return problems.length > 0 ? problems.join("; ") : undefined;
}

/** Runs `jobs` (functions returning promises), `width` at a time, in order of results. */
async function pool(jobs, width) {
  const results = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, jobs.length) }, worker));
  return results;
}

const today = argentinaToday();
const runs = [
  ...(asked.length > 0 ? [] : [{ day: today, time: undefined, label: `${today} (today, the real clock)` }]),
  ...(asked.length > 0 ? asked : DAYS).flatMap((day) =>
    (edges ? EDGES : [NOON]).map((time) => ({ day, time, label: `${day} ${time} in Argentina` })),
  ),
];
let bad = 0;
for (const { day, time, label } of runs) {
  const results = await pool(
    cases.map((c) => () => validate(c.file, day, time)),
    Math.max(2, availableParallelism()),
  );
  const warnings = new Map();
  const wrong = [];
  cases.forEach((c, i) => {
    const run = results[i];
    const problem = judge(c, day, run);
    if (problem) wrong.push(`  ${c.file}: ${problem}`);
    for (const line of run.stdout.split("\n").filter((l) => l.trim() !== "")) {
      try {
        for (const w of JSON.parse(line).warnings) warnings.set(w.code, (warnings.get(w.code) ?? 0) + 1);
      } catch {
        // judged above
      }
    }
  });
  const told = [...warnings].map(([code, n]) => `${code} ×${n}`).join(", ");
  if (wrong.length === 0) console.log(`✔ ${label}: ${cases.length} files as documented (warnings: ${told || "none"})`);
  else console.log(`✖ ${label}: ${wrong.length} of ${cases.length} files differ\n${wrong.join("\n")}`);
  bad += wrong.length;
}
process.exit(bad > 0 ? 1 : 0);
