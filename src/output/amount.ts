/**
 * Amounts as people read them: es `2.209.849,64`, en `2,209,849.64`. Only for what people read
 * (tables, result lines, totals); JSON, CSV and reports keep the plain `2209849.64`.
 */
import { currentLang } from "../i18n/index.js";
import { Dec } from "../voucher/decimal.js";

const SEPARATORS = { es: { group: ".", decimal: "," }, en: { group: ",", decimal: "." } } as const;

/** Two decimals, grouped in thousands, in the language of the messages; anything unreadable as is. */
export function amount(value: Dec | string | number): string {
  const plain =
    value instanceof Dec
      ? value.toFixed(2)
      : ((typeof value === "number" ? Dec.fromNumber(value) : Dec.tryParse(value))?.toFixed(2) ?? String(value));
  const parts = /^(-?)(\d+)(?:\.(\d+))?$/.exec(plain);
  if (!parts) return plain;
  const [, sign, whole = "", fraction] = parts;
  const { group, decimal } = SEPARATORS[currentLang()];
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, group);
  return `${sign}${grouped}${fraction === undefined ? "" : `${decimal}${fraction}`}`;
}
