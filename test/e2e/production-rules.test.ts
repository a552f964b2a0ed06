/**
 * The authority's rules that the development plan lets through and production refuses (tax-rules
 * §4.1, §4.11, §4.12; spec §2.2, §2.8): `validate` (and so `issue`) refuses them before anything
 * is sent, and the sandbox's production checks (`authority-checks`, part of --like-production)
 * refuse the same vouchers sent as they are. A tributo of 0 the client drops, with a warning.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { LIKE_PRODUCTION, parseFaults } from "../../src/sandbox/faults.js";
import { argentinaToday, clockFrom, formatDay } from "../../src/voucher/dates.js";
import { freshUser, ndjson, ROOT, runCli } from "../helpers.js";
import { type RunningSandbox, sandboxEnv, startSandboxProcess } from "../sandbox-process.js";

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
      expect(ndjson(validated.stdout)[0].errors.map((e: { code: string }) => e.code)).toEqual([code]);

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
