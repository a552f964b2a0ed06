/** Numbers as people write them in es-AR: a decimal comma and thousands dots. */

/**
 * Thousands dots in whole groups, a decimal comma or none: `7.000`, `1.234.567,50`. A number
 * never starts with a 0 before its thousands: `0.500` and `07.000` are not grouped.
 */
const GROUPED = /^[+-]?[1-9]\d{0,2}(\.\d{3})+(,\d+)?$/;
const COMMA = /^[+-]?\d+(,\d+)?$/;

/**
 * A number written with a decimal comma, in the form the schema reads (`1234567.50`): `7.000`
 * is 7000 and `1.234.567,50` is 1234567.50. Undefined when its dots cannot be thousands
 * separators (`7.00`, `1.2345`): seven or seven thousand? Guessing once issued a voucher 1000×
 * too small. Text that is no number at all comes back as it is, for the schema to refuse.
 */
export function commaNumber(text: string): string | undefined {
  if (GROUPED.test(text)) return text.replace(/\./g, "").replace(",", ".");
  if (COMMA.test(text)) return text.replace(",", ".");
  return text.includes(".") ? undefined : text;
}
