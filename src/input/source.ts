/** What every input reader yields: a raw voucher and a way to name any place in it. */
import { t } from "../i18n/index.js";
import type { Finding, Path } from "../voucher/rules.js";

export interface SourceVoucher {
  file: string;
  /** Ordinal of the voucher within its file, from 0. */
  index: number;
  /** The envelope as read, before validation. */
  raw: unknown;
  /** Problems the reader itself found (conflicting CSV cells), as findings. */
  readerFindings: Finding[];
  /** Short label for people: `a.json`, `a.json[2]`, `a.csv:rows 2-5`. */
  label: string;
  /** True when the reader never yields "" values (CSV leaves empty cells out). */
  hasNoEmptyStrings?: boolean;
  /**
   * Dated today by the command that made it (a credit or debit note), not by a file: its dates
   * are left to be filled in, so that asked again another day it is the same voucher, and that
   * filling is not worth a warning.
   */
  datedByCommand?: boolean;
  /** Input rows for CSV vouchers (reports quote them). */
  rows?: number[];
  /** Names a field's place in the input: `a.csv:row 12, column comprobante.total`. */
  place(path: Path): string;
}

export interface ReadOptions {
  /** `utf8` (default, BOM allowed) or `latin1`. */
  encoding?: "utf8" | "latin1";
  /** CSV delimiter; detected from the header when absent. */
  delimiter?: "," | ";";
  /** CSV numbers with a decimal comma (`7.000,50`); when absent, so with `;` and not with `,`. */
  decimalComma?: boolean;
  /** Standard input, for the file name `-`. */
  stdin?: NodeJS.ReadableStream;
  /** Most bytes of JSON read from standard input (400 MB; tests lower it). */
  maxJsonBytes?: number;
}

/**
 * `row 12` or `rows 2-5`. In messages, in the user's language; as a voucher's `source` label
 * (JSON results, the journal, the report, which scripts read) always in English.
 */
export function rowRange(rows: number[], localized = true): string {
  const first = String(rows[0]);
  const last = String(rows[rows.length - 1]);
  if (!localized) return first === last ? `row ${first}` : `rows ${first}-${last}`;
  return first === last ? t("row {row}", { row: first }) : t("rows {first}-{last}", { first, last });
}

/** `a.csv:row 12, column comprobante.total`, in the user's language. */
export function cellPlace(file: string, row: number, column?: string): string {
  return `${file}:${t("row {row}", { row })}${column ? `, ${t("column {column}", { column })}` : ""}`;
}
