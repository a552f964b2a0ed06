/**
 * Validation around the rules: the options, the clean-up of the service's empty strings, what the
 * file leaves out filled in and told (dates, total, the peso rate), and the schema's findings.
 */
import { describe, expect, it } from "vitest";
import { dayNumber } from "../../src/voucher/dates.js";
import { Dec } from "../../src/voucher/decimal.js";
import {
  defaultedFields,
  dropEmptyStrings,
  dueDateByDefault,
  ruleOptions,
  validateEnvelope,
} from "../../src/voucher/validate.js";
import { baseVoucher, check, type Raw, TODAY } from "../helpers.js";

const warnings = (raw: Raw) =>
  check(raw)
    .findings.filter((f) => f.severity === "warning")
    .map((f) => [f.code, f.path.join("."), f.message]);

describe("rule options", () => {
  it("count today in Argentina, take the ceiling as text or decimal, and the issuer only when given", () => {
    const options = ruleOptions({ now: new Date("2026-11-21T02:00:00Z"), ceiling: "500.5" });
    expect(options).toEqual({ today: dayNumber("20/11/2026"), ceiling: Dec.parse("500.5") });
    const decimal = ruleOptions({ now: new Date("2026-11-21T03:00:00Z"), ceiling: Dec.parse("7"), issuerCuit: "1" });
    expect([decimal.today, decimal.ceiling.toString(), decimal.issuerCuit]).toEqual([
      dayNumber("21/11/2026"),
      "7",
      "1",
    ]);
    expect(ruleOptions({ issuerCuit: "" })).not.toHaveProperty("issuerCuit");
    expect(ruleOptions().ceiling.toString()).toBe("10000000");
  });

  it("apply to a voucher validated with them", () => {
    const raw = baseVoucher();
    delete raw.comprobante.fecha;
    delete raw.comprobante.vencimiento;
    const result = validateEnvelope(raw, { now: new Date("2026-11-21T02:00:00Z") });
    expect(result.envelope?.comprobante.fecha).toBe("20/11/2026");
  });
});

describe("empty strings", () => {
  it("read as absent fields, at any depth; other values kept", () => {
    expect(
      dropEmptyStrings({ a: "", b: " \t", c: "x", d: [{ e: "", f: 0 }, "", null], g: null, h: { i: " " }, j: false }),
    ).toEqual({ c: "x", d: [{ f: 0 }, "", null], g: null, h: {}, j: false });
    expect(dropEmptyStrings("")).toBe("");
  });

  it("are kept when the reader says it never writes them", () => {
    const raw = baseVoucher();
    raw.comprobante.leyenda_gral = "";
    const day = new Date("2026-11-20T15:00:00Z");
    expect(validateEnvelope(raw, { now: day }).findings.some((f) => f.severity === "error")).toBe(false);
    const kept = validateEnvelope(raw, { now: day }, true);
    expect(kept.ok).toBe(false);
    expect(kept.findings.map((f) => [f.code, f.path.join(".")])).toEqual([
      ["schema.invalid", "comprobante.leyenda_gral"],
    ]);
  });
});

describe("what the file leaves out", () => {
  it("a voucher without fecha: today, and due today, each told", () => {
    const raw = baseVoucher();
    delete raw.comprobante.fecha;
    delete raw.comprobante.vencimiento;
    expect(warnings(raw)).toEqual([
      ["date.default", "comprobante.fecha", `no fecha given: dated today in Argentina, ${TODAY}`],
      ["date.default", "comprobante.vencimiento", `no vencimiento given: due on the voucher's date, ${TODAY}`],
    ]);
  });

  it("an FCE invoice is due in 30 days, an FCE note on its date", () => {
    const raw = baseVoucher();
    raw.comprobante.tipo = "FACTURA DE CREDITO ELECTRONICA MiPyME (FCE) B";
    raw.comprobante.fecha = "05/11/2026";
    delete raw.comprobante.vencimiento;
    const result = check(raw);
    expect(result.envelope?.comprobante.vencimiento).toBe("05/12/2026");
    expect(result.findings.find((f) => f.code === "date.default")?.message).toBe(
      "no vencimiento given: an FCE invoice is due 30 days after its date, 05/12/2026",
    );
    expect(defaultedFields(result.envelope as object)).toEqual(["vencimiento"]);
    raw.comprobante.tipo = "NOTA DE CREDITO ELECTRONICA MiPyME (FCE) B";
    expect(check(raw).envelope?.comprobante.vencimiento).toBe("05/11/2026");
  });

  it("a sale condition that names a term sets the due date (the guided issue's rule too); cash is due on the date", () => {
    const raw = baseVoucher();
    raw.comprobante.fecha = "05/11/2026";
    delete raw.comprobante.vencimiento;
    raw.cliente.condicion_pago = 203; // 60 días
    const result = check(raw);
    expect(result.envelope?.comprobante.vencimiento).toBe("04/01/2027");
    expect(result.findings.find((f) => f.code === "date.default")?.message).toBe(
      "no vencimiento given: due 60 days after its date, as its sale condition says, 04/01/2027",
    );
    raw.cliente.condicion_pago = 201; // Contado
    expect(check(raw).envelope?.comprobante.vencimiento).toBe("05/11/2026");
    // An FCE invoice sold at 15 days is due in 15, not the usual 30.
    raw.comprobante.tipo = "FACTURA DE CREDITO ELECTRONICA MiPyME (FCE) B";
    raw.cliente.condicion_pago = 207;
    expect(check(raw).envelope?.comprobante.vencimiento).toBe("20/11/2026");
    expect(dueDateByDefault("FACTURA B", "05/11/2026", undefined)).toEqual({
      vencimiento: "05/11/2026",
      days: 0,
      why: "same-day",
    });
  });

  it("a subscription bills the month so far unless the file gives a period, or half of one", () => {
    const raw = baseVoucher();
    Object.assign(raw.comprobante, { fecha: "18/11/2026", abono: "S", abono_frecuencia: 1, abono_hasta: "12/2027" });
    const result = check(raw);
    expect(result.envelope?.comprobante).toMatchObject({
      periodo_facturado_desde: "01/11/2026",
      periodo_facturado_hasta: "18/11/2026",
    });
    expect(result.findings.find((f) => f.code === "date.default")).toEqual({
      severity: "warning",
      code: "date.default",
      path: ["comprobante", "periodo_facturado_hasta"],
      message: "no billed period given: the month up to the voucher's date, 01/11/2026 to 18/11/2026",
    });
    expect(defaultedFields(result.envelope as object)).toEqual(["periodo_facturado_desde", "periodo_facturado_hasta"]);
    const half = check({ ...raw, comprobante: { ...raw.comprobante, periodo_facturado_hasta: "18/11/2026" } });
    expect(half.envelope?.comprobante.periodo_facturado_desde).toBeUndefined();
    const other = check({ ...raw, comprobante: { ...raw.comprobante, periodo_facturado_desde: "01/10/2026" } });
    expect(other.envelope?.comprobante.periodo_facturado_hasta).toBeUndefined();
    const once = check({ ...raw, comprobante: { ...raw.comprobante, abono: "N" } });
    expect(once.envelope?.comprobante.periodo_facturado_desde).toBeUndefined();
    expect(defaultedFields(once.envelope as object)).toEqual([]);
  });

  it("an export of services or other bills the month so far; of goods, it does not", () => {
    const periodOf = (tipo_exportacion: number) => {
      const raw = baseVoucher();
      raw.comprobante.tipo = "FACTURA E";
      raw.comprobante.fecha = "18/11/2026";
      raw.comprobante.fex = { tipo_exportacion };
      return check(raw).envelope?.comprobante.periodo_facturado_desde;
    };
    expect([1, 2, 4].map(periodOf)).toEqual([undefined, "01/11/2026", "01/11/2026"]);
  });

  it("no total: the computed one, told", () => {
    const raw = baseVoucher();
    delete raw.comprobante.total;
    const result = check(raw);
    expect(result.envelope?.comprobante.total).toBe("121.00");
    expect(warnings(raw)).toEqual([
      ["total.missing", "comprobante.total", "no total given: filled in with the computed 121.00"],
    ]);
    expect(result.ok).toBe(true);
    expect(result.totals?.total.toFixed(2)).toBe("121.00");
  });

  it("a peso voucher goes at 1: another rate is dropped and told, 1 written any way is not", () => {
    const raw = baseVoucher();
    raw.comprobante.cotizacion = "1050.5";
    expect(warnings(raw)).toEqual([
      [
        "currency.rate",
        "comprobante.cotizacion",
        "a voucher in pesos goes with cotizacion 1, as the authority requires; 1050.5 is not sent",
      ],
    ]);
    expect(check(raw).envelope?.comprobante.cotizacion).toBe("1");
    raw.comprobante.cotizacion = "1.000";
    expect(warnings(raw)).toEqual([]);
    expect(check(raw).envelope?.comprobante.cotizacion).toBe("1");
  });

  it("a tributo of 0 is dropped and told (the authority refuses it, 10024); the others are kept", () => {
    const raw = baseVoucher();
    raw.comprobante.tributos = [
      { tipo: 7, regimen: 5, base_imponible: "100", alicuota: "0", total: "0.00" },
      { tipo: 7, regimen: 6, base_imponible: "100", alicuota: "1", total: "1" },
    ];
    raw.comprobante.total = "122";
    expect(warnings(raw)).toEqual([
      ["tributo.zero", "comprobante.tributos.0", "a tributo of 0 is not sent: the authority refuses it (10024)"],
    ]);
    const result = check(raw);
    expect(result.ok).toBe(true);
    expect(result.envelope?.comprobante.tributos).toEqual([expect.objectContaining({ regimen: 6, total: "1" })]);
    // All of them zero: no tributos at all.
    raw.comprobante.tributos = [{ tipo: 6, regimen: 2, base_imponible: "100", alicuota: "0", total: 0 }];
    raw.comprobante.total = "121";
    expect(check(raw).envelope?.comprobante.tributos).toBeUndefined();
  });

  it("a tributo of 0 is taken out before any rule looks at it: nothing is refused for what is not sent", () => {
    // An RG 5329 column left at 0 on a FACTURA B to a consumer, as a spreadsheet exports it.
    const raw = baseVoucher();
    raw.comprobante.tributos = [{ tipo: 6, regimen: 3, base_imponible: "0", alicuota: "0", total: "0,00" }];
    const b = check(raw);
    expect(b.findings.filter((f) => f.severity === "error")).toEqual([]);
    expect(b.findings.map((f) => f.code)).toContain("tributo.zero");
    // On a class C voucher, a 0 perception is no perception.
    raw.comprobante.tipo = "FACTURA C";
    raw.comprobante.detalle = [
      { cantidad: 1, producto: { descripcion: "Servicio", precio_unitario_sin_iva: 100, alicuota: 0 } },
    ];
    raw.comprobante.total = 100;
    expect(check(raw).findings.filter((f) => f.severity === "error")).toEqual([]);
  });

  it("what stays after a drop is told at its place in the file", () => {
    const raw = baseVoucher();
    raw.comprobante.tributos = [
      { tipo: 7, regimen: 5, base_imponible: "100", alicuota: "0", total: 0 },
      { tipo: 7, regimen: 99, base_imponible: "100", alicuota: "1", total: "1" },
    ];
    raw.comprobante.total = "122";
    const regime = check(raw).findings.find((f) => f.code === "tributo.regime");
    expect(regime?.path).toEqual(["comprobante", "tributos", 1, "regimen"]);
    raw.comprobante.tributos = undefined;
    raw.comprobante.total = "121";
    raw.comprobante.tipo = "FACTURA DE CREDITO ELECTRONICA MiPyME (FCE) A";
    raw.cliente = {
      documento_tipo: "CUIT",
      documento_nro: "30500010912",
      razon_social: "Grandes SA",
      condicion_iva: "RI",
    };
    raw.comprobante.rg_especiales = {
      regimen: "Factura de Crédito Electrónica MiPyMEs (FCE)",
      datos: [
        { id: 2102, valor: "" },
        { id: 2101, valor: "0170099220000045678905" },
        { id: 27, valor: "XYZ" },
      ],
    };
    const transfer = check(raw).findings.find((f) => f.code === "fce.transfer");
    expect(transfer?.path).toEqual(["comprobante", "rg_especiales", "datos", 2, "valor"]);
  });

  it("an opcional with no value in a CSV (an empty cell: no valor at all) is dropped too", () => {
    const raw = baseVoucher();
    raw.comprobante.rg_especiales = { regimen: "RG 2.820", datos: [{ id: 11 }, { id: 11, valor: "x" }] };
    const r = validateEnvelope(raw, { today: dayNumber(TODAY), ceiling: Dec.parse("10000000") }, true);
    expect(r.findings.filter((f) => f.severity === "error")).toEqual([]);
    expect(r.envelope?.comprobante.rg_especiales?.datos).toEqual([{ id: 11, valor: "x" }]);
  });

  it("an opcional with an empty value is dropped and told, as the service drops it, not refused", () => {
    const raw = baseVoucher();
    raw.comprobante.rg_especiales = {
      regimen: "Factura de Crédito Electrónica MiPyMEs (FCE)",
      datos: [
        { id: 2101, valor: "0170099220000045678905" },
        { id: 2102, valor: " " },
      ],
    };
    const result = check(raw);
    expect(result.findings.filter((f) => f.code === "rg_especiales.empty")).toEqual([
      expect.objectContaining({
        severity: "warning",
        path: ["comprobante", "rg_especiales", "datos", 1, "valor"],
        message: "opcional 2102 has no value: dropped, as the service drops it",
      }),
    ]);
    expect(result.findings.map((f) => f.code)).not.toContain("schema.required");
    expect(result.envelope?.comprobante.rg_especiales?.datos).toEqual([{ id: 2101, valor: "0170099220000045678905" }]);
  });

  it("a foreign-currency voucher keeps its rate", () => {
    const raw = baseVoucher();
    Object.assign(raw.comprobante, { moneda: "DOL", cotizacion: "1050.5" });
    expect(check(raw).envelope?.comprobante.cotizacion).toBe("1050.5");
  });
});

describe("the schema's findings", () => {
  it("name an unknown field, a missing one and an invalid one by path, with what is wrong", () => {
    const raw = baseVoucher();
    raw.comprobante.precio = 1;
    raw.comprobante.detalle[0].producto.color = "rojo";
    delete raw.comprobante.rubro;
    raw.comprobante.punto_venta = 0;
    const r = check(raw);
    expect(r.ok).toBe(false);
    expect(r.envelope).toBeUndefined();
    // In the schema's order of fields, which is not the point: compared sorted by path.
    const found = r.findings.map((f) => [f.severity, f.code, f.path.join("."), f.message]);
    expect(found.sort((a, b) => String(a[2]).localeCompare(String(b[2])))).toEqual([
      [
        "error",
        "schema.unknown-field",
        "comprobante.detalle.0.producto.color",
        'unknown field "color"; check its spelling (see `facturar schema`)',
      ],
      [
        "error",
        "schema.unknown-field",
        "comprobante.precio",
        'unknown field "precio"; check its spelling (see `facturar schema`)',
      ],
      ["error", "schema.invalid", "comprobante.punto_venta", "must be between 1 and 99999, got 0"],
      ["error", "schema.required", "comprobante.rubro", "required field is missing"],
    ]);
  });

  it("a text too long is text.max with its length; a list too long is not", () => {
    const raw = baseVoucher();
    raw.comprobante.rubro = "x".repeat(256);
    expect(check(raw).findings.map((f) => [f.code, f.message])).toEqual([
      ["text.max", "must have at most 255 characters; it has 256"],
    ]);
  });

  it("a field that is not an object where one is wanted is invalid, not missing", () => {
    const raw = baseVoucher();
    raw.cliente = "Juana";
    const r = check(raw);
    expect(r.findings.map((f) => [f.code, f.path.join(".")])).toEqual([["schema.invalid", "cliente"]]);
    const deeper = baseVoucher();
    deeper.comprobante.detalle[0].producto = null;
    expect(check(deeper).findings.map((f) => [f.code, f.path.join(".")])).toEqual([
      ["schema.invalid", "comprobante.detalle.0.producto"],
    ]);
  });
});

describe("the verdict", () => {
  it("a voucher the schema takes fails on a rule's error, not on a warning", () => {
    const refused = check({ ...baseVoucher(), comprobante: { ...baseVoucher().comprobante, tags: ["a/b"] } });
    expect(refused.envelope).toBeDefined();
    expect([refused.ok, refused.findings.map((f) => f.code)]).toEqual([false, ["tags.format"]]);
    const warned = baseVoucher();
    warned.cliente.email = "no-es-un-correo";
    const told = check(warned);
    expect([told.ok, told.findings.map((f) => `${f.severity} ${f.code}`)]).toEqual([true, ["warning email.format"]]);
  });
});

describe("past the first 200 vouchers (the compiled schema)", () => {
  it("validates as the first ones did: the same findings, the same envelope", () => {
    const refusedVoucher = () => {
      const raw = baseVoucher();
      raw.comprobante.detalle[0].producto.alicuota = 22;
      raw.comprobante.tags = ["a/b"];
      return raw;
    };
    const first = [check(baseVoucher()), check(refusedVoucher())];
    for (let i = 0; i < 250; i++) check(baseVoucher());
    const later = [check(baseVoucher()), check(refusedVoucher())];
    expect(later.map((r) => [r.ok, r.findings, r.envelope])).toEqual(first.map((r) => [r.ok, r.findings, r.envelope]));
    expect(later.map((r) => r.ok)).toEqual([true, false]);
  });
});
