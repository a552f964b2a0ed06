#!/usr/bin/env node
/**
 * Cold start: wall and CPU time of fresh `facturar` processes against `node -e 0` (the floor every
 * Node CLI pays). Targets: `--version` and `--help` ≤ 1.5× node's own start; `issue` of one
 * voucher against a running service ≤ 2× node's start beyond the requests themselves (issue 15).
 * `validate` of one voucher is the first command that needs the schema; `issue` runs against a
 * `facturar sandbox` process on loopback through a profile with no spacing (`rate_ms: 0`), one new
 * voucher a run; and against the embedded sandbox (no profile), which the CLI hosts itself. The same with `--verbose` tells, from its own request lines (`200 in N ms`), how
 * long the requests took; their median is taken off the plain run's ("beyond the requests").
 * `--verbose` is a row of its own as it also turns source maps on (bin/facturar.js).
 * With `--baseline DIR` (another build's root: its bin/facturar.js, dist/ and package.json;
 * repeatable) the builds run in the same rounds, so they are compared on the same machine load.
 * Usage: node bench/startup.mjs [runs] [--baseline DIR]...   (after npm run build)
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { argentinaDay, startSandbox, writeProfileConfig } from "./sandbox.mjs";

const args = process.argv.slice(2);
const runs = Number(args.find((a) => /^\d+$/.test(a)) ?? 30);
const baselines = args.flatMap((a, i) => (args[i - 1] === "--baseline" ? [resolve(a)] : []));
const builds = [...baselines.map((root) => [root, root]), ["this build", resolve(".")]];

const work = mkdtempSync(join(tmpdir(), "facturar-startup-"));
const home = join(work, "home");
const env = {
  ...process.env,
  HOME: home,
  XDG_CONFIG_HOME: join(home, "config"),
  XDG_STATE_HOME: join(home, "state"),
  XDG_DATA_HOME: join(home, "data"),
  LANG: "C.UTF-8",
};
for (const name of Object.keys(env)) if (name.startsWith("FACTURAR_")) delete env[name];

const sandbox = await startSandbox(join(work, "sandbox"));
writeProfileConfig(home, sandbox);
const sample = JSON.parse(readFileSync("samples/factura-b-dni.json", "utf8"));
let issued = 0;
/** A voucher no run has issued yet (the journal skips one it holds), at the running sandbox's point of sale or the sample's. */
function freshVoucher(puntoVenta = sandbox.pv.punto_venta) {
  const v = structuredClone(sample);
  v.comprobante.external_reference = `STARTUP-${issued}`;
  v.comprobante.fecha = argentinaDay(0);
  v.comprobante.vencimiento = argentinaDay(0);
  v.comprobante.punto_venta = puntoVenta;
  const file = join(work, `voucher-${issued++}.json`);
  writeFileSync(file, JSON.stringify(v));
  return file;
}

// Each process reports its own CPU time (user + system, since it started) on fd 3 as it exits:
// the same few lines preloaded into every command, `node -e 0` included.
const REPORT = `data:text/javascript,${encodeURIComponent(
  'import { writeSync } from "node:fs"; process.on("exit", () => { const u = process.cpuUsage(); writeSync(3, String((u.user + u.system) / 1000)); });',
)}`;

/** The same user with no profile: the embedded sandbox, as on a fresh machine. */
const embedded = { ...env, XDG_CONFIG_HOME: join(home, "no-profile") };

/** One fresh process: wall and CPU ms, and the ms its own `--verbose` lines say requests took. */
function once(argv, environment = env) {
  const started = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ["--import", REPORT, ...argv], {
    env: environment,
    stdio: ["ignore", "ignore", "pipe", "pipe"],
    encoding: "utf8",
  });
  const wall = Number(process.hrtime.bigint() - started) / 1e6;
  if (r.status !== 0) throw new Error(`${argv.join(" ")} exited ${r.status}: ${r.stderr}`);
  const requests = [...r.stderr.matchAll(/^ {2}\d{3} in (\d+) ms/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
  return { wall, cpu: Number(r.output[3]), requests };
}

const commands = [["node -e 0", () => ["-e", "0"]]];
for (const [name, root] of builds) {
  const bin = join(root, "bin", "facturar.js");
  const label = (what) => (builds.length > 1 ? `${name}: ${what}` : what);
  commands.push(
    [label("facturar --version"), () => [bin, "--version"]],
    [label("facturar --help"), () => [bin, "--help"]],
    [label("facturar --lang es --help"), () => [bin, "--lang", "es", "--help"]],
    [label("facturar validate (one voucher)"), () => [bin, "validate", "-q", "samples/factura-b-dni.json"]],
    [label("facturar issue (one voucher, no PDF)"), () => [bin, "issue", "--no-pdf", freshVoucher()]],
    [label("facturar --verbose issue (the same)"), () => [bin, "--verbose", "issue", "--no-pdf", freshVoucher()]],
    [
      label("facturar issue (one voucher, no PDF, the embedded sandbox)"),
      () => [bin, "issue", "--no-pdf", freshVoucher(sample.comprobante.punto_venta)],
      embedded,
    ],
  );
}

// Round-robin: each round runs every command once, so a slow spell of the machine (it has
// neighbours) weighs on all of them alike instead of on whichever ran then.
const samples = commands.map(() => []);
try {
  for (let round = 0; round < runs + 2; round++) {
    commands.forEach(([, argv, environment], i) => {
      const s = once(argv(), environment);
      if (round >= 2) samples[i].push(s); // the first two rounds warm the disk cache
    });
  }
} finally {
  await sandbox.stop();
  rmSync(work, { recursive: true, force: true });
}

const median = (list) => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const p90 = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length * 0.9)];
const stats = samples.map((list) => {
  const wall = list.map((s) => s.wall);
  return {
    wall: median(wall),
    p90: p90(wall),
    cpu: median(list.map((s) => s.cpu)),
    requests: median(list.map((s) => s.requests)),
  };
});
// A plain issue row takes its requests' time from the --verbose row after it.
stats.forEach((s, i) => {
  if (commands[i][0].endsWith("issue (one voucher, no PDF)")) s.requests = stats[i + 1].requests;
});
const floor = stats[0];
const times = (ms, base) => `${(ms / base).toFixed(2)}×`;
console.log(
  `${runs} rounds, node ${process.version}, load average ${(await import("node:os")).loadavg()[0].toFixed(1)}`,
);
console.log("median wall (p90), median CPU; × node -e 0");
commands.forEach(([label], i) => {
  const s = stats[i];
  let line = `${label}: ${s.wall.toFixed(0)} ms (${s.p90.toFixed(0)}), CPU ${s.cpu.toFixed(0)} ms`;
  if (i > 0) line += `; ${times(s.wall, floor.wall)} wall, ${times(s.cpu, floor.cpu)} CPU`;
  if (s.requests > 0) {
    const beyond = s.wall - s.requests;
    line += `; requests ${s.requests.toFixed(0)} ms, beyond them ${beyond.toFixed(0)} ms = ${times(beyond, floor.wall)}`;
  }
  console.log(line);
});
