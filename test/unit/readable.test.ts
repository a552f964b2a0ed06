/** The rules still run on a voucher the schema refused, where it can be read, with no follow-on noise. */
import { describe, expect, it } from "vitest";
import { formatPath } from "../../src/voucher/path.js";
import { baseVoucher, check, item, type Raw } from "../helpers.js";

function judge(mutate: (raw: Raw) => void) {
  const raw = baseVoucher();
  mutate(raw);
  const r = check(raw);
  return {
    ok: r.ok,
    envelope: r.envelope,
    errors: r.findings.filter((f) => f.severity === "error").map((f) => `${f.code} ${formatPath(f.path)}`),
    warnings: r.findings.filter((f) => f.severity === "warning").map((f) => `${f.code} ${formatPath(f.path)}`),
  };
}

describe("rules on a voucher the schema refused", () => {
  it("reports a schema error and a rule error together", () => {
    const r = judge((v) => {
      v.comprobante.detalle[0].producto.alicuota = 22;
      v.comprobante.tags = ["a/b"];
    });
    expect(r.ok).toBe(false);
    expect(r.envelope).toBeUndefined();
    expect(r.errors).toEqual([
      "schema.invalid comprobante.detalle[0].producto.alicuota",
      "tags.format comprobante.tags[0]",
    ]);
  });

  it("says nothing that depends on the unreadable value: a bad date draws no date window or order", () => {
    const r = judge((v) => {
      v.comprobante.fecha = "31/02/2026";
      v.comprobante.tipo = "NOTA DE CREDITO B";
      v.comprobante.comprobantes_asociados_periodo = { fecha_desde: "01/11/2026", fecha_hasta: "19/11/2026" };
    });
    expect(r.errors).toEqual(["schema.invalid comprobante.fecha"]);
    expect(r.warnings).toEqual([]);
  });

  it("an unreadable amount draws no totals findings, but the rest are judged", () => {
    const r = judge((v) => {
      v.comprobante.detalle[0].producto.precio_unitario_sin_iva = "1.000,50";
      v.comprobante.pagos = { formas_pago: [{ descripcion: "Efectivo", importe: 10 }], total: 20 };
      v.cliente.condicion_iva = "RI";
    });
    expect(r.errors).toEqual([
      "schema.invalid comprobante.detalle[0].producto.precio_unitario_sin_iva",
      "vat-condition.class cliente.condicion_iva",
      "payments.sum comprobante.pagos.total",
    ]);
  });

  it("a missing field does not crash a rule nor draw one about itself; unknown fields are left out", () => {
    const r = judge((v) => {
      delete v.cliente.condicion_iva;
      v.comprobante.precio = 3;
      v.cliente.email = Array.from({ length: 16 }, (_, i) => `u${i}@example.com`).join(",");
    });
    expect(r.errors).toEqual([
      "schema.required cliente.condicion_iva",
      "schema.unknown-field comprobante.precio",
      "email.max cliente.email",
    ]);
  });

  it("an unknown voucher type leaves only what does not depend on the class", () => {
    const r = judge((v) => {
      v.comprobante.tipo = "FACTURA Z";
      v.comprobante.external_reference = "con espacios";
      v.comprobante.detalle = [item("Producto", 1, 100, 21)];
      v.cliente.documento_tipo = "OTRO";
      v.cliente.condicion_iva = "RI";
    });
    // The customer's VAT condition against the class cannot be judged; OTRO with a number can.
    expect(r.errors).toEqual([
      "schema.invalid comprobante.tipo",
      "external_reference.format comprobante.external_reference",
      "anonymous.document cliente.documento_nro",
      "anonymous.condition cliente.condicion_iva",
    ]);
  });

  it("gives up quietly where nothing can be read: a list that is not one, a block missing", () => {
    expect(judge((v) => (v.comprobante.detalle = "x")).errors).toEqual(["schema.invalid comprobante.detalle"]);
    expect(judge((v) => delete v.comprobante).errors).toEqual(["schema.required comprobante"]);
  });
});
