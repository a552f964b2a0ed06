/** How far the rules still run on a voucher the schema refused (src/voucher/readable.ts). */
import { describe, expect, it } from "vitest";
import { formatPath } from "../../src/voucher/path.js";
import { baseVoucher, check, item, type Raw } from "../helpers.js";

function errors(mutate: (raw: Raw) => void): string[] {
  const raw = baseVoucher();
  mutate(raw);
  return check(raw)
    .findings.filter((f) => f.severity === "error")
    .map((f) => `${f.code} ${formatPath(f.path)}`);
}

/** `count` items whose VAT rate the schema refuses, and a reference the rules refuse. */
const refusedItems = (count: number) => (v: Raw) => {
  v.comprobante.detalle = Array.from({ length: count }, () => item("Producto", 1, 100, 22));
  v.comprobante.external_reference = "con espacios";
};

describe("rules on a refused voucher", () => {
  it("run with up to 20 refused fields, and give up beyond", () => {
    const twenty = errors(refusedItems(20));
    expect(twenty).toHaveLength(21);
    expect(twenty).toContain("external_reference.format comprobante.external_reference");
    const more = errors(refusedItems(21));
    expect(more).toHaveLength(21);
    expect(more.every((e) => e.startsWith("schema.invalid comprobante.detalle["))).toBe(true);
  });

  it("run when the field the schema refused may be left out", () => {
    expect(
      errors((v) => {
        v.comprobante.fecha = "31/02/2026";
        v.comprobante.external_reference = "con espacios";
      }),
    ).toEqual(["schema.invalid comprobante.fecha", "external_reference.format comprobante.external_reference"]);
    expect(
      errors((v) => {
        v.cliente.provincia = 99;
        v.comprobante.external_reference = "con espacios";
      }),
    ).toEqual(["schema.invalid cliente.provincia", "external_reference.format comprobante.external_reference"]);
  });

  it("say nothing more when the whole voucher is not an object", () => {
    expect(check("factura").findings.map((f) => [f.code, formatPath(f.path)])).toEqual([
      ["schema.invalid", "(voucher)"],
    ]);
    expect(check(null).ok).toBe(false);
  });

  it("say nothing of the refused field itself, which depends on what stands in for it", () => {
    // Both stand-ins for a reference ("01/01/1900", "31/12/2999") break its format rule, each its own way.
    expect(errors((v) => (v.comprobante.external_reference = { id: 7 }))).toEqual([
      "schema.invalid comprobante.external_reference",
    ]);
    expect(
      errors((v) => {
        v.comprobante.external_reference = { id: 7 };
        v.comprobante.tags = ["a/b"];
      }),
    ).toEqual(["schema.invalid comprobante.external_reference", "tags.format comprobante.tags[0]"]);
  });
});

describe("rules on a refused block", () => {
  it("judge the rest without the block, and say nothing the block's absence alone draws", () => {
    // No stand-in is an object, so the refused customer is left out of both runs: the sale's
    // "needs a cliente" is about the refused block itself and is not said, the reference's is.
    const r = errors((v) => {
      v.cliente = 5;
      v.comprobante.detalle[0].producto.alicuota = 22;
      v.comprobante.external_reference = "con espacios";
    });
    expect(r).toEqual([
      "schema.invalid cliente",
      "schema.invalid comprobante.detalle[0].producto.alicuota",
      "external_reference.format comprobante.external_reference",
    ]);
  });
});
