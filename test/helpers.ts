/** Shared test helpers: a valid base voucher to mutate, and a runner for the built CLI. */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
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
  return validateEnvelope(raw, {
    today: dayNumber(opts.today ?? TODAY),
    ceiling: Dec.parse(opts.ceiling ?? "10000000"),
  });
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

/** Spawns the built CLI the way a user's shell would. */
export function runCli(
  args: string[],
  opts: { input?: string | Buffer; env?: Record<string, string>; cwd?: string } = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: opts.cwd ?? ROOT,
      env: { ...process.env, NO_COLOR: "", FORCE_COLOR: "", ...opts.env },
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
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(opts.input ?? "");
  });
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
    NO_COLOR: "1",
  };
  return { home, cwd, env };
}
