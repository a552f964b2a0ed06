/**
 * Numbers as people read them: es-AR `2.209.849,64` and `10,5`, English `2,209,849.64` and
 * `10.5`. Only for what people read (messages, tables, the PDF); JSON, CSV data and reports
 * keep the plain `2209849.64` the service speaks.
 */
import { currentLang, groupThousands, type Lang, SEPARATORS } from "./index.js";

const PLAIN = /^(-?)(\d+)(?:\.(\d+))?$/;

/** A plain decimal (`-1234.5`, `1500`) grouped in thousands; anything else as it is. */
export function readableNumber(plain: string | number, lang: Lang = currentLang()): string {
  const text = String(plain);
  const parts = PLAIN.exec(text);
  if (!parts) return text;
  const [, sign, whole = "", fraction] = parts;
  const grouped = groupThousands(whole, lang);
  return `${sign}${grouped}${fraction === undefined ? "" : `${SEPARATORS[lang].decimal}${fraction}`}`;
}

/** A VAT rate (`10.5`, `21`) as the reader writes it, without grouping: es `10,5`, en `10.5`. */
export function readableRate(rate: string | number, lang: Lang = currentLang()): string {
  const text = String(rate);
  return PLAIN.test(text) ? text.replace(".", SEPARATORS[lang].decimal) : text;
}
