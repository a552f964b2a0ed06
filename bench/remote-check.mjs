#!/usr/bin/env node
/**
 * What the service check before each send costs (design.md "Never twice, never lost"): service
 * calls per 1,000 vouchers, counted from `--verbose` request lines, for a first run, a run again
 * with the journal, and a run again with the journal deleted (another machine), one by one and
 * batched, on one day or spread over many. Against one `facturar sandbox` process on loopback.
 * Usage: node bench/remote-check.mjs [vouchers]   (default 1000; `npm run build` first)
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { profileEnv, startSandbox, voucherCsv } from "./sandbox.mjs";

const count = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 1000);
const work = mkdtempSync(join(tmpdir(), "facturar-check-bench-"));
const sandbox = await startSandbox(join(work, "sandbox"));

function run(home, file, extra) {
  const started = performance.now();
  const r = spawnSync(
    process.execPath,
    ["bin/facturar.js", "--verbose", "issue", "-q", "--no-pdf", "--rate", "0", ...extra, file],
    { env: profileEnv(home, sandbox), encoding: "utf8", maxBuffer: 1 << 30 },
  );
  const seconds = (performance.now() - started) / 1000;
  if (r.status !== 0) throw new Error(`facturar exited ${r.status}: ${r.stderr.slice(-2000)}`);
  const calls = {};
  for (const m of r.stderr.matchAll(/POST \S+\/app\/api\/v2\/(\S+)/g)) calls[m[1]] = (calls[m[1]] ?? 0) + 1;
  return { calls, seconds };
}

const per1000 = (n) => ((n ?? 0) * 1000) / count;
const show = (label, { calls, seconds }) => {
  const checks = calls["facturacion/consulta_avanzada"] ?? 0;
  const issuing = (calls["facturacion/nuevo"] ?? 0) + (calls["facturacion/lotes"] ?? 0);
  console.log(
    `| ${label} | ${per1000(checks).toFixed(1)} | ${per1000(issuing).toFixed(1)} | ${seconds.toFixed(2)} s |`,
  );
};

console.log(`${count} vouchers (FACTURA A and B), sandbox on loopback, node ${process.version}`);
console.log("| run | check calls per 1,000 | issuing calls per 1,000 | time |");
console.log("|---|---|---|---|");
// Goods are dated at most 5 days back (the authority's window, tax-rules §4.5), and never before
// the latest voucher of their lane: the set spread over days goes first.
for (const [days, batch] of [
  [5, ["--batch-size", "1"]],
  [1, ["--batch-size", "1"]],
  [1, ["--batch-size", "20"]],
]) {
  const batched = batch[1] !== "1";
  const name = `d${days}${batched ? "b" : ""}`;
  const file = voucherCsv(join(work, `${name}.csv`), {
    prefix: name,
    count,
    puntoVenta: sandbox.pv.punto_venta,
    days,
    cantidad: 1,
  });
  const home = join(work, `home-${name}`);
  mkdirSync(home, { recursive: true });
  const mode = `${days} day${days > 1 ? "s" : ""}${batched ? ", --batch-size 20" : ", one by one"}`;
  show(`first run, ${mode}`, run(home, file, batch));
  show(`again, journal kept, ${mode}`, run(home, file, batch));
  rmSync(join(home, "state"), { recursive: true });
  show(`again, journal deleted, ${mode}`, run(home, file, batch));
}
await sandbox.stop();
rmSync(work, { recursive: true, force: true });
