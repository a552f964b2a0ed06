/**
 * The VAT book's line of one voucher, worked out by hand from the service's answer (reference
 * §6.9, tax-rules §4.1–4.2): nets by rate, the voucher's discount shared among them, VAT on each
 * summed base, the answer's own exempt, non-taxed and tribute figures, all in pesos.
 */
import { describe, expect, it } from "vitest";
import { Dec } from "../../src/voucher/decimal.js";
import type { ServiceVoucher } from "../../src/voucher/held.js";
import {
  BOOK_AMOUNTS,
  BOOK_RATES,
  type BookAmount,
  type BookLine,
  bookLine,
  bookRates,
  bookTotals,
  compareLines,
  lineNumber,
  outOfBalance,
} from "../../src/voucher/vat-book.js";

type Json = Record<string, unknown>;

function answer(
  tipo: string,
  comprobante: Json,
  extra: Partial<ServiceVoucher> & { cliente?: Json; proveedor?: Json } = {},
): ServiceVoucher {
  const { cliente, proveedor, ...rest } = extra;
  return {
    external_reference: "ref-1",
    state: "issued",
    status: "EMITIDO",
    tipo,
    punto_venta: 3,
    numero: 17,
    fecha: "05/11/2026",
    total: null,
    errors: [],
    operacion: "V",
    cae: "76123456789012",
    vencimiento_cae: null,
    vencimiento_pago: null,
    qr: null,
    pdf_url: null,
    ticket_url: null,
    observations: [],
    raw: { ...(cliente ? { cliente } : {}), ...(proveedor ? { proveedor } : {}), comprobante },
    ...rest,
  };
}

function line(v: ServiceVoucher): BookLine {
  const l = bookLine(v);
  if (typeof l === "string") throw new Error(`left out: ${l}`);
  return l;
}

const text = (m: Map<string, Dec>) => Object.fromEntries([...m].map(([k, x]) => [k, x.toFixed(2)]));
const amounts = (l: { amounts: Record<BookAmount, Dec> }) =>
  Object.fromEntries(BOOK_AMOUNTS.map((k) => [k, l.amounts[k].toFixed(2)]));
const zeroRates = Object.fromEntries(BOOK_RATES.map((r) => [r, "0.00"]));

describe("a voucher's line of the VAT book", () => {
  // Items: 3 × 10.005 less 10 % = 27.01 at 21 %; 100.50 and 72.99 at 10.5 % (the rate written
  // "10.50" and 10.5); 50 exempt. The voucher's discount of 25.05 is 10 % of the 250.50 of items:
  // 2.701, 17.349 and 5 in cents 270, 1734 and 500, the cent left to the larger remainder (10.5 %).
  const factura = answer(
    "FACTURA A",
    {
      moneda: "PES",
      cotizacion: "1050",
      bonificacion: "25.05",
      detalle: [
        { cantidad: "3", bonificacion_porcentaje: "10", producto: { precio_unitario: "10.005", alicuota: " 21 " } },
        { cantidad: 1, producto: { precio_total: "100,50", alicuota: "10.50" } },
        null,
        { cantidad: 1, producto: { precio_total: 72.99, alicuota: 10.5 } },
        { cantidad: 1, producto: { precio_total: "50", alicuota: "-1" } },
      ],
      exentos: "45.00",
      tributos: [
        { tipo: 7, total: "3.00" },
        { tipo: "6", total: 2.5 },
        { tipo: 99, total: "1.25" },
        { tipo: 4, total: "0.75" },
      ],
      impuestos_internos: "1.10",
      total: "255.55",
    },
    { cliente: { documento_tipo: "CUIT", documento_nro: 30712345678, razon_social: "Acme SA" } },
  );

  it("nets the items by rate, less their share of the discount, with VAT on each base", () => {
    const l = line(factura);
    expect(text(l.net)).toEqual({ ...zeroRates, "21": "24.31", "10.5": "156.14" });
    // 24.31 × 21 % = 5.1051; 156.14 × 10.5 % = 16.3947.
    expect(text(l.vat)).toEqual({ ...zeroRates, "21": "5.11", "10.5": "16.39" });
    expect([...l.net.keys()]).toEqual([...BOOK_RATES]);
  });

  it("takes exempt, internal taxes and tributes from the answer, each tributo in its type's column", () => {
    // Internal taxes: the items' (1.10, the answer's field) and a tributo of that type (0.75).
    expect(amounts(line(factura))).toEqual({
      exentos: "45.00",
      nogravados: "0.00",
      percepciones_nacionales: "0.00",
      percepciones_iibb: "3.00",
      percepciones_iva: "2.50",
      percepciones_no_categorizados: "0.00",
      percepciones_municipales: "0.00",
      otros_tributos: "1.25",
      impuestos_internos: "1.85",
      total: "255.55",
    });
  });

  it("the answer's own perception figures replace only the tributos of their type", () => {
    // IIBB perceptions of 20 as the field says, an IIBB tax (5) of 10, internal taxes of 100 as a tributo.
    const l = line(
      answer("FACTURA A", {
        detalle: [{ cantidad: 1, producto: { precio_total: "100", alicuota: 21 } }],
        tributos: [
          { tipo: 7, total: "20" },
          { tipo: 5, total: "10" },
          { tipo: 4, total: "100" },
        ],
        percepciones_iibb: "20",
        impuestos_internos: "0",
        total: "251.00",
      }),
    );
    expect([l.amounts.percepciones_iibb.toFixed(2), l.amounts.impuestos_internos.toFixed(2)]).toEqual([
      "30.00",
      "100.00",
    ]);
    expect(l.difference.toFixed(2)).toBe("0.00");
    expect(l.unexplained.toFixed(2)).toBe("0.00");
  });

  it("places every tributo type of the code tables in its column", () => {
    // The hosted API's types (api-v2 §10.6) and the authority's others (tax-rules §2.5).
    const placed = (tipo: number) =>
      Object.entries(amounts(line(answer("FACTURA A", { tributos: [{ tipo, total: "1" }], total: "1" }))))
        .filter(([k, x]) => k !== "total" && x !== "0.00")
        .map(([k]) => k);
    expect(
      Object.fromEntries([1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 99, 42].map((tipo) => [tipo, placed(tipo).join()])),
    ).toEqual({
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
      42: "otros_tributos",
    });
  });

  it("names the voucher and its customer, in pesos at 1 whatever rate a peso voucher carries", () => {
    const l = line(factura);
    expect(l).toMatchObject({
      fecha: "05/11/2026",
      tipo: "FACTURA A",
      punto_venta: 3,
      numero: 17,
      documento_tipo: "CUIT",
      documento_nro: "30712345678",
      razon_social: "Acme SA",
      moneda: "PES",
      cotizacion: "1",
      external_reference: "ref-1",
    });
    expect(l.difference.toFixed(2)).toBe("0.00");
    expect(outOfBalance(l)).toBe(false);
    expect(lineNumber(l)).toBe("00003-00000017");
  });

  it("prefers the answer's perception figures to its tributes, and keeps a difference in the voucher's currency", () => {
    // A dollar credit note: 2 × 12.345 = 24.69 at 21 % (VAT 5.1849), 0.13 non-taxed, at 1000.5.
    const nota = answer("NOTA DE CREDITO B", {
      moneda: "DOL",
      cotizacion: "1000.5",
      detalle: [{ cantidad: 2, producto: { precio_unitario: "12.345", alicuota: 21 } }],
      nogravados: "0,13",
      percepciones_iibb: "0",
      percepciones_iva: "0.5",
      tributos: [
        { tipo: 7, total: "1" },
        { tipo: 6, total: "9" },
      ],
      total: "31.50",
    });
    const l = line(nota);
    // 24.69 + 5.18 + 0.13 + 0.50 = 30.50: one dollar short of the total.
    expect(l.difference.toFixed(2)).toBe("1.00");
    expect(outOfBalance(l)).toBe(true);
    expect(l.moneda).toBe("DOL");
    expect(l.cotizacion).toBe("1000.5");
    // Credit notes subtract. The net in pesos rounded half-even: 24.69 × 1000.5 = 24702.345 →
    // 24702.34; its VAT computed in pesos, 21 % of it: 5187.4914 → 5187.49 (converting the
    // dollar VAT, 5.18 × 1000.5, would give 5182.59, which is not 21 % of the net).
    expect(text(l.net)).toEqual({ ...zeroRates, "21": "-24702.34" });
    expect(text(l.vat)).toEqual({ ...zeroRates, "21": "-5187.49" });
    // The total is the parts (24702.34 + 5187.49 + 130.06 + 500.25 = 30520.14) and the dollar
    // they leave unexplained (1000.50): 31520.64. Converted whole, 31.50 is 31515.75: 4.89 apart.
    expect(amounts(l)).toEqual({
      exentos: "0.00",
      nogravados: "-130.06",
      percepciones_nacionales: "0.00",
      percepciones_iibb: "0.00",
      percepciones_iva: "-500.25",
      percepciones_no_categorizados: "0.00",
      percepciones_municipales: "0.00",
      otros_tributos: "0.00",
      impuestos_internos: "0.00",
      total: "-31520.64",
    });
    expect(l.totalInCurrency.toFixed(2)).toBe("-31.50");
    expect(l.conversion.toFixed(2)).toBe("4.89");
    // The dollar the voucher's own figures leave unexplained, in pesos, in a column of its own.
    expect(l.unexplained.toFixed(2)).toBe("-1000.50");
    expect([l.documento_tipo, l.documento_nro, l.razon_social]).toEqual(["", "", ""]);
  });

  it("puts every item of a class without VAT at 0 %, with no VAT, and reads no currency as pesos", () => {
    const l = line(
      answer("FACTURA C", {
        moneda: "",
        cotizacion: "5",
        bonificacion: "15",
        detalle: [
          { cantidad: 1, producto: { precio_total: "100", alicuota: 21 } },
          { cantidad: 1, producto: { precio_total: "50", alicuota: "10.5" } },
        ],
        total: "135",
      }),
    );
    expect(text(l.net)).toEqual({ ...zeroRates, "0": "135.00" });
    expect(text(l.vat)).toEqual(zeroRates);
    expect(l.moneda).toBe("PES");
    expect(l.cotizacion).toBe("1");
    expect(l.difference.toFixed(2)).toBe("0.00");
  });

  it("computes no VAT on non-taxed items nor lists them as a rate", () => {
    const l = line(
      answer("FACTURA B", {
        detalle: [
          { cantidad: 1, producto: { precio_total: "80", alicuota: "-2" } },
          { cantidad: 1, producto: { precio_total: "20", alicuota: "27" } },
        ],
        nogravados: "80",
        total: "105.40",
      }),
    );
    expect(text(l.net)).toEqual({ ...zeroRates, "27": "20.00" });
    expect(text(l.vat)).toEqual({ ...zeroRates, "27": "5.40" });
    expect(l.amounts.nogravados.toFixed(2)).toBe("80.00");
    expect(l.moneda).toBe("PES");
  });

  it("reads a purchase's supplier, and its customer first where both are given", () => {
    const comprobante = { detalle: [], total: "0" };
    const proveedor = { documento_tipo: "CUIT", documento_nro: "20111111112", razon_social: "Proveedor SRL" };
    expect(line(answer("FACTURA A", comprobante, { proveedor })).razon_social).toBe("Proveedor SRL");
    expect(
      line(answer("FACTURA A", comprobante, { proveedor, cliente: { razon_social: "Cliente SA" } })).razon_social,
    ).toBe("Cliente SA");
  });

  it("leaves out what is not a fiscal voucher, or not issued", () => {
    const c = { detalle: [], total: "10" };
    expect(bookLine(answer("PRESUPUESTO", c))).toBe("not-fiscal");
    expect(bookLine(answer("TICKET X", c))).toBe("not-fiscal");
    expect(bookLine(answer("FACTURA B", c, { state: "queued" }))).toBe("not-issued");
    expect(bookLine(answer("FACTURA B", c, { state: "queue-error" }))).toBe("not-issued");
    expect(bookLine(answer("FACTURA B", c, { numero: null }))).toBe("not-issued");
    expect(bookLine(answer("FACTURA B", c, { punto_venta: null }))).toBe("not-issued");
    expect(line(answer("FACTURA B", c, { fecha: null })).fecha).toBe("");
  });

  it("reads numbers as the service sends them, and anything else as zero", () => {
    const l = line(
      answer("FACTURA B", {
        detalle: [
          { cantidad: "2", producto: { precio_unitario: "x", alicuota: "21" } },
          { cantidad: "1", producto: { precio_total: Number.NaN, alicuota: "21" } },
          { producto: { precio_total: { value: 3 }, alicuota: "21" } },
          { cantidad: 1, producto: { precio_total: "4.00" } },
          { cantidad: "1", producto: { precio_unitario: "5" } },
        ],
        tributos: "none",
        total: " 9,00 ",
      }),
    );
    // Items without a rate are at 0 %: 4 and 1 × 5.
    expect(text(l.net)).toEqual({ ...zeroRates, "0": "9.00" });
    expect(l.amounts.total.toFixed(2)).toBe("9.00");
    expect(l.amounts.otros_tributos.toFixed(2)).toBe("0.00");
  });
});

describe("the book", () => {
  const at = (fecha: string, tipo: string, punto_venta: number, numero: number) =>
    line(answer(tipo, { detalle: [], total: "0" }, { fecha, punto_venta, numero }));

  it("orders lines by date, type code, point of sale and number", () => {
    const lines = [
      at("10/11/2026", "FACTURA A", 1, 1),
      at("02/12/2026", "FACTURA A", 1, 1),
      at("09/11/2026", "FACTURA B", 1, 1),
      at("09/11/2026", "NOTA DE CREDITO A", 2, 1),
      at("09/11/2026", "NOTA DE CREDITO A", 1, 9),
      at("09/11/2026", "NOTA DE CREDITO A", 1, 10),
    ];
    const sorted = [...lines].sort(compareLines).map((l) => `${l.fecha} ${l.tipo} ${lineNumber(l)}`);
    expect(sorted).toEqual([
      "09/11/2026 NOTA DE CREDITO A 00001-00000009",
      "09/11/2026 NOTA DE CREDITO A 00001-00000010",
      "09/11/2026 NOTA DE CREDITO A 00002-00000001",
      "09/11/2026 FACTURA B 00001-00000001",
      "10/11/2026 FACTURA A 00001-00000001",
      "02/12/2026 FACTURA A 00001-00000001",
    ]);
    expect(compareLines(lines[0] as BookLine, at("10/11/2026", "FACTURA A", 1, 1))).toBe(0);
  });

  it("sums every column, rates the service gave beyond the authority's in their own columns, highest first", () => {
    const odd = line(
      answer("FACTURA A", {
        detalle: [
          { cantidad: 1, producto: { precio_total: "100", alicuota: "3" } },
          { cantidad: 1, producto: { precio_total: "100", alicuota: "19" } },
          { cantidad: 1, producto: { precio_total: "100", alicuota: "8.25" } },
          { cantidad: 1, producto: { precio_total: "10", alicuota: "21" } },
        ],
        exentos: "7",
        total: "349.35",
      }),
    );
    const plain = line(
      answer("NOTA DE CREDITO A", {
        detalle: [{ cantidad: 1, producto: { precio_total: "10", alicuota: "21" } }],
        percepciones_iibb: "1",
        total: "13.10",
      }),
    );
    expect(odd.difference.toFixed(2)).toBe("0.00");
    const totals = bookTotals([odd, plain]);
    expect(text(totals.net)).toEqual({ ...zeroRates, "21": "0.00", "3": "100.00", "19": "100.00", "8.25": "100.00" });
    expect(text(totals.vat)).toEqual({ ...zeroRates, "21": "0.00", "3": "3.00", "19": "19.00", "8.25": "8.25" });
    expect(amounts(totals)).toEqual({
      exentos: "7.00",
      nogravados: "0.00",
      percepciones_nacionales: "0.00",
      percepciones_iibb: "-1.00",
      percepciones_iva: "0.00",
      percepciones_no_categorizados: "0.00",
      percepciones_municipales: "0.00",
      otros_tributos: "0.00",
      impuestos_internos: "0.00",
      total: "336.25",
    });
    // Pesos only: no conversion difference.
    expect(totals.conversion.toFixed(2)).toBe("0.00");
    expect(bookRates(totals)).toEqual([...BOOK_RATES, "19", "8.25", "3"]);
    expect(bookRates(bookTotals([]))).toEqual([...BOOK_RATES]);
    expect(text(bookTotals([]).net)).toEqual(zeroRates);
  });
});

describe("out of balance", () => {
  // Built inside the tests: a line built as the file loads would turn a broken bookLine into a
  // file that fails to load, which a mutation run counts as no failure.
  const base = () =>
    line(
      answer("FACTURA A", {
        detalle: [{ cantidad: 1, producto: { precio_total: "100", alicuota: "21" } }],
        total: "121",
      }),
    );
  const off = (l: BookLine, difference: string) => outOfBalance({ ...l, difference: Dec.parse(difference) });

  it("tolerates a cent for each column with a figure beyond the first", () => {
    // Net, VAT and total: two cents.
    expect(off(base(), "0.02")).toBe(false);
    expect(off(base(), "-0.02")).toBe(false);
    expect(off(base(), "0.03")).toBe(true);
    expect(off(base(), "-0.03")).toBe(true);
  });

  it("tolerates a cent at least", () => {
    const bare = line(answer("FACTURA A", { detalle: [], total: "0" }));
    expect(off(bare, "0.01")).toBe(false);
    expect(off(bare, "0.011")).toBe(true);
    const totalOnly = line(answer("FACTURA A", { detalle: [], total: "5" }));
    expect(off(totalOnly, "0.01")).toBe(false);
    expect(off(totalOnly, "0.02")).toBe(true);
  });
});
