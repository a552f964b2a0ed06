#!/usr/bin/env node
// Coverage of src/ across every process the suite runs (not in CI: slower than the suite).
//   node scripts/coverage.mjs [vitest args, e.g. test files]
// 1. vitest with its V8 provider: the in-process tests (coverage/in-process/coverage-final.json);
//    the CLIs and sandboxes they spawn write raw V8 coverage (test/child-coverage.ts).
// 2. The children's raw coverage of the bundle is taken back to src/ lines through its source map.
// 3. The two are joined by line (vitest's converter cuts statements and branches by the
//    TypeScript's syntax, the bundle's ranges are V8's and minified: only lines compare). A line
//    counts when any process ran it. Writes coverage/summary.md and coverage/never-run.txt (the
//    lines no process ran, by file) and prints the summary.
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { eachMapping, TraceMap } from "@jridgewell/trace-mapping";
import libCoverage from "istanbul-lib-coverage";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const OUT = join(ROOT, "coverage");
const RAW = join(OUT, "children-raw");
// The children's data holds positions in the bundle as built when they ran: read against another
// build it would credit the wrong lines, so the run records which bundle it measured.
const BUILT = join(ROOT, "dist", "cli.cjs");
const builtId = () => {
  try {
    return readFileSync(BUILT, "utf8").split("\n", 1)[0];
  } catch {
    console.error("coverage: no dist/cli.cjs: run `npm run build` first");
    process.exit(2);
  }
};
builtId();
const { WRAPPER } = await import("../dist/launch.js");
// --report: the report again from the last run's data, without running the tests.
const reportOnly = process.argv[2] === "--report";
let testStatus = 0;
if (!reportOnly) {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(RAW, { recursive: true });
  writeFileSync(join(OUT, "bundle.txt"), `${builtId()}\n`);
  const started = Date.now();
  const vitest = join(ROOT, "node_modules", ".bin", "vitest");
  const args = ["run", "--config", "vitest.coverage.config.ts", "--coverage.enabled", ...process.argv.slice(2)];
  const r = spawnSync(vitest, args, {
    cwd: ROOT,
    stdio: "inherit",
    env: { ...process.env, FACTURAR_CHILD_COVERAGE: RAW },
  });
  testStatus = r.status ?? 1;
  console.error(`vitest: exit ${testStatus}, ${((Date.now() - started) / 1000).toFixed(0)} s`);
}
if (reportOnly) {
  let measured = "";
  try {
    measured = readFileSync(join(OUT, "bundle.txt"), "utf8").trim();
  } catch {}
  if (measured !== builtId()) {
    console.error("coverage: dist/ was built again since the last run (or there was none): run it again");
    process.exit(2);
  }
}
const children = childLines(RAW);
const read = (file) => {
  try {
    return libCoverage.createCoverageMap(JSON.parse(readFileSync(file, "utf8")));
  } catch {
    return libCoverage.createCoverageMap({});
  }
};
const inProcess = read(join(OUT, "in-process", "coverage-final.json"));

const covered = (map, file) => {
  if (!map.files().includes(file)) return new Set();
  const lines = map.fileCoverageFor(file).getLineCoverage();
  return new Set(
    Object.keys(lines)
      .filter((l) => lines[l] > 0)
      .map(Number),
  );
};

/**
 * The src/ lines the spawned processes ran: for each of our built scripts (the bundle, the
 * launcher), which characters ever ran in any process (V8's block ranges are nested, so applied
 * outermost first), then each source-map segment whose generated character ran marks its
 * original line.
 */
function childLines(dir) {
  const BUNDLE = join(ROOT, "dist", "cli.cjs");
  const bundleLength = readFileSync(BUNDLE, "utf8").length;
  const orInto = (into, from) => {
    for (let i = 0; i < from.length; i++) into[i] |= from[i];
    return into;
  };
  const ran = new Map(); // script path -> Uint8Array, 1 where some process ran that character
  for (const name of readdirSync(dir)) {
    let data;
    try {
      data = JSON.parse(readFileSync(join(dir, name), "utf8"));
    } catch {
      continue; // a process killed while writing it
    }
    for (const script of data.result) {
      if (!script.url.startsWith(`file://${join(ROOT, "dist")}/`)) continue;
      const path = fileURLToPath(script.url);
      // The launcher compiles the bundle inside a function's text (src/launch.ts WRAPPER);
      // loaded by Node's own loader (--verbose) it is not.
      const shift = path === BUNDLE && script.functions[0]?.ranges[0]?.endOffset > bundleLength ? WRAPPER.length : 0;
      const ranges = script.functions.flatMap((f) => f.ranges);
      ranges.sort((a, b) => a.startOffset - b.startOffset || b.endOffset - a.endOffset);
      const here = new Uint8Array(Math.max(0, (ranges[0]?.endOffset ?? 0) - shift));
      for (const r of ranges) here.fill(r.count > 0 ? 1 : 0, r.startOffset - shift, r.endOffset - shift);
      const all = ran.get(path);
      if (!all) ran.set(path, here);
      else if (all.length < here.length) ran.set(path, orInto(here, all));
      else orInto(all, here);
    }
  }
  const lines = new Map(); // src file -> Set of line numbers run
  for (const [path, bits] of ran) {
    const code = readFileSync(path, "utf8");
    const lineStart = [0];
    for (let i = 0; i < code.length; i++) if (code.charCodeAt(i) === 10) lineStart.push(i + 1);
    const map = new TraceMap(readFileSync(`${path}.map`, "utf8"), pathToFileURL(path).href);
    eachMapping(map, (m) => {
      if (!m.source || !bits[lineStart[m.generatedLine - 1] + m.generatedColumn]) return;
      const file = fileURLToPath(m.source);
      if (!lines.has(file)) lines.set(file, new Set());
      lines.get(file).add(m.originalLine);
    });
  }
  return lines;
}
const ranges = (lines) => {
  const out = [];
  for (const l of lines) {
    const last = out.at(-1);
    if (last && last[1] === l - 1) last[1] = l;
    else out.push([l, l]);
  }
  return out.map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`)).join(", ");
};

const rows = [];
const neverRun = [];
const totals = { lines: 0, inProcess: 0, children: 0, either: 0 };
for (const file of inProcess.files().sort()) {
  // The lines that hold a statement, as the in-process converter (the TypeScript's syntax) sees them.
  const lines = Object.keys(inProcess.fileCoverageFor(file).getLineCoverage())
    .map(Number)
    .sort((a, b) => a - b);
  const mine = covered(inProcess, file);
  const theirs = children.get(file) ?? new Set();
  const either = lines.filter((l) => mine.has(l) || theirs.has(l));
  const row = {
    file: relative(ROOT, file),
    lines: lines.length,
    inProcess: lines.filter((l) => mine.has(l)).length,
    children: lines.filter((l) => theirs.has(l)).length,
    either: either.length,
  };
  rows.push(row);
  for (const k of Object.keys(totals)) totals[k] += row[k];
  const missed = lines.filter((l) => !mine.has(l) && !theirs.has(l));
  if (missed.length) neverRun.push(`${row.file}: ${ranges(missed)}`);
}
const pct = (n, d) => (d ? `${((100 * n) / d).toFixed(1)} %` : "-");
const table = [
  "| file | lines | in-process | spawned CLIs | either |",
  "| --- | ---: | ---: | ---: | ---: |",
  ...rows.map(
    (r) =>
      `| ${r.file} | ${r.lines} | ${pct(r.inProcess, r.lines)} | ${pct(r.children, r.lines)} | ${pct(r.either, r.lines)} |`,
  ),
  `| **all of src/** | ${totals.lines} | ${pct(totals.inProcess, totals.lines)} | ${pct(totals.children, totals.lines)} | **${pct(totals.either, totals.lines)}** |`,
].join("\n");
writeFileSync(join(OUT, "summary.md"), `${table}\n`);
writeFileSync(join(OUT, "never-run.txt"), `${neverRun.join("\n")}\n`);
console.log(table);
console.log(`\nLines no process ran: coverage/never-run.txt. Tests: exit ${testStatus}.`);
process.exitCode = testStatus;
