#!/usr/bin/env node
/**
 * `facturar validate` on a 1,000,000-row CSV (100,000 vouchers × 10 items): vouchers per second
 * and peak RSS, each mode run in a fresh process. Targets: RSS under 200 MB; 50,000 vouchers/s.
 * Usage: node bench/validate-1m.mjs [runs]   (npm run bench:validate)
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { cpus } from "node:os";

const file = "bench/data/1m.csv";
const vouchers = 100_000;
const runs = Number(process.argv[2] ?? 3);

if (!existsSync(file)) {
  const gen = spawnSync(process.execPath, ["bench/generate-csv.mjs", file, String(vouchers), "10"], {
    stdio: "inherit",
  });
  if (gen.status !== 0) process.exit(1);
}

const modes = [
  ["--quiet (no output for valid vouchers)", ["validate", "--quiet", file]],
  ["--json (one NDJSON object per voucher)", ["--json", "validate", file]],
];
console.log(`node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}`);
for (const [label, args] of modes) {
  const results = [];
  for (let i = 0; i < runs; i++) {
    const child = spawnSync(process.execPath, ["bench/run-cli.mjs", ...args], { encoding: "utf8" });
    const line = child.stderr.trim().split("\n").pop();
    const result = JSON.parse(line);
    if (result.code !== 0) throw new Error(`exit ${result.code}: ${child.stderr}`);
    results.push(result);
  }
  const best = results.reduce((a, b) => (a.seconds < b.seconds ? a : b));
  const rss = Math.max(...results.map((r) => r.maxRssMB));
  console.log(
    `${label}: best of ${runs} ${best.seconds.toFixed(2)} s = ${Math.round(vouchers / best.seconds)} vouchers/s, ` +
      `${Math.round((vouchers * 10) / best.seconds)} rows/s; peak RSS ${rss.toFixed(0)} MB`,
  );
}
