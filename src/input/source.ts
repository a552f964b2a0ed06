/** What every input reader yields: a raw voucher and a way to name any place in it. */
import { concat, english, type Message, msg, type Text } from "../i18n/message.js";
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
  place(path: Path): Text;
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

/** `row 12` or `rows 2-5`, for messages: said in the reader's language. */
export function rowRange(rows: number[]): Message {
  const first = String(rows[0]);
  const last = String(rows[rows.length - 1]);
  return first === last ? msg("row {row}", { row: first }) : msg("rows {first}-{last}", { first, last });
}

/** `row 12` or `rows 2-5` as a voucher's `source` label (JSON results, the journal, the report, which scripts read): English always. */
export function rowLabel(rows: number[]): string {
  return english(rowRange(rows));
}

/** `a.csv:row 12, column comprobante.total`, said in the reader's language. */
export function cellPlace(file: string, row: number, column?: string): Message {
  return concat(`${file}:`, msg("row {row}", { row }), column ? concat(", ", msg("column {column}", { column })) : "");
}
