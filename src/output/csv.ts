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
