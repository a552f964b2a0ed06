/** The note built from an issued voucher as the service answers it (reference §6.9), checked by the rules. */
import { describe, expect, it } from "vitest";
import { FCE_REGIME } from "../../src/voucher/codes.js";
import { NotePartError, NoteSourceError, noteFromVoucher, noteReference, noteType } from "../../src/voucher/notes.js";
import { qrUrl } from "../../src/voucher/qr.js";
import { check, codes, TODAY } from "../helpers.js";

const ISSUER = "30712293841";

/** A `consulta` item: numbers as numbers, padded document, response-only names, QR with the issuer. */
function answer(tipo: string, cliente: Record<string, unknown>, items: [number, number, number][], total: number) {
  return {
    cliente: { email: "", domicilio: "Av. Siempre Viva 742", ...cliente },
    comprobante: {
      fecha: "18/11/2026",
      tipo,
      moneda: "PES",
      idioma: 1,
      cotizacion: 1,
      operacion: "V",
      punto_venta: 679,
      numero: 12,
      periodo_facturado_desde: "",
      periodo_facturado_hasta: "",
      rubro: "Ventas",
      rubro_grupo_contable: "Ventas",
      detalle: items.map(([cantidad, precio, alicuota], i) => ({
        cantidad,
        producto: {
          descripcion: `Producto ${i + 1}`,
          precio_unitario: precio,
          alicuota,
          bonificacion: 0,
          impuestos_internos_alicuota: 0,
          precio_total: cantidad * precio,
        },
        bonificacion_porcentaje: 0,
        leyenda: "",
      })),
      bonificacion: 0,
      total,
      tributos: [],
      status: "EMITIDO",
      external_reference: "VENTA-12",
      afip_qr: qrUrl({
        ver: 1,
        fecha: "2026-11-18",
        cuit: Number(ISSUER),
        ptoVta: 679,
        tipoCmp: 1,
        nroCmp: 12,
        importe: total,
        moneda: "PES",
        ctz: 1,
        tipoCodAut: "E",
        codAut: 0,
      }),
    },
  };
}

const COMPANY = { documento_tipo: "CUIT", documento_nro: "30000000007 ", razon_social: "Empresa SA" };

describe("a note from an issued voucher", () => {
  it("FACTURA A → NOTA DE CREDITO A: same customer and items, the association, a derived reference", () => {
    const note = noteFromVoucher(answer("FACTURA A", COMPANY, [[2, 1000, 21]], 2420), { fecha: TODAY });
    expect(note.envelope).toEqual({
      cliente: {
        documento_tipo: "CUIT",
        documento_nro: "30000000007",
        razon_social: "Empresa SA",
        condicion_iva: "RI",
        domicilio: "Av. Siempre Viva 742",
      },
      comprobante: expect.objectContaining({
        tipo: "NOTA DE CREDITO A",
        fecha: TODAY,
        external_reference: "VENTA-12-NC1",
        detalle: [
          { cantidad: "2", producto: { descripcion: "Producto 1", precio_unitario_sin_iva: "1000", alicuota: "21" } },
        ],
        comprobantes_asociados: [
          {
            tipo_comprobante: "FACTURA A",
            punto_venta: 679,
            numero: 12,
            comprobante_fecha: "18/11/2026",
            cuit: ISSUER,
          },
        ],
        total: "2420.00",
      }),
    });
    // The condition was not in the answer: the caller is told it was chosen.
    expect(note.assumed).toEqual(["condicion_iva"]);
    expect(codes(check(note.envelope))).toEqual([]);
  });

  it("FACTURA B to an anonymous consumer → NOTA DE CREDITO B, several rates", () => {
    const anon = { documento_tipo: "OTRO", documento_nro: "0 ", razon_social: "Consumidor final" };
    const note = noteFromVoucher(
      answer(
        "FACTURA B",
        anon,
        [
          [1, 100, 21],
          [3, 50.5, 10.5],
        ],
        288.41,
      ),
      { fecha: TODAY, condicionIva: "CF" },
    );
    expect(note.envelope.comprobante).toMatchObject({ tipo: "NOTA DE CREDITO B", total: "288.41" });
    expect(note.envelope.cliente).toMatchObject({ documento_tipo: "OTRO", documento_nro: "0", condicion_iva: "CF" });
    expect(note.assumed).toEqual([]);
    expect(codes(check(note.envelope))).toEqual([]);
  });

  it("FACTURA M → NOTA DE CREDITO M; a debit note when asked", () => {
    const source = answer("FACTURA M", { ...COMPANY, condicion_iva: "M" }, [[1, 500, 21]], 605);
    const credit = noteFromVoucher(source, { fecha: TODAY });
    expect(credit.envelope.comprobante).toMatchObject({ tipo: "NOTA DE CREDITO M" });
    expect(credit.envelope.cliente.condicion_iva).toBe("M");
    expect(codes(check(credit.envelope))).toEqual([]);
    const debit = noteFromVoucher(source, { fecha: TODAY, kind: "debit", sequence: 2 });
    expect(debit.envelope.comprobante).toMatchObject({ tipo: "NOTA DE DEBITO M", external_reference: "VENTA-12-ND2" });
    expect(codes(check(debit.envelope))).toEqual([]);
  });

  it("FCE A → its FCE credit note, with id 22 (annulment) and no invoice data", () => {
    const fce = "FACTURA DE CREDITO ELECTRONICA MiPyME (FCE) A";
    const note = noteFromVoucher(answer(fce, COMPANY, [[1, 6_000_000, 21]], 7_260_000), {
      fecha: TODAY,
      annulment: "S",
    });
    expect(note.envelope.comprobante).toMatchObject({
      tipo: "NOTA DE CREDITO ELECTRONICA MiPyME (FCE) A",
      rg_especiales: { regimen: FCE_REGIME, datos: [{ id: 22, valor: "S" }] },
      comprobantes_asociados: [expect.objectContaining({ tipo_comprobante: fce })],
    });
    expect(codes(check(note.envelope))).toEqual([]);
    // Without an answer on annulment it says N: the note adjusts, it does not annul.
    const adjusting = noteFromVoucher(answer(fce, COMPANY, [[1, 6_000_000, 21]], 7_260_000), { fecha: TODAY });
    expect(adjusting.envelope.comprobante.rg_especiales).toMatchObject({ datos: [{ id: 22, valor: "N" }] });
  });

  it("refuses what cannot be adjusted, and items that do not add up to the voucher's total", () => {
    expect(() => noteType("RECIBO C")).toThrow(NoteSourceError);
    expect(() => noteType("FACTURA E")).toThrow(/fex/);
    expect(() => noteType("NOTA DE CREDITO ELECTRONICA MiPyME (FCE) A")).toThrow(NoteSourceError);
    // A note is undone by the opposite note: a credit note of a credit note credited the invoice twice.
    expect(() => noteType("NOTA DE CREDITO B", "credit")).toThrow(/debit note undoes it/);
    expect(() => noteType("NOTA DE DEBITO A", "debit")).toThrow(/credit note undoes it/);
    expect(noteType("NOTA DE CREDITO B", "debit")).toBe("NOTA DE DEBITO B");
    expect(noteType("NOTA DE DEBITO A", "credit")).toBe("NOTA DE CREDITO A");
    const queued = answer("FACTURA B", COMPANY, [[1, 100, 21]], 121);
    queued.comprobante.numero = 0;
    expect(() => noteFromVoucher(queued, { fecha: TODAY })).toThrow(/queued/);
    // A price read with its VAT would credit more than was invoiced.
    expect(() => noteFromVoucher(answer("FACTURA B", COMPANY, [[1, 121, 21]], 121), { fecha: TODAY })).toThrow(
      /add up to 146\.41, but the service says its total is 121/,
    );
    const noQr = answer("FACTURA A", COMPANY, [[1, 100, 21]], 121);
    noQr.comprobante.afip_qr = "";
    expect(() => noteFromVoucher(noQr, { fecha: TODAY })).toThrow(/issuer's CUIT/);
    expect(noteFromVoucher(noQr, { fecha: TODAY, issuerCuit: ISSUER }).envelope.comprobante).toMatchObject({
      comprobantes_asociados: [expect.objectContaining({ cuit: ISSUER })],
    });
  });

  it("derives a reference within the service's format", () => {
    const source = { tipo: "FACTURA B", punto_venta: 3, numero: 7, fecha: TODAY, total: null };
    expect(noteReference({ ...source, external_reference: "" })).toBe("6-3-7-NC1");
    expect(noteReference({ ...source, external_reference: "VENTA-12" })).toBe("VENTA-12-NC1");
    expect(noteReference({ ...source, external_reference: "a.b c" }, "debit")).toMatch(/^a_b_c-H[0-9a-f]{16}-ND1$/);
    expect(noteReference({ ...source, external_reference: "x".repeat(300) })).toHaveLength(255);
    for (const ref of [
      noteReference({ ...source, external_reference: "a.b c" }),
      noteReference({ ...source, external_reference: "" }, "debit", 12),
    ])
      expect(ref).toMatch(/^[A-Za-z0-9_-]{1,255}$/);
  });

  it("derives references that cannot collide: cut to fit, or with characters replaced, two vouchers' notes stay apart", () => {
    const source = { tipo: "FACTURA B", punto_venta: 3, numero: 7, fecha: TODAY, total: null };
    const long = "V".repeat(251);
    const a = noteReference({ ...source, external_reference: `${long}AAAA` });
    const b = noteReference({ ...source, external_reference: `${long}BBBB` });
    expect(a).not.toBe(b);
    expect([a.length, b.length]).toEqual([255, 255]);
    expect(noteReference({ ...source, external_reference: "a.b" })).not.toBe(
      noteReference({ ...source, external_reference: "a_b" }),
    );
    // A voucher without a reference gets `6-3-7-NC1`; one whose reference reads `6-3-7` must not.
    const unreferenced = noteReference({ ...source, external_reference: "" });
    expect(noteReference({ ...source, external_reference: "6-3-7" })).not.toBe(unreferenced);
    expect(noteReference({ ...source, external_reference: "6-3-7" })).toMatch(/^6-3-7-H[0-9a-f]{16}-NC1$/);
    expect(noteReference({ ...source, external_reference: "6-3-7-X" })).toBe("6-3-7-X-NC1");
    // A date reads as no stem (2026 is no voucher code; 01 has a leading zero): its notes keep their plain names.
    expect(noteReference({ ...source, external_reference: "2026-11-27" })).toBe("2026-11-27-NC1");
    expect(noteReference({ ...source, external_reference: "01-12-2026" })).toBe("01-12-2026-NC1");
    expect(noteReference({ ...source, external_reference: "201-2-3" })).toMatch(/^201-2-3-H[0-9a-f]{16}-NC1$/);
    // The same voucher always gets the same note reference, and each note of it its own.
    expect(noteReference({ ...source, external_reference: `${long}AAAA` }, "credit", 2)).not.toBe(a);
    expect(noteReference({ ...source, external_reference: `${long}AAAA` })).toBe(a);
  });

  describe("a partial note", () => {
    // 2 × 1000 at 21 %, 1 × 500 at 10.5 %, 1 × 300 exempt: 2420 + 552.50 + 300 = 3272.50.
    const mixed = () =>
      answer(
        "FACTURA A",
        COMPANY,
        [
          [2, 1000, 21],
          [1, 500, 10.5],
          [1, 300, -1],
        ],
        3272.5,
      );

    it("--items: those items, whole, the total theirs", () => {
      const note = noteFromVoucher(mixed(), { fecha: TODAY, part: { items: [3, 1] } });
      expect(note.envelope.comprobante.detalle).toEqual([
        expect.objectContaining({ cantidad: "2", producto: expect.objectContaining({ descripcion: "Producto 1" }) }),
        expect.objectContaining({ cantidad: "1", producto: expect.objectContaining({ descripcion: "Producto 3" }) }),
      ]);
      expect(note.envelope.comprobante.total).toBe("2720.00");
      expect(codes(check(note.envelope))).toEqual([]);
      expect(() => noteFromVoucher(mixed(), { fecha: TODAY, part: { items: [4] } })).toThrow(
        new NotePartError("FACTURA A 00679-00000012 has items 1 to 3, not 4"),
      );
    });

    it("--amount: a line per rate, in the voucher's proportion, each to the cent; the total asked for", () => {
      const note = noteFromVoucher(mixed(), { fecha: TODAY, part: { amount: "327.25" } });
      const lines = note.envelope.comprobante.detalle as { producto: Record<string, string> }[];
      // A tenth of each: 242.00 (200 net), 55.25 (50 net), 30 exempt.
      expect(lines.map((l) => [l.producto.alicuota, l.producto.precio_unitario_sin_iva])).toEqual([
        ["21", "200.00"],
        ["10.5", "50.00"],
        ["-1", "30.00"],
      ]);
      expect(lines[0]?.producto.descripcion).toBe("Ajuste s/ FACTURA A 00679-00000012 (IVA 21)");
      expect(note.envelope.comprobante.total).toBe("327.25");
      expect(codes(check(note.envelope))).toEqual([]);
    });

    it("--amount no net makes to the cent: a cent less, never more", () => {
      const single = answer("FACTURA B", { documento_tipo: "DNI", documento_nro: "30123456" }, [[1, 1000, 21]], 1210);
      // 82.64 + 17.35 = 99.99; 82.65 + 17.36 = 100.01.
      const note = noteFromVoucher(single, { fecha: TODAY, part: { amount: "100" } });
      expect(note.envelope.comprobante.total).toBe("99.99");
    });

    it("a credit note worth more than the voucher is refused; a debit note is not capped", () => {
      expect(() => noteFromVoucher(mixed(), { fecha: TODAY, part: { amount: "3272.51" } })).toThrow(
        /a credit note of 3,272\.51 is more than FACTURA A 00679-00000012 was worth \(3,272\.50\), before what its earlier notes credited/,
      );
      const debit = noteFromVoucher(mixed(), { kind: "debit", fecha: TODAY, part: { amount: "5000" } });
      expect(debit.envelope.comprobante).toMatchObject({ tipo: "NOTA DE DEBITO A", total: "5000.00" });
    });
  });

  it("an FCE B note to a company assumes an exempt customer (what class B takes), not a final consumer", () => {
    const note = noteFromVoucher(
      answer("FACTURA DE CREDITO ELECTRONICA MiPyME (FCE) B", COMPANY, [[1, 1000, 21]], 1210),
      {
        fecha: TODAY,
      },
    );
    expect(note.envelope.cliente.condicion_iva).toBe("E");
    expect(note.assumed).toEqual(["condicion_iva"]);
  });

  it("refuses a condition the class does not take, instead of sending another", () => {
    expect(() =>
      noteFromVoucher(answer("FACTURA M", COMPANY, [[1, 1000, 21]], 1210), { fecha: TODAY, condicionIva: "CF" }),
    ).toThrow(/class M voucher goes to a customer whose VAT condition is RI, M, not CF/);
  });

  it("an amount to the cent over several rates: the exempt line takes the cent the taxed ones cannot make", () => {
    const several = answer(
      "FACTURA A",
      COMPANY,
      [
        [1, 1000, 21],
        [1, 1000, 10.5],
        [1, 500, -1],
      ],
      2815,
    );
    for (const wanted of ["50.00", "100.00", "33.33", "0.01", "0.02"]) {
      const note = noteFromVoucher(several, { fecha: TODAY, part: { amount: wanted } });
      expect(note.envelope.comprobante.total).toBe(wanted);
      const lines = note.envelope.comprobante.detalle as { producto: { precio_unitario_sin_iva: string } }[];
      expect(lines.every((l) => Number(l.producto.precio_unitario_sin_iva) > 0)).toBe(true);
      expect(codes(check(note.envelope))).toEqual([]);
    }
  });
});
