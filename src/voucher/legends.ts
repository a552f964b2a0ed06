/**
 * The legends the service prints on its own. Since 01/07/2021 a type A voucher to a monotributo
 * customer carries the small-taxpayer legend of Ley 27.618, which the service adds to the PDF by
 * itself: it must not be sent in `leyenda_gral` (spec §4 fact 3; reference §12, "Monotributista
 * receiving type A"; the vendor's changelog of 2021 quotes it word for word).
 */
import type { VatCondition, VoucherClass } from "./codes.js";

export const SMALL_TAXPAYER_LEGEND =
  "El crédito fiscal discriminado en el presente comprobante, sólo podrá ser computado a efectos del Régimen de Sostenimiento e Inclusión Fiscal para Pequeños Contribuyentes de la Ley Nº 27.618";

/**
 * Whether the service prints the small-taxpayer legend: a class A voucher (M too, since 2025-12
 * "A con leyenda") to a monotributo customer.
 */
export function printsSmallTaxpayerLegend(voucherClass: VoucherClass | null | undefined, condition: string): boolean {
  return (voucherClass === "A" || voucherClass === "M") && (condition as VatCondition) === "M";
}

/**
 * The legend's words from its start to the law's number, as letters and digits only: found
 * however a user wrote it (accents, case, spacing, punctuation, Nº or N° or no number sign).
 * Another legend that starts alike (the authority's observation 10217 names another regime) has
 * no 27618 in its next few words.
 */
const FOLDED_LEGEND = /(?:el)?creditofiscaldiscriminadoenelpresentecomprobante[a-z0-9]{0,200}?27618/;

/** A text's letters and digits, lower case and without accents, with where each came from. */
function fold(text: string): { folded: string; at: number[] } {
  let folded = "";
  const at: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const plain = (text[i] as string)
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^a-z0-9]/g, "");
    for (const ch of plain) {
      folded += ch;
      at.push(i);
    }
  }
  return { folded, at };
}

/**
 * `text` without the small-taxpayer legend, if it holds it: what is left, tidied of the quotes and
 * stops the legend leaves behind. `found` says whether it was there.
 */
export function withoutSmallTaxpayerLegend(text: string): { found: boolean; rest: string } {
  const { folded, at } = fold(text);
  const m = FOLDED_LEGEND.exec(folded);
  if (!m) return { found: false, rest: text };
  const start = at[m.index] as number;
  const end = (at[m.index + m[0].length - 1] as number) + 1;
  const before = text.slice(0, start).replace(/["'“«\s]+$/u, "");
  const after = text.slice(end).replace(/^["'”».\s]+/u, "");
  const rest = [before, after].filter((part) => part.trim() !== "").join(" ");
  return { found: true, rest: rest.replace(/[ \t]{2,}/g, " ").trim() };
}
