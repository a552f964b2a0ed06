#!/usr/bin/env node
/**
 * Cold start: wall time of `facturar --version` and `--help` in fresh processes, against
 * `node -e 0` (the floor every Node CLI pays). Target: ≤ 1.5× node's own start. Commands load
 * their modules only when run, so neither flag should pull in zod, pdfkit or the prompts.
 * Also shown, for scale: `validate` of one voucher (the first command that needs the schema).
 * Usage: node bench/startup.mjs [runs]   (after npm run build)
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const runs = Number(process.argv[2] ?? 30);
const home = mkdtempSync(join(tmpdir(), "facturar-startup-"));
const env = {
  ...process.env,
  HOME: home,
  XDG_CONFIG_HOME: join(home, "config"),
  XDG_STATE_HOME: join(home, "state"),
  XDG_DATA_HOME: join(home, "data"),
  LANG: "C.UTF-8",
};

function time(args) {
  const samples = [];
  for (let i = 0; i < runs + 2; i++) {
    const started = process.hrtime.bigint();
    const r = spawnSync(process.execPath, args, { env, stdio: "ignore" });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (r.status !== 0) throw new Error(`${args.join(" ")} exited ${r.status}`);
    if (i >= 2) samples.push(ms); // the first two warm the disk cache
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(runs / 2)], p90: samples[Math.floor(runs * 0.9)] };
}

const floor = time(["-e", "0"]);
console.log(`${runs} runs each, node ${process.version}; median (p90)`);
console.log(`node -e 0: ${floor.median.toFixed(0)} ms (${floor.p90.toFixed(0)})`);
for (const [label, args] of [
  ["facturar --version", ["bin/facturar.js", "--version"]],
  ["facturar --help", ["bin/facturar.js", "--help"]],
  ["facturar --lang es --help", ["bin/facturar.js", "--lang", "es", "--help"]],
  ["facturar validate (one voucher)", ["bin/facturar.js", "validate", "-q", "samples/factura-b-dni.json"]],
]) {
  const t = time(args);
  console.log(
    `${label}: ${t.median.toFixed(0)} ms (${t.p90.toFixed(0)}), ${(t.median / floor.median).toFixed(2)}× node -e 0`,
  );
}
