#!/usr/bin/env node
/**
 * `facturar validate` on a 1,000,000-row CSV (100,000 vouchers × 10 items): vouchers per second
 * and peak RSS, each run in a fresh process. Targets: RSS under 200 MB; 50,000 vouchers/s.
 * With `--baseline DIST` (another build's dist/ folder; repeatable) the builds run alternately, so
 * that all see the same load on a shared machine, and the medians are compared.
 * Usage: node bench/validate-1m.mjs [runs] [--baseline DIST]... [--quiet-only]   (npm run bench:validate)
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { cpus } from "node:os";

const file = "bench/data/1m.csv";
const vouchers = 100_000;
const args = process.argv.slice(2);
const baselines = [];
for (let at = args.indexOf("--baseline"); at >= 0; at = args.indexOf("--baseline"))
  baselines.push(args.splice(at, 2)[1]);
const quietOnly = args.includes("--quiet-only");
const runs = Number(args.find((a) => /^\d+$/.test(a)) ?? 3);

if (!existsSync(file)) {
  const gen = spawnSync(process.execPath, ["bench/generate-csv.mjs", file, String(vouchers), "10"], {
    stdio: "inherit",
  });
  if (gen.status !== 0) process.exit(1);
}

const modes = [
  ["--quiet (no output for valid vouchers)", ["validate", "--quiet", file]],
  ["--json (one NDJSON object per voucher)", ["--json", "validate", file]],
].slice(0, quietOnly ? 1 : 2);
const builds = [...baselines.map((dist) => [dist, dist]), ["this build", undefined]];

function once(cliArgs, dist) {
  const env = { ...process.env };
  if (dist) env.FACTURAR_DIST = dist;
  else delete env.FACTURAR_DIST;
  const child = spawnSync(process.execPath, ["bench/run-cli.mjs", ...cliArgs], { encoding: "utf8", env });
  const result = JSON.parse(child.stderr.trim().split("\n").pop());
  if (result.code !== 0) throw new Error(`exit ${result.code}: ${child.stderr}`);
  return result;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

console.log(`node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, ${runs} runs per build`);
for (const [label, cliArgs] of modes) {
  const results = new Map(builds.map(([name]) => [name, []]));
  // Alternating: run i of every build before run i + 1 of any.
  for (let i = 0; i < runs; i++) for (const [name, dist] of builds) results.get(name).push(once(cliArgs, dist));
  const medians = new Map();
  for (const [name] of builds) {
    const rs = results.get(name);
    const wall = median(rs.map((r) => r.seconds));
    const cpu = median(rs.map((r) => r.cpuSeconds ?? Number.NaN));
    medians.set(name, { wall, cpu });
    console.log(
      `${label}, ${name}: median ${wall.toFixed(2)} s wall (runs ${rs.map((r) => r.seconds.toFixed(2)).join(" / ")}), ` +
        `${cpu.toFixed(2)} s CPU = ${Math.round(vouchers / wall)} vouchers/s, ${Math.round((vouchers * 10) / wall)} rows/s; ` +
        `peak RSS ${Math.max(...rs.map((r) => r.maxRssMB)).toFixed(0)} MB`,
    );
  }
  const b = medians.get("this build");
  for (const dist of baselines) {
    const a = medians.get(dist);
    console.log(
      `${label}: this build / ${dist} = ${(b.wall / a.wall).toFixed(2)}× wall, ${(b.cpu / a.cpu).toFixed(2)}× CPU`,
    );
  }
}
