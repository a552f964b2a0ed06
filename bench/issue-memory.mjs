#!/usr/bin/env node
/**
 * Memory of `facturar issue` on a big CSV: N vouchers (FACTURA A and B, one item) issued against a
 * `facturar sandbox` process on loopback, no PDFs, results as NDJSON to /dev/null. Prints the
 * CLI's wall time and peak RSS (the sandbox's own memory is not counted: it is another process).
 * Target: under 300 MB at 200,000 vouchers. A second run over the same file (everything held by
 * the journal) is measured too: that is what a re-run of a nightly batch costs.
 * Usage: node bench/issue-memory.mjs [vouchers] [--batch-size N] [--stdin]
 *   --stdin: the CSV is piped to `issue -` rather than named (standard input is spooled to a file).
 *   FACTURAR_DIST=/path/to/dist measures another build (see run-cli.mjs).
 *   NODE_FLAGS="--cpu-prof --cpu-prof-dir=/tmp/prof" (or a V8 flag to compare) runs the CLI with them.
 */
import { spawn } from "node:child_process";
import { createReadStream, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { profileEnv, startSandbox, voucherCsv, writeProfileConfig } from "./sandbox.mjs";

const count = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 200_000);
const batchAt = process.argv.indexOf("--batch-size");
const batchSize = batchAt > 0 ? process.argv[batchAt + 1] : "20";
const viaStdin = process.argv.includes("--stdin");
const work = mkdtempSync(join(tmpdir(), "facturar-memory-bench-"));
const sandbox = await startSandbox(join(work, "sandbox"));
const home = join(work, "home");
// A profile at the sandbox process with no spacing between requests: this measures memory, and
// 200,000 vouchers at the real service's 100 ms a call would take a quarter of an hour.
writeProfileConfig(home, sandbox);
const { FACTURAR_BASE_URL, FACTURAR_USERTOKEN, FACTURAR_APIKEY, FACTURAR_APITOKEN, ...env } = profileEnv(home, sandbox);
const csv = voucherCsv(join(work, "big.csv"), { prefix: "MEM", count, puntoVenta: sandbox.pv.punto_venta });

function issue() {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        ...(process.env.NODE_FLAGS ? process.env.NODE_FLAGS.split(" ") : []),
        "bench/run-cli.mjs",
        "--json",
        "issue",
        "--no-pdf",
        "--batch-size",
        batchSize,
        viaStdin ? "-" : csv,
      ],
      { env, stdio: [viaStdin ? "pipe" : "ignore", "ignore", "pipe"] },
    );
    if (viaStdin) createReadStream(csv).pipe(child.stdin);
    let err = "";
    child.stderr.on("data", (d) => {
      err += d;
    });
    child.on("exit", () => {
      const last = err.trim().split("\n").pop();
      try {
        resolve(JSON.parse(last));
      } catch {
        resolve({ error: err.slice(-2000) });
      }
    });
  });
}

try {
  const first = await issue();
  console.log(
    `issue ${count} vouchers${viaStdin ? " from standard input" : ""} (batch size ${batchSize}): exit ${first.code}, ${first.seconds?.toFixed(1)} s, peak RSS ${first.maxRssMB?.toFixed(0)} MB`,
  );
  if (first.error) console.log(first.error);
  const again = await issue();
  console.log(
    `the same file again (all in the journal): exit ${again.code}, ${again.seconds?.toFixed(1)} s, peak RSS ${again.maxRssMB?.toFixed(0)} MB`,
  );
} finally {
  await sandbox.stop();
  rmSync(work, { recursive: true, force: true });
}
