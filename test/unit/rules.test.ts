import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { derivedReference } from "../../src/batch/journal.js";
import { dayNumber } from "../../src/voucher/dates.js";
import { Dec } from "../../src/voucher/decimal.js";
import { cbuWithCheckDigits } from "../../src/voucher/ids.js";
import { formatPath } from "../../src/voucher/path.js";
import { type Finding, LIMITS, unidentifiedConsumer } from "../../src/voucher/rules.js";
import { type Envelope, TEXT_MAX } from "../../src/voucher/schema.js";
import { defaultedFields, validateEnvelope } from "../../src/voucher/validate.js";
import { baseVoucher, check, codes, finding, item, type Raw, ROOT, TODAY } from "../helpers.js";

/**
 * What every finding owes its reader, whatever the rule: a message with its values filled in, and
 * a path into the voucher that was read (its parent exists; the CSV reader turns it into a cell).
 */
function expectReadable(raw: Raw, findings: readonly Finding[]) {
  for (const f of findings) {
    expect(f.message, f.code).toMatch(/\w/);
    expect(f.message, f.code).not.toMatch(/\{\w+\}/);
    expect(f.path.length, f.code).toBeGreaterThan(0);
    expect(
      f.path.every((k) => k !== ""),
      `${f.code} at ${formatPath(f.path)}`,
    ).toBe(true);
    let node = raw;
    for (const k of f.path.slice(0, -1)) node = node?.[k];
    expect(typeof node, `${f.code} at ${formatPath(f.path)}`).toBe("object");
  }
}

/** Applies `mutate` to a fresh base voucher and returns the error and warning codes. */
function judge(mutate: (raw: Raw) => void, opts: { today?: string; ceiling?: string } = {}) {
  const raw = baseVoucher();
  mutate(raw);
  const r = check(raw, opts);
  expectReadable(raw, r.findings);
  return { errors: codes(r), warnings: codes(r, "warning"), result: r };
}

/** Runs `first`, then `next`: a variation on a prepared voucher. */
const variant = (first: (raw: Raw) => void, next: (raw: Raw) => unknown) => (raw: Raw) => {
  first(raw);
  next(raw);
};

const untotalled = (raw: Raw) => {
  delete raw.comprobante.total;
};

const RI = { documento_tipo: "CUIT", documento_nro: "30712293841", razon_social: "Cliente SA", condicion_iva: "RI" };
const CBU = cbuWithCheckDigits("0170099", "2000004567890");
const FCE_A = "FACTURA DE CREDITO ELECTRONICA MiPyME (FCE) A";
const FCE_REGIME = "Factura de Crédito Electrónica MiPyMEs (FCE)";

function fceInvoice(raw: Raw) {
  raw.cliente = { ...RI };
  raw.comprobante.tipo = FCE_A;
  raw.comprobante.rg_especiales = {
    regimen: FCE_REGIME,
    datos: [
      { id: 2101, valor: CBU },
      { id: 27, valor: "SCA" },
    ],
  };
}

function fceNote(raw: Raw) {
  fceInvoice(raw);
  raw.comprobante.tipo = "NOTA DE CREDITO ELECTRONICA MiPyME (FCE) A";
  raw.comprobante.rg_especiales.datos = [{ id: 22, valor: "N" }];
  raw.comprobante.comprobantes_asociados = [
    { tipo_comprobante: FCE_A, punto_venta: 3, numero: 10, comprobante_fecha: "10/11/2026", cuit: "30000000007" },
  ];
}

describe("limits, both sides", () => {
  it(`items: ${LIMITS.items} pass, ${LIMITS.items + 1} do not`, () => {
    const at = judge((r) => {
      r.comprobante.detalle = Array.from({ length: LIMITS.items }, (_, i) => item(`Item ${i}`, 1, 1, 21));
      untotalled(r);
    });
    expect(at.errors).toEqual([]);
    const over = judge((r) => {
      r.comprobante.detalle = Array.from({ length: LIMITS.items + 1 }, (_, i) => item(`Item ${i}`, 1, 1, 21));
      untotalled(r);
    });
    expect(over.errors).toEqual(["items.max"]);
  });

  it("tags: 50 pass, 51 do not; each tag is alphanumeric up to 255", () => {
    expect(judge((r) => (r.comprobante.tags = Array.from({ length: 50 }, (_, i) => `t${i}`))).errors).toEqual([]);
    expect(judge((r) => (r.comprobante.tags = Array.from({ length: 51 }, (_, i) => `t${i}`))).errors).toEqual([
      "tags.max",
    ]);
    expect(judge((r) => (r.comprobante.tags = ["a".repeat(255), "año 2026", "lote_1-b"])).errors).toEqual([]);
    expect(judge((r) => (r.comprobante.tags = ["a".repeat(256)])).errors).toEqual(["tags.format"]);
    expect(judge((r) => (r.comprobante.tags = ["a/b"])).errors).toEqual(["tags.format"]);
  });

  it("associated vouchers: 10 pass, 11 do not", () => {
    const assoc = (n: number) => (r: Raw) => {
      r.comprobante.tipo = "NOTA DE CREDITO B";
      r.comprobante.comprobantes_asociados = Array.from({ length: n }, (_, i) => ({
        tipo_comprobante: "FACTURA B",
        punto_venta: 3,
        numero: i + 1,
        comprobante_fecha: "01/11/2026",
        cuit: "30000000007",
      }));
    };
    expect(judge(assoc(10)).errors).toEqual([]);
    expect(judge(assoc(11)).errors).toEqual(["associations.max"]);
  });

  it("tributos: 6 pass, 7 warn (the docs disagree), 8 do not", () => {
    const tributos = (n: number) => (r: Raw) => {
      r.comprobante.tributos = Array.from({ length: n }, () => ({
        tipo: 7,
        regimen: 5,
        base_imponible: 100,
        alicuota: 1,
        total: 1,
      }));
      untotalled(r);
    };
    expect(judge(tributos(6))).toMatchObject({ errors: [], warnings: ["total.missing"] });
    expect(judge(tributos(7)).warnings).toContain("tributos.max");
    expect(judge(tributos(7)).errors).toEqual([]);
    expect(judge(tributos(8)).errors).toEqual(["tributos.max"]);
  });

  it("external_reference: letters, digits, _ and -, up to 255", () => {
    expect(judge((r) => (r.comprobante.external_reference = "A".repeat(255))).errors).toEqual([]);
    expect(judge((r) => (r.comprobante.external_reference = "A".repeat(256))).errors).toEqual([
      "external_reference.format",
    ]);
    expect(judge((r) => (r.comprobante.external_reference = "lote_7-b")).errors).toEqual([]);
    expect(judge((r) => (r.comprobante.external_reference = "lote 7")).errors).toEqual(["external_reference.format"]);
    expect(judge((r) => (r.comprobante.external_reference = 17032)).errors).toEqual([]);
  });

  it("e-mail addresses: 15 pass, 16 do not", () => {
    const emails = (n: number) => Array.from({ length: n }, (_, i) => `u${i}@example.com`).join(",");
    expect(judge((r) => (r.cliente.email = emails(15))).errors).toEqual([]);
    expect(judge((r) => (r.cliente.email = emails(16))).errors).toEqual(["email.max"]);
    expect(judge((r) => (r.cliente.email = "not-an-address")).warnings).toEqual(["email.format"]);
  });
});

describe("document type per class (spec 2.2 rule 4)", () => {
  it("class A, M and FCE go to a CUIT", () => {
    for (const tipo of ["FACTURA A", "FACTURA M", "NOTA DE DEBITO A"]) {
      expect(judge((r) => (r.comprobante.tipo = tipo)).errors, tipo).toContain("document.class");
    }
    const ok = judge((r) => {
      r.comprobante.tipo = "FACTURA A";
      r.cliente = { ...RI };
    });
    expect(ok.errors).toEqual([]);
  });

  it("class B to an exempt customer goes to a CUIT; to a consumer any document", () => {
    expect(judge((r) => (r.cliente.condicion_iva = "E")).errors).toEqual(["document.class"]);
    for (const doc of ["DNI", "PASAPORTE", "LE", "LC", "CUIL"]) {
      const nro = doc === "CUIL" ? "20111111112" : "30123456";
      expect(judge((r) => Object.assign(r.cliente, { documento_tipo: doc, documento_nro: nro })).errors, doc).toEqual(
        [],
      );
    }
    // The spec spells it "Pasaporte": any case is read as the table's PASAPORTE.
    expect(judge((r) => (r.cliente.documento_tipo = "Pasaporte")).errors).toEqual([]);
  });

  it("class C to a registered, small or exempt taxpayer goes to a CUIT", () => {
    for (const condition of ["RI", "M", "E"]) {
      const r = judge((raw) => {
        raw.comprobante.tipo = "FACTURA C";
        raw.comprobante.detalle = [item("Clase", 1, 121, 0)];
        raw.cliente.condicion_iva = condition;
      });
      expect(r.errors, condition).toEqual(["document.class"]);
    }
  });

  it("the receiver's VAT condition must suit the class (TFC-8004)", () => {
    expect(judge((r) => Object.assign(r.cliente, RI)).errors).toEqual(["vat-condition.class"]);
    expect(judge((r) => (r.comprobante.tipo = "FACTURA A")).errors).toEqual(["vat-condition.class", "document.class"]);
    expect(
      judge((r) => Object.assign(r.cliente, { condicion_iva: "RI", condicion_iva_operacion: "CF" })).errors,
    ).toEqual([]);
  });
});

describe("the anonymous final consumer", () => {
  const anonymous = (r: Raw) => Object.assign(r.cliente, { documento_tipo: "OTRO", documento_nro: "0" });

  it("is OTRO / 0 and a final consumer", () => {
    expect(judge(anonymous).errors).toEqual([]);
    expect(judge((r) => Object.assign(anonymous(r), { documento_nro: "123" })).errors).toEqual(["anonymous.document"]);
    expect(judge((r) => Object.assign(anonymous(r), { condicion_iva: "IVNA" })).errors).toEqual([
      "anonymous.condition",
    ]);
  });

  it("is allowed only below the ceiling, in pesos", () => {
    const at = (total: number, opts = {}) =>
      judge((r) => {
        anonymous(r);
        r.comprobante.detalle = [item("Equipo", 1, total, 0)];
        r.comprobante.total = total;
      }, opts).errors;
    expect(at(9999999.99)).toEqual([]);
    expect(at(10000000)).toEqual(["anonymous.ceiling"]);
    expect(at(500, { ceiling: "500.01" })).toEqual([]);
    expect(at(500, { ceiling: "500" })).toEqual(["anonymous.ceiling"]);
    const dollars = judge((r) => {
      anonymous(r);
      r.comprobante.detalle = [item("Equipo", 1, 10000, 0)];
      r.comprobante.total = 10000;
      r.comprobante.moneda = "DOL";
      r.comprobante.cotizacion = 1000;
    });
    expect(dollars.errors).toEqual(["anonymous.ceiling"]);
  });

  it("a customer abroad (CDEX) goes as OTRO with its foreign id, on B and on E, with no ceiling", () => {
    const abroad = (r: Raw) =>
      Object.assign(r.cliente, { documento_tipo: "OTRO", documento_nro: "0", condicion_iva: "CDEX" });
    expect(judge(abroad).errors).toEqual([]);
    expect(judge((r) => Object.assign(abroad(r), { documento_nro: "987654321" })).errors).toEqual([]);
    const big = judge((r) => {
      abroad(r);
      r.comprobante.detalle = [item("Equipo", 1, 20000000, 0)];
      r.comprobante.total = 20000000;
    });
    expect(big.errors).toEqual([]);
  });
});

describe("CUIT check digits wherever a CUIT appears", () => {
  it("the customer's", () => {
    const r = judge((raw) => {
      raw.comprobante.tipo = "FACTURA A";
      raw.cliente = { ...RI, documento_nro: "30712293842" };
    });
    expect(r.errors).toEqual(["cuit.check"]);
    // Never which digit would pass: that invites invoicing another taxpayer.
    expect(finding(r.result, "cuit.check")?.message).toMatch(/is not valid: its check digit does not match/);
    expect(finding(r.result, "cuit.check")?.message).not.toMatch(/expected/);
  });
  it("a CUIL's, with person prefixes only", () => {
    expect(
      judge((r) => Object.assign(r.cliente, { documento_tipo: "CUIL", documento_nro: "30000000007" })).errors,
    ).toEqual(["cuit.check"]);
  });
  it("an associated voucher's", () => {
    const r = judge((raw) => {
      raw.comprobante.tipo = "NOTA DE CREDITO B";
      raw.comprobante.comprobantes_asociados = [
        {
          tipo_comprobante: "FACTURA B",
          punto_venta: 1,
          numero: 1,
          comprobante_fecha: "01/11/2026",
          cuit: "30000000008",
        },
      ];
    });
    expect(r.errors).toEqual(["cuit.check"]);
  });
  it("the export country's", () => {
    const exportTo = (countryCuit: string) => (raw: Raw) => {
      raw.cliente = {
        documento_tipo: "CUIT",
        documento_nro: "55000002207",
        razon_social: "Buyer LLC",
        condicion_iva: "CDEX",
      };
      raw.comprobante.tipo = "FACTURA E";
      raw.comprobante.moneda = "DOL";
      raw.comprobante.cotizacion = 1000;
      raw.comprobante.detalle = [item("Consultoría", 10, 12.1, 0)];
      raw.comprobante.total = 121;
      raw.comprobante.fex = {
        tipo_exportacion: 2,
        pais_comprobante_id: 212,
        fecha_pago: "15/12/2026",
        cliente_pais_cuit: countryCuit,
      };
    };
    expect(judge(exportTo("55000002207")).errors).toEqual([]);
    const r = judge(exportTo("55000002208"));
    expect(r.errors).toEqual(["cuit.check"]);
    expect(finding(r.result, "cuit.check")?.path).toEqual(["comprobante", "fex", "cliente_pais_cuit"]);
  });
  it("never the issuer's own", () => {
    const raw = baseVoucher();
    raw.comprobante.tipo = "FACTURA A";
    raw.cliente = { ...RI };
    const r = check(raw);
    expect(r.ok).toBe(true);
    const self = validateEnvelope(raw, { issuerCuit: "30712293841", now: new Date("2026-11-20T15:00:00Z") });
    expect(codes(self)).toEqual(["cuit.self"]);
  });
});

describe("class C and E restrictions", () => {
  const classC = (r: Raw) => {
    r.comprobante.tipo = "FACTURA C";
    r.comprobante.detalle = [item("Clase", 1, 121, 0)];
  };
  it("C: no VAT, no exempt or non-taxed items, no perceptions", () => {
    expect(judge(classC).errors).toEqual([]);
    for (const rate of [21, -1, -2]) {
      expect(judge(variant(classC, (r) => (r.comprobante.detalle[0].producto.alicuota = rate))).errors).toEqual([
        "class-c.vat",
      ]);
    }
    expect(
      judge(
        variant(classC, (r) => {
          r.comprobante.exentos = 10;
          untotalled(r);
        }),
      ).errors,
    ).toEqual(["class-c.exempt"]);
    expect(
      judge((r) => {
        classC(r);
        r.comprobante.tributos = [{ tipo: 7, regimen: 5, base_imponible: 121, alicuota: 1, total: 1.21 }];
        untotalled(r);
      }).errors,
    ).toEqual(["class-c.perceptions"]);
  });

  const services = (r: Raw) => {
    r.cliente = {
      documento_tipo: "CUIT",
      documento_nro: "55000002207",
      razon_social: "Buyer LLC",
      condicion_iva: "CDEX",
    };
    r.comprobante.tipo = "FACTURA E";
    r.comprobante.moneda = "DOL";
    r.comprobante.cotizacion = 1000;
    r.comprobante.detalle = [item("Consultoría", 10, 12.1, 0)];
    r.comprobante.fex = { tipo_exportacion: 2, pais_comprobante_id: 212, fecha_pago: "15/12/2026" };
  };
  it("E: fex required; no VAT, discounts, taxes or internal taxes", () => {
    expect(judge(services).errors).toEqual([]);
    expect(judge(variant(services, (r) => delete r.comprobante.fex)).errors).toEqual(["class-e.fex"]);
    expect(
      judge(
        variant(services, (r) => {
          r.comprobante.detalle[0].producto.alicuota = 21;
          untotalled(r);
        }),
      ).errors,
    ).toEqual(["class-e.vat"]);
    expect(judge(variant(services, (r) => (r.comprobante.detalle[0].producto.alicuota = -2))).errors).toEqual([
      "class-e.vat",
    ]);
    expect(
      judge(
        variant(services, (r) => {
          r.comprobante.bonificacion = 1;
          untotalled(r);
        }),
      ).errors,
    ).toEqual(["class-e.discount"]);
    expect(
      judge(
        variant(services, (r) => {
          r.comprobante.detalle[0].bonificacion_porcentaje = 5;
          untotalled(r);
        }),
      ).errors,
    ).toEqual(["class-e.discount"]);
    expect(
      judge(
        variant(services, (r) => {
          r.comprobante.impuestos_internos = 3;
          untotalled(r);
        }),
      ).errors,
    ).toEqual(["class-e.internal-taxes"]);
    expect(
      judge((r) => {
        services(r);
        r.comprobante.tributos = [{ tipo: 1, regimen: 33, base_imponible: 121, alicuota: 1, total: 1.21 }];
        untotalled(r);
      }).errors,
    ).toEqual(["class-e.taxes"]);
  });
  it("E goods: permits consistent; services: a payment date, no permits", () => {
    const goods = (r: Raw) => {
      services(r);
      r.comprobante.fex = {
        tipo_exportacion: 1,
        permisos_tiene: "N",
        pais_comprobante_id: 212,
        incoterms_tipo_id: "FOB",
      };
    };
    expect(judge(goods).errors).toEqual([]);
    expect(judge(variant(goods, (r) => (r.comprobante.fex.permisos_tiene = "S"))).errors).toEqual(["fex.permits"]);
    expect(judge(variant(services, (r) => delete r.comprobante.fex.fecha_pago)).errors).toEqual(["fex.payment-date"]);
    expect(
      judge(variant(services, (r) => (r.comprobante.fex.permisos = [{ codigo_despacho: "X1", pais_destino_id: 212 }])))
        .errors,
    ).toEqual(["fex.permits"]);
    expect(judge((r) => (r.comprobante.fex = { tipo_exportacion: 2 })).errors).toEqual(["fex.not-export"]);
  });
  it("E notes name what they adjust in fex.comprobantes_asociados, as the vendor's export page shows", () => {
    const invoiceE = { tipo_comprobante: "FACTURA E", punto_venta: 3, numero: 12, cuit: "30000000007" };
    const note = (r: Raw) => {
      services(r);
      r.comprobante.tipo = "NOTA DE CREDITO E";
      delete r.comprobante.fex.fecha_pago;
      r.comprobante.fex.comprobantes_asociados = [{ ...invoiceE }];
    };
    const ok = judge(note);
    expect(ok.errors).toEqual([]);
    // Only the billed period a service export leaves out, filled in and told.
    expect(ok.warnings).toEqual(["date.default"]);
    expect(ok.result.envelope?.comprobante.fex?.comprobantes_asociados).toEqual([{ ...invoiceE, cuit: "30000000007" }]);
    expect(judge(variant(note, (r) => (r.comprobante.tipo = "NOTA DE DEBITO E"))).errors).toEqual([]);
    // At the top level, with the date the other notes carry: an error that names the right place, alone.
    const top = judge(
      variant(note, (r) => {
        r.comprobante.comprobantes_asociados = [{ ...invoiceE, comprobante_fecha: "10/11/2026" }];
        delete r.comprobante.fex.comprobantes_asociados;
      }),
    );
    expect(top.errors).toEqual(["class-e.associations"]);
    expect(top.warnings).toEqual(["date.default"]);
    expect(finding(top.result, "class-e.associations")?.message).toMatch(/fex\.comprobantes_asociados/);
    // The vendor's shape has no date.
    expect(
      judge(variant(note, (r) => (r.comprobante.fex.comprobantes_asociados[0].comprobante_fecha = "10/11/2026")))
        .errors,
    ).toEqual(["schema.unknown-field"]);
    // Every note names what it adjusts (spec §2.8), goods and services alike (for services WSFEX also says so: 2047).
    expect(judge(variant(note, (r) => delete r.comprobante.fex.comprobantes_asociados)).errors).toEqual([
      "notes.association",
    ]);
    const goodsNote = variant(note, (r) => {
      r.comprobante.fex = {
        tipo_exportacion: 1,
        permisos_tiene: "N",
        pais_comprobante_id: 212,
        incoterms_tipo_id: "FOB",
      };
    });
    const bare = judge(goodsNote);
    expect(bare.errors).toEqual(["notes.association"]);
    expect(bare.warnings).toEqual([]);
    expect(finding(bare.result, "notes.association")?.path).toEqual(["comprobante", "fex", "comprobantes_asociados"]);
    expect(
      judge(variant(note, (r) => (r.comprobante.fex.comprobantes_asociados[0].tipo_comprobante = "FACTURA B"))).errors,
    ).toEqual(["associations.class"]);
    expect(
      judge(variant(note, (r) => r.comprobante.fex.comprobantes_asociados.push({ ...invoiceE, numero: 13 }))).errors,
    ).toEqual(["associations.max"]);
    expect(
      judge(variant(note, (r) => (r.comprobante.fex.comprobantes_asociados[0].cuit = "30000000008"))).errors,
    ).toEqual(["cuit.check"]);
    expect(judge(variant(note, (r) => (r.comprobante.fex.fecha_pago = "15/12/2026"))).errors).toEqual([
      "fex.payment-date",
    ]);
    // An invoice adjusts nothing.
    expect(judge(variant(services, (r) => (r.comprobante.fex.comprobantes_asociados = [invoiceE]))).errors).toEqual([
      "fex.associations",
    ]);
  });
});

describe("MiPyME FCE", () => {
  it("an invoice carries a valid CBU (2101) and SCA/ADC (27), to a CUIT", () => {
    expect(judge(fceInvoice).errors).toEqual([]);
    expect(judge(variant(fceInvoice, (r) => (r.comprobante.rg_especiales.datos[1].valor = "ADC"))).errors).toEqual([]);
    expect(judge(variant(fceInvoice, (r) => delete r.comprobante.rg_especiales)).errors).toEqual(["fce.regime"]);
    expect(judge(variant(fceInvoice, (r) => r.comprobante.rg_especiales.datos.splice(0, 1))).errors).toEqual([
      "fce.cbu",
    ]);
    expect(
      judge(
        variant(
          fceInvoice,
          (r) => (r.comprobante.rg_especiales.datos[0].valor = `${CBU.slice(0, 21)}${(Number(CBU[21]) + 1) % 10}`),
        ),
      ).errors,
    ).toEqual(["fce.cbu"]);
    expect(judge(variant(fceInvoice, (r) => (r.comprobante.rg_especiales.datos[1].valor = "SAC"))).errors).toEqual([
      "fce.transfer",
    ]);
    expect(
      judge(variant(fceInvoice, (r) => r.comprobante.rg_especiales.datos.push({ id: 22, valor: "N" }))).errors,
    ).toEqual(["fce.annulment"]);
    expect(
      judge(
        variant(fceInvoice, (r) => (r.cliente = { ...r.cliente, documento_tipo: "DNI", documento_nro: "30123456" })),
      ).errors,
    ).toContain("document.class");
  });

  it("an invoice is due on or after its date and the day it is sent, told once", () => {
    expect(judge(variant(fceInvoice, (r) => (r.comprobante.vencimiento = r.comprobante.fecha))).errors).toEqual([]);
    // Before its date: the FCE rule says so, not also the rule every voucher has.
    expect(judge(variant(fceInvoice, (r) => (r.comprobante.vencimiento = "19/11/2026"))).errors).toEqual([
      "fce.due-date",
    ]);
    const stale = judge((r) => fceInvoice(r), { today: "22/12/2026" });
    // A month old: out of the date window, and due before the day it would be sent (the authority refuses it).
    expect(stale.errors).toEqual(["fce.due-date", "date.window"]);
    expect(stale.warnings).not.toContain("fce.due-date");
  });

  it("a note carries 22 (S/N), no CBU, alias or 27, and adjusts one FCE invoice", () => {
    expect(judge(fceNote).errors).toEqual([]);
    expect(judge(variant(fceNote, (r) => (r.comprobante.rg_especiales.datos = []))).errors).toEqual(["fce.annulment"]);
    expect(judge(variant(fceNote, (r) => (r.comprobante.rg_especiales.datos[0].valor = "X"))).errors).toEqual([
      "fce.annulment",
    ]);
    expect(
      judge(variant(fceNote, (r) => r.comprobante.rg_especiales.datos.push({ id: 27, valor: "SCA" }))).errors,
    ).toEqual(["fce.note-data"]);
    expect(
      judge(variant(fceNote, (r) => (r.comprobante.comprobantes_asociados[0].tipo_comprobante = "FACTURA A"))).errors,
    ).toEqual(["associations.fce"]);
    expect(
      judge(
        variant(fceNote, (r) =>
          r.comprobante.comprobantes_asociados.push({ ...r.comprobante.comprobantes_asociados[0], numero: 11 }),
        ),
      ).errors,
    ).toEqual(["associations.fce"]);
  });

  it("FCE data stays off other vouchers", () => {
    expect(
      judge((r) => (r.comprobante.rg_especiales = { regimen: FCE_REGIME, datos: [{ id: 2101, valor: CBU }] })).errors,
    ).toEqual(["fce.not-fce"]);
  });
});

describe("credit and debit notes", () => {
  const note = (r: Raw) => {
    r.comprobante.tipo = "NOTA DE CREDITO B";
    r.comprobante.comprobantes_asociados = [
      {
        tipo_comprobante: "FACTURA B",
        punto_venta: 3,
        numero: 7,
        comprobante_fecha: "18/11/2026",
        cuit: "30000000007",
      },
    ];
  };
  it("name what they adjust: vouchers or a period", () => {
    expect(judge(note).errors).toEqual([]);
    expect(judge(variant(note, (r) => delete r.comprobante.comprobantes_asociados)).errors).toEqual([
      "notes.association",
    ]);
    const period = judge((r) => {
      r.comprobante.tipo = "NOTA DE DEBITO B";
      r.comprobante.comprobantes_asociados_periodo = { fecha_desde: "01/10/2026", fecha_hasta: "31/10/2026" };
    });
    expect(period.errors).toEqual([]);
  });
  it("adjust vouchers of their own class, dated no later than themselves", () => {
    expect(
      judge(variant(note, (r) => (r.comprobante.comprobantes_asociados[0].tipo_comprobante = "FACTURA A"))).errors,
    ).toEqual(["associations.class"]);
    expect(
      judge(variant(note, (r) => (r.comprobante.comprobantes_asociados[0].comprobante_fecha = "20/11/2026"))).errors,
    ).toEqual([]);
    // M is a group of its own: an A note does not adjust a FACTURA M, nor an M note a FACTURA A.
    const classA = (note: string, adjusts: string) =>
      variant(
        (r) => {
          r.comprobante.tipo = note;
          r.cliente = {
            documento_tipo: "CUIT",
            documento_nro: "30712293841",
            razon_social: "Acme SA",
            condicion_iva: "RI",
          };
          r.comprobante.comprobantes_asociados = [
            {
              tipo_comprobante: adjusts,
              punto_venta: 3,
              numero: 7,
              comprobante_fecha: "18/11/2026",
              cuit: "30000000007",
            },
          ];
        },
        () => {},
      );
    expect(judge(classA("NOTA DE CREDITO A", "FACTURA A")).errors).not.toContain("associations.class");
    expect(judge(classA("NOTA DE CREDITO M", "FACTURA M")).errors).not.toContain("associations.class");
    expect(judge(classA("NOTA DE CREDITO A", "FACTURA M")).errors).toContain("associations.class");
    expect(judge(classA("NOTA DE DEBITO M", "FACTURA A")).errors).toContain("associations.class");
    expect(
      judge(variant(note, (r) => (r.comprobante.comprobantes_asociados[0].comprobante_fecha = "21/11/2026"))).errors,
    ).toEqual(["associations.date"]);
  });
  it("an associated period is ordered and ends by the voucher's date", () => {
    const period = (from: string, to: string) => (r: Raw) => {
      r.comprobante.tipo = "NOTA DE DEBITO B";
      r.comprobante.comprobantes_asociados_periodo = { fecha_desde: from, fecha_hasta: to };
    };
    expect(judge(period("01/11/2026", "20/11/2026")).errors).toEqual([]);
    expect(judge(period("02/11/2026", "01/11/2026")).errors).toEqual(["period.order"]);
    expect(judge(period("01/11/2026", "21/11/2026")).errors).toEqual(["associations.date"]);
  });
});

describe("lengths", () => {
  const exportGoods = () => JSON.parse(readFileSync(join(ROOT, "samples/factura-e-goods.json"), "utf8"));
  /** `comprobante.detalle.leyenda` → ["comprobante", "detalle", 0, "leyenda"]: the first of each list. */
  const pathOf = (field: string) =>
    field.split(".").flatMap((k) => (k === "detalle" || k === "permisos" ? [k, 0] : [k])) as (string | number)[];
  const withText = (field: string, length: number) => {
    const raw = field.startsWith("comprobante.fex.") ? exportGoods() : baseVoucher();
    const path = pathOf(field);
    let node = raw;
    for (const k of path.slice(0, -1)) node = node[k];
    node[path[path.length - 1] as string] = "x".repeat(length);
    return check(raw);
  };
  it.each(Object.entries(TEXT_MAX))("%s: %i characters pass, one more is text.max on the field", (field, max) => {
    expect(codes(withText(field, max))).toEqual([]);
    const over = withText(field, max + 1);
    expect(over.findings.filter((f) => f.severity === "error").map((f) => [f.code, formatPath(f.path)])).toEqual([
      ["text.max", formatPath(pathOf(field))],
    ]);
    expect(finding(over, "text.max")?.message).toBe(`must have at most ${max} characters; it has ${max + 1}`);
  });

  it("export vouchers: the customer's name takes 200 characters (the authority's Cliente)", () => {
    const named = (length: number) => {
      const raw = exportGoods();
      raw.cliente.razon_social = "x".repeat(length);
      return check(raw);
    };
    expect(codes(named(LIMITS.exportCustomerName))).toEqual([]);
    expect(codes(named(LIMITS.exportCustomerName + 1))).toEqual(["text.max"]);
    expect(finding(named(201), "text.max")?.path).toEqual(["cliente", "razon_social"]);
  });

  it("an item legend over 100 characters draws a warning: the older documentation's limit", () => {
    expect(judge((r) => (r.comprobante.detalle[0].leyenda = "x".repeat(100))).warnings).toEqual([]);
    const long = judge((r) => (r.comprobante.detalle[0].leyenda = "x".repeat(101)));
    expect([long.errors, long.warnings]).toEqual([[], ["text.max"]]);
  });

  it("e-mail addresses: at most 15, and 255 characters together", () => {
    const emails = (n: number, name = "u") => Array.from({ length: n }, (_, i) => `${name}${i}@example.com`).join(",");
    expect(judge((r) => (r.cliente.email = emails(15))).errors).toEqual([]);
    expect(judge((r) => (r.cliente.email = emails(16))).errors).toEqual(["email.max"]);
    const long = emails(10, "a-rather-long-mailbox-name");
    expect(long.length).toBeGreaterThan(255);
    const r = judge((v) => (v.cliente.email = long));
    expect(r.errors).toEqual(["email.max"]);
    expect(r.result.findings.find((x) => x.code === "email.max")?.message).toMatch(/255 characters together/);
  });
});

describe("currency, payments, periods, tributos", () => {
  it("a negative-price line is a discount where nothing turns negative; never on export vouchers", () => {
    const discounted = (price: number) => (r: Raw) => {
      r.comprobante.detalle = [item("Zapatillas running", 1, 1000, 21), item("Descuento cliente", 1, price, 21)];
      delete r.comprobante.total;
    };
    const fine = judge(discounted(-100));
    expect(fine.errors).toEqual([]);
    expect(fine.result.totals?.total.toFixed(2)).toBe("1089.00");
    const too = judge(discounted(-1500));
    expect(too.errors).toContain("negative.totals");
    expect(too.result.findings.find((x) => x.code === "negative.totals")?.path).toEqual([
      "comprobante",
      "detalle",
      1,
      "producto",
      "precio_unitario_sin_iva",
    ]);
  });

  it("a voucher discount larger than its items is an error at bonificacion, not only a wrong total", () => {
    const subtotal = judge(() => {}).result.totals?.subtotal.toFixed(2) as string;
    expect(judge((r) => (r.comprobante.bonificacion = subtotal)).errors).not.toContain("discount.exceeds");
    const over = judge((r) => {
      r.comprobante.bonificacion = `${Number(subtotal) + 1}`;
      delete r.comprobante.total;
    });
    expect(over.errors).toContain("discount.exceeds");
    expect(over.result.findings.find((x) => x.code === "discount.exceeds")?.path).toEqual([
      "comprobante",
      "bonificacion",
    ]);
  });
  it("PES goes at cotizacion 1 (another rate is replaced, with a warning); other currencies need a rate, dollars not 1", () => {
    expect(judge((r) => (r.comprobante.cotizacion = 1)).errors).toEqual([]);
    const pesos = judge((r) => (r.comprobante.cotizacion = 3));
    expect([pesos.errors, pesos.warnings]).toEqual([[], ["currency.rate"]]);
    expect(pesos.result.envelope?.comprobante.cotizacion).toBe("1");
    // The total is the pesos total, not three times it.
    expect(pesos.result.totals?.total.toFixed(2)).toBe(judge(() => {}).result.totals?.total.toFixed(2));
    expect(judge((r) => (r.comprobante.moneda = "DOL")).errors).toEqual(["currency.rate"]);
    expect(judge((r) => Object.assign(r.comprobante, { moneda: "DOL", cotizacion: 1015.5 })).errors).toEqual([]);
    expect(judge((r) => Object.assign(r.comprobante, { moneda: "DOL", cotizacion: 1 })).errors).toEqual([
      "currency.rate",
    ]);
    expect(judge((r) => Object.assign(r.comprobante, { moneda: "060", cotizacion: 1 })).warnings).toEqual([
      "currency.rate",
    ]);
    expect(judge((r) => Object.assign(r.comprobante, { moneda: "XYZ", cotizacion: 5 })).warnings).toEqual([
      "currency.unknown",
    ]);
    expect(judge((r) => (r.comprobante.datos_informativos = { paga_misma_moneda: "S" })).errors).toEqual([
      "currency.same-currency",
    ]);
  });

  it("pagos.total equals its parts and does not exceed the voucher", () => {
    const pay = (parts: number[], total: number) => (r: Raw) => {
      r.comprobante.pagos = { formas_pago: parts.map((importe, i) => ({ descripcion: `Medio ${i}`, importe })), total };
    };
    expect(judge(pay([100, 21], 121)).errors).toEqual([]);
    expect(judge(pay([50], 50)).errors).toEqual([]); // partial payment
    expect(judge(pay([100, 20], 121)).errors).toEqual(["payments.sum"]);
    expect(judge(pay([100, 21.01], 121.01)).errors).toEqual(["payments.exceed"]);
  });

  it("billed period complete and ordered; due date not before the voucher", () => {
    expect(judge((r) => (r.comprobante.periodo_facturado_desde = "01/11/2026")).errors).toEqual(["period.incomplete"]);
    expect(
      judge((r) =>
        Object.assign(r.comprobante, { periodo_facturado_desde: "01/11/2026", periodo_facturado_hasta: "01/11/2026" }),
      ).errors,
    ).toEqual([]);
    expect(
      judge((r) =>
        Object.assign(r.comprobante, { periodo_facturado_desde: "02/11/2026", periodo_facturado_hasta: "01/11/2026" }),
      ).errors,
    ).toEqual(["period.order"]);
    expect(judge((r) => (r.comprobante.vencimiento = "19/11/2026")).errors).toEqual(["due-date.order"]);
  });

  it("a subscription says how often and until when", () => {
    const sub = { abono: "S", abono_frecuencia: 1, abono_hasta: "12/2027" };
    expect(judge((r) => Object.assign(r.comprobante, sub)).errors).toEqual([]);
    expect(judge((r) => Object.assign(r.comprobante, sub, { abono_hasta: "11/2026" })).errors).toEqual([]);
    expect(judge((r) => Object.assign(r.comprobante, sub, { abono_hasta: "10/2026" })).errors).toEqual([
      "period.order",
    ]);
    expect(judge((r) => Object.assign(r.comprobante, { abono: "S" })).errors).toEqual([
      "subscription.incomplete",
      "subscription.incomplete",
    ]);
  });

  it("tributo types and regimes match; amounts are checked as a warning", () => {
    const trib = (t: object) => (r: Raw) => {
      r.comprobante.tributos = [{ tipo: 6, regimen: 2, base_imponible: 100, alicuota: 3, total: 3, ...t }];
      untotalled(r);
    };
    expect(judge(trib({})).errors).toEqual([]);
    expect(judge(trib({ tipo: 7, regimen: 5 })).errors).toEqual([]);
    expect(judge(trib({ tipo: 2 })).errors).toEqual(["tributo.type"]);
    expect(judge(trib({ regimen: 5 })).errors).toEqual(["tributo.regime"]);
    expect(judge(trib({ regimen: 40 })).errors).toEqual(["tributo.regime"]);
    expect(judge(trib({ total: 4 })).warnings).toContain("tributo.amount");
  });

  it("special regimes take their own ids", () => {
    expect(
      judge((r) => (r.comprobante.rg_especiales = { regimen: "RG 2.820", datos: [{ id: 11, valor: "x" }] })).errors,
    ).toEqual([]);
    expect(
      judge((r) => (r.comprobante.rg_especiales = { regimen: "RG 2.820", datos: [{ id: 12, valor: "x" }] })).errors,
    ).toEqual(["rg_especiales.id"]);
    expect(
      judge((r) => (r.comprobante.rg_especiales = { regimen: "Otro régimen", datos: [{ id: 1, valor: "x" }] }))
        .warnings,
    ).toEqual(["rg_especiales.regime"]);
  });

  it("operacion and the party agree", () => {
    expect(judge((r) => Object.assign(r.comprobante, { operacion: "C", numero: 24 })).errors).toEqual([
      "party.missing",
    ]);
    expect(
      judge((r) => {
        Object.assign(r.comprobante, { operacion: "C", numero: 24, tipo: "FACTURA A" });
        r.proveedor = { ...RI };
        delete r.cliente;
      }).errors,
    ).toEqual([]);
    expect(judge((r) => (r.proveedor = { ...RI })).errors).toEqual(["party.both"]);
    expect(judge((r) => delete r.cliente).errors).toEqual(["party.missing"]);
  });

  it("a purchase carries the supplier's voucher number: without it the service refuses it", () => {
    const bought = (numero?: number) =>
      judge((r) => {
        Object.assign(r.comprobante, { operacion: "C", tipo: "FACTURA A", numero });
        if (numero === undefined) delete r.comprobante.numero;
        r.proveedor = { ...RI };
        delete r.cliente;
      });
    expect(bought().errors).toEqual(["purchase.numero"]);
    expect(finding(bought().result, "purchase.numero")?.path).toEqual(["comprobante", "numero"]);
    expect(bought(0).errors).toEqual(["purchase.numero"]);
    expect(bought(24).errors).toEqual([]);
    // A sale takes its number from the service: none is asked for.
    expect(judge((r) => delete r.comprobante.numero).errors).toEqual([]);
  });

  it("a payment condition 'Otra' says which", () => {
    expect(judge((r) => (r.cliente.condicion_pago = 214)).errors).toEqual(["payment-condition.other"]);
    expect(
      judge((r) => Object.assign(r.cliente, { condicion_pago: 214, condicion_pago_otra: "Canje" })).errors,
    ).toEqual([]);
  });

  it("nogravados must be 0", () => {
    expect(judge((r) => (r.comprobante.nogravados = 0)).errors).toEqual([]);
    expect(judge((r) => (r.comprobante.nogravados = 1)).errors).toEqual(["nogravados.deprecated"]);
  });
});

describe("date windows (errors: the authority refuses, tax-rules §4.5; Argentina time)", () => {
  const dated = (fecha: string, opts: { services?: boolean } = {}) =>
    judge((r) => {
      r.comprobante.fecha = fecha;
      r.comprobante.vencimiento = "31/12/2026";
      if (opts.services)
        Object.assign(r.comprobante, { periodo_facturado_desde: "01/11/2026", periodo_facturado_hasta: "01/11/2026" });
    }).errors.filter((w) => w === "date.window");

  it("goods: 5 days either side, ahead only within the month", () => {
    expect(dated("15/11/2026")).toEqual([]);
    expect(dated("14/11/2026")).toEqual(["date.window"]);
    expect(dated("25/11/2026")).toEqual([]);
    expect(dated("26/11/2026")).toEqual(["date.window"]);
    expect(judge((r) => (r.comprobante.fecha = "01/12/2026"), { today: "28/11/2026" }).errors).toContain("date.window");
  });
  it("services: 10 days either side", () => {
    expect(dated("10/11/2026", { services: true })).toEqual([]);
    expect(dated("09/11/2026", { services: true })).toEqual(["date.window"]);
    expect(dated("30/11/2026", { services: true })).toEqual([]);
    expect(dated("01/12/2026", { services: true })).toEqual(["date.window"]);
  });
  it("FCE: 5 days back, 1 ahead", () => {
    const fce = (fecha: string) =>
      judge((r) => {
        fceInvoice(r);
        r.comprobante.fecha = fecha;
        r.comprobante.vencimiento = "31/12/2026";
      }).errors.filter((w) => w === "date.window");
    expect(fce("15/11/2026")).toEqual([]);
    expect(fce("14/11/2026")).toEqual(["date.window"]);
    expect(fce("21/11/2026")).toEqual([]);
    expect(fce("22/11/2026")).toEqual(["date.window"]);
  });
  it("exports: 5 days either side, services too (WSFEX)", () => {
    const exported = (name: string, fecha: string) => {
      const raw = JSON.parse(readFileSync(join(ROOT, "samples", `${name}.json`), "utf8"));
      raw.comprobante.fecha = fecha;
      const opts = { today: dayNumber(TODAY), ceiling: Dec.parse("10000000") };
      return codes(validateEnvelope(raw, opts)).filter((c) => c === "date.window");
    };
    for (const name of ["factura-e-services", "factura-e-goods"]) {
      expect(exported(name, "15/11/2026"), name).toEqual([]);
      expect(exported(name, "14/11/2026"), name).toEqual(["date.window"]);
      expect(exported(name, "25/11/2026"), name).toEqual([]);
      expect(exported(name, "26/11/2026"), name).toEqual(["date.window"]);
    }
  });
  it("queued: a later date is the day the service issues it, not early", () => {
    const raw = baseVoucher();
    raw.comprobante.fecha = "15/01/2027";
    raw.comprobante.vencimiento = "15/01/2027";
    const opts = { today: dayNumber(TODAY), ceiling: Dec.parse("10000000") };
    expect(codes(validateEnvelope(raw, opts))).toEqual(["date.window"]);
    expect(codes(validateEnvelope(raw, { ...opts, scheduled: true }))).toEqual([]);
    raw.comprobante.fecha = "01/11/2026";
    expect(codes(validateEnvelope(raw, { ...opts, scheduled: true }))).toEqual(["date.window"]);
  });
});

describe("dates a file leaves out", () => {
  const left = (mutate: (r: Raw) => void, today = TODAY) =>
    judge(
      (r) => {
        delete r.comprobante.fecha;
        delete r.comprobante.vencimiento;
        mutate(r);
      },
      { today },
    );

  it("a voucher without fecha is dated today and due that day, and says so", () => {
    const { errors, warnings, result } = left(() => {}, "03/02/2027");
    expect(errors).toEqual([]);
    expect(warnings.filter((w) => w === "date.default")).toHaveLength(2);
    expect(result.envelope?.comprobante.fecha).toBe("03/02/2027");
    expect(result.envelope?.comprobante.vencimiento).toBe("03/02/2027");
    expect(defaultedFields(result.envelope as object)).toEqual(["fecha", "vencimiento"]);
  });
  it("an FCE invoice is due 30 days on; a subscription and a service export bill the month so far", () => {
    expect(left(fceInvoice, "20/11/2026").result.envelope?.comprobante.vencimiento).toBe("20/12/2026");
    const sub = left((r) => Object.assign(r.comprobante, { abono: "S", abono_frecuencia: 1, abono_hasta: "12/2099" }));
    expect(sub.errors).toEqual([]);
    expect(sub.result.envelope?.comprobante.periodo_facturado_desde).toBe("01/11/2026");
    expect(sub.result.envelope?.comprobante.periodo_facturado_hasta).toBe("20/11/2026");
  });
  it("a date the file gives is kept, and not counted as filled in", () => {
    const { warnings, result } = judge(() => {});
    expect(warnings).not.toContain("date.default");
    expect(defaultedFields(result.envelope as object)).toEqual([]);
  });
  it("the digest and derived reference leave filled-in dates out: sent again another day, the same voucher", () => {
    const raw = () => {
      const r = baseVoucher();
      delete r.comprobante.fecha;
      delete r.comprobante.vencimiento;
      delete r.comprobante.external_reference;
      return r;
    };
    const one = check(raw(), { today: "20/11/2026" }).envelope as Envelope;
    const other = check(raw(), { today: "24/11/2026" }).envelope as Envelope;
    expect(one.comprobante.fecha).not.toBe(other.comprobante.fecha);
    expect(derivedReference(one as never, 679)).toBe(derivedReference(other as never, 679));
    const dated = baseVoucher();
    delete dated.comprobante.external_reference;
    expect(derivedReference(check(dated).envelope as never, 679)).not.toBe(derivedReference(one as never, 679));
  });
});

describe("messages say which fault it is", () => {
  const message = (mutate: (raw: Raw) => void, code: string, opts: { today?: string } = {}) =>
    finding(judge(mutate, opts).result, code)?.message ?? "";

  it("a class B voucher to a registered taxpayer points at class A; other mismatches list what is allowed", () => {
    const toRI = message((r) => Object.assign(r.cliente, RI), "vat-condition.class");
    expect(toRI).toMatch(/class B .* RI; allowed: CF, E, CDEX, IVNA \(a registered taxpayer gets class A\)$/);
    const aToConsumer = message((r) => (r.comprobante.tipo = "FACTURA A"), "vat-condition.class");
    expect(aToConsumer).toMatch(/class A .* CF; allowed: RI, M$/);
  });

  it("class C and E name the kind of item they refuse", () => {
    const itemRate = (tipo: string, rate: number) => (r: Raw) => {
      r.comprobante.tipo = tipo;
      r.comprobante.detalle = [item("Clase", 1, 121, rate)];
      untotalled(r);
      if (tipo === "FACTURA E") {
        Object.assign(r.cliente, { documento_tipo: "CUIT", documento_nro: "55000002207", condicion_iva: "CDEX" });
        Object.assign(r.comprobante, { moneda: "DOL", cotizacion: 1000 });
        r.comprobante.fex = { tipo_exportacion: 2, pais_comprobante_id: 212, fecha_pago: "15/12/2026" };
      }
    };
    expect(message(itemRate("FACTURA C", 21), "class-c.vat")).toMatch(/carry no VAT:/);
    expect(message(itemRate("FACTURA C", -1), "class-c.vat")).toMatch(/carry no exempt items:/);
    expect(message(itemRate("FACTURA C", -2), "class-c.vat")).toMatch(/carry no non-taxed items:/);
    expect(message(itemRate("FACTURA E", 21), "class-e.vat")).toMatch(/no VAT: send alicuota 0/);
    expect(message(itemRate("FACTURA E", -2), "class-e.vat")).toMatch(/no non-taxed items/);
    expect(judge(itemRate("FACTURA E", -1)).errors).toEqual([]);
  });

  it("a missing party says which block the operation needs, and whether the other one was sent instead", () => {
    expect(message((r) => delete r.cliente, "party.missing")).toMatch(/needs a `cliente` block/);
    expect(
      message((r) => {
        r.proveedor = r.cliente;
        delete r.cliente;
      }, "party.missing"),
    ).toMatch(/needs `cliente`; `proveedor` is for purchases/);
    expect(message((r) => (r.comprobante.operacion = "C"), "party.missing")).toMatch(
      /needs `proveedor`; `cliente` is for sales/,
    );
    expect(
      message((r) => {
        r.comprobante.operacion = "C";
        delete r.cliente;
      }, "party.missing"),
    ).toMatch(/needs a `proveedor` block/);
  });

  it("a CUIT or CUIL at fault is named as the customer's or the supplier's", () => {
    const badCuit = (operacion: "V" | "C", documento_tipo: string, documento_nro: string) => (r: Raw) => {
      const party = { ...RI, documento_tipo, documento_nro };
      r.comprobante.tipo = documento_tipo === "CUIT" ? "FACTURA A" : "FACTURA B";
      if (documento_tipo !== "CUIT") party.condicion_iva = "CF";
      if (operacion === "C") {
        r.comprobante.operacion = "C";
        r.proveedor = party;
        delete r.cliente;
      } else r.cliente = party;
    };
    expect(message(badCuit("V", "CUIT", "30712293842"), "cuit.check")).toMatch(/^the customer's CUIT: /);
    expect(message(badCuit("C", "CUIT", "30712293842"), "cuit.check")).toMatch(/^the supplier's CUIT: /);
    expect(message(badCuit("V", "CUIL", "20111111113"), "cuit.check")).toMatch(/^the customer's CUIL: /);
    expect(message(badCuit("C", "CUIL", "20111111113"), "cuit.check")).toMatch(/^the supplier's CUIL: /);
  });

  it("a date outside its window names the window that applies", () => {
    const goods = message((r) => (r.comprobante.fecha = "10/11/2026"), "date.window");
    expect(goods).toBe(
      "vouchers for goods are dated within 5 days of today (20/11/2026); the authority refuses 10/11/2026",
    );
    const services = message(
      (r) =>
        Object.assign(r.comprobante, {
          fecha: "01/11/2026",
          periodo_facturado_desde: "01/10/2026",
          periodo_facturado_hasta: "31/10/2026",
        }),
      "date.window",
    );
    expect(services).toBe(
      "vouchers for services are dated within 10 days of today (20/11/2026); the authority refuses 01/11/2026",
    );
    const nextMonth = message((r) => (r.comprobante.fecha = "01/12/2026"), "date.window", { today: "28/11/2026" });
    expect(nextMonth).toMatch(/dated ahead \(01\/12\/2026\) must stay in the current month \(28\/11\/2026\)/);
    const fce = message((r) => {
      fceInvoice(r);
      r.comprobante.fecha = "22/11/2026";
    }, "date.window");
    expect(fce).toMatch(/from 5 days back to 1 ahead of today \(20\/11\/2026\); the authority refuses 22\/11\/2026/);
  });
});

describe("rules at their edges", () => {
  const exportServices = (r: Raw) => {
    r.cliente = {
      documento_tipo: "CUIT",
      documento_nro: "55000002207",
      razon_social: "Buyer LLC",
      condicion_iva: "CDEX",
    };
    Object.assign(r.comprobante, { tipo: "FACTURA E", moneda: "DOL", cotizacion: 1000 });
    r.comprobante.detalle = [item("Consultoría", 10, 12.1, 0)];
    r.comprobante.fex = { tipo_exportacion: 2, pais_comprobante_id: 212, fecha_pago: "15/12/2026" };
  };
  const exportGoods = (r: Raw) => {
    exportServices(r);
    r.comprobante.fex = {
      tipo_exportacion: 1,
      permisos_tiene: "N",
      pais_comprobante_id: 212,
      incoterms_tipo_id: "FOB",
    };
  };
  const purchaseFrom =
    (proveedor: object, tipo = "FACTURA B") =>
    (r: Raw) => {
      r.comprobante.operacion = "C";
      r.comprobante.tipo = tipo;
      r.comprobante.numero = 24;
      r.proveedor = proveedor;
      delete r.cliente;
    };
  const pathOf = (result: ReturnType<typeof judge>, code: string) => finding(result.result, code)?.path;

  it("e-mail addresses: a plausible address passes; spaces, a missing domain dot or trailing text warn", () => {
    for (const email of ["juana.perez@example.com", "a@b.co", "juana@example.com, pagos@example.com.ar"]) {
      expect(judge((r) => (r.cliente.email = email)).warnings, email).toEqual([]);
    }
    for (const email of ["juana perez@example.com", "juana@example.com extra", "juana@examplecom", "@example.com"]) {
      expect(judge((r) => (r.cliente.email = email)).warnings, email).toEqual(["email.format"]);
    }
    const exactly255 = `${"a".repeat(243)}@example.com`;
    expect(exactly255).toHaveLength(255);
    expect(judge((r) => (r.cliente.email = exactly255)).errors).toEqual([]);
  });

  it("a purchase judges the supplier: no receiver's class matrix, anonymous rules or ceiling", () => {
    const supplierRI = { ...RI };
    const bought = judge(purchaseFrom(supplierRI));
    expect([bought.errors, bought.warnings]).toEqual([[], []]);
    const anonymousSeller = judge(
      variant(
        purchaseFrom({ documento_tipo: "OTRO", documento_nro: "0", razon_social: "Vendedor", condicion_iva: "RI" }),
        (r) => {
          r.comprobante.detalle = [item("Equipo usado", 1, 20000000, 0)];
          r.comprobante.total = 20000000;
        },
      ),
    );
    // No ceiling for an unidentified seller, but whoever issues a FACTURA B has a CUIT.
    expect(anonymousSeller.errors).toEqual(["supplier.document"]);
    const anonymousNumber = judge(
      purchaseFrom({ documento_tipo: "OTRO", documento_nro: "5", razon_social: "Vendedor", condicion_iva: "CF" }),
    );
    expect(anonymousNumber.errors).toEqual(["supplier.document", "anonymous.document"]);
    expect(pathOf(anonymousNumber, "anonymous.document")).toEqual(["proveedor", "documento_nro"]);
    const otra = judge(purchaseFrom({ ...RI, condicion_pago: 214 }, "FACTURA A"));
    expect(pathOf(otra, "payment-condition.other")).toEqual(["proveedor", "condicion_pago_otra"]);
  });

  it("a supplier of a fiscal voucher is named by its CUIT (spec §2.2 rules 1 and 4)", () => {
    for (const tipo of [
      "FACTURA A",
      "FACTURA B",
      "FACTURA C",
      "FACTURA M",
      "FACTURA DE CREDITO ELECTRONICA MiPyME (FCE) A",
    ])
      for (const documento_tipo of ["DNI", "PASAPORTE", "CUIL"]) {
        const r = judge(purchaseFrom({ ...RI, documento_tipo, documento_nro: "20123456" }, tipo));
        expect(r.errors, `${tipo} ${documento_tipo}`).toContain("supplier.document");
        expect(pathOf(r, "supplier.document")).toEqual(["proveedor", "documento_tipo"]);
      }
    expect(judge(purchaseFrom({ ...RI }, "FACTURA C")).errors).not.toContain("supplier.document");
    const told = judge(purchaseFrom({ ...RI, documento_tipo: "DNI", documento_nro: "20123456" }, "FACTURA A"));
    expect(finding(told.result, "supplier.document")?.message).toBe(
      "a supplier that issues class A vouchers is registered with the authority under a CUIT: documento_tipo CUIT, not DNI",
    );
    // A sale is not held to it: the customer's document follows the class matrix.
    expect(judge((r) => r).errors).not.toContain("supplier.document");
  });

  it("an RG 5329 VAT perception: only to a registered buyer on A or M (refused), at 3 % of the 21 % net or 1.5 % of the 10.5 % net (warned)", () => {
    const rg5329 =
      (alicuota: string, base: string, items = [item("Aceite", 1, 1000, 21)]) =>
      (r: Raw) => {
        r.cliente = { ...RI };
        r.comprobante.tipo = "FACTURA A";
        r.comprobante.detalle = items;
        const total = Dec.parse(base).mul(Dec.parse(alicuota)).shift(2).roundHalfEven(2);
        r.comprobante.tributos = [{ tipo: 6, regimen: 3, base_imponible: base, alicuota, total: total.toFixed(2) }];
        r.comprobante.total = undefined;
      };
    const fine = judge(rg5329("3", "1000"));
    expect([fine.errors, fine.warnings.filter((w) => w.startsWith("tributo"))]).toEqual([[], []]);
    const at105 = [item("Harina", 1, 1000, 10.5)];
    expect(judge(rg5329("1.5", "1000", at105)).warnings).not.toContain("tributo.rg5329");
    // 3 % on items taxed at 10.5 %: the guide's rates say 1.5 %.
    const wrongRate = judge(rg5329("3", "1000", at105));
    expect(wrongRate.errors).toEqual([]);
    expect(wrongRate.warnings).toContain("tributo.rg5329");
    expect(finding(wrongRate.result, "tributo.rg5329")?.message).toBe(
      "an RG 5329 perception is 3 % of the net taxed at 21 % (0.00) and 1.5 % of the net at 10.5 % (1,000.00): 3 % on 1000 does not fit",
    );
    // On more than the net it perceives; or twice on the same net.
    expect(judge(rg5329("3", "2000")).warnings).toContain("tributo.rg5329");
    const twice = judge(
      variant(rg5329("3", "1000"), (r) => {
        r.comprobante.tributos.push({ ...r.comprobante.tributos[0] });
      }),
    );
    expect(twice.warnings.filter((w) => w === "tributo.rg5329")).toHaveLength(1);
    expect(finding(twice.result, "tributo.rg5329")?.path).toEqual(["comprobante", "tributos", 1]);
    // To a final consumer on a B invoice: refused, at the regime.
    const toConsumer = judge(
      variant(rg5329("3", "1000"), (r) => {
        r.cliente = baseVoucher().cliente;
        r.comprobante.tipo = "FACTURA B";
      }),
    );
    expect(toConsumer.errors).toEqual(["tributo.rg5329"]);
    expect(finding(toConsumer.result, "tributo.rg5329")?.path).toEqual(["comprobante", "tributos", 0, "regimen"]);
    // Another VAT perception regime (RG 2408) is not held to it.
    const general = judge(
      variant(rg5329("3", "1000"), (r) => {
        r.cliente = baseVoucher().cliente;
        r.comprobante.tipo = "FACTURA B";
        r.comprobante.tributos[0].regimen = 2;
      }),
    );
    expect(general.errors).toEqual([]);
  });

  it("a DNI has 7 or 8 digits (a warning); other documents are not held to it", () => {
    const dni = (nro: string) => judge((r) => (r.cliente.documento_nro = nro)).warnings;
    expect(dni("1234567")).toEqual([]);
    expect(dni("12345678")).toEqual([]);
    expect(dni("123456")).toEqual(["document.dni"]);
    expect(dni("123456789")).toEqual(["document.dni"]);
    const cuil = judge((r) => Object.assign(r.cliente, { documento_tipo: "CUIL", documento_nro: "20111111112" }));
    expect([cuil.errors, cuil.warnings]).toEqual([[], []]);
    expect(judge((r) => Object.assign(r.cliente, { documento_tipo: "LE", documento_nro: "123456" })).warnings).toEqual(
      [],
    );
  });

  it("an FCE voucher goes to a CUIT, and to anything else that is the only complaint", () => {
    const toDni = judge(
      variant(fceInvoice, (r) => {
        r.cliente = { ...r.cliente, documento_tipo: "DNI", documento_nro: "30123456" };
        delete r.comprobante.rg_especiales;
      }),
    );
    expect(toDni.errors).toEqual(["document.class"]);
    expect(finding(toDni.result, "document.class")?.message).toBe("FCE vouchers go to a CUIT, not DNI");
  });

  it("the deprecated percepciones_iva draws a warning unless it is 0", () => {
    expect(judge((r) => (r.comprobante.percepciones_iva = 0)).warnings).toEqual([]);
    const sent = judge((r) => (r.comprobante.percepciones_iva = 5));
    expect([sent.errors, sent.warnings]).toEqual([[], ["percepciones_iva.deprecated"]]);
  });

  it("export vouchers: no internal taxes per item, no period, a name that may be left out", () => {
    const internal = judge(
      variant(exportServices, (r) => {
        r.comprobante.detalle[0].producto.impuestos_internos_alicuota = 5;
        untotalled(r);
      }),
    );
    expect(internal.errors).toEqual(["class-e.internal-taxes"]);
    expect(pathOf(internal, "class-e.internal-taxes")).toEqual([
      "comprobante",
      "detalle",
      0,
      "producto",
      "impuestos_internos_alicuota",
    ]);
    expect(
      judge(variant(exportServices, (r) => (r.comprobante.detalle[0].producto.impuestos_internos_alicuota = 0))).errors,
    ).toEqual([]);
    const period = judge(
      variant(exportServices, (r) => {
        r.comprobante.tipo = "NOTA DE CREDITO E";
        delete r.comprobante.fex.fecha_pago;
        r.comprobante.comprobantes_asociados_periodo = { fecha_desde: "01/10/2026", fecha_hasta: "31/10/2026" };
      }),
    );
    expect(period.errors).toEqual(["class-e.period"]);
    expect(judge(variant(exportServices, (r) => delete r.cliente.razon_social)).errors).toEqual([]);
    // A free line is no discount; a negative one is.
    expect(
      judge(variant(exportServices, (r) => r.comprobante.detalle.push(item("Muestra sin cargo", 1, 0, 0)))).errors,
    ).toEqual([]);
    const negative = judge(
      variant(exportServices, (r) => {
        r.comprobante.detalle.push(item("Descuento", 1, -10, 0));
        untotalled(r);
      }),
    );
    expect(negative.errors).toEqual(["class-e.discount"]);
    expect(pathOf(negative, "class-e.discount")).toEqual([
      "comprobante",
      "detalle",
      1,
      "producto",
      "precio_unitario_sin_iva",
    ]);
  });

  it("the fex block: export type, permits, incoterms and destination country", () => {
    expect(judge(variant(exportServices, (r) => (r.comprobante.fex.tipo_exportacion = 3))).errors).toEqual([
      "fex.type",
    ]);
    expect(judge(variant(exportServices, (r) => (r.comprobante.fex.tipo_exportacion = 4))).errors).toEqual([]);
    expect(judge(variant(exportGoods, (r) => delete r.comprobante.fex.permisos_tiene)).errors).toEqual(["fex.permits"]);
    const listed = { codigo_despacho: "X1", pais_destino_id: 212 };
    expect(judge(variant(exportGoods, (r) => (r.comprobante.fex.permisos = [listed]))).errors).toEqual(["fex.permits"]);
    expect(
      judge(variant(exportGoods, (r) => Object.assign(r.comprobante.fex, { permisos_tiene: "S", permisos: [listed] })))
        .errors,
    ).toEqual([]);
    const noIncoterm = judge(variant(exportGoods, (r) => delete r.comprobante.fex.incoterms_tipo_id));
    expect([noIncoterm.errors, noIncoterm.warnings]).toEqual([[], ["fex.incoterms"]]);
    expect(judge(exportGoods).warnings).toEqual([]);
    expect(judge(variant(exportServices, (r) => (r.comprobante.fex.incoterms_nro = "FOB 2020"))).errors).toEqual([
      "fex.incoterms",
    ]);
    expect(judge(variant(exportServices, (r) => delete r.comprobante.fex.pais_comprobante_id)).errors).toEqual([
      "fex.country",
    ]);
  });

  it("FCE data: values read trimmed, findings point at the datum at fault, a valid alias", () => {
    const datos = (list: { id: number; valor: string }[]) =>
      variant(fceInvoice, (r) => (r.comprobante.rg_especiales.datos = list));
    expect(
      judge(
        datos([
          { id: 27, valor: " ADC " },
          { id: 2101, valor: CBU },
        ]),
      ).errors,
    ).toEqual([]);
    const badCbu = judge(
      datos([
        { id: 27, valor: "SCA" },
        { id: 2101, valor: `${CBU.slice(0, 21)}${(Number(CBU[21]) + 1) % 10}` },
      ]),
    );
    expect(pathOf(badCbu, "fce.cbu")).toEqual(["comprobante", "rg_especiales", "datos", 1, "valor"]);
    const noTransfer = judge(datos([{ id: 2101, valor: CBU }]));
    expect(noTransfer.errors).toEqual(["fce.transfer"]);
    expect(pathOf(noTransfer, "fce.transfer")).toEqual(["comprobante", "rg_especiales", "datos"]);
    const withAlias = (alias: string) =>
      datos([
        { id: 2101, valor: CBU },
        { id: 27, valor: "SCA" },
        { id: 2102, valor: alias },
      ]);
    for (const alias of ["mi.alias-1", "abcdef", "a".repeat(20)])
      expect(judge(withAlias(alias)).errors, alias).toEqual([]);
    for (const alias of ["abcde", "a".repeat(21), "mi alias", "!!abcdef", "abcdef!!"]) {
      const r = judge(withAlias(alias));
      expect(r.errors, alias).toEqual(["fce.alias"]);
      expect(pathOf(r, "fce.alias")).toEqual(["comprobante", "rg_especiales", "datos", 2, "valor"]);
    }
    const badNote = judge(variant(fceNote, (r) => (r.comprobante.rg_especiales.datos[0].valor = "X")));
    expect(finding(badNote.result, "fce.annulment")?.message).toBe('id 22 (annulment) is "S" or "N", not "X"');
  });

  it("an FCE invoice's due date is told even when its regime is missing (the rule every voucher has steps aside)", () => {
    const r = judge(
      variant(fceInvoice, (raw) => {
        delete raw.comprobante.rg_especiales;
        raw.comprobante.vencimiento = "19/11/2026";
      }),
    );
    expect(r.errors).toEqual(["fce.due-date", "fce.regime"]);
  });

  it("an FCE invoice due today has not passed; due yesterday it is refused (tax-rules §4.11)", () => {
    const due = (vencimiento: string) =>
      judge(variant(fceInvoice, (r) => Object.assign(r.comprobante, { fecha: "19/11/2026", vencimiento })));
    expect(due("20/11/2026").errors).toEqual([]);
    expect(due("19/11/2026").errors).toEqual(["fce.due-date"]);
    expect(due("19/11/2026").warnings).toEqual([]);
  });

  it("FCE notes adjust an FCE invoice, never another note or a period", () => {
    const adjustsNote = judge(
      variant(
        fceNote,
        (r) => (r.comprobante.comprobantes_asociados[0].tipo_comprobante = "NOTA DE DEBITO ELECTRONICA MiPyME (FCE) A"),
      ),
    );
    expect(adjustsNote.errors).toEqual(["associations.fce"]);
    const period = judge(
      variant(fceNote, (r) => {
        delete r.comprobante.comprobantes_asociados;
        r.comprobante.comprobantes_asociados_periodo = { fecha_desde: "01/11/2026", fecha_hasta: "10/11/2026" };
      }),
    );
    expect(period.errors).toEqual(["associations.fce"]);
    expect(finding(period.result, "associations.fce")?.message).toMatch(/not a period/);
  });

  it("an invoice may cite vouchers of another class; a one-day associated period is in order", () => {
    const cites = judge((r) => {
      r.comprobante.comprobantes_asociados = [
        {
          tipo_comprobante: "FACTURA A",
          punto_venta: 3,
          numero: 7,
          comprobante_fecha: "18/11/2026",
          cuit: "30000000007",
        },
      ];
    });
    expect(cites.errors).toEqual([]);
    const oneDay = judge((r) => {
      r.comprobante.tipo = "NOTA DE DEBITO B";
      r.comprobante.comprobantes_asociados_periodo = { fecha_desde: "10/11/2026", fecha_hasta: "10/11/2026" };
    });
    expect(oneDay.errors).toEqual([]);
  });

  it("an exchange rate with more than 3 decimals warns", () => {
    const rated = (cotizacion: string) =>
      judge((r) => Object.assign(r.comprobante, { moneda: "DOL", cotizacion })).warnings;
    expect(rated("1015.125")).toEqual([]);
    expect(rated("1015.1250")).toEqual([]);
    expect(rated("1015.1255")).toEqual(["currency.rate"]);
  });

  it("an incomplete billed period names the end that is missing", () => {
    const only = (field: string) => judge((r) => (r.comprobante[field] = "01/11/2026"));
    expect(pathOf(only("periodo_facturado_desde"), "period.incomplete")).toEqual([
      "comprobante",
      "periodo_facturado_hasta",
    ]);
    expect(pathOf(only("periodo_facturado_hasta"), "period.incomplete")).toEqual([
      "comprobante",
      "periodo_facturado_desde",
    ]);
  });

  it("a tributo's amount may be a cent off its base × rate; more warns", () => {
    const total = (t: number) => (r: Raw) => {
      r.comprobante.tributos = [{ tipo: 6, regimen: 3, base_imponible: 100, alicuota: 3, total: t }];
      untotalled(r);
    };
    expect(judge(total(3.01)).warnings).not.toContain("tributo.amount");
    expect(judge(total(3.02)).warnings).toContain("tributo.amount");
  });

  it("special regimes: a known one draws no warning; FCE ids stay off any other regime", () => {
    const rg = (regimen: string, id: number) =>
      judge((r) => (r.comprobante.rg_especiales = { regimen, datos: [{ id, valor: "x" }] }));
    expect(rg("RG 2.820", 11).warnings).toEqual([]);
    const fceId = rg("Otro régimen", 2101);
    expect(fceId.errors).toEqual(["fce.not-fce"]);
    expect(pathOf(fceId, "fce.not-fce")).toEqual(["comprobante", "rg_especiales", "datos", 0, "id"]);
    expect(rg("Otro régimen", 23).errors).toEqual([]);
  });

  it("the month rule binds goods dated ahead only: not services, not a date back in last month", () => {
    const ahead = judge(
      (r) =>
        Object.assign(r.comprobante, {
          fecha: "03/12/2026",
          vencimiento: "31/12/2026",
          periodo_facturado_desde: "01/11/2026",
          periodo_facturado_hasta: "30/11/2026",
        }),
      { today: "28/11/2026" },
    );
    expect(ahead.errors).toEqual([]);
    const back = judge((r) => Object.assign(r.comprobante, { fecha: "29/11/2026", vencimiento: "31/12/2026" }), {
      today: "02/12/2026",
    });
    expect(back.errors).toEqual([]);
  });

  it("an unidentified consumer is a sale to OTRO that is not a customer abroad", () => {
    const of = (mutate: (r: Raw) => void) => {
      const raw = baseVoucher();
      mutate(raw);
      return unidentifiedConsumer(check(raw).envelope as Envelope);
    };
    expect(of((r) => Object.assign(r.cliente, { documento_tipo: "OTRO", documento_nro: "0" }))).toBe(true);
    expect(of(() => {})).toBe(false);
    expect(
      of((r) => Object.assign(r.cliente, { documento_tipo: "OTRO", documento_nro: "0", condicion_iva: "CDEX" })),
    ).toBe(false);
    expect(of(purchaseFrom({ ...RI }, "FACTURA A"))).toBe(false);
  });

  it("a foreign-currency sale to an anonymous consumer without its rate asks for the rate", () => {
    const r = judge((raw) => {
      Object.assign(raw.cliente, { documento_tipo: "OTRO", documento_nro: "0" });
      raw.comprobante.moneda = "DOL";
    });
    expect(r.errors).toEqual(["currency.rate"]);
  });

  it("a refused tag or reference is quoted, cut short", () => {
    const tag = judge((r) => (r.comprobante.tags = [`${"a".repeat(300)}/`]));
    expect(finding(tag.result, "tags.format")?.message).toMatch(new RegExp(`got "${"a".repeat(40)}"$`));
    const ref = judge((r) => (r.comprobante.external_reference = `${"b".repeat(100)} x`));
    expect(finding(ref.result, "external_reference.format")?.message).toMatch(new RegExp(`got "${"b".repeat(60)}"$`));
  });

  it("a customer CUIT that fails its check digit is not also compared with the issuer's", () => {
    const raw = baseVoucher();
    raw.comprobante.tipo = "FACTURA A";
    raw.cliente = { ...RI, documento_nro: "30712293842" };
    const r = validateEnvelope(raw, { issuerCuit: "30712293842", now: new Date("2026-11-20T15:00:00Z") });
    expect(codes(r)).toEqual(["cuit.check"]);
  });

  it("an FCE note that names its invoice may also give a period", () => {
    const both = judge(
      variant(fceNote, (r) => {
        r.comprobante.comprobantes_asociados_periodo = { fecha_desde: "01/11/2026", fecha_hasta: "10/11/2026" };
      }),
    );
    expect(both.errors).toEqual([]);
  });

  it("a special-regime datum with a blank valor (a CSV cell of spaces) warns that the service drops it", () => {
    const raw = baseVoucher();
    raw.comprobante.rg_especiales = { regimen: "RG 2.820", datos: [{ id: 11, valor: "  " }] };
    const opts = { today: dayNumber(TODAY), ceiling: Dec.parse("10000000") };
    const r = validateEnvelope(raw, opts, true);
    expect([codes(r), codes(r, "warning")]).toEqual([[], ["rg_especiales.empty"]]);
    expect(finding(r, "rg_especiales.empty")?.path).toEqual(["comprobante", "rg_especiales", "datos", 0, "valor"]);
    expect(finding(r, "rg_especiales.empty")?.message).toMatch(
      /opcional 11 has no value: dropped, as the service drops it/,
    );
    raw.comprobante.rg_especiales.datos[0].valor = "x";
    expect(codes(validateEnvelope(raw, opts, true), "warning")).toEqual([]);
  });

  it("a supplier is never a customer abroad: a numbered OTRO supplier is refused whatever its condition", () => {
    const supplier = {
      documento_tipo: "OTRO",
      documento_nro: "987654321",
      razon_social: "Vendedor",
      condicion_iva: "CDEX",
    };
    // And whoever issues a FACTURA B has a CUIT.
    expect(judge(purchaseFrom(supplier)).errors).toEqual(["supplier.document", "anonymous.document"]);
  });

  it("the VAT condition at fault is the one for the operation, when given; only class B to RI points at class A", () => {
    const operation = judge((r) => (r.cliente.condicion_iva_operacion = "RI"));
    expect(pathOf(operation, "vat-condition.class")).toEqual(["cliente", "condicion_iva_operacion"]);
    const toSmall = finding(judge((r) => (r.cliente.condicion_iva = "M")).result, "vat-condition.class")?.message;
    expect(toSmall).toMatch(/with VAT condition M; allowed: CF, E, CDEX, IVNA$/);
  });

  it("findings on associated vouchers and periods point at the entry and field", () => {
    const late = judge((r) => {
      r.comprobante.tipo = "NOTA DE CREDITO B";
      r.comprobante.comprobantes_asociados = [
        {
          tipo_comprobante: "FACTURA B",
          punto_venta: 3,
          numero: 7,
          comprobante_fecha: "01/11/2026",
          cuit: "30000000007",
        },
        {
          tipo_comprobante: "FACTURA B",
          punto_venta: 3,
          numero: 8,
          comprobante_fecha: "21/11/2026",
          cuit: "30000000008",
        },
      ];
    });
    expect(pathOf(late, "associations.date")).toEqual([
      "comprobante",
      "comprobantes_asociados",
      1,
      "comprobante_fecha",
    ]);
    expect(pathOf(late, "cuit.check")).toEqual(["comprobante", "comprobantes_asociados", 1, "cuit"]);
    expect(finding(late.result, "cuit.check")?.message).toMatch(/^the associated voucher's issuer CUIT: /);
    const period = judge((r) => {
      r.comprobante.tipo = "NOTA DE DEBITO B";
      r.comprobante.comprobantes_asociados_periodo = { fecha_desde: "02/11/2026", fecha_hasta: "01/11/2026" };
    });
    expect(pathOf(period, "period.order")).toEqual(["comprobante", "comprobantes_asociados_periodo", "fecha_hasta"]);
    const tributo = judge((r) => {
      r.comprobante.tributos = [
        { tipo: 6, regimen: 3, base_imponible: 100, alicuota: 3, total: 3 },
        { tipo: 2, regimen: 3, base_imponible: 100, alicuota: 3, total: 3 },
      ];
      untotalled(r);
    });
    expect(pathOf(tributo, "tributo.type")).toEqual(["comprobante", "tributos", 1, "tipo"]);
  });

  it("export findings say what they are about", () => {
    const invoiceE = { tipo_comprobante: "FACTURA E", punto_venta: 3, numero: 12, cuit: "30000000007" };
    const cites = judge(
      variant(
        exportServices,
        (r) => (r.comprobante.comprobantes_asociados = [{ ...invoiceE, comprobante_fecha: "10/11/2026" }]),
      ),
    );
    expect(cites.errors).toEqual(["class-e.associations"]);
    expect(finding(cites.result, "class-e.associations")?.message).toMatch(/^an export invoice adjusts no voucher/);
    const note = (r: Raw) => {
      exportServices(r);
      r.comprobante.tipo = "NOTA DE CREDITO E";
      delete r.comprobante.fex.fecha_pago;
      r.comprobante.fex.comprobantes_asociados = [{ ...invoiceE, tipo_comprobante: "FACTURA B", cuit: "30000000008" }];
    };
    const wrong = judge(note);
    expect(finding(wrong.result, "associations.class")?.message).toBe(
      "a class E note adjusts class E vouchers, not FACTURA B",
    );
    expect(finding(wrong.result, "cuit.check")?.message).toMatch(/^the associated voucher's issuer CUIT: /);
    const country = judge(variant(exportServices, (r) => (r.comprobante.fex.cliente_pais_cuit = "55000002208")));
    expect(finding(country.result, "cuit.check")?.message).toMatch(/^the country CUIT: /);
    const named = judge((r) => {
      exportServices(r);
      r.cliente.razon_social = "x".repeat(201);
    });
    expect(finding(named.result, "text.max")?.message).toBe(
      "an export voucher's customer name takes at most 200 characters at the authority; it has 201",
    );
    const early = judge(variant(exportServices, (r) => (r.comprobante.fecha = "14/11/2026")));
    expect(finding(early.result, "date.window")?.message).toBe(
      "export vouchers are dated within 5 days of today (20/11/2026); the authority refuses 14/11/2026",
    );
  });

  it("an export invoice without its customer is told so, like any sale", () => {
    expect(judge(variant(exportServices, (r) => delete r.cliente)).errors).toEqual(["party.missing"]);
  });

  it("a discount line may not turn one rate's base negative, even when the total stays positive", () => {
    const r = judge((raw) => {
      raw.comprobante.detalle = [
        item("Servicio exento", 1, 1000, -1),
        item("Producto", 1, 100, 21),
        item("Descuento", 1, -200, 21),
      ];
      untotalled(raw);
    });
    expect(r.result.totals?.total.sign()).toBe(1);
    expect(r.errors).toEqual(["negative.totals"]);
  });

  it("a regime's wrong id is told with the ids it takes; the issuer's own CUIT is refused in words", () => {
    const wrongId = judge(
      (r) => (r.comprobante.rg_especiales = { regimen: "RG 2.863", datos: [{ id: 12, valor: "x" }] }),
    );
    expect(finding(wrongId.result, "rg_especiales.id")?.message).toBe("regime RG 2.863 takes ids 13, 14, 15, not 12");
    const raw = baseVoucher();
    raw.comprobante.tipo = "FACTURA A";
    raw.cliente = { ...RI };
    const self = validateEnvelope(raw, { issuerCuit: "30712293841", now: new Date("2026-11-20T15:00:00Z") });
    expect(finding(self, "cuit.self")?.message).toMatch(/issuer's own/);
  });

  it("a declared total off by rounding passes; within the tolerance but beyond rounding warns; beyond it, an error", () => {
    // One rate: rounding explains 0.01. The authority's tolerance on 121.00 is 0.01 or 0.01 %; on a large total, more.
    const declared = (price: number, total: string) =>
      judge((r) => {
        r.comprobante.detalle = [item("Equipo", 1, price, 21)];
        r.comprobante.total = total;
      });
    expect(declared(100, "121.01").warnings).toEqual([]);
    const big = declared(1000000, "1210000.00").result.totals;
    const tolerance = big?.tolerance.toFixed(2);
    expect(Number(tolerance)).toBeGreaterThan(0.02);
    const drift = declared(1000000, "1210000.02");
    expect([drift.errors, drift.warnings]).toEqual([[], ["total.drift"]]);
    expect(finding(drift.result, "total.drift")?.message).toMatch(/by 0\.02/);
    const atTolerance = declared(1000000, (1210000 + Number(tolerance)).toFixed(2));
    expect([atTolerance.errors, atTolerance.warnings]).toEqual([[], ["total.drift"]]);
    const beyond = declared(1000000, (1210000 + Number(tolerance) + 0.01).toFixed(2));
    expect([beyond.errors, beyond.warnings]).toEqual([["total.mismatch"], []]);
  });

  it("rounding slack grows with each rate and tributo summed", () => {
    // Two rates and one tributo: up to 0.03 is rounding, not drift.
    const mixed = (total: string) =>
      judge((r) => {
        r.comprobante.detalle = [item("Item A", 1, 1000000, 21), item("Item B", 1, 1000000, 10.5)];
        r.comprobante.tributos = [{ tipo: 6, regimen: 3, base_imponible: 100, alicuota: 3, total: 3 }];
        r.comprobante.total = total;
      });
    const exact = mixed("0").result.totals?.total.toFixed(2) as string;
    const plus = (cents: number) => (Number(exact) + cents / 100).toFixed(2);
    expect(mixed(plus(3)).warnings).toEqual([]);
    expect(mixed(plus(4)).warnings).toEqual(["total.drift"]);
  });
});

describe("notes against old vouchers (api-v2 §11: the authority refuses notes to vouchers older than about 15 days)", () => {
  const note = (comprobanteFecha: string) => (r: Raw) => {
    r.comprobante.tipo = "NOTA DE CREDITO B";
    r.comprobante.comprobantes_asociados = [
      {
        tipo_comprobante: "FACTURA B",
        punto_venta: 3,
        numero: 7,
        comprobante_fecha: comprobanteFecha,
        cuit: "30000000007",
      },
    ];
  };

  it("warns, naming the associated voucher, its date and its age; not an error (the age is the authority's to judge)", () => {
    const old = judge(note("25/09/2026"));
    expect(old.errors).toEqual([]);
    expect(old.warnings).toEqual(["associations.age"]);
    const warning = finding(old.result, "associations.age");
    expect(warning?.path).toEqual(["comprobante", "comprobantes_asociados", 0, "comprobante_fecha"]);
    expect(warning?.message).toMatch(
      /FACTURA B 00003-00000007 .*25\/09\/2026.*56 days before this note \(20\/11\/2026\)/,
    );
    expect(warning?.message).toMatch(/older than about 15 days/);
  });

  it("15 days back is still taken; 16 warns; a debit note and an FCE note alike", () => {
    expect(judge(note("05/11/2026")).warnings).toEqual([]);
    expect(judge(note("04/11/2026")).warnings).toEqual(["associations.age"]);
    const debit = judge(variant(note("04/11/2026"), (r) => (r.comprobante.tipo = "NOTA DE DEBITO B")));
    expect(debit.warnings).toEqual(["associations.age"]);
  });

  it("says it in Spanish too", async () => {
    const { useLang } = await import("../../src/i18n/index.js");
    await useLang("es");
    try {
      const message = finding(judge(note("25/09/2026")).result, "associations.age")?.message;
      expect(message).toMatch(/25\/09\/2026.*56 días/);
    } finally {
      await useLang("en");
    }
  });
});

describe("the small-taxpayer legend (spec §4 fact 3: the service prints it on type A vouchers to a monotributo customer)", () => {
  const LEGEND =
    "El crédito fiscal discriminado en el presente comprobante, sólo podrá ser computado a efectos del Régimen de Sostenimiento e Inclusión Fiscal para Pequeños Contribuyentes de la Ley Nº 27.618";
  const toSmallTaxpayer =
    (leyenda: string, tipo = "FACTURA A", condicion = "M") =>
    (r: Raw) => {
      r.cliente = {
        documento_tipo: "CUIT",
        documento_nro: "20111111112",
        razon_social: "Pedro Gómez",
        condicion_iva: condicion,
      };
      r.comprobante.tipo = tipo;
      r.comprobante.leyenda_gral = leyenda;
    };

  it("sent in leyenda_gral of a FACTURA A to a monotributo customer: refused, with the fix", () => {
    const sent = judge(toSmallTaxpayer(LEGEND));
    expect(sent.errors).toEqual(["legend.small-taxpayer"]);
    const error = finding(sent.result, "legend.small-taxpayer");
    expect(error?.path).toEqual(["comprobante", "leyenda_gral"]);
    expect(error?.message).toMatch(/Ley 27\.618/);
    expect(error?.message).toMatch(/remove it: the service adds it/);
  });

  it("found however it is written: without accents, other spacing and case, among other text, N° for Nº", () => {
    const variants = [
      LEGEND.normalize("NFD").replace(/[\u0300-\u036f]/g, ""),
      `Pago en 3 cuotas. ${LEGEND.toUpperCase().replace(/ /g, "  ")}. Gracias`,
      LEGEND.replace("Nº", "N°"),
      LEGEND.replace("Ley Nº 27.618", "Ley 27618"),
    ];
    for (const leyenda of variants)
      expect(judge(toSmallTaxpayer(leyenda)).errors, leyenda).toEqual(["legend.small-taxpayer"]);
  });

  it("an M voucher too; not a voucher the service prints no legend on", () => {
    expect(judge(toSmallTaxpayer(LEGEND, "FACTURA M")).errors).toEqual(["legend.small-taxpayer"]);
    // To a registered taxpayer the service prints none: the legend is the user's own text.
    expect(judge(toSmallTaxpayer(LEGEND, "FACTURA A", "RI")).errors).toEqual([]);
    expect(judge((r) => (r.comprobante.leyenda_gral = LEGEND)).errors).toEqual([]);
    // Another legend of the authority (observation 10217) is not this one.
    const other =
      "El credito fiscal discriminado en el presente comprobante solo podra ser computado a efectos del Procedimiento permanente de transicion al Regimen General.";
    expect(judge(toSmallTaxpayer(other)).errors).toEqual([]);
    expect(judge(toSmallTaxpayer("Aplica plan 12 cuotas")).errors).toEqual([]);
  });
});

describe("an export to the special customs territory (spec §2.9: country 250)", () => {
  const territory =
    (change: (r: Raw) => void = () => {}) =>
    (r: Raw) => {
      const sample = JSON.parse(readFileSync(join(ROOT, "samples", "factura-e-services.json"), "utf8"));
      r.cliente = {
        documento_tipo: "CUIT",
        documento_nro: "30715550004",
        razon_social: "Austral Insumos SA",
        condicion_iva: "RI",
        provincia: 23,
      };
      r.comprobante = {
        ...sample.comprobante,
        fecha: TODAY,
        vencimiento: TODAY,
        fex: { ...sample.comprobante.fex, pais_comprobante_id: 250, cliente_pais_cuit: "30715550004" },
      };
      change(r);
    };

  it("taken as the spec gives it: the customer's CUIT, its real VAT condition, the same CUIT in fex", () => {
    expect(judge(territory()).errors).toEqual([]);
  });

  it("the customer named by another document: refused at cliente.documento_tipo", () => {
    const dni = judge(
      territory((r) =>
        Object.assign(r.cliente, { documento_tipo: "DNI", documento_nro: "30123456", condicion_iva: "CF" }),
      ),
    );
    expect(dni.errors).toEqual(["fex.territory"]);
    expect(finding(dni.result, "fex.territory")?.path).toEqual(["cliente", "documento_tipo"]);
    expect(finding(dni.result, "fex.territory")?.message).toMatch(
      /special customs territory.*documento_tipo CUIT, not DNI/,
    );
  });

  it("a customer abroad's condition (CDEX): refused at its VAT condition; the real one is asked", () => {
    const abroad = judge(territory((r) => (r.cliente.condicion_iva = "CDEX")));
    expect(abroad.errors).toEqual(["fex.territory"]);
    expect(finding(abroad.result, "fex.territory")?.path).toEqual(["cliente", "condicion_iva"]);
    expect(finding(abroad.result, "fex.territory")?.message).toMatch(/real VAT condition/);
    const operation = judge(territory((r) => (r.cliente.condicion_iva_operacion = "CDEX")));
    expect(finding(operation.result, "fex.territory")?.path).toEqual(["cliente", "condicion_iva_operacion"]);
  });

  it("fex.cliente_pais_cuit missing, or another CUIT: refused there, naming the customer's", () => {
    const missing = judge(territory((r) => delete r.comprobante.fex.cliente_pais_cuit));
    expect(missing.errors).toEqual(["fex.territory"]);
    expect(finding(missing.result, "fex.territory")?.path).toEqual(["comprobante", "fex", "cliente_pais_cuit"]);
    expect(finding(missing.result, "fex.territory")?.message).toMatch(/30715550004/);
    const other = judge(territory((r) => (r.comprobante.fex.cliente_pais_cuit = "30000000007")));
    expect(other.errors).toEqual(["fex.territory"]);
    expect(finding(other.result, "fex.territory")?.message).toMatch(/30000000007 .*30715550004/);
  });

  it("another country: none of this applies", () => {
    const abroad = judge(
      territory((r) => {
        r.comprobante.fex.pais_comprobante_id = 212;
        delete r.comprobante.fex.cliente_pais_cuit;
      }),
    );
    expect(abroad.errors).toEqual([]);
  });
});
