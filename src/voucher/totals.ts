/**
 * The voucher's totals computed as the authority checks them (tax-rules.md §4.1–4.2):
 * net per item rounded half-even to cents, the voucher discount taken off before VAT,
 * VAT per rate on the summed base, and total = taxed net + VAT + exempt + non-taxed +
 * internal taxes + tributos.
 */
import { concat, joined, type Message, msg, rateFigure } from "../i18n/message.js";
import { amount } from "./amount.js";
import { VAT_EXEMPT, VAT_NON_TAXED, type VoucherClass, voucherTypeInfo } from "./codes.js";
import { Dec } from "./decimal.js";
import type { ParsedEnvelope } from "./schema.js";

export interface RateLine {
  /** VAT rate as the API writes it ("21", "10.5", "0"). */
  rate: string;
  net: Dec;
  vat: Dec;
}

export interface Totals {
  /** Net of each item after its own discount, in input order. */
  itemNets: Dec[];
  /** Sum of item nets before the voucher discount. */
  subtotal: Dec;
  /** Voucher-level discount (`bonificacion`), taken off the bases before VAT. */
  discount: Dec;
  /** Taxed bases and their VAT, one line per rate, highest rate first. */
  rates: RateLine[];
  net: Dec;
  vat: Dec;
  exempt: Dec;
  nonTaxed: Dec;
  internalTaxes: Dec;
  tributos: Dec;
  total: Dec;
  /** How far a declared total may stray (the authority's tolerance). */
  tolerance: Dec;
  /** Whether VAT is itemised on this class (A, M and their notes). */
  vatApplies: boolean;
}

const CENT = Dec.parse("0.01");
const RELATIVE_TOLERANCE = Dec.parse("0.0001");

export function itemNet(cantidad: string, precio: string, bonificacionPorcentaje?: string): Dec {
  const gross = Dec.parse(cantidad).mul(Dec.parse(precio));
  const discount = bonificacionPorcentaje ? Dec.parse(bonificacionPorcentaje).shift(2) : Dec.ZERO;
  return gross.mul(Dec.ONE.sub(discount)).roundHalfEven(2);
}

/** Classes where prices are sent without VAT and the service adds it per rate. */
export function classChargesVat(cls: VoucherClass | null): boolean {
  return cls !== "C" && cls !== "E";
}

/**
 * Splits `amount` over `weights` in proportion, in whole cents, so the parts add up exactly
 * (largest remainder; ties go to the earlier weight).
 */
export function allocate(amount: Dec, weights: Dec[]): Dec[] {
  if (amount.isZero() || weights.length === 0 || Dec.sum(weights).isZero()) return weights.map(() => Dec.ZERO);
  const cents = BigInt(amount.toFixed(2).replace(".", ""));
  const weightCents = weights.map((w) => BigInt(w.toFixed(2).replace(".", "")));
  const totalCents = weightCents.reduce((a, b) => a + b, 0n);
  const shares = weightCents.map((w) => (cents * w) / totalCents);
  let left = cents - shares.reduce((a, b) => a + b, 0n);
  const order = weightCents
    .map((w, i) => ({ i, remainder: (cents * w) % totalCents }))
    .sort((a, b) => (a.remainder === b.remainder ? a.i - b.i : a.remainder > b.remainder ? -1 : 1));
  for (const { i } of order) {
    if (left <= 0n) break;
    shares[i] = (shares[i] ?? 0n) + 1n;
    left -= 1n;
  }
  return shares.map((c) => Dec.fromInt(c).shift(2));
}

/** Dates play no part: a voucher as the schema reads it will do. */
export function computeTotals(c: ParsedEnvelope["comprobante"]): Totals {
  const info = voucherTypeInfo(c.tipo);
  const vatApplies = classChargesVat(info?.class ?? null);

  const itemNets = c.detalle.map((d) =>
    itemNet(d.cantidad, d.producto.precio_unitario_sin_iva, d.bonificacion_porcentaje),
  );
  const subtotal = Dec.sum(itemNets);

  // Group item nets: taxed rates, exempt (-1), non-taxed (-2). Without VAT (C, E) every item
  // is plain net whatever rate it carries; the rules flag a rate that does not belong.
  const groups = new Map<string, Dec>();
  c.detalle.forEach((d, i) => {
    const key = vatApplies ? d.producto.alicuota : "0";
    groups.set(key, (groups.get(key) ?? Dec.ZERO).add(itemNets[i] ?? Dec.ZERO));
  });

  const discount = c.bonificacion ? Dec.parse(c.bonificacion) : Dec.ZERO;
  const keys = [...groups.keys()];
  const discountShares = allocate(
    discount,
    keys.map((k) => groups.get(k) ?? Dec.ZERO),
  );
  const bases = new Map(keys.map((k, i) => [k, (groups.get(k) ?? Dec.ZERO).sub(discountShares[i] ?? Dec.ZERO)]));

  const rates: RateLine[] = [];
  for (const [rate, net] of bases) {
    if (rate === VAT_EXEMPT || rate === VAT_NON_TAXED) continue;
    const vat = vatApplies ? net.mul(Dec.parse(rate)).shift(2).roundHalfEven(2) : Dec.ZERO;
    rates.push({ rate, net, vat });
  }
  rates.sort((a, b) => Dec.parse(b.rate).cmp(Dec.parse(a.rate)));

  const exempt = (bases.get(VAT_EXEMPT) ?? Dec.ZERO).add(c.exentos ? Dec.parse(c.exentos) : Dec.ZERO);
  const nonTaxed = bases.get(VAT_NON_TAXED) ?? Dec.ZERO;
  const internalTaxes = computeInternalTaxes(c, itemNets);
  const tributos = Dec.sum((c.tributos ?? []).map((t) => Dec.parse(t.total)));
  const net = Dec.sum(rates.map((r) => r.net));
  const vat = Dec.sum(rates.map((r) => r.vat));
  const total = net.add(vat).add(exempt).add(nonTaxed).add(internalTaxes).add(tributos);

  // The authority tolerates one cent per rounded component summed, or 0.01 % of the total.
  const components = Math.max(1, rates.length + (c.tributos?.length ?? 0) + (internalTaxes.isZero() ? 0 : 1));
  const absolute = CENT.mul(Dec.fromInt(components));
  const relative = total.abs().mul(RELATIVE_TOLERANCE).roundHalfEven(2);
  const tolerance = absolute.cmp(relative) >= 0 ? absolute : relative;

  return {
    itemNets,
    subtotal,
    discount,
    rates,
    net,
    vat,
    exempt,
    nonTaxed,
    internalTaxes,
    tributos,
    total,
    tolerance,
    vatApplies,
  };
}

/**
 * Internal taxes: the voucher's own `impuestos_internos` amount when given, otherwise each
 * item's net times its product's `impuestos_internos_alicuota`.
 */
function computeInternalTaxes(c: ParsedEnvelope["comprobante"], itemNets: Dec[]): Dec {
  if (c.impuestos_internos !== undefined) return Dec.parse(c.impuestos_internos);
  return Dec.sum(
    c.detalle.map((d, i) => {
      const rate = d.producto.impuestos_internos_alicuota;
      return rate ? (itemNets[i] ?? Dec.ZERO).mul(Dec.parse(rate)).shift(2).roundHalfEven(2) : Dec.ZERO;
    }),
  );
}

/** Plain-text view of the breakdown, used by `validate` and by mismatch errors. */
export function totalsToJson(t: Totals) {
  return {
    subtotal: t.subtotal.toFixed(2),
    discount: t.discount.toFixed(2),
    net: Object.fromEntries(t.rates.map((r) => [r.rate, r.net.toFixed(2)])),
    vat: Object.fromEntries(t.rates.map((r) => [r.rate, r.vat.toFixed(2)])),
    exempt: t.exempt.toFixed(2),
    non_taxed: t.nonTaxed.toFixed(2),
    internal_taxes: t.internalTaxes.toFixed(2),
    tributos: t.tributos.toFixed(2),
    total: t.total.toFixed(2),
  };
}

/** The totals in a line, amounts as the reader writes them (es `1.234,56`). */
export function describeTotals(totals: Totals): Message {
  const parts: Message[] = [];
  if (!totals.discount.isZero())
    parts.push(
      msg("subtotal {subtotal} − discount {discount}", {
        subtotal: amount(totals.subtotal),
        discount: amount(totals.discount),
      }),
    );
  for (const r of totals.rates) {
    parts.push(
      totals.vatApplies
        ? msg("net {rate}% {net} + VAT {vat}", {
            rate: rateFigure(r.rate),
            net: amount(r.net),
            vat: amount(r.vat),
          })
        : msg("net {net}", { net: amount(r.net) }),
    );
  }
  if (!totals.exempt.isZero()) parts.push(msg("exempt {amount}", { amount: amount(totals.exempt) }));
  if (!totals.nonTaxed.isZero()) parts.push(msg("non-taxed {amount}", { amount: amount(totals.nonTaxed) }));
  if (!totals.internalTaxes.isZero())
    parts.push(msg("internal taxes {amount}", { amount: amount(totals.internalTaxes) }));
  if (!totals.tributos.isZero()) parts.push(msg("tributos {amount}", { amount: amount(totals.tributos) }));
  return concat(joined(parts, ", "), " = ", amount(totals.total));
}
