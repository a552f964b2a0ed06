/**
 * The authority's rules that the development plan lets through and production refuses (spec §1;
 * tax-rules §4; reference §11): `validate` (and so `issue`) tells them before anything is sent,
 * and the sandbox's production checks (`authority-checks`, part of --like-production) refuse the
 * same vouchers sent as they are, with the authority's codes and texts, while the default sandbox,
 * the development plan, takes them. A tributo of 0 the client drops, with a warning.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { LIKE_PRODUCTION, parseFaults } from "../../src/sandbox/faults.js";
import { argentinaToday, clockFrom, formatDay } from "../../src/voucher/dates.js";
import { validateEnvelope } from "../../src/voucher/validate.js";
import { freshUser, ndjson, ROOT, runCli } from "../helpers.js";
import { type RunningSandbox, sandboxEnv, startSandboxProcess, tempDir } from "../sandbox-process.js";

const inDays = (n: number) => formatDay(argentinaToday(clockFrom(process.env)()) + n);
const running: RunningSandbox[] = [];
afterEach(async () => {
  for (const s of running.splice(0)) await s.stop();
});

async function sandbox(args: string[] = []): Promise<RunningSandbox> {
  const s = await startSandboxProcess({ args });
  running.push(s);
  return s;
}

/** A sample as a file holds it, changed by `change`. */
function sample(path: string, change: (raw: any) => void = () => {}): any {
  const raw = JSON.parse(readFileSync(join(ROOT, "samples", path), "utf8"));
  change(raw);
  return raw;
}

/** The voucher as it would reach the service, dates and point of sale filled in, nothing dropped. */
function sent(raw: any, pv: number): any {
  const { $schema: _, ...body } = structuredClone(raw);
  const c = body.comprobante;
  c.fecha ??= inDays(0);
  c.vencimiento ??= c.fecha;
  c.punto_venta = pv;
  return body;
}

/** An FCE invoice dated three days ago (within its window) and due yesterday: after its date, before today. */
const fceDueYesterday = () =>
  sample("fce-a.json", (r) => Object.assign(r.comprobante, { fecha: inDays(-3), vencimiento: inDays(-1) }));

const cases: { name: string; raw: () => any; code: string; refusal: RegExp; devPlanTakes: boolean }[] = [
  {
    name: "an FCE invoice due before the day it is sent (tax-rules §4.11)",
    raw: fceDueYesterday,
    code: "fce.due-date",
    refusal: /FchVtoPago debe ser igual o posterior a la fecha del comprobante y a la fecha de envio/,
    devPlanTakes: true,
  },
  {
    name: "an RG 5329 VAT perception on a FACTURA B to a final consumer (§4.12)",
    raw: () => sample("invalid/tributo-rg5329.json"),
    code: "tributo.rg5329",
    refusal: /RG 5329 corresponde solo a compradores responsables inscriptos/,
    devPlanTakes: true,
  },
  {
    name: "a purchase of a FACTURA A from a supplier named by DNI",
    raw: () => sample("invalid/supplier-document.json"),
    code: "supplier.document",
    refusal: /El proveedor de un comprobante fiscal debe identificarse con su CUIT/,
    devPlanTakes: true,
  },
  {
    name: "an export credit note for goods that names no voucher (spec §2.8)",
    raw: () => sample("invalid/notes-association-export-goods.json"),
    code: "notes.association",
    refusal: /deben informar comprobantes asociados \(fex\.comprobantes_asociados\)/,
    devPlanTakes: false,
  },
];

describe("what production refuses, refused alike by validate and the sandbox like production", () => {
  it("--like-production includes the authority's checks", () => {
    expect(parseFaults([LIKE_PRODUCTION]).authorityChecks).toBe(true);
    expect(parseFaults([""]).authorityChecks).toBe(false);
  });

  it.each(cases)(
    "$name: validate refuses it ($code, exit 3); the sandbox like production refuses it sent as it is",
    async ({ raw, code, refusal, devPlanTakes }) => {
      const u = freshUser("facturar-production-");
      const file = join(u.cwd, "voucher.json");
      writeFileSync(file, JSON.stringify(raw()));
      const validated = await runCli(["--json", "validate", file], { cwd: u.cwd, env: u.env });
      expect(validated.code, validated.stdout).toBe(3);
      expect(ndjson(validated.stdout)[0].error_details.map((e: { code: string }) => e.code)).toEqual([code]);

      const strict = await sandbox(["--fault", "authority-checks"]);
      const pv = strict.pointsOfSale[0]?.punto_venta as number;
      const refused = await strict.call("facturacion/nuevo", sent(raw(), pv));
      expect(refused.body.error, JSON.stringify(refused.body)).toBe("S");
      expect(refused.body.errores.join(" ")).toMatch(refusal);

      // The development plan skips the authority's checks (spec §1), but not the service's own.
      const lenient = await sandbox();
      const taken = await lenient.call(
        "facturacion/nuevo",
        sent(raw(), lenient.pointsOfSale[0]?.punto_venta as number),
      );
      expect(taken.body.error, JSON.stringify(taken.body)).toBe(devPlanTakes ? "N" : "S");
    },
    60_000,
  );

  it("queued, the same checks end the voucher in error in the queue (the authority sees it when the queue sends it)", async () => {
    const strict = await sandbox(["--fault", "authority-checks", "--queue-interval", "50"]);
    const pv = strict.pointsOfSale[0]?.punto_venta as number;
    const body = sent(sample("invalid/tributo-rg5329.json"), pv);
    body.comprobante.numero = 0;
    const queued = await strict.call("facturacion/nuevo_encola", body);
    expect(queued.body.error, JSON.stringify(queued.body)).toBe("N");
    let held: any;
    for (let i = 0; i < 200 && held?.comprobante?.status !== "ENVIADO A PROCESAR - CON ERROR"; i++) {
      const r = await strict.call("facturacion/consulta_avanzada", {
        busqueda_tipo: "EXT_REF",
        pagina: 0,
        limite: 10,
        comprobante: { external_reference: "FB-RG5329-0001", operacion: "V" },
      });
      held = r.body.comprobantes?.[0];
      if (held?.comprobante?.status === "EMITIDO") break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(held?.comprobante?.status).toBe("ENVIADO A PROCESAR - CON ERROR");
  }, 60_000);

  it("a lone tributo of 0 among others is refused in its own words; 10024 is for tributos that add up to 0", async () => {
    const strict = await sandbox(["--fault", "authority-checks"]);
    const pv = strict.pointsOfSale[0]?.punto_venta as number;
    const body = sent(sample("perceptions.json"), pv);
    body.comprobante.tributos.push({ tipo: 7, regimen: 6, base_imponible: 1, alicuota: 0, total: 0 });
    const refused = await strict.call("facturacion/nuevo", body);
    expect(refused.body.error).toBe("S");
    expect(refused.body.errores.join(" ")).toMatch(/El importe de cada tributo informado debe ser mayor a 0/);
  }, 60_000);

  it("a tributo of 0: refused by production (10024); issue drops it, tells why, and the voucher is issued there", async () => {
    const strict = await sandbox(["--fault", "authority-checks"]);
    const pv = strict.pointsOfSale[0]?.punto_venta as number;
    const blanks = sample("fce-a-spreadsheet-blanks.json");
    const refused = await strict.call("facturacion/nuevo", sent(blanks, pv));
    expect(refused.body.error).toBe("S");
    expect(refused.body.errores.join(" ")).toMatch(/#6661145\.10024/);

    const u = freshUser("facturar-production-");
    const file = join(u.cwd, "blanks.json");
    writeFileSync(file, JSON.stringify(blanks));
    const r = await runCli(["--json", "issue", "--no-pdf", file], { cwd: u.cwd, env: sandboxEnv(strict, u.env) });
    expect(r.code, r.stderr + r.stdout).toBe(0);
    const [result] = ndjson(r.stdout);
    expect(result.status).toBe("issued");
    expect(result.warning_details.map((w: { code: string }) => w.code)).toEqual(
      expect.arrayContaining(["tributo.zero", "rg_especiales.empty"]),
    );
    // Sent without them: the service holds no tributos and no empty opcional.
    const held = await strict.call("facturacion/consulta_avanzada", {
      busqueda_tipo: "EXT_REF",
      pagina: 0,
      limite: 10,
      comprobante: { external_reference: "FCEA-2026-0002", operacion: "V" },
    });
    expect(held.body.comprobantes).toHaveLength(1);
    expect(held.body.comprobantes[0].comprobante.tributos ?? []).toEqual([]);
  }, 60_000);
});

/** The total the authority computes for a raw voucher (the items' nets, VAT and tributos), as a file writes it. */
function totalOf(raw: any): number {
  const { findings, totals } = validateEnvelope(structuredClone(raw), { now: new Date("2026-11-20T15:00:00Z") });
  if (!totals) throw new Error(JSON.stringify(findings));
  return Number(totals.total.toFixed(2));
}

/** A sample changed by `change`, its total the one its items make (so that only the rule under test is broken). */
function broken(path: string, change: (raw: any) => void): () => any {
  return () => {
    const raw = sample(path, change);
    raw.comprobante.total = totalOf(raw);
    return raw;
  };
}

/**
 * Issue #24 §3: the default sandbox is the development plan as the spec describes it (§1: the
 * authority's validations are not applied: the service's own checks only), and `authority-checks`
 * (part of --like-production) adds the authority's, with its codes and texts, so that a batch
 * rehearsed there fails where production would. Each voucher is sent as it is (past the client's
 * validation), and `facturar validate` tells the same fault before anything is sent.
 */
const authorityRules: {
  name: string;
  raw: () => any;
  refusal: RegExp;
  /** What `facturar validate` says of it (an error, or the warning of a rule the authority judges). */
  validate?: string;
}[] = [
  {
    name: "a voucher for goods dated 50 days back (10016, tax-rules §4.5)",
    raw: () =>
      sample("factura-b-dni.json", (r) =>
        Object.assign(r.comprobante, { fecha: "01/10/2026", vencimiento: "01/10/2026" }),
      ),
    refusal: /Cod\. Error: #6661145\.10016 - Campo CbteFch debe estar comprendido en el rango N-5 y N\+5/,
    validate: "date.window",
  },
  {
    name: "dollars at 10 pesos, below 2 % of the authority's rate (10119, tax-rules §4.9)",
    raw: () => sample("usd-invoice.json", (r) => (r.comprobante.cotizacion = 10)),
    refusal: /Cod\. Error: #6661145\.10119 - El campo MonCotiz \(10\) debe estar comprendido entre el 2% y el 400%/,
  },
  {
    name: "a FACTURA C with 21 % VAT (10071, tax-rules §4.1)",
    raw: broken("factura-c.json", (r) => (r.comprobante.detalle[0].producto.alicuota = 21)),
    refusal: /Cod\. Error: #6661145\.10071 - Si el tipo de comprobante es C, el array de IVA no debe informarse/,
    validate: "class-c.vat",
  },
  {
    name: "a FACTURA C with an exempt item (10044)",
    raw: broken("factura-c.json", (r) => (r.comprobante.detalle[1].producto.alicuota = -1)),
    refusal: /Cod\. Error: #6661145\.10044 - .*ImpOpEx.*tipo C debe ser igual a cero/,
    validate: "class-c.vat",
  },
  {
    name: "a FACTURA E with a perception (WSFEX has no tributos; spec §2.4 rule 3)",
    raw: broken("factura-e-services.json", (r) => {
      r.comprobante.tributos = [{ tipo: 7, regimen: 5, base_imponible: 7200, alicuota: 2.5, total: 180 }];
    }),
    refusal: /Los comprobantes de exportacion no informan tributos/,
    validate: "class-e.taxes",
  },
  {
    name: "a FACTURA E with VAT on an item",
    raw: broken("factura-e-services.json", (r) => (r.comprobante.detalle[0].producto.alicuota = 21)),
    refusal: /Los comprobantes de exportacion no llevan IVA/,
    validate: "class-e.vat",
  },
  {
    name: "a tributo of a type the authority does not have (10025)",
    raw: () => sample("perceptions.json", (r) => (r.comprobante.tributos[1].tipo = 42)),
    refusal: /Cod\. Error: #6661145\.10025 - El campo Id en Tributo .*FEParamGetTiposTributos \(tipo 42\)/,
    validate: "tributo.type",
  },
  {
    name: "an unidentified consumer's FACTURA B at the ceiling (10015, tax-rules §4.7)",
    raw: broken("factura-b-anonymous.json", (r) => (r.comprobante.detalle[0].cantidad = 400)),
    refusal: /Cod\. Error: #6661145\.10015 - .*RG 4444 \(10000000\), el campo DocTipo debera ser distinto de 99/,
    validate: "anonymous.ceiling",
  },
  {
    name: "an associated voucher's CUIT of 13 digits, as the vendor's note examples send it (10151)",
    raw: () =>
      sample("nota-de-credito-a.json", (r) => (r.comprobante.comprobantes_asociados[0].cuit = "1111111111111")),
    refusal: /Cod\. Error: #6661145\.10151 - Si informa Cuit en comprobantes asociados.*11 caracteres numericos/,
    validate: "schema.invalid",
  },
  {
    name: "a class A note adjusting a FACTURA B (10040, tax-rules §2.1)",
    raw: () =>
      sample("nota-de-credito-a.json", (r) => (r.comprobante.comprobantes_asociados[0].tipo_comprobante = "FACTURA B")),
    refusal: /Cod\. Error: #6661145\.10040 - .*asociado \(006\).*tipo 003/,
    validate: "associations.class",
  },
  {
    name: "a credit note to a voucher 56 days old (reference §11; the vendor's notes page: +15 days)",
    raw: () =>
      sample(
        "nota-de-credito-a.json",
        (r) => (r.comprobante.comprobantes_asociados[0].comprobante_fecha = "25/09/2026"),
      ),
    refusal:
      /No se permiten notas de credito o debito a comprobantes con \+15 dias: .*FACTURA A 00003-00001207 es del 25\/09\/2026/,
    validate: "associations.age",
  },
  {
    name: "a total that is not the sum of its parts (10048, tax-rules §4.1)",
    raw: () => sample("factura-b-dni.json", (r) => (r.comprobante.total = 133563)),
    refusal: /Cod\. Error: #6661145\.10048 - El campo Importe Total ImpTotal.*133563.*133463/,
    validate: "total.mismatch",
  },
  {
    name: "FCE data on a FACTURA A that is not FCE (10169, tax-rules §4.11)",
    raw: () =>
      sample("perceptions.json", (r) => {
        r.comprobante.rg_especiales = {
          regimen: "Factura de Crédito Electrónica MiPyMEs (FCE)",
          datos: [{ id: 27, valor: "SCA" }],
        };
      }),
    refusal:
      /Cod\. Error: #6661145\.10169 - Si el tipo de comprobante que esta autorizando NO es MiPyMEs \(FCE\), no informar los codigos 2101, 2102, 22, 27/,
    validate: "fce.not-fce",
  },
];

describe("the authority's checks: skipped by the development plan (the default), applied with authority-checks", () => {
  let lenient: RunningSandbox;
  let strict: RunningSandbox;
  // Started once for the table (not through sandbox(), whose sandboxes end with each test).
  beforeAll(async () => {
    [lenient, strict] = await Promise.all([
      startSandboxProcess(),
      startSandboxProcess({ args: ["--fault", "authority-checks"] }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([lenient?.stop(), strict?.stop()]);
  });

  it.each(authorityRules)("$name", async ({ raw, refusal, validate }) => {
    const refused = await strict.call("facturacion/nuevo", sent(raw(), strict.pointsOfSale[0]?.punto_venta as number));
    expect(refused.body.error, JSON.stringify(refused.body)).toBe("S");
    expect(refused.body.errores.join(" ")).toMatch(refusal);
    expect(refused.body.error_details.map((d: { code: string }) => d.code)).toContain("TFC-6661");

    const taken = await lenient.call("facturacion/nuevo", sent(raw(), lenient.pointsOfSale[0]?.punto_venta as number));
    expect(taken.body.error, JSON.stringify(taken.body)).toBe("N");

    if (!validate) return;
    const u = freshUser("facturar-authority-");
    const file = join(u.cwd, "voucher.json");
    writeFileSync(file, JSON.stringify(raw()));
    const validated = ndjson((await runCli(["--json", "validate", file], { cwd: u.cwd, env: u.env })).stdout)[0];
    expect([...validated.error_details, ...validated.warning_details].map((f: { code: string }) => f.code)).toContain(
      validate,
    );
  });

  it("tags with spaces are the service's to judge, and it takes them: its tables call any text field alphanumeric", async () => {
    for (const s of [lenient, strict]) {
      const body = sent(
        sample("factura-b-dni.json", (r) => {
          r.comprobante.external_reference = `TAGS-${s === strict ? "S" : "L"}`;
          r.comprobante.tags = ["cliente mayorista", "zona norte"];
        }),
        s.pointsOfSale[0]?.punto_venta as number,
      );
      const r = await s.call("facturacion/nuevo", body);
      expect(r.body.error, JSON.stringify(r.body)).toBe("N");
    }
  });
});

describe("credit-note --ref against a voucher 56 days old, like production", () => {
  it("is told before it is sent, then refused in the authority's words (exit 4); nothing is issued", async () => {
    const old = "25/09/2026";
    const dataDir = tempDir("facturar-old-note-");
    const u = freshUser("facturar-old-note-");
    // The invoice, issued on its day; then the same service on the tests' day, like production.
    const then = await startSandboxProcess({
      dataDir,
      args: ["--fault", "authority-checks"],
      env: { FACTURAR_TODAY: old },
    });
    const raw = sample("factura-b-dni.json", (r) => Object.assign(r.comprobante, { external_reference: "VIEJA-1" }));
    writeFileSync(join(u.cwd, "vieja.json"), JSON.stringify(raw));
    const issued = await runCli(["issue", "--no-pdf", "vieja.json"], {
      cwd: u.cwd,
      env: { ...sandboxEnv(then, u.env), FACTURAR_TODAY: old },
    });
    expect(issued.code, issued.stderr).toBe(0);
    await then.stop();
    const now = await startSandboxProcess({ dataDir, args: ["--fault", "authority-checks"] });
    running.push(now);
    const note = await runCli(["credit-note", "--ref", "VIEJA-1", "--amount", "1210", "--no-pdf"], {
      cwd: u.cwd,
      env: sandboxEnv(now, u.env),
    });
    expect(note.stderr).toMatch(
      /FACTURA B \d{5}-00000001 is dated 25\/09\/2026, 56 days before this note \(20\/11\/2026\)/,
    );
    expect(note.code, note.stderr + note.stdout).toBe(4);
    expect(note.stdout + note.stderr).toMatch(/No se permiten notas de credito o debito a comprobantes con \+15 dias/);
    const held = await now.call("facturacion/consulta_avanzada", {
      busqueda_tipo: "EXT_REF",
      pagina: 0,
      limite: 10,
      comprobante: { external_reference: "VIEJA-1-NC1", operacion: "V" },
    });
    expect(held.body.comprobantes).toEqual([]);
  }, 60_000);
});
