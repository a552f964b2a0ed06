/**
 * The one door to the terminal: streams, whether each is a terminal, colour, and the global
 * flags. Commands print through it, so tests can drive them with plain in-memory streams.
 */

import type { ChalkInstance } from "chalk";
import { FacturarError } from "./errors.js";
import { say, t } from "./i18n/index.js";
import type { Text } from "./i18n/message.js";

export interface Io {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  stdinIsTTY: boolean;
  env: NodeJS.ProcessEnv;
}

export interface GlobalOptions {
  profile?: string;
  config?: string;
  json?: boolean;
  quiet?: boolean;
  verbose?: boolean;
  /** commander's negated `--no-color`: false when the flag was given. */
  color?: boolean;
  /** commander's negated `--no-input`. */
  input?: boolean;
  yes?: boolean;
}

export interface Context {
  readonly io: Io;
  readonly json: boolean;
  readonly quiet: boolean;
  readonly verbose: boolean;
  /** Prompts are allowed: a terminal on stdin, no `--no-input`, not under CI. */
  readonly interactive: boolean;
  readonly yes: boolean;
  readonly profile: string | undefined;
  readonly configPath: string | undefined;
  /** Colours for stdout and for stderr; level 0 (plain) off a terminal or under NO_COLOR. */
  readonly color: ChalkInstance;
  readonly errColor: ChalkInstance;
  /** Set by the first SIGINT/SIGTERM: long commands finish what is in flight and stop. */
  readonly stop: StopToken;
  /**
   * Writes a line of the result to stdout; resolves once the stream can take more. When stdout
   * cannot be written (a full disk, a device error): a command that stops cleanly is asked to
   * stop, others fail with a clear error (exit 6); see `outputFailure`.
   */
  out(line: Text): Promise<void>;
  /** Why stdout could not be written, once it could not. */
  readonly outputFailure: NodeJS.ErrnoException | undefined;
  /** Writes a line of progress, warning or diagnosis to stderr. */
  err(line: Text): void;
}

export interface StopToken {
  requested: boolean;
  /** Why stdout or stderr could not be written (not a closed pipe), when that is what asked the stop. */
  outputFailure?: NodeJS.ErrnoException;
  /** Which of the two it was: results still go to stdout when only stderr failed. */
  failedOutput?: "stdout" | "stderr";
  /** Set by commands that stop cleanly; others end at the first signal. */
  graceful: boolean;
  /** Resolves when a stop is requested. */
  readonly requestedPromise: Promise<void>;
  request(): void;
}

export function stopToken(): StopToken {
  let resolve: () => void = () => {};
  const requestedPromise = new Promise<void>((r) => {
    resolve = r;
  });
  const token: StopToken = {
    requested: false,
    graceful: false,
    requestedPromise,
    request() {
      token.requested = true;
      resolve();
    },
  };
  return token;
}

export function processIo(): Io {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    stdoutIsTTY: Boolean(process.stdout.isTTY),
    stderrIsTTY: Boolean(process.stderr.isTTY),
    stdinIsTTY: Boolean(process.stdin.isTTY),
    env: process.env,
  };
}

function colorLevel(
  isTTY: boolean,
  opts: GlobalOptions,
  env: NodeJS.ProcessEnv,
  supportsColor: { level: 0 | 1 | 2 | 3 } | false,
): 0 | 1 | 2 | 3 {
  // chalk does not read NO_COLOR itself; https://no-color.org says any non-empty value.
  if (opts.color === false || (env.NO_COLOR ?? "") !== "") return 0;
  if (!isTTY && (env.FORCE_COLOR ?? "") === "") return 0;
  return supportsColor ? supportsColor.level : isTTY ? 1 : 0;
}

/** Async only to load chalk here, when a command runs: `--version` and `--help` never need it. */
export async function createContext(io: Io, opts: GlobalOptions, stop: StopToken = stopToken()): Promise<Context> {
  const { Chalk, supportsColor } = await import("chalk");
  const ci = (io.env.CI ?? "") !== "" && io.env.CI !== "false";
  const failed = (error: NodeJS.ErrnoException): void => {
    if (stop.outputFailure) return;
    stop.outputFailure = error;
    stop.failedOutput = "stdout";
    const message = t("standard output cannot be written ({code})", { code: error.code ?? error.message });
    if (!stop.graceful) throw new FacturarError(message, "unavailable", "output.unwritable");
    if (io.stderr.writable)
      io.stderr.write(`${message}: ${t("stopping; the vouchers in flight settle, nothing new is sent")}\n`);
    stop.request();
  };
  // A closed stream (the reader went away) takes nothing more, and is never waited for.
  const write = (stream: NodeJS.WritableStream, text: string): Promise<void> => {
    if (!stream.writable || (stream === io.stdout && stop.failedOutput === "stdout")) return Promise.resolve();
    let accepted: boolean;
    try {
      accepted = stream.write(text);
    } catch (error) {
      // A file or device that refuses the write (ENOSPC on a full disk, EIO) throws at once.
      if (stream !== io.stdout) throw error;
      failed(error as NodeJS.ErrnoException);
      return Promise.resolve();
    }
    if (accepted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        stream.off("drain", done);
        stream.off("close", done);
        stream.off("error", done);
        resolve();
      };
      stream.once("drain", done);
      stream.once("close", done);
      stream.once("error", done);
    });
  };
  return {
    io,
    json: opts.json ?? false,
    quiet: opts.quiet ?? false,
    verbose: opts.verbose ?? false,
    interactive: io.stdinIsTTY && opts.input !== false && !ci,
    yes: opts.yes ?? false,
    stop,
    profile: opts.profile ?? (io.env.FACTURAR_PROFILE?.trim() || undefined),
    configPath: opts.config,
    color: new Chalk({ level: colorLevel(io.stdoutIsTTY, opts, io.env, supportsColor) }),
    errColor: new Chalk({ level: colorLevel(io.stderrIsTTY, opts, io.env, supportsColor) }),
    out: (line) => write(io.stdout, `${say(line)}\n`),
    get outputFailure() {
      return stop.outputFailure;
    },
    err: (line) => {
      if (io.stderr.writable) io.stderr.write(`${say(line)}\n`);
    },
  };
}
