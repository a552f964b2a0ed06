/**
 * Runs the built CLI in this process with the given arguments, stdout to /dev/null, then prints
 * wall time and peak RSS as JSON on stderr. Same code path as bin/facturar.js.
 */
import { createWriteStream } from "node:fs";
import { run } from "../dist/cli.js";

const devNull = createWriteStream("/dev/null");
const started = performance.now();
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
process.stderr.write(`${JSON.stringify({ code, seconds, maxRssMB: process.resourceUsage().maxRSS / 1024 })}\n`);
process.exitCode = code;
