/**
 * A note built from the service's answer (reference §6.9) field by field: what it copies, what it
 * leaves out when the answer sends it empty or zero, what it refuses; and partial notes' limits.
 */
import { describe, expect, it } from "vitest";
import type { Service } from "../../src/api/protocol.js";
import { issuedVoucher } from "../../src/commands/from-ref.js";
import { ES } from "../../src/i18n/es.js";
import { render } from "../../src/i18n/message.js";
import type { ServiceVoucher } from "../../src/voucher/held.js";
import { NotePartError, NoteSourceError, noteFromVoucher, noteType } from "../../src/voucher/notes.js";
import { qrUrl } from "../../src/voucher/qr.js";
import { check, codes, TODAY } from "../helpers.js";

const ISSUER = "30712293841";
type Json = Record<string, unknown>;

function qr(cuit: number) {
  return qrUrl({
    ver: 1,
    fecha: "2026-11-18",
    cuit,
    ptoVta: 679,
    tipoCmp: 1,
    nroCmp: 12,
    importe: 121,
    moneda: "PES",
    ctz: 1,
    tipoCodAut: "E",
    codAut: 0,
  });
}

/** A FACTURA A of 1 × 100 at 21 % as `consulta` answers it; `comprobante` fields overridden. */
function answer(comprobante: Json = {}, cliente: Json = {}) {
  return {
    cliente: {
      documento_tipo: "cuit ",
      documento_nro: 30000000007,
      razon_social: " Empresa SA ",
      email: "",
      domicilio: "",
      ...cliente,
    },
    comprobante: {
      tipo: "FACTURA A",
      fecha: "18/11/2026",
      punto_venta: "679",
      numero: 12,
      moneda: "PES",
      cotizacion: 1,
      idioma: 1,
      rubro: "Servicios",
      rubro_grupo_contable: "",
      detalle: [
        {
          cantidad: "1.00",
          bonificacion_porcentaje: 0,
          leyenda: "",
          producto: { descripcion: " Producto 1 ", precio_unitario: "100.000", alicuota: "21.00" },
        },
      ],
      bonificacion: "0.00",
      tributos: [],
      total: "121.00",
      external_reference: "VENTA-12",
      afip_qr: qr(Number(ISSUER)),
      ...comprobante,
    },
  };
}

const note = (c: Json = {}, cl: Json = {}, opts: Partial<Parameters<typeof noteFromVoucher>[1]> = {}) =>
  noteFromVoucher(answer(c, cl), { fecha: TODAY, ...opts });

describe("a note's fields from the answer", () => {
  it("copies the customer trimmed, and only the addresses the answer has", () => {
    const built = note();
    expect(built.envelope.cliente).toEqual({
      documento_tipo: "CUIT",
      documento_nro: "30000000007",
      razon_social: "Empresa SA",
      condicion_iva: "RI",
    });
    const addressed = note({}, { email: " a@example.com ", domicilio: "Calle 1" }).envelope.cliente;
    expect(addressed).toMatchObject({ email: "a@example.com", domicilio: "Calle 1" });
    expect(addressed.envia_por_mail).toBeUndefined();
  });

  it("reads the customer's VAT condition for the operation first, then the general one, if the class takes it", () => {
    expect(note({}, { condicion_iva: "M" }).envelope.cliente.condicion_iva).toBe("M");
    expect(note({}, { condicion_iva: "M" }).assumed).toEqual([]);
    expect(note({}, { condicion_iva: "RI", condicion_iva_operacion: "M" }).envelope.cliente.condicion_iva).toBe("M");
    // CF is no condition of class A: the default, and the caller told it was assumed.
    const assumed = note({}, { condicion_iva: "CF" });
    expect([assumed.envelope.cliente.condicion_iva, assumed.assumed]).toEqual(["RI", ["condicion_iva"]]);
    // Class B and C default to a final consumer.
    const b = note({ tipo: "FACTURA B" }, { documento_tipo: "DNI", documento_nro: "30123456" });
    expect(b.envelope.cliente.condicion_iva).toBe("CF");
    const c = note({ tipo: "FACTURA C", total: "100" }, { documento_tipo: "CUIT" });
    expect(c.envelope.cliente.condicion_iva).toBe("CF");
    expect(c.envelope.comprobante.tipo).toBe("NOTA DE CREDITO C");
  });

  it("e-mails the note when asked, to the voucher's address; without one it cannot", () => {
    const mailed = note({}, { email: "a@example.com" }, { mail: true });
    expect(mailed.envelope.cliente).toMatchObject({ email: "a@example.com", envia_por_mail: "S" });
    expect(() => note({}, {}, { mail: true })).toThrow(
      new NoteSourceError("FACTURA A 00679-00000012 has no e-mail address at the service: its note cannot be e-mailed"),
    );
  });

  it("copies items as a request writes them: discounts, legends and internal taxes only where there are some", () => {
    const built = note({
      detalle: [
        {
          cantidad: 2,
          bonificacion_porcentaje: "10.00",
          leyenda: " con garantía ",
          producto: {
            descripcion: "Producto 1",
            precio_unitario_sin_iva: 50,
            alicuota: 21,
            impuestos_internos_alicuota: "8",
          },
        },
      ],
      total: "",
    });
    expect(built.envelope.comprobante.detalle).toEqual([
      {
        cantidad: "2",
        bonificacion_porcentaje: "10",
        leyenda: "con garantía",
        producto: {
          descripcion: "Producto 1",
          precio_unitario_sin_iva: "50",
          alicuota: "21",
          impuestos_internos_alicuota: "8",
        },
      },
    ]);
    expect(built.source.total).toBeNull();
    // 2 × 50 less 10 % = 90, with VAT 18.90 and internal taxes.
    expect(built.envelope.comprobante.total).toBe("116.10");
  });

  it("keeps the voucher's currency, language, period, discount and tributes; defaults the rest", () => {
    const built = note({
      moneda: "DOL",
      cotizacion: "1050.5",
      idioma: "2",
      periodo_facturado_desde: "01/11/2026",
      periodo_facturado_hasta: "18/11/2026",
      bonificacion: "10",
      tributos: [{ tipo: "7", regimen: 5, base_imponible: "90", alicuota: "3", total: 2.7 }],
      rubro: "",
      total: "111.60",
    }).envelope.comprobante;
    expect(built).toMatchObject({
      moneda: "DOL",
      cotizacion: "1050.5",
      idioma: 2,
      periodo_facturado_desde: "01/11/2026",
      periodo_facturado_hasta: "18/11/2026",
      bonificacion: "10",
      tributos: [{ tipo: 7, regimen: 5, base_imponible: "90", alicuota: "3", total: "2.7" }],
      rubro: "Ventas",
      rubro_grupo_contable: "Ventas",
      total: "111.60",
    });
    const plain = note({ cotizacion: "1050.5", idioma: 0, periodo_facturado_desde: "01/11/2026" }).envelope.comprobante;
    expect(plain).toMatchObject({ moneda: "PES", rubro: "Servicios", rubro_grupo_contable: "Servicios" });
    for (const absent of ["cotizacion", "idioma", "periodo_facturado_desde", "bonificacion", "tributos"])
      expect(plain, absent).not.toHaveProperty(absent);
    expect(note({ moneda: "" }).envelope.comprobante.moneda).toBe("PES");
    expect(note({ moneda: "DOL", cotizacion: "x" }).envelope.comprobante).not.toHaveProperty("cotizacion");
  });

  it("names the issuer from the QR, the tax QR, or the CUIT given, written any way", () => {
    const asociado = (built: ReturnType<typeof note>) =>
      (built.envelope.comprobante.comprobantes_asociados as Json[])[0]?.cuit;
    expect(asociado(note({ afip_qr: "", tax_qr: qr(20111111112) }))).toBe("20111111112");
    expect(asociado(note({ afip_qr: qr(20111111112) }, {}, { issuerCuit: ISSUER }))).toBe("20111111112");
    expect(asociado(note({ afip_qr: "" }, {}, { issuerCuit: "30-71229384-1" }))).toBe(ISSUER);
    expect(asociado(note({ afip_qr: 5 }, {}, { issuerCuit: "30 71229384.1" }))).toBe(ISSUER);
    expect(() => note({ afip_qr: "" }, {}, { issuerCuit: "" })).toThrow(/issuer's CUIT/);
  });

  it("refuses a voucher without a number, point of sale or date", () => {
    for (const missing of [
      { numero: 0 },
      { numero: "x" },
      { punto_venta: 0 },
      { punto_venta: null },
      { fecha: "18/11/26" },
    ])
      expect(() => note(missing), JSON.stringify(missing)).toThrow(
        new NoteSourceError(
          "FACTURA A has no number or date yet (is it still queued?): a note names an issued voucher",
        ),
      );
    expect(() => note({ fecha: " 18/11/2026 " })).not.toThrow();
  });

  it("refuses a condition the user gives that the class does not take", () => {
    expect(() => note({ tipo: "FACTURA B" }, {}, { condicionIva: "RI" })).toThrow(
      new NoteSourceError("a class B voucher goes to a customer whose VAT condition is CF, E, CDEX, IVNA, not RI"),
    );
  });
});

describe("which note", () => {
  it("names the voucher it cannot adjust", () => {
    expect(() => noteType("")).toThrow(new NoteSourceError("? is not a voucher a credit or debit note adjusts"));
    expect(() => noteType("PRESUPUESTO")).toThrow(
      new NoteSourceError("PRESUPUESTO is not a voucher a credit or debit note adjusts"),
    );
    expect(() => noteType("LIQUIDACIONES A")).toThrow(
      /LIQUIDACIONES A is not a voucher a credit or debit note adjusts/,
    );
    expect(() => noteType("NOTA DE DEBITO ELECTRONICA MiPyME (FCE) B", "credit")).toThrow(
      new NoteSourceError("an FCE note adjusts an FCE invoice, not NOTA DE DEBITO ELECTRONICA MiPyME (FCE) B"),
    );
    expect(noteType("FACTURA DE CREDITO ELECTRONICA MiPyME (FCE) C", "debit")).toBe(
      "NOTA DE DEBITO ELECTRONICA MiPyME (FCE) C",
    );
    expect(noteType("FACTURA C")).toBe("NOTA DE CREDITO C");
  });
});

describe("a partial note's limits", () => {
  const mixed = (c: Json = {}) =>
    answer({
      detalle: [
        { cantidad: 1, producto: { descripcion: "Item uno", precio_unitario: 100, alicuota: 21 } },
        { cantidad: 1, producto: { descripcion: "Item dos", precio_unitario: 200, alicuota: 21 } },
        { cantidad: 1, producto: { descripcion: "Item tres", precio_unitario: 50, alicuota: -1 } },
      ],
      total: "413",
      ...c,
    });
  const part = (c: Json, p: NonNullable<Parameters<typeof noteFromVoucher>[1]["part"]>, kind?: "debit") =>
    noteFromVoucher(mixed(c), { fecha: TODAY, part: p, ...(kind ? { kind } : {}) });

  it("--items: each item once, in the voucher's order; only items it has", () => {
    const built = part({}, { items: [3, 2, 3] });
    expect((built.envelope.comprobante.detalle as { producto: Json }[]).map((d) => d.producto.descripcion)).toEqual([
      "Item dos",
      "Item tres",
    ]);
    expect(built.envelope.comprobante.total).toBe("292.00");
    expect(part({}, { items: [1, 3] }).envelope.comprobante.total).toBe("171.00");
    expect(() => part({}, { items: [0, 1, 1.5, 4] })).toThrow(
      new NotePartError("FACTURA A 00679-00000012 has items 1 to 3, not 0, 1.5, 4"),
    );
  });

  it("--items is refused over a voucher-wide discount or tributes, pointing to --amount", () => {
    const over = (c: Json) => {
      try {
        part(c, { items: [1] });
      } catch (error) {
        return [(error as NotePartError).message, (error as NotePartError).hint];
      }
      return undefined;
    };
    const refusal = [
      "FACTURA A 00679-00000012 has a discount or perceptions over all its items: a note of some items cannot say its share",
      "give the amount to adjust instead (--amount)",
    ];
    expect(over({ bonificacion: "10", total: "401.20" })).toEqual(refusal);
    expect(
      over({
        tributos: [{ tipo: 7, regimen: 5, base_imponible: "350", alicuota: "1", total: "3.50" }],
        total: "416.50",
      }),
    ).toEqual(refusal);
  });

  it("--amount is positive and in cents", () => {
    for (const amount of ["0", "-5", "1.005", "abc", ""])
      expect(() => part({}, { amount }), amount).toThrow(
        new NotePartError(`the amount must be positive, in cents at most, not ${amount}`),
      );
    expect(part({}, { amount: "0.10" }).envelope.comprobante.total).toBe("0.10");
  });

  it("--amount over what items and VAT make: told apart from perceptions, which it does not adjust", () => {
    const tributos = [{ tipo: 7, regimen: 5, base_imponible: "350", alicuota: "1", total: "3.50" }];
    let caught: NotePartError | undefined;
    try {
      part({ tributos, total: "416.50" }, { amount: "414" });
    } catch (error) {
      caught = error as NotePartError;
    }
    expect(caught?.message).toBe(
      "a credit note of 414.00 is more than FACTURA A 00679-00000012 can credit: 413.00 of items and VAT; the other 3.50 of its total 416.50 are perceptions or internal taxes, which a note of an amount does not adjust",
    );
    expect(caught?.hint).toBe(
      "a whole note (no --amount) adjusts its perceptions too; or issue the note from a JSON file",
    );
    // Exactly what items and VAT make is creditable; the note carries no tributes.
    const whole = part({ tributos, total: "416.50" }, { amount: "413" }).envelope.comprobante;
    expect(whole.total).toBe("413.00");
    expect(whole).not.toHaveProperty("tributos");
    const over = (() => {
      try {
        part({}, { amount: "413.01" });
      } catch (error) {
        return error as NotePartError;
      }
    })();
    expect([over?.message, over?.hint]).toEqual([
      "a credit note of 413.01 is more than FACTURA A 00679-00000012 was worth (413.00), before what its earlier notes credited",
      undefined,
    ]);
  });

  it("--amount over a discounted voucher: lines at its rates, without the discount", () => {
    // 300 at 21 % less 10 of discount over 350: 300 − 8.57 = 291.43 + VAT 61.20; 50 − 1.43 = 48.57 exempt.
    const built = part({ bonificacion: "10", total: "401.20" }, { amount: "40.12" }).envelope.comprobante;
    expect(built).not.toHaveProperty("bonificacion");
    expect(built.total).toBe("40.12");
    const lines = built.detalle as { cantidad: string; producto: Json }[];
    expect(lines.map((l) => [l.cantidad, l.producto.alicuota, l.producto.descripcion])).toEqual([
      ["1", "21", "Ajuste s/ FACTURA A 00679-00000012 (IVA 21)"],
      ["1", "-1", "Ajuste s/ FACTURA A 00679-00000012 (exento)"],
    ]);
  });

  it("--amount on one rate: one line, named after the voucher alone, down to a cent", () => {
    const single = answer({ total: "121.00" });
    const built = noteFromVoucher(single, { fecha: TODAY, part: { amount: "12.10" } }).envelope.comprobante;
    expect(built.detalle).toEqual([
      {
        cantidad: "1",
        producto: {
          descripcion: "Ajuste s/ FACTURA A 00679-00000012",
          precio_unitario_sin_iva: "10.00",
          alicuota: "21",
        },
      },
    ]);
    // A cent at 21 %: a cent of net, its VAT rounds to nothing.
    const cent = noteFromVoucher(single, { fecha: TODAY, part: { amount: "0.01" } }).envelope.comprobante;
    expect([(cent.detalle as { producto: Json }[])[0]?.producto.precio_unitario_sin_iva, cent.total]).toEqual([
      "0.01",
      "0.01",
    ]);
  });

  it("--amount on a non-taxed line names it so", () => {
    const built = noteFromVoucher(
      answer({
        detalle: [{ cantidad: 1, producto: { descripcion: "Item uno", precio_unitario: 100, alicuota: -2 } }],
        total: "100",
      }),
      { fecha: TODAY, part: { amount: "30" } },
    ).envelope.comprobante;
    expect((built.detalle as { producto: Json }[])[0]?.producto).toMatchObject({
      descripcion: "Ajuste s/ FACTURA A 00679-00000012",
      precio_unitario_sin_iva: "30.00",
      alicuota: "-2",
    });
    const several = noteFromVoucher(
      answer({
        detalle: [
          { cantidad: 1, producto: { descripcion: "Item uno", precio_unitario: 100, alicuota: -2 } },
          { cantidad: 1, producto: { descripcion: "Item dos", precio_unitario: 100, alicuota: 10.5 } },
        ],
        total: "210.50",
      }),
      { fecha: TODAY, part: { amount: "21.05" } },
    ).envelope.comprobante;
    expect((several.detalle as { producto: Json }[]).map((d) => d.producto.descripcion)).toEqual([
      "Ajuste s/ FACTURA A 00679-00000012 (IVA 10,5)",
      "Ajuste s/ FACTURA A 00679-00000012 (no gravado)",
    ]);
    expect(several.total).toBe("21.05");
  });

  it("--amount on a voucher without VAT: one line at its items' rate", () => {
    const c = answer({
      tipo: "FACTURA C",
      detalle: [
        { cantidad: 1, producto: { descripcion: "Item uno", precio_unitario: 100, alicuota: 0 } },
        { cantidad: 2, producto: { descripcion: "Item dos", precio_unitario: 50, alicuota: 0 } },
      ],
      total: "200",
    });
    const built = noteFromVoucher(c, { fecha: TODAY, part: { amount: "55.55" } });
    expect(built.envelope.comprobante.detalle).toEqual([
      {
        cantidad: "1",
        producto: {
          descripcion: "Ajuste s/ FACTURA A 00679-00000012".replace("FACTURA A", "FACTURA C"),
          precio_unitario_sin_iva: "55.55",
          alicuota: "0",
        },
      },
    ]);
    expect(codes(check(built.envelope))).toEqual([]);
    expect(() => noteFromVoucher(c, { fecha: TODAY, part: { amount: "200.01" } })).toThrow(
      /was worth \(200\.00\), before what its earlier notes credited/,
    );
  });

  it("a debit note of any amount", () => {
    expect(part({}, { amount: "1000" }, "debit").envelope.comprobante.total).toBe("1000.00");
  });
});

describe("a note from an answer it cannot fully read", () => {
  /** The error `build` throws, to read its code, outcome and hint. */
  function thrown(build: () => unknown): NoteSourceError | NotePartError | undefined {
    try {
      build();
    } catch (error) {
      return error as NoteSourceError | NotePartError;
    }
    return undefined;
  }

  it("tells a voucher that cannot be adjusted from a part that does not fit, by code, as invalid input", () => {
    expect(thrown(() => noteType("RECIBO C"))).toMatchObject({ outcome: "invalid", code: "notes.source" });
    expect(thrown(() => note({}, {}, { part: { items: [2] } }))).toMatchObject({
      outcome: "invalid",
      code: "notes.part",
    });
    // The note that would undo it is named, and the voucher it was asked for.
    expect(() => noteType("NOTA DE CREDITO B", "credit")).toThrow(
      new NoteSourceError("NOTA DE CREDITO B is a credit note: a debit note undoes it, not another credit note"),
    );
    expect(() => noteType("NOTA DE DEBITO A", "debit")).toThrow(
      new NoteSourceError("NOTA DE DEBITO A is a debit note: a credit note undoes it, not another debit note"),
    );
  });

  it("takes only a date written whole as the voucher's date", () => {
    for (const fecha of ["x18/11/2026", "18/11/20260"])
      expect(() => note({ fecha }), fecha).toThrow(/has no number or date yet/);
  });

  it("takes the service's total within the authority's cent, and points to a JSON file beyond it", () => {
    expect(note({ total: "121.01" }).envelope.comprobante.total).toBe("121.00");
    const off = thrown(() => note({ total: "121.02" }));
    expect(off?.message).toBe("the items of FACTURA A 12 add up to 121.00, but the service says its total is 121.02");
    expect(off?.hint).toBe("issue the note from a JSON file with the items it adjusts");
    // Amounts, in the reader's notation.
    expect(render((off as NoteSourceError).text, "es", ES)).toBe(
      "los ítems de FACTURA A 12 suman 121,00, pero el servicio dice que su total es 121,02",
    );
  });

  it("keeps a field the answer lacks empty, for validation to name; no items or tributes where it sends no list", () => {
    const blank = note({
      detalle: [{ producto: { descripcion: "Sin precio" } }],
      tributos: [{ tipo: 7, regimen: 5 }],
    }).envelope.comprobante;
    expect(blank.detalle).toEqual([
      { cantidad: "", producto: { descripcion: "Sin precio", precio_unitario_sin_iva: "", alicuota: "" } },
    ]);
    expect(blank.tributos).toEqual([{ tipo: 7, regimen: 5, base_imponible: "", alicuota: "", total: "" }]);
    // Unreadable items make no total; the note is still built for validation to refuse.
    expect(blank.total).toBeUndefined();
    const none = note({ detalle: "x", tributos: "x" }).envelope.comprobante;
    expect(none.detalle).toEqual([]);
    expect("tributos" in none).toBe(false);
  });

  it("a part of unreadable items: some items keep no total, an amount cannot be split", () => {
    const unreadable = { detalle: [{ cantidad: 1, producto: { descripcion: "Sin precio", alicuota: 21 } }] };
    const some = note(unreadable, {}, { part: { items: [1] } }).envelope.comprobante;
    expect(some.detalle).toHaveLength(1);
    expect(some.total).toBeUndefined();
    expect(() => note(unreadable, {}, { part: { amount: "10" } })).toThrow(
      new NoteSourceError("the items of FACTURA A cannot be read back"),
    );
  });

  it("an amount over a voucher whose answer gave no total is measured against its items' total", () => {
    expect(() => note({ total: null }, {}, { part: { amount: "200" } })).toThrow(
      new NotePartError(
        "a credit note of 200.00 is more than FACTURA A 00679-00000012 was worth (121.00), before what its earlier notes credited",
      ),
    );
  });

  it("an FCE note to a customer without a CUIT assumes a final consumer", () => {
    const fce = note(
      { tipo: "FACTURA DE CREDITO ELECTRONICA MiPyME (FCE) B" },
      { documento_tipo: "DNI", documento_nro: "30123456" },
    );
    expect(fce.envelope.cliente.condicion_iva).toBe("CF");
    expect(fce.assumed).toEqual(["condicion_iva"]);
  });
});

describe("a note of an amount no net makes to the cent", () => {
  it("takes the net below when the nearest one would give back more than asked", () => {
    // 0.17 at 21 % is 0.21 with its VAT, over the 0.20 asked; 0.16 is 0.19.
    const built = note({}, {}, { part: { amount: "0.20" } }).envelope.comprobante;
    expect(built.detalle).toMatchObject([{ producto: { precio_unitario_sin_iva: "0.16", alicuota: "21" } }]);
    expect(built.total).toBe("0.19");
  });
});

describe("the voucher a note adjusts, found by its reference (issuedVoucher)", () => {
  const held = (echoed: unknown, numero: number, state: ServiceVoucher["state"] = "issued") =>
    ({
      external_reference: String(echoed),
      state,
      status: "EMITIDO",
      tipo: "FACTURA B",
      punto_venta: 679,
      numero,
      raw: { comprobante: { external_reference: echoed, numero } },
    }) as unknown as ServiceVoucher;
  const serving = (...list: ServiceVoucher[]) => ({ findByReference: async () => list }) as unknown as Service;

  it("is named as asked: an echo that lost its zeros (00777 given back as 777) does not rename it", async () => {
    const found = await issuedVoucher(serving(held(777, 5)), "00777");
    expect(found.external_reference).toBe("00777");
    expect(found.raw.comprobante.external_reference).toBe("00777");
    expect(found.numero).toBe(5);
  });

  it("the reference given back as this very text wins over a number that reads as it", async () => {
    expect((await issuedVoucher(serving(held(777, 5), held("00777", 9)), "00777")).numero).toBe(9);
  });

  it("two issued vouchers that read alike are refused, named, never guessed", async () => {
    const both = serving(held(777, 5), held(777, 9));
    await expect(issuedVoucher(both, "777")).rejects.toThrow(
      /2 issued vouchers read as 777 \(FACTURA B 00679-00000005, FACTURA B 00679-00000009\)/,
    );
    await expect(issuedVoucher(both, "777")).rejects.toBeInstanceOf(NoteSourceError);
    // The same voucher listed twice is one.
    expect((await issuedVoucher(serving(held(777, 5), held(777, 5)), "777")).numero).toBe(5);
  });
});
