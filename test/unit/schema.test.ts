import { describe, expect, it } from "vitest";
import * as z from "zod";
import { envelopeSchema } from "../../src/voucher/schema.js";
import { baseVoucher, check, codes } from "../helpers.js";

function firstError(mutate: (raw: ReturnType<typeof baseVoucher>) => void) {
  const raw = baseVoucher();
  mutate(raw);
  const r = check(raw);
  return r.findings.find((f) => f.severity === "error");
}

describe("the voucher schema", () => {
  it("takes numbers as JSON numbers or numeric text, and keeps them exact", () => {
    const raw = baseVoucher();
    raw.comprobante.detalle[0].cantidad = "1.00";
    raw.comprobante.detalle[0].producto.precio_unitario_sin_iva = " 100 ";
    raw.comprobante.total = "121.00";
    raw.comprobante.punto_venta = "0010";
    const r = check(raw);
    expect(r.ok).toBe(true);
    expect(r.envelope?.comprobante.detalle[0]?.cantidad).toBe("1");
    expect(r.envelope?.comprobante.punto_venta).toBe(10);
  });

  it("takes a product code written as a whole number, as the service's examples do, and keeps it as text", () => {
    const raw = baseVoucher();
    raw.comprobante.detalle[0].producto.codigo = 37;
    const r = check(raw);
    expect(r.ok).toBe(true);
    expect(r.envelope?.comprobante.detalle[0]?.producto.codigo).toBe("37");
    expect(firstError((r) => (r.comprobante.detalle[0].producto.codigo = 3.5))?.message).toMatch(
      /a code is text, or a whole number/,
    );
    expect(firstError((r) => (r.comprobante.detalle[0].producto.codigo = "A".repeat(51)))?.message).toMatch(
      /at most 50 characters/,
    );
  });

  it("takes a supplier's payment condition 0 and its text 0, as the service's purchase example sends them", () => {
    const raw = baseVoucher();
    raw.comprobante.operacion = "C";
    // A purchase names the supplier's voucher number (purchase.numero).
    raw.comprobante.numero = 24;
    // A supplier of a fiscal voucher has a CUIT.
    raw.proveedor = {
      ...raw.cliente,
      documento_tipo: "CUIT",
      documento_nro: "30712293841",
      condicion_iva: "RI",
      condicion_pago: 0,
      condicion_pago_otra: 0,
    };
    delete raw.cliente;
    const r = check(raw);
    expect(r.findings.filter((f) => f.severity === "error")).toEqual([]);
    expect(r.envelope?.proveedor).toMatchObject({ condicion_pago: 0, condicion_pago_otra: 0 });
    // A customer's is still a code of the table.
    expect(firstError((v) => (v.cliente.condicion_pago = 0))?.message).toMatch(/unknown payment condition code 0/);
  });

  it("takes a voucher type in any case or with accents as the service's name, and suggests one for a typo", () => {
    for (const written of [
      "factura b",
      "  Factura   B ",
      "nota de crédito b",
      "factura de credito electronica mipyme (fce) a",
    ]) {
      const raw = baseVoucher();
      raw.comprobante.tipo = written;
      if (written.includes("nota"))
        raw.comprobante.comprobantes_asociados_periodo = { fecha_desde: "01/11/2026", fecha_hasta: "20/11/2026" };
      const r = check(raw);
      expect(r.envelope?.comprobante.tipo, written).toMatch(
        /^(FACTURA B|NOTA DE CREDITO B|FACTURA DE CREDITO ELECTRONICA MiPyME \(FCE\) A)$/,
      );
    }
    expect(firstError((r) => (r.comprobante.tipo = "FACTRA B"))?.message).toMatch(/did you mean "FACTURA B"\?/);
    expect(firstError((r) => (r.comprobante.tipo = "RECIBO Z"))?.message).toMatch(/unknown voucher type "RECIBO Z"/);
  });

  it("refuses numbers with a comma, exponent, too many decimals or digits", () => {
    expect(firstError((r) => (r.comprobante.detalle[0].producto.precio_unitario_sin_iva = "100,5"))?.message).toMatch(
      /decimal point/,
    );
    expect(firstError((r) => (r.comprobante.detalle[0].producto.precio_unitario_sin_iva = 1e25))?.message).toMatch(
      /exponent/,
    );
    expect(firstError((r) => (r.comprobante.detalle[0].producto.precio_unitario_sin_iva = 1.2345))?.message).toMatch(
      /3 decimals/,
    );
    expect(firstError((r) => (r.comprobante.detalle[0].cantidad = 1.234))?.message).toMatch(/2 decimals/);
    expect(firstError((r) => (r.comprobante.total = "12345678901234"))?.message).toMatch(/13 digits/);
    expect(firstError((r) => (r.comprobante.detalle[0].cantidad = 0))?.message).toMatch(/greater than 0/);
    // A negative price is a discount line: alone, it leaves a negative total.
    expect(firstError((r) => (r.comprobante.detalle[0].producto.precio_unitario_sin_iva = -1))?.code).toBe(
      "negative.totals",
    );
    expect(firstError((r) => (r.comprobante.detalle[0].bonificacion_porcentaje = 101))?.message).toMatch(/at most 100/);
  });

  it("takes dates that exist, pads d/m/yyyy, refuses other shapes", () => {
    const raw = baseVoucher();
    raw.comprobante.fecha = "5/11/2026";
    raw.comprobante.vencimiento = "1/12/2026";
    const r = check(raw);
    expect(r.envelope?.comprobante.fecha).toBe("05/11/2026");
    expect(firstError((x) => (x.comprobante.vencimiento = "29/02/2028"))).toBeUndefined(); // leap year
    expect(firstError((x) => (x.comprobante.fecha = "29/02/2026"))?.message).toMatch(/not a date in the calendar/);
    expect(firstError((x) => (x.comprobante.fecha = "31/04/2026"))?.message).toMatch(/not a date in the calendar/);
    expect(firstError((x) => (x.comprobante.fecha = "2026-11-20"))?.message).toMatch(/dd\/mm\/yyyy/);
  });

  it("reads S/N flags from booleans and any case", () => {
    const raw = baseVoucher();
    raw.cliente.envia_por_mail = false;
    raw.comprobante.detalle[0].afecta_stock = "s";
    const r = check(raw);
    expect(r.envelope?.cliente?.envia_por_mail).toBe("N");
    expect(r.envelope?.comprobante.detalle[0]?.afecta_stock).toBe("S");
    expect(firstError((x) => (x.cliente.envia_por_mail = "Y"))?.message).toMatch(/"S" or "N"/);
  });

  it("knows the code tables", () => {
    expect(firstError((r) => (r.comprobante.tipo = "Factura Z"))?.message).toMatch(/unknown voucher type/);
    expect(firstError((r) => (r.cliente.provincia = 27))?.message).toMatch(/unknown province code 27/);
    expect(firstError((r) => (r.cliente.condicion_pago = 200))?.message).toMatch(/unknown payment condition/);
    expect(firstError((r) => (r.comprobante.detalle[0].producto.unidad_medida = 12))?.message).toMatch(
      /unit of measure/,
    );
    expect(firstError((r) => (r.comprobante.detalle[0].producto.alicuota = 19))?.message).toMatch(
      /VAT rate must be one of/,
    );
    expect(firstError((r) => (r.comprobante.idioma = 3))?.message).toMatch(/unknown language/);
    expect(firstError((r) => (r.cliente.condicion_iva = "XX"))?.message).toMatch(/expected one of CF, RI/);
    expect(firstError((r) => (r.cliente.documento_tipo = "RUT"))?.message).toMatch(/expected one of DNI, CUIT/);
    const exempt = baseVoucher();
    exempt.comprobante.detalle[0].producto.alicuota = "EXENTO";
    expect(check(exempt).ok).toBe(false);
  });

  it("accepts every voucher type string exactly as the service spells it", () => {
    for (const tipo of ["NOTA DE DEBITO ELECTRONICA MiPyME (FCE) C", "RECIBO C", "LIQUIDACIONES B", "PRESUPUESTO"]) {
      expect(firstError((r) => (r.comprobante.tipo = tipo))?.code, tipo).not.toBe("schema.invalid");
    }
  });

  it("names unknown and missing fields by their path", () => {
    const typo = firstError((r) => (r.comprobante.detalle[0].producto.precio = 1));
    expect(typo).toMatchObject({
      code: "schema.unknown-field",
      path: ["comprobante", "detalle", 0, "producto", "precio"],
    });
    const missing = firstError((r) => delete r.comprobante.rubro);
    expect(missing).toMatchObject({ code: "schema.required", path: ["comprobante", "rubro"] });
  });

  it("reads empty strings as absent fields, as the service's own examples send them", () => {
    const raw = baseVoucher();
    Object.assign(raw.comprobante, {
      periodo_facturado_desde: "",
      periodo_facturado_hasta: "",
      leyenda_gral: "",
      comentario: " ",
    });
    expect(codes(check(raw))).toEqual([]);
  });

  it("defaults operacion, moneda, idioma and the peso rate", () => {
    const env = check(baseVoucher()).envelope;
    expect(env?.comprobante).toMatchObject({ operacion: "V", moneda: "PES", idioma: 1, cotizacion: "1" });
  });

  it("ignores credentials in a file and keeps $schema", () => {
    const raw = { $schema: "./voucher.schema.json", usertoken: "x", apikey: 1, apitoken: "y", ...baseVoucher() };
    expect(check(raw).ok).toBe(true);
  });

  it("refuses control characters in texts, naming the field; tabs and line breaks are fine", () => {
    const raw = baseVoucher();
    raw.cliente.razon_social = "Juana\u0000 Pérez";
    raw.comprobante.detalle[0].producto.descripcion = "Caja \u001b[2J grande";
    raw.comprobante.leyenda_gral = "Primera línea\nsegunda\tcon tabulador";
    const findings = check(raw).findings.filter((f) => f.severity === "error");
    expect(findings.map((f) => f.path)).toEqual([
      ["cliente", "razon_social"],
      ["comprobante", "detalle", 0, "producto", "descripcion"],
    ]);
    expect(findings[0]?.message).toMatch(/control characters/);
  });

  it("refuses Unicode direction controls in texts, naming the field: they reorder what is shown", () => {
    const raw = baseVoucher();
    raw.cliente.razon_social = "Juana \u202eesneP";
    raw.comprobante.detalle[0].producto.descripcion = "Caja \u2066grande\u2069";
    raw.comprobante.leyenda_gral = "marca \u200f y \u061c";
    raw.comprobante.comentario = "عربي y español";
    const findings = check(raw).findings.filter((f) => f.severity === "error");
    expect(findings.map((f) => f.path)).toEqual([
      ["cliente", "razon_social"],
      ["comprobante", "detalle", 0, "producto", "descripcion"],
      ["comprobante", "leyenda_gral"],
    ]);
    expect(findings[0]?.message).toMatch(/direction controls/);
  });

  it("compiled (z.compile, as validate runs it past its first vouchers) reads every envelope as the schema does", () => {
    const compiled = z.compile(envelopeSchema);
    type Raw = ReturnType<typeof baseVoucher>;
    const variants: ((raw: Raw) => void)[] = [
      () => {},
      (r) => {
        r.comprobante.detalle[0].cantidad = " 0010.50 ";
        r.comprobante.detalle[0].producto.precio_unitario_sin_iva = "-12.500";
        r.comprobante.detalle[0].producto.alicuota = "10.50";
        r.comprobante.detalle[0].producto.codigo = 37;
        r.comprobante.detalle[0].bonificacion_porcentaje = "5";
        r.comprobante.detalle[0].afecta_stock = true;
        r.comprobante.punto_venta = "0010";
        r.comprobante.fecha = "1/2/2026";
        delete r.comprobante.vencimiento;
        r.comprobante.tags = ["a", "b"];
        r.comprobante.moneda = "DOL";
        r.comprobante.cotizacion = "1000.5";
        r.cliente.documento_tipo = " cuit ";
        r.cliente.documento_nro = 20123456786;
        r.cliente.envia_por_mail = "s";
      },
      (r) => {
        r.comprobante.operacion = "C";
        r.proveedor = { ...r.cliente, condicion_pago: 0, condicion_pago_otra: 0 };
        delete r.cliente;
      },
      (r) => {
        r.comprobante.tipo = "factura e";
        r.comprobante.fex = {
          tipo_exportacion: 2,
          permisos_tiene: "N",
          fecha_pago: "20/11/2026",
          permisos: [{ codigo_despacho: "ABC", pais_destino_id: 203 }],
          comprobantes_asociados: [{ tipo_comprobante: "FACTURA E", punto_venta: 1, numero: 2, cuit: "30712345678" }],
        };
        r.comprobante.tributos = [{ tipo: 1, regimen: 2, base_imponible: 100, alicuota: "3", total: "3.00" }];
        r.comprobante.pagos = { formas_pago: [{ descripcion: "Efectivo", importe: 121 }], total: 121 };
        r.comprobante.rg_especiales = { regimen: "FCE", datos: [{ id: 22, valor: 1 }] };
        r.comprobante.comprobantes_asociados = [
          {
            tipo_comprobante: "FACTURA B",
            punto_venta: 1,
            numero: 1,
            comprobante_fecha: "1/1/2026",
            cuit: "30712345678",
          },
        ];
        r.comprobante.comprobantes_asociados_periodo = { fecha_desde: "01/11/2026", fecha_hasta: "19/11/2026" };
        r.comprobante.abono = false;
        r.comprobante.abono_hasta = "3/2027";
        r.comprobante.external_reference = 42;
        r.usertoken = 1;
      },
      // Refused: the compiled parser hands these to the schema, for the same issues.
      (r) => (r.comprobante.detalle[0].cantidad = "0"),
      (r) => (r.comprobante.detalle[0].cantidad = "1,5"),
      (r) => (r.comprobante.detalle[0].producto.precio_unitario_sin_iva = "1.2345"),
      (r) => (r.comprobante.detalle[0].producto.descripcion = "abc"),
      (r) => (r.comprobante.detalle[0].producto.codigo = 3.5),
      (r) => (r.comprobante.rubro = "x".repeat(256)),
      (r) => (r.comprobante.rubro = "a\u0000b"),
      (r) => (r.comprobante.rubro = "a\u202eb"),
      (r) => (r.comprobante.fecha = "31/02/2026"),
      (r) => (r.comprobante.tipo = "FACTURA Z"),
      (r) => (r.comprobante.moneda = "dol"),
      (r) => (r.comprobante.unknown = 1),
      (r) => (r.cliente.documento_nro = "20-12345678-6"),
      (r) => (r.cliente.condicion_iva = "XX"),
      (r) => (r.comprobante.detalle = []),
      (r) => (r.comprobante.abono_hasta = "13/2027"),
      (r) => (r.comprobante.detalle[0].afecta_stock = "x"),
      (r) => (r.comprobante.punto_venta = 0),
    ];
    let taken = 0;
    for (const variant of variants) {
      const raw = baseVoucher();
      variant(raw);
      const expected = envelopeSchema.safeParse(structuredClone(raw));
      const got = compiled.safeParse(structuredClone(raw));
      expect(got.success).toBe(expected.success);
      expect(got.data).toEqual(expected.data);
      expect(got.error?.issues).toEqual(expected.error?.issues);
      if (got.success) taken++;
    }
    // The first four are valid envelopes, the others each have one problem.
    expect(taken).toBe(4);
  });
});
