/**
 * Runs the built CLI in this process with the given arguments, stdout to /dev/null, then prints
 * wall time, CPU time and peak RSS as JSON on stderr. Same code path as bin/facturar.js.
 * FACTURAR_DIST names another build's dist/ folder (a baseline to compare with).
 */
import { createWriteStream } from "node:fs";
import { pathToFileURL } from "node:url";

const dist = process.env.FACTURAR_DIST;
const { run } = await import(dist ? pathToFileURL(`${dist}/cli.js`).href : "../dist/cli.js");

const devNull = createWriteStream("/dev/null");
const started = performance.now();
const cpu = process.cpuUsage();
const code = await run(["node", "facturar", ...process.argv.slice(2)], {
  stdout: devNull,
  stderr: process.stderr,
  stdin: process.stdin,
  stdoutIsTTY: false,
  stderrIsTTY: false,
  stdinIsTTY: false,
  env: process.env,
});
const seconds = (performance.now() - started) / 1000;
const used = process.cpuUsage(cpu);
const cpuSeconds = (used.user + used.system) / 1e6;
process.stderr.write(
  `${JSON.stringify({ code, seconds, cpuSeconds, maxRssMB: process.resourceUsage().maxRSS / 1024 })}\n`,
);
process.exitCode = code;
