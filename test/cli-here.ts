/** The CLI in this process (src/cli.ts `run`, what bin/facturar.js runs), with in-memory streams. */
import { PassThrough, Readable } from "node:stream";
import { run } from "../src/cli.js";
import type { Io } from "../src/context.js";

export async function runHere(
  args: string[],
  env: NodeJS.ProcessEnv,
  /** Called with each piece written to stdout, as it comes: a test acts between a run's steps. */
  onStdout?: (text: string) => void,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.setEncoding("utf8");
  stderr.setEncoding("utf8");
  stdout.on("data", (d) => {
    out += d;
    onStdout?.(String(d));
  });
  stderr.on("data", (d) => {
    err += d;
  });
  const io: Io = {
    stdout,
    stderr,
    stdin: Readable.from([]),
    stdoutIsTTY: false,
    stderrIsTTY: false,
    stdinIsTTY: false,
    env,
  };
  const code = await run(["node", "facturar", ...args], io);
  return { code, stdout: out, stderr: err };
}
