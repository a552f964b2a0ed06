/**
 * The VAT book (libro IVA ventas, or compras): one line per issued voucher, from what the service
 * answers about it (reference §6.9), in pesos, credit notes negative, and a totals line.
 *
 * Net and VAT per rate are not in the answer as such: they are recovered from its items as the
 * authority computes them (tax-rules §4.1–4.2, src/voucher/totals.ts): each item's net
 * (`precio_total`) summed by `alicuota`, the voucher's discount (`bonificacion`, an amount) shared
 * among the rates in proportion, VAT per rate on the summed base, rounded half-even. Exempt,
 * non-taxed, perceptions and internal taxes are the answer's own figures; each tributo goes to the
 * column of its type (TRIBUTO_COLUMN).
 *
 * A voucher in another currency is booked in pesos so that the two identities the authority's
 * portal checks hold on its line: each rate's VAT is that rate of its net, and the total is the
 * sum of the parts (the totals line sums the lines). Each rate's net and every other part is converted at the
 * voucher's own cotizacion and rounded to the cent; the VAT is computed on the converted net; the
 * total is the sum of the converted parts. The cents by which that total differs from the
 * voucher's own total converted whole are not hidden in any part: they are told beside it
 * (`conversion`, "diferencia de conversión").
 */

import { VAT_EXEMPT, VAT_NON_TAXED, voucherNumber, voucherTypeInfo } from "./codes.js";
import { dayNumber } from "./dates.js";
import { Dec } from "./decimal.js";
import type { ServiceVoucher } from "./held.js";
import { allocate, classChargesVat, itemNet } from "./totals.js";

/** The authority's VAT rates, in the columns' order: every book carries them all (CSV, JSON). */
export const BOOK_RATES = ["21", "10.5", "27", "5", "2.5", "0"] as const;

/** The amount columns after the rates, in order, named as the service names them. */
export const BOOK_AMOUNTS = [
  "exentos",
  "nogravados",
  "percepciones_nacionales",
  "percepciones_iibb",
  "percepciones_iva",
  "percepciones_no_categorizados",
  "percepciones_municipales",
  "otros_tributos",
  "impuestos_internos",
  "total",
] as const;
export type BookAmount = (typeof BOOK_AMOUNTS)[number];

/**
 * The column each tributo type belongs in. The hosted API's own types are 1 (national
 * perceptions), 6 (VAT) and 7 (IIBB) (reference api-v2 §10.6); they are the authority's ids for the
 * same, whose other ids (tax-rules §2.5) are placed too, should an answer carry them. Anything
 * else is "other tributos".
 */
const TRIBUTO_COLUMN: Readonly<Record<number, BookAmount>> = {
  1: "percepciones_nacionales",
  2: "otros_tributos",
  3: "percepciones_municipales",
  4: "impuestos_internos",
  5: "percepciones_iibb",
  6: "percepciones_iva",
  7: "percepciones_iibb",
  8: "percepciones_municipales",
  9: "otros_tributos",
  13: "percepciones_no_categorizados",
  99: "otros_tributos",
};

function tributoColumn(tipo: unknown): BookAmount {
  return TRIBUTO_COLUMN[Number(tipo)] ?? "otros_tributos";
}

export interface BookFigures {
  /** Taxed net by rate ("21", "10.5"…): the rates of BOOK_RATES, and any other the service gave. */
  net: Map<string, Dec>;
  vat: Map<string, Dec>;
  amounts: Record<BookAmount, Dec>;
}

export interface BookLine extends BookFigures {
  fecha: string;
  tipo: string;
  punto_venta: number;
  numero: number;
  documento_tipo: string;
  documento_nro: string;
  razon_social: string;
  moneda: string;
  /** Pesos per unit the voucher's amounts were converted at ("1" for pesos). */
  cotizacion: string;
  /** The voucher's total in its own currency (`moneda`), with the book's sign. */
  totalInCurrency: Dec;
  /**
   * The voucher's total converted whole, less the book's total (the sum of its converted parts):
   * the cents the conversion of each part rounded away. Zero in pesos.
   */
  conversion: Dec;
  /**
   * What the voucher's own figures leave unexplained (`difference`, in pesos): part of the book's
   * total and shown in a column of its own, so that the total is always the sum of the columns.
   */
  unexplained: Dec;
  external_reference: string;
  /**
   * The voucher's total less the sum of its columns, in its own currency: more than a cent or
   * so means the answer's figures do not add up (the book says so).
   */
  difference: Dec;
}

/** What a voucher the book leaves out is: not issued (queued, failed) or not fiscal (a quote). */
export type LeftOut = "not-issued" | "not-fiscal";

/** A number the service may send as a number or as text ("0", "121.50"); zero when absent. */
function dec(value: unknown): Dec {
  if (typeof value === "number") return Dec.fromNumber(value) ?? Dec.ZERO;
  if (typeof value === "string") return Dec.tryParse(value.trim().replace(",", ".")) ?? Dec.ZERO;
  return Dec.ZERO;
}

/** `10.50`, `10.5` and "10.5" are the same rate: the shortest text names it. */
function rateKey(value: unknown): string {
  return dec(value).toString();
}

function zeroFigures(): BookFigures {
  return {
    net: new Map(BOOK_RATES.map((r) => [r, Dec.ZERO])),
    vat: new Map(BOOK_RATES.map((r) => [r, Dec.ZERO])),
    amounts: Object.fromEntries(BOOK_AMOUNTS.map((a) => [a, Dec.ZERO])) as Record<BookAmount, Dec>,
  };
}

type Json = Record<string, unknown>;

function list(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter((x): x is Json => x !== null && typeof x === "object") : [];
}

/** The voucher's line of the book, or why it has none. */
export function bookLine(v: ServiceVoucher): BookLine | LeftOut {
  const info = voucherTypeInfo(v.tipo);
  if (!info?.class) return "not-fiscal";
  if (v.state !== "issued" || v.numero === null || v.punto_venta === null) return "not-issued";
  const { comprobante: c } = v.raw;
  // The other party: the customer of a sale, the supplier of a purchase.
  const cliente = v.raw.cliente ?? v.raw.proveedor ?? {};
  const vatApplies = classChargesVat(info.class);

  // Item nets by rate; without VAT (classes C and E) every item is net at 0 %, as totals.ts reads them.
  const groups = new Map<string, Dec>();
  for (const item of list(c.detalle)) {
    const producto = (item.producto ?? {}) as Json;
    const net =
      producto.precio_total !== undefined
        ? dec(producto.precio_total)
        : itemNet(
            dec(item.cantidad).toString(),
            dec(producto.precio_unitario).toString(),
            dec(item.bonificacion_porcentaje).toString(),
          );
    const key = vatApplies ? rateKey(producto.alicuota) : "0";
    groups.set(key, (groups.get(key) ?? Dec.ZERO).add(net));
  }
  const keys = [...groups.keys()];
  const shares = allocate(
    dec(c.bonificacion),
    keys.map((k) => groups.get(k) ?? Dec.ZERO),
  );

  const figures = zeroFigures();
  keys.forEach((key, i) => {
    if (key === VAT_EXEMPT || key === VAT_NON_TAXED) return;
    const base = (groups.get(key) ?? Dec.ZERO).sub(shares[i] ?? Dec.ZERO);
    const vat = vatApplies ? base.mul(Dec.parse(key)).shift(2).roundHalfEven(2) : Dec.ZERO;
    figures.net.set(key, (figures.net.get(key) ?? Dec.ZERO).add(base));
    figures.vat.set(key, (figures.vat.get(key) ?? Dec.ZERO).add(vat));
  });

  const a = figures.amounts;
  const byType = new Map<number, Dec>();
  for (const tributo of list(c.tributos)) {
    const tipo = Number(tributo.tipo);
    byType.set(tipo, (byType.get(tipo) ?? Dec.ZERO).add(dec(tributo.total)));
  }
  // The answer's own figures replace the tributos they sum up, and only those: percepciones_iibb
  // its IIBB perceptions (7), percepciones_iva its VAT ones (6). Internal taxes are the items'
  // (impuestos_internos) and any tributo of that type besides.
  const own: Record<number, unknown> = { 7: c.percepciones_iibb, 6: c.percepciones_iva };
  for (const [tipo, sum] of byType) {
    const column = tributoColumn(tipo);
    a[column] = a[column].add(own[tipo] !== undefined ? Dec.ZERO : sum);
  }
  if (c.percepciones_iibb !== undefined) a.percepciones_iibb = a.percepciones_iibb.add(dec(c.percepciones_iibb));
  if (c.percepciones_iva !== undefined) a.percepciones_iva = a.percepciones_iva.add(dec(c.percepciones_iva));
  a.impuestos_internos = a.impuestos_internos.add(dec(c.impuestos_internos));
  a.exentos = dec(c.exentos);
  a.nogravados = dec(c.nogravados);
  a.total = dec(c.total);

  const difference = a.total.sub(sumOfParts(figures));

  // In pesos at the voucher's own rate (see the top of this module); a credit note subtracts.
  const moneda = String(c.moneda ?? "PES") || "PES";
  const cotizacion = moneda === "PES" ? Dec.ONE : dec(c.cotizacion);
  const sign = info.kind === "credit" ? Dec.ONE.neg() : Dec.ONE;
  const pesos = (x: Dec) => x.mul(cotizacion).roundHalfEven(2);
  const totalInCurrency = a.total;
  for (const [k, x] of figures.net) {
    const net = pesos(x);
    figures.net.set(k, net);
    figures.vat.set(k, vatApplies ? net.mul(Dec.parse(k)).shift(2).roundHalfEven(2) : Dec.ZERO);
  }
  for (const k of BOOK_AMOUNTS) if (k !== "total") a[k] = pesos(a[k]);
  // The parts, and what the voucher's own figures leave unexplained (zero when they add up).
  const unexplained = pesos(difference);
  a.total = sumOfParts(figures).add(unexplained);
  const conversion = pesos(totalInCurrency).sub(a.total);
  for (const map of [figures.net, figures.vat]) for (const [k, x] of map) map.set(k, x.mul(sign));
  for (const k of BOOK_AMOUNTS) a[k] = a[k].mul(sign);

  return {
    ...figures,
    fecha: v.fecha ?? "",
    tipo: v.tipo,
    punto_venta: v.punto_venta,
    numero: v.numero,
    documento_tipo: String(cliente.documento_tipo ?? ""),
    documento_nro: String(cliente.documento_nro ?? ""),
    razon_social: String(cliente.razon_social ?? ""),
    moneda,
    cotizacion: cotizacion.toString(),
    totalInCurrency: totalInCurrency.mul(sign),
    conversion: conversion.mul(sign),
    unexplained: unexplained.mul(sign),
    external_reference: v.external_reference,
    difference,
  };
}

/** Every column but the total: nets and VAT by rate, then the other amounts. */
function sumOfParts(f: BookFigures): Dec {
  return Dec.sum([...f.net.values(), ...f.vat.values()]).add(
    Dec.sum(BOOK_AMOUNTS.filter((k) => k !== "total").map((k) => f.amounts[k])),
  );
}

/** The book's order: by date, then type (the authority's code), point of sale and number. */
export function compareLines(a: BookLine, b: BookLine): number {
  const code = (tipo: string) => voucherTypeInfo(tipo)?.code ?? 0;
  return (
    dayNumber(a.fecha) - dayNumber(b.fecha) ||
    code(a.tipo) - code(b.tipo) ||
    a.punto_venta - b.punto_venta ||
    a.numero - b.numero
  );
}

export interface BookTotals extends BookFigures {
  /** The lines' conversion differences summed (see BookLine.conversion). */
  conversion: Dec;
  /** The lines' unexplained remainders summed (see BookLine.unexplained). */
  unexplained: Dec;
}

/** The totals line: every column summed. */
export function bookTotals(lines: readonly BookLine[]): BookTotals {
  const totals: BookTotals = { ...zeroFigures(), conversion: Dec.ZERO, unexplained: Dec.ZERO };
  for (const line of lines) {
    for (const [k, x] of line.net) totals.net.set(k, (totals.net.get(k) ?? Dec.ZERO).add(x));
    for (const [k, x] of line.vat) totals.vat.set(k, (totals.vat.get(k) ?? Dec.ZERO).add(x));
    for (const k of BOOK_AMOUNTS) totals.amounts[k] = totals.amounts[k].add(line.amounts[k]);
    totals.conversion = totals.conversion.add(line.conversion);
    totals.unexplained = totals.unexplained.add(line.unexplained);
  }
  return totals;
}

/** The rates of a book's columns: the authority's, then any other the service gave, highest first. */
export function bookRates(totals: BookFigures): string[] {
  const others = [...totals.net.keys()].filter((k) => !(BOOK_RATES as readonly string[]).includes(k));
  return [...BOOK_RATES, ...others.sort((x, y) => Dec.parse(y).cmp(Dec.parse(x)))];
}

export function lineNumber(line: BookLine): string {
  return voucherNumber(line.punto_venta, line.numero);
}

const CENT = Dec.parse("0.01");

/**
 * The line's columns miss its total by more than rounding: a cent for each column with a figure,
 * as the authority tolerates (totals.ts).
 */
export function outOfBalance(line: BookLine): boolean {
  const figures = [...line.net.values(), ...line.vat.values(), ...BOOK_AMOUNTS.map((k) => line.amounts[k])];
  const columns = Math.max(1, figures.filter((x) => !x.isZero()).length - 1);
  return line.difference.abs().cmp(CENT.mul(Dec.fromInt(columns))) > 0;
}
