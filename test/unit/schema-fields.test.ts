/**
 * The voucher schema field by field (reference §5): what each kind of field takes, how it leaves
 * (numbers as exact decimal text, dates zero-padded, flags S/N), and what it says when it refuses.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type * as z from "zod";
import { say } from "../../src/i18n/index.js";
import { Dec } from "../../src/voucher/decimal.js";
import { voucherJsonSchema } from "../../src/voucher/json-schema.js";
import {
  asociadoSchema,
  clienteSchema,
  comprobanteSchema,
  date,
  detalleSchema,
  envelopeSchema,
  fexAsociadoSchema,
  issueWords,
  pagosSchema,
  productoSchema,
  proveedorSchema,
  rgEspecialesSchema,
  tributoSchema,
} from "../../src/voucher/schema.js";

function taken(schema: z.ZodType, value: unknown): unknown {
  const r = schema.safeParse(value);
  if (!r.success)
    throw new Error(`refused ${JSON.stringify(value)}: ${r.error.issues.map((i) => say(issueWords(i))).join("; ")}`);
  return r.data;
}

function refusal(schema: z.ZodType, value: unknown): string {
  const r = schema.safeParse(value);
  if (r.success) throw new Error(`took ${JSON.stringify(value)} as ${JSON.stringify(r.data)}`);
  return r.error.issues.map((i) => say(issueWords(i))).join("; ");
}

const price = productoSchema.shape.precio_unitario_sin_iva;
const cantidad = detalleSchema.shape.cantidad;
const bonificacion = detalleSchema.shape.bonificacion_porcentaje;
const total = comprobanteSchema.shape.total;
const cotizacion = comprobanteSchema.shape.cotizacion;
const tributoAlicuota = tributoSchema.shape.alicuota;

describe("decimal fields", () => {
  it("leave as the shortest exact text of the number", () => {
    expect(taken(price, "0010.50")).toBe("10.5");
    expect(taken(price, " 7.000 ")).toBe("7");
    expect(taken(price, "0.250")).toBe("0.25");
    expect(taken(price, ".5".replace(".", "0."))).toBe("0.5");
    expect(taken(price, "000")).toBe("0");
    expect(taken(price, -12.5)).toBe("-12.5");
    expect(taken(price, "+3")).toBe("3");
    expect(taken(price, 0)).toBe("0");
  });

  it("write a negative zero as zero", () => {
    expect(taken(price, "-0")).toBe("0");
    expect(taken(price, "-0.000")).toBe("0");
    expect(taken(price, "-0.001")).toBe("-0.001");
    expect(taken(price, "-1.000")).toBe("-1");
  });

  it("refuse what is not a plain number, saying what is expected", () => {
    expect(refusal(price, "1,5")).toBe("expected a number such as 1234.56 (a decimal point, no thousands separators)");
    expect(refusal(price, "1.")).toMatch(/such as 1234\.56/);
    expect(refusal(price, true)).toMatch(/such as 1234\.56/);
    expect(refusal(price, null)).toMatch(/such as 1234\.56/);
    expect(refusal(price, Number.NaN)).toBe("expected a finite number");
    expect(refusal(price, Number.POSITIVE_INFINITY)).toBe("expected a finite number");
    expect(refusal(price, 1e21)).toBe("expected a plain decimal number, not exponent notation");
    expect(refusal(price, 1e-7)).toBe("expected a plain decimal number, not exponent notation");
  });

  it("take as many decimals as the service does, and no more", () => {
    expect(taken(price, "1.125")).toBe("1.125");
    expect(taken(price, "1.1250")).toBe("1.125");
    expect(refusal(price, "1.1255")).toBe("at most 3 decimals allowed, got 1.1255");
    expect(taken(cantidad, "1.25")).toBe("1.25");
    expect(refusal(cantidad, 1.125)).toBe("at most 2 decimals allowed, got 1.125");
    expect(taken(cotizacion, "1050.123456")).toBe("1050.123456");
    expect(refusal(cotizacion, "1050.1234567")).toMatch(/at most 6 decimals/);
  });

  it("take 13 digits before the point for amounts, fewer where the service says", () => {
    expect(taken(total, "9999999999999.99")).toBe("9999999999999.99");
    expect(taken(total, "00009999999999999")).toBe("9999999999999");
    expect(refusal(total, "10000000000000")).toBe("at most 13 digits before the decimal point");
    expect(taken(cotizacion, "9999.5")).toBe("9999.5");
    expect(refusal(cotizacion, "10000")).toBe("at most 4 digits before the decimal point");
    expect(taken(tributoAlicuota, "100")).toBe("100");
    expect(refusal(tributoAlicuota, "1000")).toMatch(/at most 3 digits before/);
  });

  it("keep their bounds: amounts from 0, quantities above 0, percentages up to 100", () => {
    expect(taken(total, "0")).toBe("0");
    expect(refusal(total, "-0.01")).toBe("must be at least 0, got -0.01");
    expect(taken(cantidad, "0.01")).toBe("0.01");
    expect(refusal(cantidad, "0")).toBe("must be greater than 0, got 0");
    expect(refusal(cantidad, -1)).toBe("must be greater than 0, got -1");
    expect(taken(bonificacion, 100)).toBe("100");
    expect(taken(bonificacion, "0")).toBe("0");
    expect(refusal(bonificacion, "100.01")).toBe("must be at most 100, got 100.01");
    expect(refusal(bonificacion, "-0.5")).toBe("must be at least 0, got -0.5");
    expect(refusal(cotizacion, 0)).toBe("must be greater than 0, got 0");
    // A price has no bound: a negative one is a discount line.
    expect(taken(price, "-99999999")).toBe("-99999999");
  });
});

describe("whole-number and code fields", () => {
  const puntoVenta = comprobanteSchema.shape.punto_venta;
  const numero = comprobanteSchema.shape.numero;
  const tipoTributo = tributoSchema.shape.tipo;

  it("take JSON integers and digit text, within their bounds", () => {
    expect(taken(puntoVenta, 1)).toBe(1);
    expect(taken(puntoVenta, " 0042 ")).toBe(42);
    expect(taken(puntoVenta, 99999)).toBe(99999);
    expect(refusal(puntoVenta, 0)).toBe("must be between 1 and 99999, got 0");
    expect(refusal(puntoVenta, 100000)).toBe("must be between 1 and 99999, got 100000");
    expect(taken(numero, 0)).toBe(0);
    expect(refusal(numero, 100_000_000)).toMatch(/between 0 and 99999999/);
    expect(refusal(puntoVenta, 1.5)).toBe("expected a point of sale number");
    expect(refusal(puntoVenta, "1.0")).toBe("expected a point of sale number");
    expect(refusal(puntoVenta, "-1")).toBe("expected a point of sale number");
    expect(refusal(puntoVenta, true)).toBe("expected a point of sale number");
    expect(refusal(tipoTributo, "x")).toBe("expected a tributo type code");
    expect(refusal(clienteSchema.shape.reclama_deuda_dias, "x")).toBe("expected a whole number");
  });

  it("take a code of its table, as a number or as text", () => {
    const provincia = clienteSchema.shape.provincia;
    expect(taken(provincia, 2)).toBe(2);
    expect(taken(provincia, "02")).toBe(2);
    expect(refusal(provincia, 99)).toBe("unknown province code 99");
    expect(refusal(provincia, "Buenos Aires")).toBe("expected a province code");
    expect(refusal(provincia, 2.5)).toBe("expected a province code");
  });
});

describe("what each field says when it refuses", () => {
  it("names the field's kind in the message, so the user knows what to write", () => {
    const asociado = {
      tipo_comprobante: "FACTURA B",
      punto_venta: 1,
      numero: 1,
      comprobante_fecha: "20/11/2026",
      cuit: "30712345678",
    };
    const fexAsociado = { tipo_comprobante: "FACTURA E", punto_venta: 1, numero: 1, cuit: "30712345678" };
    const fex = comprobanteSchema.shape.fex.unwrap();
    for (const [schema, value, message] of [
      [rgEspecialesSchema, { regimen: "RG 4004-E", datos: [{ id: "x", valor: 1 }] }, "expected a regime data id"],
      [pagosSchema, { formas_pago: [], total: 1 }, "list at least one payment"],
      [asociadoSchema, { ...asociado, punto_venta: "x" }, "expected a point of sale number"],
      [asociadoSchema, { ...asociado, numero: "x" }, "expected a voucher number"],
      [asociadoSchema, { ...asociado, cuit: true }, "expected the issuer's CUIT (digits only)"],
      [fexAsociadoSchema, { ...fexAsociado, punto_venta: "x" }, "expected a point of sale number"],
      [fexAsociadoSchema, { ...fexAsociado, numero: "x" }, "expected a voucher number"],
      [fexAsociadoSchema, { ...fexAsociado, cuit: true }, "expected the issuer's CUIT (digits only)"],
      [fex, { tipo_exportacion: "x" }, "expected an export type (1 goods, 2 services, 4 other)"],
      [fex, { tipo_exportacion: 1, pais_comprobante_id: "x" }, "expected a country id"],
      [fex, { tipo_exportacion: 1, cliente_pais_cuit: true }, "expected the country CUIT (digits only)"],
      [
        fex,
        { tipo_exportacion: 1, permisos: [{ codigo_despacho: "D", pais_destino_id: "x" }] },
        "expected a country id",
      ],
      [
        tributoSchema,
        { tipo: 7, regimen: "x", base_imponible: 1, alicuota: 1, importe: 1 },
        "expected a tributo regime code",
      ],
      [comprobanteSchema.shape.operacion, "X", 'expected "V" (sale) or "C" (purchase)'],
      [comprobanteSchema.shape.numero, "x", "expected a voucher number of at most 8 digits"],
      [comprobanteSchema.shape.abono_frecuencia, "x", "expected a frequency in months"],
      [comprobanteSchema.shape.detalle, [], "a voucher needs at least one item"],
      [comprobanteSchema.shape.moneda, "PESO", "expected a 3-character currency code such as PES, DOL or 060"],
      [comprobanteSchema.shape.moneda, "XPES", "expected a 3-character currency code such as PES, DOL or 060"],
      [clienteSchema.shape.documento_tipo, 5, "expected one of DNI, CUIT, CUIL, CDI, PASAPORTE, OTRO, LE, LC"],
    ] as const) {
      expect(refusal(schema as z.ZodType, value), JSON.stringify(value)).toContain(message);
    }
  });

  it("keeps each field's bounds where a list of fields shares a kind", () => {
    const internal = comprobanteSchema.shape.impuestos_internos_alicuota;
    const productInternal = productoSchema.shape.impuestos_internos_alicuota;
    for (const rate of [internal, productInternal]) {
      expect(taken(rate, "8.5")).toBe("8.5");
      expect(taken(rate, 100)).toBe("100");
      expect(refusal(rate, "100.01")).toMatch(/100/);
      expect(refusal(rate, "-1")).toMatch(/0/);
      expect(refusal(rate, "8.555")).toMatch(/decimal/);
    }
    const other = proveedorSchema.shape.condicion_pago_otra;
    expect(taken(other, "x".repeat(100))).toBe("x".repeat(100));
    expect(refusal(other, "x".repeat(101))).toBe("must have at most 100 characters");
  });

  it("a supplier's payment condition, 0 or a code: what a wrong one is, as the user reads it", async () => {
    const { readFileSync } = await import("node:fs");
    const { validateEnvelope } = await import("../../src/voucher/validate.js");
    const raw = JSON.parse(readFileSync(new URL("../../samples/purchase-proveedor.json", import.meta.url), "utf8"));
    raw.proveedor.condicion_pago = 999;
    raw.proveedor.condicion_pago_otra = "x".repeat(101);
    const typed = structuredClone(raw);
    typed.proveedor.condicion_pago_otra = 5;
    typed.proveedor.condicion_pago = "x";
    expect(
      validateEnvelope(typed)
        .findings.filter((f) => f.severity === "error")
        .map((f) => f.message),
    ).toEqual(["expected a payment condition code", "Invalid input: expected string, received number"]);
    // Neither branch near (a reference is text or a whole number): zod's own words.
    const reference = structuredClone(raw);
    reference.proveedor = JSON.parse(
      readFileSync(new URL("../../samples/purchase-proveedor.json", import.meta.url), "utf8"),
    ).proveedor;
    reference.comprobante.external_reference = true;
    expect(
      validateEnvelope(reference)
        .findings.filter((f) => f.severity === "error")
        .map((f) => [f.path.join("."), f.message]),
    ).toEqual([["comprobante.external_reference", "Invalid input"]]);
    // A whole number below 0: zod itself tells the branch that got past its type.
    reference.comprobante.external_reference = -1;
    expect(
      validateEnvelope(reference)
        .findings.filter((f) => f.severity === "error")
        .map((f) => f.message),
    ).toEqual(["Too small: expected number to be >=0"]);
    // Each a union of 0 and the field's kind: told as the kind tells it, not zod's "Invalid input".
    const errors = validateEnvelope(raw).findings.filter((f) => f.severity === "error");
    expect(errors.map(({ path, message, code }) => ({ path, message, code }))).toEqual([
      { path: ["proveedor", "condicion_pago"], message: "unknown payment condition code 999", code: "schema.invalid" },
      {
        path: ["proveedor", "condicion_pago_otra"],
        message: "must have at most 100 characters; it has 101",
        code: "text.max",
      },
    ]);
  });
});

describe("document numbers", () => {
  const documento = clienteSchema.shape.documento_nro;
  const cuit = asociadoSchema.shape.cuit;

  it("are digits, from a number or trimmed text, up to the field's length", () => {
    expect(taken(documento, 30123456)).toBe("30123456");
    expect(taken(documento, " 30123456 ")).toBe("30123456");
    expect(taken(documento, "1".repeat(20))).toBe("1".repeat(20));
    expect(refusal(documento, "1".repeat(21))).toBe(
      `the document number must be 1 to 20 digits, with no dashes or dots; got "${"1".repeat(21)}"`,
    );
    expect(taken(cuit, "30712293841")).toBe("30712293841");
    expect(refusal(cuit, "307122938411")).toMatch(/must be 1 to 11 digits/);
    expect(refusal(cuit, "30-71229384-1")).toMatch(/no dashes or dots; got "30-71229384-1"/);
    expect(refusal(documento, "")).toMatch(/must be 1 to 20 digits/);
    expect(refusal(documento, null)).toBe("expected the document number (digits only)");
    expect(refusal(documento, ["1"])).toBe("expected the document number (digits only)");
  });

  it("document types in any case", () => {
    expect(taken(clienteSchema.shape.documento_tipo, " cuit ")).toBe("CUIT");
  });
});

describe("dates", () => {
  const fecha = date();

  it("are dd/mm/yyyy days of the calendar, padded", () => {
    expect(taken(fecha, "5/3/2026")).toBe("05/03/2026");
    expect(taken(fecha, " 5/3/2026 ")).toBe("05/03/2026");
    expect(taken(fecha, "31/12/2026")).toBe("31/12/2026");
    expect(taken(fecha, "29/02/2028")).toBe("29/02/2028");
    // Asked again, from the cache: the same answer.
    expect(taken(fecha, "5/3/2026")).toBe("05/03/2026");
    // A day with more around it is not that day.
    for (const text of ["x20/11/2026", "120/11/2026", "20/11/2026x", "20/11/20261"])
      expect(refusal(fecha, text), text).toMatch(/dd\/mm\/yyyy/);
    expect(refusal(fecha, "29/02/2026")).toBe("29/02/2026 is not a date in the calendar");
    expect(refusal(fecha, " 32/01/2026 ")).toBe("32/01/2026 is not a date in the calendar");
    expect(refusal(fecha, "01/13/2026")).toBe("01/13/2026 is not a date in the calendar");
    expect(refusal(fecha, "00/01/2026")).toBe("00/01/2026 is not a date in the calendar");
    expect(refusal(fecha, "01/00/2026")).toBe("01/00/2026 is not a date in the calendar");
    expect(refusal(fecha, "2026-03-05")).toBe('expected a date dd/mm/yyyy, got "2026-03-05"');
    expect(refusal(fecha, 20260305)).toBe("expected a date dd/mm/yyyy");
    // A two-digit year is not taken for 19xx, nor written back short.
    expect(refusal(fecha, "01/01/0050")).toBe("01/01/0050 is not a date in the calendar");
  });

  it("stay right past the cache's bound", () => {
    for (let i = 0; i < 10_050; i++) taken(fecha, `${(i % 28) + 1}/${(i % 12) + 1}/${2000 + (i % 900)}`);
    expect(taken(fecha, "1/2/2030")).toBe("01/02/2030");
    expect(refusal(fecha, "30/02/2030")).toMatch(/not a date in the calendar/);
  });

  it("a subscription's end is mm/yyyy", () => {
    const hasta = comprobanteSchema.shape.abono_hasta;
    expect(taken(hasta, "3/2027")).toBe("03/2027");
    expect(taken(hasta, " 12/2027 ")).toBe("12/2027");
    expect(taken(hasta, "01/2027")).toBe("01/2027");
    expect(refusal(hasta, "13/2027")).toBe('expected mm/yyyy, got "13/2027"');
    expect(refusal(hasta, "0/2027")).toBe('expected mm/yyyy, got "0/2027"');
    expect(refusal(hasta, "03/27")).toBe('expected mm/yyyy, got "03/27"');
  });
});

describe("flags, texts and codes", () => {
  const flag = detalleSchema.shape.afecta_stock;

  it("flags are S or N, from booleans or either case", () => {
    expect([true, "S", "s"].map((v) => taken(flag, v))).toEqual(["S", "S", "S"]);
    expect([false, "N", "n"].map((v) => taken(flag, v))).toEqual(["N", "N", "N"]);
    expect(refusal(flag, "si")).toBe('expected "S" or "N"');
    expect(refusal(flag, 1)).toBe('expected "S" or "N"');
  });

  it("texts have a length between their bounds", () => {
    const descripcion = productoSchema.shape.descripcion;
    expect(taken(descripcion, "Caja")).toBe("Caja");
    expect(refusal(descripcion, "Caj")).toBe("must have at least 4 characters");
    expect(taken(descripcion, "x".repeat(255))).toHaveLength(255);
    expect(refusal(descripcion, "x".repeat(256))).toBe("must have at most 255 characters");
    expect(refusal(comprobanteSchema.shape.rubro, "")).toBe("must not be empty");
  });

  it("a product code is text or a whole number, sent as text", () => {
    const codigo = productoSchema.shape.codigo;
    expect(taken(codigo, 0)).toBe("0");
    expect(taken(codigo, "A-1")).toBe("A-1");
    expect(refusal(codigo, -1)).toBe("a code is text, or a whole number");
    expect(refusal(codigo, 2 ** 53)).toBe("a code is text, or a whole number");
    expect(refusal(codigo, "")).toBe("must not be empty");
  });

  it("VAT rates are the authority's, written any way that means them", () => {
    const alicuota = productoSchema.shape.alicuota;
    expect(taken(alicuota, 10.5)).toBe("10.5");
    expect(taken(alicuota, "10.50")).toBe("10.5");
    expect(taken(alicuota, "021")).toBe("21");
    expect(taken(alicuota, -1)).toBe("-1");
    expect(taken(alicuota, "0")).toBe("0");
    expect(refusal(alicuota, 19)).toBe(
      "VAT rate must be one of 27, 21, 10.5, 5, 2.5, 0, -1, -2 (-1 exempt, -2 non-taxed); got 19",
    );
    expect(refusal(alicuota, "EXENTO")).toMatch(/got "EXENTO"/);
    expect(refusal(alicuota, null)).toMatch(/got null/);
    // Text that is no number is no rate, not 0 % (a spreadsheet's "-" for nothing, a stray point).
    for (const written of [" ", "-", "+", ".", "-.", "21."])
      expect(refusal(alicuota, written), written).toMatch(/^VAT rate must be one of/);
  });

  it("voucher types: the service's names, a suggestion for a near miss", () => {
    const tipo = comprobanteSchema.shape.tipo;
    expect(taken(tipo, "nota de débito a")).toBe("NOTA DE DEBITO A");
    expect(refusal(tipo, "FACTURA X")).toMatch(/^unknown voucher type "FACTURA X"; did you mean "FACTURA [A-Z]"\?$/);
    expect(refusal(tipo, "qwertyuiop")).toBe(
      'unknown voucher type "qwertyuiop"; expected a name such as "FACTURA B" (see `facturar schema`)',
    );
    expect(refusal(tipo, 1)).toBe(
      'unknown voucher type 1; expected a name such as "FACTURA B" (see `facturar schema`)',
    );
  });

  it("regime data values and references leave as text", () => {
    expect(taken(rgEspecialesSchema, { regimen: "FCE", datos: [{ id: 22, valor: 5 }] })).toEqual({
      regimen: "FCE",
      datos: [{ id: 22, valor: "5" }],
    });
    expect(taken(comprobanteSchema.shape.external_reference, 42)).toBe("42");
  });

  it("a supplier's payment condition 0 is none, a customer's is a code", () => {
    expect(taken(proveedorSchema.shape.condicion_pago, 0)).toBe(0);
    expect(taken(proveedorSchema.shape.condicion_pago, "201")).toBe(201);
    expect(refusal(clienteSchema.shape.condicion_pago, 0)).toBe("unknown payment condition code 0");
  });

  it("the envelope takes a voucher without a customer block", () => {
    const env = taken(envelopeSchema, {
      comprobante: {
        tipo: "FACTURA B",
        rubro: "Ventas",
        rubro_grupo_contable: "Ventas",
        detalle: [{ cantidad: 1, producto: { descripcion: "Caja", precio_unitario_sin_iva: 1, alicuota: 21 } }],
      },
    }) as { comprobante: Record<string, unknown> };
    expect(env.comprobante).toMatchObject({ operacion: "V", moneda: "PES", idioma: 1 });
  });
});

describe("the JSON Schema of voucher files", () => {
  // Built and compiled inside the tests, so that a schema that cannot be built or compiled fails
  // them rather than the file's loading (which a mutation run counts as nothing failed).
  let compiled: ((data: unknown) => boolean) | undefined;
  const valid = (data: unknown) => {
    compiled ??= new Ajv2020({ strict: false }).compile(voucherJsonSchema());
    return compiled(data);
  };
  const envelope = {
    comprobante: {
      tipo: "FACTURA B",
      rubro: "Ventas",
      rubro_grupo_contable: "Ventas",
      detalle: [{ cantidad: 1, producto: { descripcion: "Caja", precio_unitario_sin_iva: "1.5", alicuota: 21 } }],
    },
  };

  it("is a draft 2020-12 schema that names itself", () => {
    expect(voucherJsonSchema()).toMatchObject({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      title: "facturar voucher file",
      description: "One voucher envelope (cliente or proveedor + comprobante), or an array of them.",
    });
  });

  it("takes every sample, and refuses, field by field, what the schema refuses", async () => {
    const { readdirSync, readFileSync } = await import("node:fs");
    const { join } = await import("node:path");
    const dir = new URL("../../samples/", import.meta.url).pathname;
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".json")))
      expect(valid(JSON.parse(readFileSync(join(dir, file), "utf8"))), file).toBe(true);
    const item = envelope.comprobante.detalle[0] as Record<string, unknown>;
    const product = item.producto as Record<string, unknown>;
    const withVoucher = (fields: Record<string, unknown>) => ({
      ...envelope,
      comprobante: { ...envelope.comprobante, ...fields },
    });
    const withProduct = (fields: Record<string, unknown>) =>
      withVoucher({ detalle: [{ ...item, producto: { ...product, ...fields } }] });
    const withClient = (fields: Record<string, unknown>) => ({
      ...envelope,
      cliente: { documento_tipo: "DNI", documento_nro: "12345678", razon_social: "A", condicion_iva: "CF", ...fields },
    });
    // What each kind of field takes, in the JSON Schema as in the zod schema.
    for (const [label, good, bad] of [
      ["an amount", withProduct({ precio_unitario_sin_iva: 10 }), withProduct({ precio_unitario_sin_iva: "1,5" })],
      ["a whole number", withVoucher({ punto_venta: "12" }), withVoucher({ punto_venta: "12a" })],
      ["a whole number as a JSON number", withVoucher({ punto_venta: 12 }), withVoucher({ punto_venta: 1.5 })],
      ["a code of its table", withClient({ provincia: 2 }), withClient({ provincia: 99 })],
      ["a code as digit text", withClient({ provincia: "2" }), withClient({ provincia: "dos" })],
      ["digits", withClient({ documento_nro: 12345678 }), withClient({ documento_nro: "12.345.678" })],
      [
        "digits, up to the field's length",
        withClient({ documento_nro: "12345678" }),
        withClient({ documento_nro: -1 }),
      ],
      ["a date", withVoucher({ fecha: "20/11/2026" }), withVoucher({ fecha: "2026-11-20" })],
      ["a flag", withVoucher({ abono: "s" }), withVoucher({ abono: "X" })],
      ["a flag in lower case", withVoucher({ abono: "n" }), withVoucher({ abono: "" })],
      ["a flag as a boolean", withVoucher({ abono: true }), withVoucher({ abono: 1 })],
      ["a VAT rate", withProduct({ alicuota: "10.5" }), withProduct({ alicuota: 22 })],
      ["a VAT rate as a number", withProduct({ alicuota: 10.5 }), withProduct({ alicuota: "22" })],
      ["a product code", withProduct({ codigo: 37 }), withProduct({ codigo: -1 })],
      ["a product code as text", withProduct({ codigo: "A-1" }), withProduct({ codigo: "" })],
    ] as const) {
      expect(valid(good), `${label}: ${JSON.stringify(good)}`).toBe(true);
      expect(valid(bad), `${label}: ${JSON.stringify(bad)}`).toBe(false);
    }
    // What the editor shows beside a date.
    const schema = JSON.stringify(voucherJsonSchema());
    expect(schema).toContain('"description":"dd/mm/yyyy"');
  });

  it("takes one envelope or a list of at least one", () => {
    expect(valid(envelope)).toBe(true);
    expect(valid([envelope, envelope])).toBe(true);
    expect(valid([])).toBe(false);
    expect(valid([[envelope]])).toBe(false);
    expect(valid([{ comprobante: {} }])).toBe(false);
    expect(valid({ ...envelope, extra: 1 })).toBe(false);
  });
});

describe("number fields read a character at a time (the fast path) as the regular expressions do", () => {
  const price = productoSchema.shape.precio_unitario_sin_iva; // 3 decimals, 13 digits, any sign

  /** What the field must make of a text: its shortest exact decimal, or a refusal. */
  function expected(text: string): string | undefined {
    if (!/^\s*[+-]?\d+(\.\d+)?\s*$/.test(text)) return undefined;
    const d = Dec.parse(text.trim());
    return d.significantScale() > 3 || d.integerDigits() > 13 ? undefined : d.toString();
  }

  it("takes exactly the plain decimals, blanks around them allowed, and writes them canonically", () => {
    const texts = fc.string({
      unit: fc.constantFrom(..."0123456789", "0", "0", ".", "-", "+", " ", "x"),
      maxLength: 12,
    });
    fc.assert(
      fc.property(fc.oneof(texts, fc.string({ maxLength: 8 })), (text) => {
        const r = price.safeParse(text);
        expect(r.success ? r.data : undefined).toEqual(expected(text));
      }),
      { numRuns: 4000 },
    );
    for (const text of [
      "0.",
      ".5",
      "-",
      "+",
      "",
      "1.5x",
      "1.x",
      "1.5.3",
      "1.5-",
      " -0 ",
      " -0.50 ",
      "-0.000",
      "+007.250",
    ])
      expect(price.safeParse(text).data, text).toEqual(expected(text));
  });

  it("refuses a list, even of one number", () => {
    expect(refusal(price, ["5"])).toMatch(/number/);
    expect(refusal(productoSchema.shape.alicuota, [21])).toMatch(/VAT rate must be one of/);
    expect(refusal(detalleSchema.shape.cantidad, [1])).toMatch(/number/);
    expect(refusal(comprobanteSchema.shape.punto_venta, [1])).toMatch(/point of sale/);
  });

  it("refuses a VAT rate too large to write plainly", () => {
    expect(refusal(productoSchema.shape.alicuota, 1e21)).toMatch(/VAT rate must be one of/);
  });

  it("takes a subscription's end as mm/yyyy and nothing around it", () => {
    const end = comprobanteSchema.shape.abono_hasta;
    expect(taken(end, " 3/2027 ")).toBe("03/2027");
    for (const text of ["x12/2026", "12/20261", "12/2026x"]) expect(refusal(end, text), text).toMatch(/mm\/yyyy/);
  });
});
