/**
 * `--report results.csv`: one row per voucher, appended as each settles, so a run that dies still
 * leaves the truth up to its last voucher. It follows the input: `;` and a decimal comma for a `;`
 * CSV (a spreadsheet in es-AR opens it as it opened the input), `,` otherwise.
 */
import { appendFileSync, closeSync, fsyncSync, openSync, writeFileSync } from "node:fs";
import { errorObjects, problemText, type VoucherResult, warningTexts } from "../batch/result.js";
import { UsageError } from "../errors.js";
import { say, t } from "../i18n/index.js";
import { Dec } from "../voucher/decimal.js";
import { csvRow } from "./csv.js";

/** New columns go at the end: scripts read the older ones by position. */
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
  "total",
  "warnings",
  "observations",
] as const;

type Column = (typeof COLUMNS)[number];

export interface ReportFormat {
  delimiter: "," | ";";
  /** The total with a decimal comma (`133463,00`), as the input wrote its numbers. */
  decimalComma: boolean;
  /** A UTF-8 byte order mark first, for a spreadsheet in Spanish (see sheetFormat). */
  bom?: boolean;
}

/** Several messages in one cell, one line each joined by ` | `: a row stays one line. */
function joined(lines: string[]): string {
  return lines.map((line) => line.replace(/\s*[\r\n]+\s*/g, " ")).join(" | ");
}

function value(result: VoucherResult, column: Column, format: ReportFormat): string | null {
  if (column === "errors") return joined(errorObjects(result).map((p) => say(problemText(p))));
  if (column === "warnings") return joined(warningTexts(result).map(say));
  if (column === "observations") return joined(result.observations ?? []);
  if (column === "total") {
    const total = result.total === null ? undefined : Dec.tryParse(result.total);
    if (!total) return result.total;
    return format.decimalComma ? total.toFixed(2).replace(".", ",") : total.toFixed(2);
  }
  const v = result[column];
  return v === null || v === undefined ? null : String(v);
}

export class Report {
  /** Why the report stopped taking rows (a full disk, `ulimit -f`): the run goes on, and says so. */
  failure: Error | undefined;

  private constructor(
    readonly path: string,
    private readonly format: ReportFormat,
  ) {}

  /** Created before anything is sent: a report that cannot be written is a usage error, not a lost run. */
  static create(path: string, format: ReportFormat = { delimiter: ",", decimalComma: false }): Report {
    try {
      writeFileSync(path, `${format.bom ? "\uFEFF" : ""}${COLUMNS.join(format.delimiter)}\n`);
    } catch (error) {
      throw new UsageError(
        t("cannot write the report {path}: {message}", { path, message: (error as Error).message }),
        t("give --report a file in a folder that exists and that you can write"),
      );
    }
    return new Report(path, format);
  }

  /** Appends a row; false once the file cannot take more (see `failure`). */
  write(result: VoucherResult): boolean {
    if (this.failure) return false;
    try {
      const { delimiter } = this.format;
      appendFileSync(
        this.path,
        `${csvRow(
          COLUMNS.map((c) => value(result, c, this.format)),
          delimiter,
        )}\n`,
      );
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
