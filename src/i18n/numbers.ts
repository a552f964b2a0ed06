/**
 * Numbers as people read them: es-AR `2.209.849,64` and `10,5`, English `2,209,849.64` and
 * `10.5`. Only for what people read (messages, tables, the PDF); JSON, CSV data and reports
 * keep the plain `2209849.64` the service speaks.
 */
import { currentLang } from "./index.js";
import { type Lang, numberIn, rateIn } from "./message.js";

/** A plain decimal (`-1234.5`, `1500`) grouped in thousands; anything else as it is. */
export function readableNumber(plain: string | number, lang: Lang = currentLang()): string {
  return numberIn(lang, plain);
}

/** A VAT rate (`10.5`, `21`) as the reader writes it, without grouping: es `10,5`, en `10.5`. */
export function readableRate(rate: string | number, lang: Lang = currentLang()): string {
  return rateIn(lang, rate);
}
