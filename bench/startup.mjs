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

/** One fresh process, wall time in ms. */
function once(args) {
  const started = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { env, stdio: "ignore" });
  if (r.status !== 0) throw new Error(`${args.join(" ")} exited ${r.status}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

// Round-robin: each round runs every command once, so a slow spell of the machine (it has
// neighbours) weighs on all of them alike instead of on whichever ran then.
const commands = [
  ["node -e 0", ["-e", "0"]],
  ["facturar --version", ["bin/facturar.js", "--version"]],
  ["facturar --help", ["bin/facturar.js", "--help"]],
  ["facturar --lang es --help", ["bin/facturar.js", "--lang", "es", "--help"]],
  ["facturar validate (one voucher)", ["bin/facturar.js", "validate", "-q", "samples/factura-b-dni.json"]],
];
const samples = commands.map(() => []);
for (let round = 0; round < runs + 2; round++) {
  commands.forEach(([, args], i) => {
    const ms = once(args);
    if (round >= 2) samples[i].push(ms); // the first two rounds warm the disk cache
  });
}
const stats = samples.map((list) => {
  list.sort((a, b) => a - b);
  return { median: list[Math.floor(list.length / 2)], p90: list[Math.floor(list.length * 0.9)] };
});
const floor = stats[0];
console.log(`${runs} rounds, node ${process.version}; median (p90)`);
commands.forEach(([label], i) => {
  const t = stats[i];
  console.log(
    `${label}: ${t.median.toFixed(0)} ms (${t.p90.toFixed(0)})${i === 0 ? "" : `, ${(t.median / floor.median).toFixed(2)}× node -e 0`}`,
  );
});
