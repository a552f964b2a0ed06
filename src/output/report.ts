/**
 * `--report results.csv`: one row per voucher, appended as each settles, so a run that dies still
 * leaves the truth up to its last voucher.
 */
import { appendFileSync, closeSync, fsyncSync, openSync, writeFileSync } from "node:fs";
import type { VoucherResult } from "../batch/result.js";
import { UsageError } from "../errors.js";
import { t } from "../i18n/index.js";

const COLUMNS = [
  "source",
  "external_reference",
  "status",
  "comprobante_tipo",
  "comprobante_nro",
  "cae",
  "pdf",
  "ticket",
  "errors",
] as const;

function cell(value: unknown): string {
  const text = value === null || value === undefined ? "" : Array.isArray(value) ? value.join(" | ") : String(value);
  // Quote what needs it; a leading = + - @ would run as a formula in a spreadsheet.
  const safe = /^[=+\-@]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export class Report {
  /** Why the report stopped taking rows (a full disk, `ulimit -f`): the run goes on, and says so. */
  failure: Error | undefined;

  private constructor(readonly path: string) {}

  /** Created before anything is sent: a report that cannot be written is a usage error, not a lost run. */
  static create(path: string): Report {
    try {
      writeFileSync(path, `${COLUMNS.join(",")}\n`);
    } catch (error) {
      throw new UsageError(
        t("cannot write the report {path}: {message}", { path, message: (error as Error).message }),
        t("give --report a file in a folder that exists and that you can write"),
      );
    }
    return new Report(path);
  }

  /** Appends a row; false once the file cannot take more (see `failure`). */
  write(result: VoucherResult): boolean {
    if (this.failure) return false;
    try {
      appendFileSync(this.path, `${COLUMNS.map((c) => cell(result[c])).join(",")}\n`);
      return true;
    } catch (error) {
      this.failure = error as Error;
      return false;
    }
  }

  /** Makes what was written durable (end of the run, or a stop). */
  sync(): void {
    try {
      const fd = openSync(this.path, "r+");
      try {
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    } catch (error) {
      this.failure ??= error as Error;
    }
  }
}
