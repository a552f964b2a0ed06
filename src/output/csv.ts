/** CSV rows for stdout: listings (`query --csv`) and books (`vat-book --csv`). */

/** A number as CSV writes it: `-1234.50`, or `-1234,50` under a decimal comma. */
const NUMBER = /^-?\d+(?:[.,]\d+)?$/;

/**
 * One cell: quoted where the delimiter, a quote or a line break needs it. A text that starts with
 * = + - @, a tab or a carriage return would run as a formula in a spreadsheet (OWASP's "CSV
 * injection"), so it gets a leading `'`; a plain number (a credit note's `-121.00`) stays a number.
 * Every CSV facturar writes (listings, books, --report) goes through here.
 */
export function csvCell(text: string | null | undefined, delimiter: string): string {
  if (text === null || text === undefined) return "";
  const safe = !NUMBER.test(text) && /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return safe.includes(delimiter) || /["\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csvRow(cells: readonly (string | null | undefined)[], delimiter: string): string {
  return cells.map((c) => csvCell(c, delimiter)).join(delimiter);
}

/** How a CSV for people's spreadsheets is written: its delimiter, its decimal mark, a byte order mark. */
export interface SheetFormat {
  delimiter: "," | ";";
  decimalComma: boolean;
  /** A UTF-8 byte order mark first: Excel opens a file by double-click as UTF-8 only with one. */
  bom: boolean;
}

/**
 * The flags (`--delimiter`, `--decimal`) decide; else `follow` (the input's delimiter, for
 * `--report`); else the language: `;`, a decimal comma and a byte order mark in Spanish, as an
 * es-AR spreadsheet reads them; plain CSV (`,`, a point, no mark) otherwise. A decimal comma goes
 * with `;` unless told otherwise, and a Spanish spreadsheet's file (`;` or a comma) gets the mark:
 * `--decimal point` is the plain CSV a script asks for.
 */
export function sheetFormat(
  flags: { delimiter?: "," | ";"; decimal?: "comma" | "point" },
  spanish: boolean,
  follow?: "," | ";",
): SheetFormat {
  const delimiter =
    flags.delimiter ??
    follow ??
    (flags.decimal !== undefined ? (flags.decimal === "comma" ? ";" : ",") : spanish ? ";" : ",");
  const decimalComma = flags.decimal !== undefined ? flags.decimal === "comma" : delimiter === ";";
  return { delimiter, decimalComma, bom: decimalComma || delimiter === ";" };
}

/** A decimal number (`-1234.50`) as the format writes it (`-1234,50`); anything else as it is. */
export function sheetNumber(text: string, format: { decimalComma: boolean }): string {
  return format.decimalComma && NUMBER.test(text) ? text.replace(".", ",") : text;
}

/** The byte order mark a sheet's first line starts with, when it takes one. */
export function sheetStart(format: SheetFormat): string {
  return format.bom ? "\uFEFF" : "";
}
