import { describe, expect, it } from "vitest";
import { Dec } from "../../src/voucher/decimal.js";
import {
  allocate,
  classChargesVat,
  computeTotals,
  describeTotals,
  itemNet,
  totalsToJson,
} from "../../src/voucher/totals.js";
import { baseVoucher, check, codes, finding, item } from "../helpers.js";

function totalsOf(raw: ReturnType<typeof baseVoucher>) {
  const result = check(raw);
  if (!result.envelope) throw new Error(JSON.stringify(result.findings));
  return computeTotals(result.envelope.comprobante);
}

describe("item net", () => {
  it("is quantity × price × (1 − discount %), rounded half-even to cents", () => {
    expect(itemNet("3", "25999.99").toFixed(2)).toBe("77999.97");
    expect(itemNet("10", "1850.5", "5").toFixed(2)).toBe("17579.75");
    expect(itemNet("1", "2.675").toFixed(2)).toBe("2.68");
    expect(itemNet("1", "0.125").toFixed(2)).toBe("0.12");
    expect(itemNet("0.5", "0.25").toFixed(2)).toBe("0.12"); // 0.125 → even
    expect(itemNet("1.25", "3.333", "12.5").toFixed(2)).toBe("3.65"); // 3.64546875
  });
});

describe("allocate", () => {
  it("splits a discount in whole cents that add up exactly", () => {
    const parts = allocate(Dec.parse("100"), [Dec.parse("1"), Dec.parse("1"), Dec.parse("1")]);
    expect(parts.map((p) => p.toFixed(2))).toEqual(["33.34", "33.33", "33.33"]);
    expect(Dec.sum(parts).toFixed(2)).toBe("100.00");
  });
  it("gives the cents left over to the largest remainders, ties to the earlier weight", () => {
    // 10 cents over 3:1:3 → 4.29, 1.43, 4.29: floors 4, 1, 4 and one cent left, for the middle (0.43).
    expect(
      allocate(Dec.parse("0.10"), [Dec.parse("3"), Dec.parse("1"), Dec.parse("3")]).map((p) => p.toFixed(2)),
    ).toEqual(["0.04", "0.02", "0.04"]);
    expect(allocate(Dec.parse("0.02"), [Dec.ONE, Dec.ONE, Dec.ONE]).map((p) => p.toFixed(2))).toEqual([
      "0.01",
      "0.01",
      "0.00",
    ]);
    expect(allocate(Dec.parse("0.03"), [Dec.ONE, Dec.ONE, Dec.ONE, Dec.ONE, Dec.ONE]).map((p) => p.toFixed(2))).toEqual(
      ["0.01", "0.01", "0.01", "0.00", "0.00"],
    );
  });
  it("gives nothing when there is no weight", () => {
    expect(allocate(Dec.parse("5"), [Dec.ZERO]).map((p) => p.toFixed(2))).toEqual(["0.00"]);
  });
});

describe("computeTotals", () => {
  it("computes VAT per rate on the summed base, not per item", () => {
    const raw = baseVoucher();
    // 7 × 0.03 at 21%: per item 7 × 0.01 = 0.07; on the base 0.21 it is 0.04 (0.0441).
    raw.comprobante.detalle = Array.from({ length: 7 }, () => item("Caramelo suelto", 1, "0.03", 21));
    const t = totalsOf(raw);
    expect(t.rates).toHaveLength(1);
    expect(t.rates[0]?.net.toFixed(2)).toBe("0.21");
    expect(t.rates[0]?.vat.toFixed(2)).toBe("0.04");
    expect(t.total.toFixed(2)).toBe("0.25");
  });

  it("keeps exempt and non-taxed items apart from the VAT bases", () => {
    const raw = baseVoucher();
    raw.comprobante.tipo = "FACTURA A";
    raw.comprobante.detalle = [
      item("Gravado", 2, 100, 21),
      item("Reducido", 1, 100, "10.5"),
      item("Exento", 1, 50, -1),
      item("No gravado", 1, 30, -2),
      item("Tasa cero", 1, 10, 0),
    ];
    const t = totalsOf(raw);
    expect(t.rates.map((r) => [r.rate, r.net.toFixed(2), r.vat.toFixed(2)])).toEqual([
      ["21", "200.00", "42.00"],
      ["10.5", "100.00", "10.50"],
      ["0", "10.00", "0.00"],
    ]);
    expect(t.exempt.toFixed(2)).toBe("50.00");
    expect(t.nonTaxed.toFixed(2)).toBe("30.00");
    expect(t.total.toFixed(2)).toBe("442.50");
  });

  it("takes the voucher discount off the bases before VAT", () => {
    const raw = baseVoucher();
    raw.comprobante.detalle = [item("Lapicera", 1, 100, 21)];
    raw.comprobante.bonificacion = 20;
    const t = totalsOf(raw);
    // The service's own example: 100 − 20 = 80, + 21 % = 96.80.
    expect(t.total.toFixed(2)).toBe("96.80");
  });

  it("adds tributos and internal taxes", () => {
    const raw = baseVoucher();
    raw.comprobante.tipo = "FACTURA A";
    raw.comprobante.detalle = [
      {
        cantidad: 10,
        producto: {
          descripcion: "Cigarrillos",
          precio_unitario_sin_iva: 100,
          alicuota: 21,
          impuestos_internos_alicuota: 8,
        },
      },
    ];
    raw.comprobante.tributos = [{ tipo: 7, regimen: 5, base_imponible: 1000, alicuota: 2.5, total: 25 }];
    const t = totalsOf(raw);
    expect(t.internalTaxes.toFixed(2)).toBe("80.00");
    expect(t.tributos.toFixed(2)).toBe("25.00");
    expect(t.total.toFixed(2)).toBe("1315.00");
  });

  it("charges no VAT on class C and E", () => {
    const raw = baseVoucher();
    raw.comprobante.tipo = "FACTURA C";
    raw.comprobante.detalle = [item("Clase", 3, "333.33", 0)];
    const t = totalsOf(raw);
    expect(t.vat.isZero()).toBe(true);
    expect(t.total.toFixed(2)).toBe("999.99");
  });

  it("sums many items over many rates without drifting", () => {
    const raw = baseVoucher();
    raw.comprobante.tipo = "FACTURA A";
    const rates = ["27", "21", "10.5", "0", "-1", "-2"];
    raw.comprobante.detalle = Array.from({ length: 120 }, (_, i) =>
      item(`Artículo ${i}`, "1.25", "0.333", rates[i % rates.length]),
    );
    const t = totalsOf(raw);
    // Each item: 1.25 × 0.333 = 0.41625 → 0.42; 20 items per rate → 8.40 per base.
    for (const r of t.rates) expect(r.net.toFixed(2)).toBe("8.40");
    expect(t.rates.map((r) => r.vat.toFixed(2))).toEqual(["2.27", "1.76", "0.88", "0.00"]); // 2.268, 1.764, 0.882
    expect(t.exempt.toFixed(2)).toBe("8.40");
    expect(t.nonTaxed.toFixed(2)).toBe("8.40");
    expect(t.total.toFixed(2)).toBe("55.31");
  });
});

describe("the breakdown's details", () => {
  it("charges VAT on every class but C and E", () => {
    expect(["A", "B", "M", null].map((c) => classChargesVat(c as never))).toEqual([true, true, true, true]);
    expect(["C", "E"].map((c) => classChargesVat(c as never))).toEqual([false, false]);
  });

  it("lists the rates highest first, whatever the items' order; class C has one plain rate 0", () => {
    const raw = baseVoucher();
    raw.comprobante.detalle = [item("Reducido", 1, 100, "10.5"), item("Tasa cero", 1, 5, 0), item("Pleno", 1, 100, 27)];
    delete raw.comprobante.total;
    expect(totalsOf(raw).rates.map((r) => r.rate)).toEqual(["27", "10.5", "0"]);
    const c = baseVoucher();
    c.comprobante.tipo = "FACTURA C";
    c.comprobante.detalle = [item("Clase", 1, 50, 0), item("Otra clase", 1, 50, 0)];
    delete c.comprobante.total;
    expect(totalsOf(c).rates.map((r) => [r.rate, r.net.toFixed(2)])).toEqual([["0", "100.00"]]);
  });

  it("a type the table does not know is taken as charging VAT", () => {
    const checked = check(baseVoucher());
    const c = { ...(checked.envelope?.comprobante as Parameters<typeof computeTotals>[0]), tipo: "NO SUCH TYPE" };
    expect(computeTotals(c as never).vatApplies).toBe(true);
  });

  it("takes the voucher's own impuestos_internos over the items' rates", () => {
    const raw = baseVoucher();
    raw.comprobante.detalle = [
      {
        cantidad: 1,
        producto: {
          descripcion: "Cigarros",
          precio_unitario_sin_iva: 100,
          alicuota: 21,
          impuestos_internos_alicuota: 8,
        },
      },
    ];
    raw.comprobante.impuestos_internos = 3;
    delete raw.comprobante.total;
    expect(totalsOf(raw).internalTaxes.toFixed(2)).toBe("3.00");
  });

  it("describes and serialises every part", () => {
    const raw = baseVoucher();
    raw.comprobante.tipo = "FACTURA A";
    raw.cliente = {
      documento_tipo: "CUIT",
      documento_nro: "30712293841",
      razon_social: "Cliente SA",
      condicion_iva: "RI",
    };
    raw.comprobante.detalle = [
      {
        cantidad: 1,
        producto: {
          descripcion: "Gravado",
          precio_unitario_sin_iva: 100,
          alicuota: 21,
          impuestos_internos_alicuota: 8,
        },
      },
      item("Exento", 1, 50, -1),
      item("No gravado", 1, 30, -2),
    ];
    raw.comprobante.bonificacion = 18;
    raw.comprobante.tributos = [{ tipo: 7, regimen: 5, base_imponible: 100, alicuota: 2.5, total: 2.5 }];
    delete raw.comprobante.total;
    const t = totalsOf(raw);
    expect(describeTotals(t)).toBe(
      "subtotal 180.00 − discount 18.00, net 21% 90.00 + VAT 18.90, exempt 45.00, non-taxed 27.00, internal taxes 8.00, tributos 2.50 = 191.40",
    );
    expect(totalsToJson(t)).toEqual({
      subtotal: "180.00",
      discount: "18.00",
      net: { "21": "90.00" },
      vat: { "21": "18.90" },
      exempt: "45.00",
      non_taxed: "27.00",
      internal_taxes: "8.00",
      tributos: "2.50",
      total: "191.40",
    });
    const c = baseVoucher();
    c.comprobante.tipo = "FACTURA C";
    c.comprobante.detalle = [item("Clase", 1, 50, 0)];
    delete c.comprobante.total;
    expect(describeTotals(totalsOf(c))).toBe("net 50.00 = 50.00");
  });
});

describe("the declared total", () => {
  it("passes when it matches", () => {
    expect(check(baseVoucher()).ok).toBe(true);
  });

  it("is filled in, with a warning, when missing", () => {
    const raw = baseVoucher();
    delete raw.comprobante.total;
    const r = check(raw);
    expect(r.ok).toBe(true);
    expect(r.envelope?.comprobante.total).toBe("121.00");
    expect(codes(r, "warning")).toContain("total.missing");
  });

  it("is refused beyond the authority's tolerance, with the computed breakdown", () => {
    const raw = baseVoucher();
    raw.comprobante.total = 121.02; // one rate: tolerance 0.01
    const r = check(raw);
    expect(codes(r)).toContain("total.mismatch");
    expect(finding(r, "total.mismatch")?.message).toMatch(
      /computed 121\.00 \(net 21% 100\.00 \+ VAT 21\.00 = 121\.00\)/,
    );
  });

  it("accepts one cent per rounded component", () => {
    const raw = baseVoucher();
    raw.comprobante.total = 121.01;
    expect(check(raw).ok).toBe(true);
  });

  it("warns when a big total strays within the relative tolerance", () => {
    const raw = baseVoucher();
    raw.comprobante.detalle = [item("Camioneta", 1, 1000000, 21)];
    raw.comprobante.total = 1210050; // 0.0041 % off: tolerated by the authority
    const r = check(raw);
    expect(r.ok).toBe(true);
    expect(codes(r, "warning")).toContain("total.drift");
  });
});

describe("the tolerance and the voucher-level amounts", () => {
  function withTaxes() {
    const raw = baseVoucher();
    raw.comprobante.tipo = "FACTURA A";
    raw.comprobante.detalle = [
      {
        cantidad: 1,
        producto: {
          descripcion: "Cigarrillos",
          precio_unitario_sin_iva: 100,
          alicuota: 21,
          impuestos_internos_alicuota: 8,
        },
      },
    ];
    raw.comprobante.tributos = [{ tipo: 7, regimen: 5, base_imponible: 100, alicuota: 2.5, total: 2.5 }];
    // 100 + 21 VAT + 8 internal + 2.50: small enough that 0.01 % of it stays under 0.03.
    raw.comprobante.total = 131.5;
    return raw;
  }

  it("counts a cent for each tributo and for the internal taxes", () => {
    // One rate + one tributo + internal taxes: three rounded components, 0.03.
    expect(totalsOf(withTaxes()).tolerance.toFixed(2)).toBe("0.03");
    const raw = withTaxes();
    raw.comprobante.total = 131.53;
    expect(codes(check(raw))).not.toContain("total.mismatch");
    raw.comprobante.total = 131.54;
    expect(codes(check(raw))).toContain("total.mismatch");
  });

  it("adds the voucher's own exentos to the exempt amount and the total", () => {
    const raw = baseVoucher();
    raw.comprobante.detalle = [item("Gravado", 1, 100, 21), item("Exento", 1, 50, -1)];
    raw.comprobante.exentos = 30;
    raw.comprobante.total = 201;
    const t = totalsOf(raw);
    expect(t.exempt.toFixed(2)).toBe("80.00");
    expect(t.total.toFixed(2)).toBe("201.00");
    expect(check(raw).findings.filter((f) => f.severity === "error")).toEqual([]);
  });
});
