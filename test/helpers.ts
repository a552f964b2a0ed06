/** Shared test helpers: a valid base voucher to mutate, and a runner for the built CLI. */

import { spawn } from "node:child_process";
import {
  appendFileSync,
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { say } from "../src/i18n/index.js";
import { sayingAll } from "../src/i18n/message.js";
import { dayNumber } from "../src/voucher/dates.js";
import { Dec } from "../src/voucher/decimal.js";
import type { Finding } from "../src/voucher/rules.js";
import { type ValidationResult, validateEnvelope } from "../src/voucher/validate.js";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const BIN = fileURLToPath(new URL("../bin/facturar.js", import.meta.url));
export const TODAY = "20/11/2026";

/** Raw envelopes, mutated freely by the tests. */
export type Raw = any;

export function item(
  descripcion = "Producto de prueba",
  cantidad: number | string = 1,
  precio: number | string = 100,
  alicuota: number | string = 21,
): Raw {
  return { cantidad, producto: { descripcion, precio_unitario_sin_iva: precio, alicuota } };
}

/** A valid FACTURA B to a consumer with DNI, total 121.00, dated TODAY. */
export function baseVoucher(): Raw {
  return {
    cliente: {
      documento_tipo: "DNI",
      documento_nro: "30123456",
      razon_social: "Juana Pérez",
      condicion_iva: "CF",
      provincia: 2,
    },
    comprobante: {
      tipo: "FACTURA B",
      fecha: TODAY,
      vencimiento: "20/12/2026",
      rubro: "Ventas",
      rubro_grupo_contable: "Ventas",
      external_reference: "TEST-0001",
      detalle: [item()],
      total: 121,
    },
  };
}

export function check(raw: Raw, opts: { today?: string; ceiling?: string } = {}): ValidationResult {
  return asRead(
    validateEnvelope(raw, {
      today: dayNumber(opts.today ?? TODAY),
      ceiling: Dec.parse(opts.ceiling ?? "10000000"),
    }),
  );
}

/**
 * `value` (a result, findings, an error's text) with its messages said in the current language,
 * as a reader gets them: what a test compares with the words it expects.
 */
export function asRead<T>(value: T): T {
  return sayingAll(value, say);
}

export function codes(result: ValidationResult, severity: Finding["severity"] = "error"): string[] {
  return result.findings.filter((f) => f.severity === severity).map((f) => f.code);
}

export function finding(result: ValidationResult, code: string): Finding | undefined {
  return result.findings.find((f) => f.code === code);
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Tests read English messages whatever the machine's locale; Spanish ones ask for it. */
export const ENGLISH = { LANG: "C.UTF-8", LC_ALL: "", LC_MESSAGES: "" };
export const SPANISH = { LANG: "es_AR.UTF-8", LC_ALL: "", LC_MESSAGES: "" };

/** A fresh user whose sandbox journal exists (one voucher issued), and a way to add lines to it. */
export async function userWithJournal(prefix: string) {
  const u = freshUser(prefix);
  const run = (args: string[], env: Record<string, string> = {}) =>
    runCli(args, { cwd: u.cwd, env: { ...u.env, ...env } });
  const first = await run(["--json", "issue", "--no-pdf", join(ROOT, "samples", "factura-b-dni.json")]);
  if (first.code !== 0) throw new Error(`the first voucher was not issued (exit ${first.code}): ${first.stderr}`);
  const [journal] = journalFiles(u.env.XDG_STATE_HOME);
  /** Lines as the file holds them: a hand-edited one as typed, an entry as JSON.stringify writes it. */
  const append = (...lines: string[]) => appendFileSync(journal as string, lines.map((l) => `${l}\n`).join(""));
  return { ...u, run, append };
}

/** Spawns the built CLI the way a user's shell would; `child` is there to signal or kill it. */
export function startCli(
  args: string[],
  opts: { input?: string | Buffer; env?: Record<string, string>; cwd?: string } = {},
) {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: opts.cwd ?? ROOT,
    env: { ...process.env, ...ENGLISH, NO_COLOR: "", FORCE_COLOR: "", ...opts.env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => {
    stdout += d;
  });
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  const done = new Promise<RunResult & { signal: NodeJS.Signals | null }>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  child.stdin.end(opts.input ?? "");
  return { child, done };
}

/** Runs the built CLI to its end. */
export function runCli(
  args: string[],
  opts: { input?: string | Buffer; env?: Record<string, string>; cwd?: string } = {},
): Promise<RunResult> {
  return startCli(args, opts).done;
}

/** Parses NDJSON output: one JSON value per non-empty line. */
export function ndjson(text: string): any[] {
  return text
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

export function tempDir(prefix = "facturar-test-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/**
 * A fresh user: an own home with its XDG folders, a working directory, no configuration, no
 * sandbox faults, and none of the caller's FACTURAR_* settings.
 */
export function freshUser(prefix = "facturar-user-", home = tempDir(prefix)) {
  const cwd = join(home, "work");
  mkdirSync(cwd, { recursive: true });
  const env = {
    HOME: home,
    XDG_CONFIG_HOME: join(home, "config"),
    XDG_DATA_HOME: join(home, "data"),
    XDG_STATE_HOME: join(home, "state"),
    FACTURAR_PROFILE: "",
    FACTURAR_BASE_URL: "",
    FACTURAR_SANDBOX_FAULTS: "",
    // The tests' day, also for an environment built from this one rather than from process.env.
    FACTURAR_TODAY: TODAY,
    NO_COLOR: "1",
    ...ENGLISH,
  };
  return { home, cwd, env };
}

/**
 * The user's own configuration file, where `facturar init` writes it: credentials, base_url and
 * code are read only from there (or --config). Mode 0600 unless told.
 */
export function userConfig(env: { XDG_CONFIG_HOME: string }, config: unknown, mode = 0o600): string {
  const dir = join(env.XDG_CONFIG_HOME, "facturar");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "config.json");
  writeFileSync(path, JSON.stringify(config));
  chmodSync(path, mode);
  return path;
}

/**
 * Runs the CLI in a pseudo-terminal (util-linux `script`), as a person at a terminal would:
 * each step waits for its pattern on the screen, then types its keys. Resolves with everything
 * the terminal showed, ending with `EXIT=<code>`.
 */
export function inTerminal(
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv },
  steps: [RegExp, string][],
): Promise<string> {
  return new Promise((resolve, reject) => {
    const command = [process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
    const child = spawn("script", ["-qfec", `${command}; echo EXIT=$?`, "/dev/null"], {
      cwd: opts.cwd,
      env: opts.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let screen = "";
    let next = 0;
    let seenUpTo = 0;
    let typing = Promise.resolve();
    child.stdout.on("data", (d) => {
      screen += d;
      while (next < steps.length) {
        const [pattern, keys] = steps[next] as [RegExp, string];
        const rest = screen.slice(seenUpTo);
        const match = pattern.exec(rest);
        if (!match) break;
        seenUpTo += match.index + match[0].length;
        next++;
        // The prompt is drawn once it listens: its keys go as soon as its text is on the screen.
        typing = typing.then(() => {
          if (!child.stdin.writableEnded) child.stdin.write(keys);
        });
      }
      if (next === steps.length) void typing.then(() => child.stdin.writableEnded || child.stdin.end());
    });
    // A prompt that never comes fails the test with what the screen showed, instead of hanging it.
    const stuck = setTimeout(() => {
      child.kill();
      reject(new Error(`waited 30 s for ${String(steps[next]?.[0])}; the screen showed:\n${screen.slice(-1500)}`));
    }, 30_000);
    child.on("error", reject);
    child.on("close", () => {
      clearTimeout(stuck);
      resolve(screen);
    });
  });
}

/** The user's journals (one per account) under an XDG state home: file paths. */
export function journalFiles(stateHome: string): string[] {
  const dir = join(stateHome, "facturar");
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => /^journal-.*\.jsonl$/.test(f))
    .sort()
    .map((f) => join(dir, f));
}

/** Everything the user's journals say, as text (empty when none was ever written). */
export function journalText(stateHome: string): string {
  return journalFiles(stateHome)
    .map((f) => readFileSync(f, "utf8"))
    .join("");
}

/** Reference → the last state the user's journals give it. */
export function journalStates(stateHome: string): Map<string, string> {
  const states = new Map<string, string>();
  for (const line of journalText(stateHome).split("\n")) {
    if (line.trim() === "") continue;
    const entry = JSON.parse(line);
    if (entry.ref) states.set(entry.ref, entry.state);
  }
  return states;
}

/** What a promise rejects with (fails the test if it resolves). */
export async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a rejection");
}

/** `target` whose methods give back what they return (or resolve to) as read: see asRead. */
export function reading<T extends object>(target: T): T {
  return new Proxy(target, {
    get(object, key, receiver) {
      const value = Reflect.get(object, key, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        const out = value.apply(object, args);
        return out instanceof Promise ? out.then(asRead) : asRead(out);
      };
    },
  });
}
