/**
 * Purchases (operacion C) and the service's methods beyond issuing: delete-purchase, cuit, resend,
 * pay, customer-ledger, products, table and the quota in status, as users run them, and the
 * sandbox's answers as the vendor's pages show them.
 */
import { readFileSync, writeFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dayNumber, formatDay } from "../../src/voucher/dates.js";
import { cuitCheckDigit } from "../../src/voucher/ids.js";
import { freshUser, ndjson, ROOT, runCli, TODAY } from "../helpers.js";
import { serveLoopback } from "../loopback.js";
import { type RunningSandbox, sandboxEnv, startSandboxProcess } from "../sandbox-process.js";

const sample = (name: string) => JSON.parse(readFileSync(join(ROOT, "samples", `${name}.json`), "utf8"));

function user(extra: Record<string, string> = {}) {
  const { cwd, env } = freshUser("facturar-account-");
  const all = { ...env, ...extra };
  return {
    cwd,
    env: all,
    run: (args: string[], more: Record<string, string> = {}) => runCli(args, { cwd, env: { ...all, ...more } }),
    write(name: string, raw: unknown): string {
      writeFileSync(join(cwd, name), JSON.stringify(raw));
      return name;
    },
  };
}

/** A valid CUIT with this prefix and body (the check digit computed; bodies needing 10 are skipped). */
function cuit(prefix: string, body: number): string {
  for (let b = body; ; b++) {
    const ten = `${prefix}${String(b).padStart(8, "0")}`;
    const digit = cuitCheckDigit(ten);
    if (digit < 10) return `${ten}${digit}`;
  }
}

function purchase(reference: string, numero = 24) {
  const raw = sample("purchase-proveedor");
  Object.assign(raw.comprobante, { external_reference: reference, numero, fecha: TODAY, vencimiento: TODAY });
  return raw;
}

describe("the service's refusals, with what to do", () => {
  it("an ordinary invoice to a buyer obliged to MiPyME credit invoices: rejected, and the hint says to issue an FCE", async () => {
    const u = user();
    const big = sample("factura-a-mixed-rates");
    big.cliente.documento_nro = "30500010912";
    Object.assign(big.comprobante, { external_reference: "FA-BIG", fecha: TODAY, vencimiento: TODAY });
    big.comprobante.detalle = [{ ...big.comprobante.detalle[0], cantidad: 6 }];
    delete big.comprobante.total;
    const r = await u.run(["--json", "issue", "--no-pdf", u.write("big.json", big)]);
    expect(r.code, r.stderr).toBe(4);
    expect(ndjson(r.stdout)[0]).toMatchObject({
      status: "rejected",
      hint: "this buyer must receive a MiPyME credit invoice: issue it as FACTURA DE CREDITO ELECTRONICA MiPyME (FCE)",
    });
    const human = await u.run(["issue", "--no-pdf", "big.json"]);
    expect(human.stdout).toMatch(/hint: this buyer must receive a MiPyME credit invoice/);
  });
});

describe("purchases (operacion C)", () => {
  it("qr --ref of a purchase checks the QR's CUIT against its supplier's, the issuer of a purchase", async () => {
    const u = user();
    expect((await u.run(["issue", "--no-pdf", u.write("compra.json", purchase("COMPRA-QR"))])).code).toBe(0);
    const qr = (cuit: number) =>
      `https://www.afip.gob.ar/fe/qr/?p=${Buffer.from(
        JSON.stringify({
          ver: 1,
          fecha: "2026-11-20",
          cuit,
          ptoVta: 15,
          tipoCmp: 1,
          nroCmp: 24,
          importe: 375100,
          moneda: "PES",
          ctz: 1,
          tipoCodAut: "E",
          codAut: 70000000000000,
        }),
      ).toString("base64")}`;
    const supplier = await u.run(["--json", "qr", qr(30711111111), "--ref", "COMPRA-QR"]);
    expect(supplier.code, supplier.stderr).toBe(0);
    expect(ndjson(supplier.stdout)[0].checks).toContainEqual({
      field: "cuit",
      qr: 30711111111,
      voucher: "30711111111",
      ok: true,
      compared: true,
    });
    // No receiver's document is compared: the receiver of a purchase is this account.
    expect(ndjson(supplier.stdout)[0].checks.map((c: { field: string }) => c.field)).not.toContain("nroDocRec");
    const other = await u.run(["qr", qr(30711111112), "--ref", "COMPRA-QR"]);
    expect(other.code).toBe(3);
    expect(other.stdout).toMatch(/✖ cuit +QR 30711111112 +voucher 30711111111/);
  });

  it("keep the supplier's point of sale and number, out of the sales numbering; queried as purchases", async () => {
    const u = user();
    const bought = await u.run(["--json", "issue", "--no-pdf", u.write("compra.json", purchase("COMPRA-1"))]);
    expect(bought.code, bought.stderr).toBe(0);
    expect(ndjson(bought.stdout)[0]).toMatchObject({ status: "issued", punto_venta: 15, numero: 24 });
    // A sale of the same type still gets the first number of its own point of sale.
    const sale = sample("factura-a-mixed-rates");
    Object.assign(sale.comprobante, { fecha: TODAY, vencimiento: TODAY });
    const sold = await u.run(["--json", "issue", "--no-pdf", u.write("venta.json", sale)]);
    expect(ndjson(sold.stdout)[0]).toMatchObject({ status: "issued", punto_venta: 679, numero: 1 });

    // Queried among purchases, with its supplier; not among sales.
    const found = await u.run(["--json", "query", "--purchases", "--ref", "COMPRA-1"]);
    expect(found.code, found.stderr).toBe(0);
    const [item] = ndjson(found.stdout);
    expect(item).toMatchObject({
      status: "issued",
      proveedor: { documento_nro: "30711111111", razon_social: "Papelera Norte SRL" },
      comprobante: { operacion: "C", punto_venta: 15, numero: 24 },
    });
    expect(item.cliente).toBeUndefined();
    expect((await u.run(["query", "--ref", "COMPRA-1"])).code).toBe(9);
    const byNumber = await u.run([
      "--json",
      "query",
      "--purchases",
      "--type",
      "FACTURA A",
      "--number",
      "00015-00000024",
    ]);
    expect(ndjson(byNumber.stdout).map((v) => v.external_reference)).toEqual(["COMPRA-1"]);
    const day = await u.run(["--json", "query", "--purchases", "--date", TODAY]);
    expect(ndjson(day.stdout).map((v) => v.external_reference)).toEqual(["COMPRA-1"]);
    const sales = await u.run(["--json", "query", "--date", TODAY]);
    expect(ndjson(sales.stdout).map((v) => v.external_reference)).toEqual(["FA-2026-0001"]);

    // The same supplier's voucher again, under another reference: refused (exit 4).
    const twice = await u.run(["--json", "issue", "--no-pdf", u.write("otra.json", purchase("COMPRA-2"))]);
    expect(twice.code).toBe(4);
    expect(ndjson(twice.stdout)[0].errors.join(" ")).toMatch(/ya fue ingresado/);
    // A purchase in the queue: refused, the queue is for vouchers the authority authorises.
    const queued = await u.run(["--json", "issue-queued", u.write("cola.json", purchase("COMPRA-3", 25))]);
    expect(queued.code).toBe(4);
    expect(ndjson(queued.stdout)[0].errors.join(" ")).toMatch(/compra no se pueden encolar/);
  }, 60_000);

  it("a purchase is in none of this account's lanes: a sale dated before it at the same point of sale is issued", async () => {
    const u = user();
    // The supplier's point of sale happens to be the same number as ours.
    const bought = purchase("COMPRA-SAME-PV");
    bought.comprobante.punto_venta = 679;
    expect((await u.run(["issue", "--no-pdf", u.write("compra.json", bought)])).code).toBe(0);
    const sale = sample("factura-a-mixed-rates");
    const yesterday = formatDay(dayNumber(TODAY) - 1);
    Object.assign(sale.comprobante, { fecha: yesterday, vencimiento: TODAY });
    const sold = await u.run(["--json", "issue", "--no-pdf", u.write("venta.json", sale)]);
    expect(sold.code, sold.stdout).toBe(0);
    expect(ndjson(sold.stdout)[0]).toMatchObject({ status: "issued", punto_venta: 679, numero: 1 });
  }, 30_000);

  it("a purchase whose answer was lost is found among purchases: issued once, not sent again", async () => {
    const u = user();
    const r = await u.run(["--json", "issue", "--no-pdf", u.write("compra.json", purchase("COMPRA-LOST"))], {
      FACTURAR_SANDBOX_FAULTS: "drop-after-commit=1",
    });
    expect(r.code, r.stderr).toBe(0);
    expect(ndjson(r.stdout)[0]).toMatchObject({ status: "issued", reconciled: true, punto_venta: 15, numero: 24 });
    expect(ndjson((await u.run(["--json", "query", "--purchases", "--ref", "COMPRA-LOST"])).stdout)).toHaveLength(1);
  }, 30_000);

  it("delete-purchase deletes a purchase; the sandbox refuses a sale, and one that has payments", async () => {
    const u = user();
    expect((await u.run(["issue", "--no-pdf", u.write("compra.json", purchase("COMPRA-DEL"))])).code).toBe(0);
    // The supplier's point of sale is needed: never the profile's.
    const noPv = await u.run(["delete-purchase", "--type", "FACTURA A", "--number", "24"]);
    expect(noPv.code).toBe(2);
    expect(noPv.stderr).toMatch(/--pv is required: the supplier's point of sale/);
    expect((await u.run(["delete-purchase", "--type", "FACTURA Z", "--pv", "15", "--number", "24"])).code).toBe(2);
    const gone = await u.run(["--json", "delete-purchase", "--type", "FACTURA A", "--pv", "15", "--number", "24"]);
    expect(gone.code, gone.stderr).toBe(0);
    expect(JSON.parse(gone.stdout)).toEqual({
      ok: true,
      comprobante_tipo: "FACTURA A",
      punto_venta: 15,
      numero: 24,
      rta: "El comprobante se ha eliminado.",
    });
    expect((await u.run(["query", "--purchases", "--ref", "COMPRA-DEL"])).code).toBe(9);
    const again = await u.run(["delete-purchase", "--type", "FACTURA A", "--number", "00015-00000024"]);
    expect(again.code).toBe(4);
    expect(again.stderr).toMatch(/No se encontro el comprobante/);
  }, 30_000);

  it("two purchases issued in one run go in one lotes call: both recorded with their suppliers' numbers", async () => {
    const u = user();
    const files = [
      u.write("c1.json", purchase("COMPRA-LOTE-1", 31)),
      u.write("c2.json", purchase("COMPRA-LOTE-2", 32)),
    ];
    const r = await u.run(["--json", "issue", "--no-pdf", ...files]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(ndjson(r.stdout).map((v) => [v.status, v.punto_venta, v.numero])).toEqual([
      ["issued", 15, 31],
      ["issued", 15, 32],
    ]);
  }, 30_000);

  it("delete-purchase on a failing network: exit 6 or 8 with where to look, never an internal error", async () => {
    const u = user();
    expect((await u.run(["issue", "--no-pdf", u.write("compra.json", purchase("COMPRA-NET"))])).code).toBe(0);
    const args = ["delete-purchase", "--type", "FACTURA A", "--number", "00015-00000024"];
    for (const fault of ["error5xx=1", "drop-before=1"]) {
      const r = await u.run(args, { FACTURAR_SANDBOX_FAULTS: fault });
      expect([6, 8], `${fault}: ${r.stderr}`).toContain(r.code);
      expect(r.stderr).not.toMatch(/internal error/);
      if (r.code === 8) expect(r.stderr).toMatch(/query --purchases/);
    }
    // Still there: neither fault deleted it.
    expect((await u.run(["query", "--purchases", "--ref", "COMPRA-NET"])).code).toBe(0);
    const lost = await u.run(args, { FACTURAR_SANDBOX_FAULTS: "drop-after-commit=1" });
    expect(lost.code, lost.stderr).toBe(8);
    expect(lost.stderr).toMatch(/may be deleted/);
    expect(lost.stderr).toMatch(/facturar query --purchases --type "FACTURA A" --number 00015-00000024/);
    expect((await u.run(["query", "--purchases", "--ref", "COMPRA-NET"])).code).toBe(9);
    // The journal no longer says it is recorded: the next run asks, finds nothing, records it again.
    const again = await u.run(["--json", "issue", "--no-pdf", "compra.json"]);
    expect(again.code, again.stderr).toBe(0);
    expect(ndjson(again.stdout)[0]).toMatchObject({ status: "issued", punto_venta: 15, numero: 24 });
    expect((await u.run(["query", "--purchases", "--ref", "COMPRA-NET"])).code).toBe(0);
  }, 60_000);

  it("a deleted purchase is recorded again under the same reference: the journal says it was deleted", async () => {
    const u = user();
    const file = u.write("compra.json", purchase("COMPRA-AGAIN"));
    expect((await u.run(["issue", "--no-pdf", file])).code).toBe(0);
    const gone = await u.run(["delete-purchase", "--type", "FACTURA A", "--pv", "15", "--number", "24"]);
    expect(gone.code, gone.stderr).toBe(0);
    const journal = await u.run(["--json", "journal", file]);
    expect(ndjson(journal.stdout)).toEqual([
      expect.objectContaining({ external_reference: "COMPRA-AGAIN", status: "deleted" }),
    ]);
    const again = await u.run(["--json", "issue", "--no-pdf", file]);
    expect(again.code, again.stderr).toBe(0);
    expect(ndjson(again.stdout)[0]).toMatchObject({ status: "issued", punto_venta: 15, numero: 24 });
    expect(again.stdout).not.toMatch(/already issued/);
    expect((await u.run(["query", "--purchases", "--ref", "COMPRA-AGAIN"])).code).toBe(0);
  }, 60_000);
});

describe("the sandbox's answers, as the vendor's pages show them", () => {
  let s: RunningSandbox;
  beforeAll(async () => {
    s = await startSandboxProcess();
  });
  afterAll(async () => {
    await s?.stop();
  });

  it("comprobante_eliminar refuses a sale; afip-info, consumo and the tables answer their documented shapes", async () => {
    const u = user();
    const env = sandboxEnv(s, u.env);
    const sale = sample("factura-b-dni");
    Object.assign(sale.comprobante, { fecha: TODAY, vencimiento: TODAY, external_reference: "SHAPES-1" });
    writeFileSync(join(u.cwd, "venta.json"), JSON.stringify(sale));
    const issued = await runCli(["--json", "issue", "--no-pdf", "venta.json"], { cwd: u.cwd, env });
    const { punto_venta, numero } = ndjson(issued.stdout)[0];
    const refused = await s.call("facturacion/comprobante_eliminar", {
      comprobante: { tipo: "FACTURA B", operacion: "V", punto_venta, numero },
    });
    expect(refused.body).toMatchObject({ error: "S", errores: [expect.stringMatching(/comprobantes de compra/)] });

    // A registry record, the same for the same CUIT, with every field of the page.
    const company = cuit("30", 71234567);
    const info = await s.call("clientes/afip-info", { cliente: { documento_tipo: "CUIT", documento_nro: company } });
    expect(info.body).toEqual({
      error: "N",
      razon_social: expect.any(String),
      condicion_impositiva: expect.stringMatching(/^(RESPONSABLE INSCRIPTO|EXENTO)$/),
      direccion: expect.any(String),
      localidad: expect.any(String),
      codigopostal: expect.stringMatching(/^\d{4}$/),
      estado: "ACTIVO",
      provincia: expect.any(String),
      actividad: [
        { descripcion: expect.any(String), id: expect.any(String), nomenclador: "883", periodo: expect.any(String) },
      ],
      errores: [""],
    });
    const twice = await s.call("clientes/afip-info", { cliente: { documento_tipo: "CUIT", documento_nro: company } });
    expect(twice.body).toEqual(info.body);
    const wrongDigit = `${company.slice(0, 10)}${(Number(company[10]) + 1) % 10}`;
    expect(
      (await s.call("clientes/afip-info", { cliente: { documento_tipo: "CUIT", documento_nro: wrongDigit } })).body,
    ).toMatchObject({ error: "S", errores: [`El CUIT enviado ${wrongDigit} es invalido.`] });
    // A foreign entity's CUIT (prefix 50) is valid, but the registry has no such person.
    expect(
      (await s.call("clientes/afip-info", { cliente: { documento_tipo: "CUIT", documento_nro: cuit("50", 1) } })).body,
    ).toMatchObject({ error: "S", errores: [expect.stringMatching(/No existe persona/)] });

    // consumo's documented fields, no more (no plan end); the vouchers issued, and they alone:
    // afip-info, the tables and consumo itself count in quotas of their own (spec §8).
    const before = (await s.call("micuenta/consumo")).body;
    expect(Object.keys(before).sort()).toEqual([
      "abonos_pendientes",
      "comprobantes_cupo",
      "comprobantes_disponibles",
      "comprobantes_generados",
      "error",
      "errores",
    ]);
    expect(before).toMatchObject({ error: "N", errores: [], abonos_pendientes: 0, comprobantes_cupo: 1500 });
    expect(before.comprobantes_disponibles).toBe(before.comprobantes_cupo - before.comprobantes_generados);
    await s.call("facturacion/consulta", { comprobante: { tipo: "FACTURA B", operacion: "V", punto_venta, numero } });
    await s.call("clientes/afip-info", { cliente: { documento_tipo: "CUIT", documento_nro: company } });
    await s.call("tablas_referencia/provincias");
    const after = (await s.call("micuenta/consumo")).body;
    expect(after.comprobantes_generados).toBe(before.comprobantes_generados);
    sale.comprobante.external_reference = "SHAPES-2";
    writeFileSync(join(u.cwd, "venta2.json"), JSON.stringify(sale));
    expect((await runCli(["issue", "--no-pdf", "venta2.json"], { cwd: u.cwd, env })).code).toBe(0);
    expect((await s.call("micuenta/consumo")).body.comprobantes_generados).toBe(before.comprobantes_generados + 1);

    const table = (await s.call("tablas_referencia/condiciones_iva")).body;
    expect(table).toMatchObject({ error: "N", errores: [""] });
    expect(table.items).toContainEqual({ id: "RI", descripcion: "Responsable inscripto" });
    expect((await s.call("tablas_referencia/no_existe")).status).toBe(404);
  }, 30_000);
});

describe("cuit, status, table", () => {
  it("cuit prints the registry's record; a mistyped CUIT is refused before asking, an unknown one by the service", async () => {
    const u = user();
    const person = cuit("20", 12345678);
    const r = await u.run(["--json", "cuit", `${person.slice(0, 2)}-${person.slice(2, 10)}-${person.slice(10)}`]);
    expect(r.code, r.stderr).toBe(0);
    const record = JSON.parse(r.stdout);
    expect(record).toMatchObject({ ok: true, cuit: person, estado: "ACTIVO", errors: [] });
    expect(record.razon_social).toMatch(/^[A-Z ]+$/);
    expect([null, "RI", "M", "E"]).toContain(record.condicion_iva);
    const human = await u.run(["cuit", person]);
    expect(human.stdout).toContain(record.razon_social);
    expect(human.stdout).toMatch(/VAT condition: /);
    const typo = await u.run(["cuit", `${person.slice(0, 10)}${(Number(person[10]) + 1) % 10}`]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/is not valid: its check digit does not match/);
    const unknown = await u.run(["cuit", cuit("55", 1)]);
    expect(unknown.code).toBe(4);
    expect(unknown.stderr).toMatch(/no registry record for CUIT/);
  }, 30_000);

  it("status shows what micuenta/consumo documents, vouchers and no plan end; table lists a reference table", async () => {
    const u = user();
    const human = await u.run(["status"]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/^ {2}vouchers: 0 issued of the 1,500 in the subscription, 1,500 left$/m);
    // In Spanish as es-AR writes a count (#25 item 7).
    const spanish = await u.run(["--lang", "es", "status"]);
    expect(spanish.stdout).toMatch(/^ {2}comprobantes: 0 emitidos de los 1\.500 de la suscripción, quedan 1\.500$/m);
    // Not requests, and no plan end: the documented answer has neither.
    expect(human.stdout).not.toMatch(/request|plan/);
    const json = JSON.parse((await u.run(["--json", "status"])).stdout);
    expect(json.usage).toEqual({
      abonos_pendientes: 0,
      comprobantes_generados: 0,
      comprobantes_cupo: 1500,
      comprobantes_disponibles: 1500,
    });

    // Quiet: nothing when all is well.
    const quiet = await u.run(["-q", "status"]);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stdout).toBe("");
    // The embedded plan renews itself: months later it still works.
    const months = { FACTURAR_TODAY: formatDay(dayNumber(TODAY) + 120) };
    const renewed = await u.run(["--json", "status"], months);
    expect(renewed.code, renewed.stderr).toBe(0);
    // A lapsed plan (the plan-ended fault): the service refuses the account's calls, consumo too,
    // and status says so in the service's words.
    const later = { ...months, FACTURAR_SANDBOX_FAULTS: "plan-ended" };
    const ended = await u.run(["status"], later);
    expect(ended.code).toBe(6);
    expect(ended.stdout).toMatch(
      /^✖ invoicing: the service refused this account's micuenta\/consumo: Su plan API DEV vencio el \d{2}\/\d{2}\/\d{4}/,
    );
    const endedQuiet = await u.run(["-q", "status"], later);
    expect(endedQuiet.code).toBe(6);
    expect(endedQuiet.stdout.trim().split("\n")).toEqual([
      expect.stringMatching(/refused this account's micuenta\/consumo/),
    ]);
    const endedJson = JSON.parse((await u.run(["--json", "status"], later)).stdout);
    expect(endedJson).toMatchObject({ ok: false, usage: null, usage_error: expect.stringMatching(/vencio/) });
    const sale = sample("factura-c");
    Object.assign(sale.comprobante, { fecha: later.FACTURAR_TODAY, vencimiento: later.FACTURAR_TODAY });
    const refused = await u.run(["issue", "--no-pdf", u.write("late.json", sale)], later);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/vencio/);

    const provinces = await u.run(["table", "provincias"]);
    expect(provinces.code).toBe(0);
    expect(provinces.stdout).toMatch(/^2 +Buenos Aires$/m);
    const types = JSON.parse((await u.run(["--json", "table", "comprobantes-tipos"])).stdout);
    expect(types.items).toContainEqual({ id: "FACTURA B", descripcion: "FACTURA B" });
    // The export tables, as the vendor's pages show them (the sandbox answers them too).
    const incoterms = JSON.parse((await u.run(["--json", "table", "incoterms"])).stdout);
    expect(incoterms).toMatchObject({ source: "service" });
    expect(incoterms.items).toContainEqual({ id: "EXW", descripcion: "EXW - Vigente del 20100101 a hoy" });
    const wrong = await u.run(["table", "provincia"]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/did you mean provincias\?/);
  }, 30_000);
});

describe("table: the lists a voucher's codes come from", () => {
  it("the README's ceiling and status example prints what it shows, after the three samples of its walkthrough", async () => {
    const u = user();
    const samples = ["factura-a-mixed-rates.json", "factura-b-dni.json", "perceptions.json"];
    expect((await u.run(["issue", "--no-pdf", ...samples.map((f) => join(ROOT, "samples", f))])).code).toBe(0);
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const block = /### `facturar ceiling` and `facturar status`\n\n```console\n([\s\S]*?)\n```/.exec(readme)?.[1];
    expect(block).toBeDefined();
    // Its first command issues the three samples, done above.
    const shown = (block as string)
      .split(/^\$ npx /m)
      .filter((part) => part !== "" && !part.startsWith("facturar issue"));
    expect(shown.map((part) => part.split("\n")[0])).toEqual(["facturar ceiling", "facturar status"]);
    for (const part of shown) {
      const [command, ...lines] = part.trimEnd().split("\n");
      const r = await u.run((command as string).split(" ").slice(1));
      expect(r.code, r.stderr).toBe(0);
      // What the README shows of stdout and stderr, each in its order.
      const printed = `${r.stdout}${r.stderr}`.trimEnd().split("\n");
      expect([...printed].sort()).toEqual([...lines].sort());
    }
  }, 60_000);

  it("the README's table commands run as written", async () => {
    const u = user();
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const shown = [...readme.matchAll(/^\$ npx facturar (table [^#\n]*?)\s*(#.*)?$/gm)].map((m) => m[1] as string);
    expect(shown).toEqual(["table condiciones_venta", "table incoterms"]);
    for (const line of shown) {
      const r = await u.run(line.split(" "));
      expect(r.code, `${line}\n${r.stderr}`).toBe(0);
      expect(r.stdout, line).not.toBe("");
    }
  }, 30_000);

  it("VAT rates with exempt and non-taxed, the special regimes' data ids, the perception regimes with their tributo type", async () => {
    const u = user();
    const list = async (name: string) => {
      const r = await u.run(["--json", "table", name]);
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout).items as { id: string; descripcion: string }[];
    };
    const rates = await list("alicuotas-iva");
    expect(rates).toContainEqual({ id: "21", descripcion: "21%" });
    expect(rates).toContainEqual({ id: "-1", descripcion: "IVA Exento" });
    expect(rates).toContainEqual({ id: "-2", descripcion: "IVA No gravado" });
    // The ids the FCE samples send in rg_especiales.datos are listed under the FCE regime.
    const regimes = await list("rg-especiales-regimenes");
    for (const id of ["2101", "27"]) expect(regimes).toContainEqual({ id, descripcion: expect.stringMatching(/FCE/) });
    const perceptions = await list("tributos-percepciones-regimenes");
    expect(perceptions).toContainEqual({ id: "5", descripcion: "IIBB Buenos Aires (tipo 7)" });
  }, 30_000);
});

describe("resend, pay, customer-ledger, products", () => {
  it("a voucher in dollars stays in dollars: ledger in pesos at its cotizacion, pay, products, query", async () => {
    const u = user();
    const dated = (name: string) => {
      const raw = sample(name);
      Object.assign(raw.comprobante, { fecha: TODAY, vencimiento: TODAY });
      return u.write(`${name}.json`, raw);
    };
    const issued = await u.run(["issue", "--no-pdf", dated("usd-invoice"), dated("factura-e-goods")]);
    expect(issued.code, issued.stderr).toBe(0);
    // USD 1,452.00 at 1015.5: the ledger's pesos.
    const ledger = JSON.parse((await u.run(["--json", "customer-ledger", "--cuit", "30712293841"])).stdout);
    expect(ledger.saldo).toBe("1474506.00");
    expect(ledger.resultados[0].concepto).toMatch(/DOL 1452\.00 x 1015\.5/);
    const paid = await u.run(["pay", "--ref", "FA-USD-2026-0001", "--amount", "1452"]);
    expect(paid.code, paid.stderr).toBe(0);
    expect(paid.stdout).toMatch(/payment of USD 1,452\.00 \(Efectivo\)/);
    const after = JSON.parse((await u.run(["--json", "customer-ledger", "--cuit", "30712293841"])).stdout);
    expect(after.saldo).toBe("0.00");
    const products = JSON.parse((await u.run(["--json", "products", "--code", "MALBEC6"])).stdout);
    expect(products.productos).toEqual([expect.objectContaining({ codigo: "MALBEC6", moneda: "DOL" })]);
    const table = await u.run(["query", "--date", TODAY]);
    expect(table.stdout).toMatch(/USD 1,452\.00 +issued +FA-USD-2026-0001/);
  }, 60_000);

  it("next-number shows the last issued too; qr of a missing reference is not found (9); FCE types keep their letter", async () => {
    const u = user();
    const dated = (name: string) => {
      const raw = sample(name);
      Object.assign(raw.comprobante, { fecha: TODAY, vencimiento: TODAY });
      return u.write(`${name}.json`, raw);
    };
    expect((await u.run(["issue", "--no-pdf", dated("fce-a"), dated("fce-b")])).code).toBe(0);
    const none = await u.run(["next-number", "--type", "FACTURA B"]);
    expect(none.stdout).toMatch(/next FACTURA B at point of sale 679: 00679-00000001\nnone issued yet/);
    const fce = "FACTURA DE CREDITO ELECTRONICA MiPyME (FCE) A";
    const next = await u.run(["next-number", "--type", fce]);
    expect(next.stdout).toMatch(/: 00679-00000002\nlast issued: 00679-00000001/);
    expect((await u.run(["qr", "--ref", "NO-SUCH-REF"])).code).toBe(9);
    const table = await u.run(["query", "--date", TODAY]);
    expect(table.stdout).toMatch(/^FCE A +00679-00000001/m);
    expect(table.stdout).toMatch(/^FCE B +00679-00000001/m);
    const book = await u.run(["vat-book", "--from", TODAY, "--to", TODAY]);
    expect(book.stdout).toMatch(/ FCE A +00679-00000001/);
    expect(book.stdout).toMatch(/ FCE B +00679-00000001/);
  }, 60_000);

  it("pay refuses a credit note: a payment is against an invoice or a debit note", async () => {
    const u = user();
    const r = await u.run(["pay", "--type", "NOTA DE CREDITO A", "--number", "00679-00000001", "--amount", "10"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/NOTA DE CREDITO A is a credit note/);
  }, 30_000);

  it("resend e-mails a voucher again only where it was e-mailed when issued", async () => {
    const u = user();
    const mailed = sample("factura-a-mixed-rates");
    Object.assign(mailed.cliente, { envia_por_mail: "S" });
    Object.assign(mailed.comprobante, { fecha: TODAY, vencimiento: TODAY, external_reference: "MAIL-1" });
    const unmailed = structuredClone(mailed);
    Object.assign(unmailed.cliente, { envia_por_mail: "N" });
    unmailed.comprobante.external_reference = "NOMAIL-1";
    expect((await u.run(["issue", "--no-pdf", u.write("a.json", mailed), u.write("b.json", unmailed)])).code).toBe(0);
    const ok = await u.run(["--json", "resend", "--ref", "MAIL-1"]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual({
      ok: true,
      comprobante_tipo: "FACTURA A",
      punto_venta: 679,
      numero: 1,
      operacion: "V",
    });
    expect((await u.run(["resend", "--type", "FACTURA A", "--number", "00679-00000001"])).stdout).toMatch(
      /FACTURA A 00679-00000001 e-mailed to its client again/,
    );
    const refused = await u.run(["resend", "--ref", "NOMAIL-1"]);
    expect(refused.code).toBe(4);
    expect(refused.stderr).toMatch(/no fue enviado por e-mail/);
    // The next step: its PDF, to send it by hand.
    expect(refused.stderr).toMatch(/hint: .*facturar pdf --ref NOMAIL-1/);
    expect((await u.run(["resend", "--ref", "NOPE"])).code).toBe(9);
    expect((await u.run(["resend", "--ref", "MAIL-1", "--type", "FACTURA A"])).code).toBe(2);
  }, 30_000);

  it("pay records payments in the ledger, never more than the voucher; customer-ledger shows the balance", async () => {
    const u = user();
    const sale = sample("factura-a-mixed-rates");
    Object.assign(sale.comprobante, { fecha: TODAY, vencimiento: TODAY, external_reference: "PAY-1" });
    const buyer = sale.cliente.documento_nro;
    expect((await u.run(["issue", "--no-pdf", u.write("a.json", sale)])).code).toBe(0);
    const total = Number(sale.comprobante.total);
    const paid = await u.run(["--json", "pay", "--ref", "PAY-1", "--amount", "1000.50", "--method", "VISA"]);
    expect(paid.code, paid.stderr).toBe(0);
    expect(JSON.parse(paid.stdout)).toMatchObject({
      ok: true,
      total: "1000.50",
      formas_pago: [{ descripcion: "VISA" }],
    });
    // The voucher follows its payments.
    expect(ndjson((await u.run(["--json", "query", "--ref", "PAY-1"])).stdout)[0].comprobante.ctacte_status).toBe(
      "PAGO PARCIAL",
    );
    const tooMuch = await u.run(["pay", "--ref", "PAY-1", "--amount", String(total)]);
    expect(tooMuch.code).toBe(4);
    expect(tooMuch.stderr).toMatch(/supera el importe total/);
    for (const bad of ["0", "-5", "10.999", "diez"])
      expect((await u.run(["pay", "--ref", "PAY-1", "--amount", bad])).code).toBe(2);
    expect((await u.run(["pay", "--ref", "PAY-1"])).code).toBe(2);
    const rest = (Math.round(total * 100) - 100050) / 100;
    expect((await u.run(["pay", "--type", "FACTURA A", "--number", "1", "--amount", rest.toFixed(2)])).code).toBe(0);
    expect(ndjson((await u.run(["--json", "query", "--ref", "PAY-1"])).stdout)[0].comprobante.ctacte_status).toBe(
      "PAGADA",
    );

    const ledger = await u.run(["--json", "customer-ledger", "--cuit", buyer]);
    expect(ledger.code, ledger.stderr).toBe(0);
    const { resultados, saldo } = JSON.parse(ledger.stdout);
    expect(resultados).toEqual([
      {
        fecha: TODAY,
        concepto: `FACTURA A 0679-00000001 (${sale.cliente.razon_social})`,
        debe: total.toFixed(2),
        haber: "0.00",
        resta_abonar_de_este_comprobante: "0.00",
        saldo: total.toFixed(2),
      },
      expect.objectContaining({ haber: "1000.50", saldo: ((Math.round(total * 100) - 100050) / 100).toFixed(2) }),
      expect.objectContaining({ haber: rest.toFixed(2), saldo: "0.00" }),
    ]);
    expect(saldo).toBe("0.00");
    const human = await u.run(["customer-ledger", "--cuit", buyer]);
    expect(human.stdout).toMatch(/balance: \$ 0\.00/);
    expect((await u.run(["customer-ledger", "--cuit", cuit("30", 70000001)])).code).toBe(4);
    expect((await u.run(["customer-ledger"])).code).toBe(2);
  }, 60_000);

  it("products lists what issued vouchers carried, and finds them by price list and code", async () => {
    const u = user();
    const sale = sample("factura-a-mixed-rates");
    Object.assign(sale.comprobante, { fecha: TODAY, vencimiento: TODAY, external_reference: "PROD-1" });
    Object.assign(sale.comprobante.detalle[0].producto, { codigo: "NB-14", lista_precios: "Mayorista" });
    expect((await u.run(["issue", "--no-pdf", u.write("a.json", sale)])).code).toBe(0);
    const all = JSON.parse((await u.run(["--json", "products", "--sort", "codigo"])).stdout);
    expect(all.productos.map((p: { codigo: string }) => p.codigo)).toContain("NB-14");
    const codes = all.productos.map((p: { codigo: string }) => p.codigo);
    expect(codes).toEqual([...codes].sort());
    const one = await u.run(["--json", "products", "--code", "NB-14", "--list", "Mayorista"]);
    expect(one.code, one.stderr).toBe(0);
    expect(JSON.parse(one.stdout).productos).toEqual([
      expect.objectContaining({
        codigo: "NB-14",
        lista_precios: "Mayorista",
        descripcion: sale.comprobante.detalle[0].producto.descripcion,
        precio_unitario_sin_iva: String(sale.comprobante.detalle[0].producto.precio_unitario_sin_iva),
        alicuota: "21",
      }),
    ]);
    // Without --list, the codes in every price list.
    const missing = await u.run(["products", "--code", "NB-14", "--code", "NADA"]);
    expect(missing.code).toBe(9);
    expect(missing.stdout).toMatch(/^NB-14 {2}Mayorista {2}/m);
    expect(missing.stderr).toMatch(/not found: NADA: in no price list/);
    expect(missing.stderr).not.toMatch(/NB-14/);
    const elsewhere = await u.run(["products", "--code", "NB-14", "--list", "General"]);
    expect(elsewhere.code).toBe(9);
    expect(elsewhere.stderr).toMatch(/not found: NB-14/);
    expect((await u.run(["products", "--sort", "precio"])).code).toBe(2);
  }, 30_000);
});

describe("against a scripted service: what the real one may answer", () => {
  const servers: { close(): void }[] = [];
  afterAll(() => {
    for (const server of servers) server.close();
  });

  async function scripted(handle: (method: string, body: any, req: IncomingMessage, res: ServerResponse) => void) {
    const server = await serveLoopback((req, res, text) => {
      handle((req.url ?? "").replace(/^\/app\/api\/v2\//, ""), JSON.parse(text || "{}"), req, res);
    });
    servers.push(server);
    const { cwd, env } = freshUser("facturar-account-scripted-");
    const all = {
      ...env,
      FACTURAR_BASE_URL: server.baseUrl,
      FACTURAR_PUNTO_VENTA: "679",
      FACTURAR_USERTOKEN: "user-token",
      FACTURAR_APIKEY: "4242",
      FACTURAR_APITOKEN: "api-token",
      FACTURAR_RETRY_BACKOFF: "0.01",
      FACTURAR_SETTLE_WINDOW: "0.2",
    };
    return {
      cwd,
      run: (args: string[]) => runCli(args, { cwd, env: all }),
      write(name: string, raw: unknown): string {
        writeFileSync(join(cwd, name), JSON.stringify(raw));
        return name;
      },
    };
  }
  const json = (res: ServerResponse, body: unknown) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };
  const NOT_FOUND = { error: "S", errores: ["No se han encontrado comprobantes."] };

  it("journal --reconcile finds a purchase whose outcome was unknown among purchases (operacion C)", async () => {
    let stored = false;
    let asking = false;
    const asked: string[] = [];
    const u = await scripted((method, body, req, res) => {
      if (method === "facturacion/consulta_avanzada") {
        if (stored && !asking) return req.socket.destroy();
        asked.push(body.comprobante?.operacion);
        if (!stored || body.comprobante?.operacion !== "C") return json(res, NOT_FOUND);
        return json(res, {
          error: "N",
          errores: [],
          total: 1,
          comprobantes: [
            {
              proveedor: { documento_nro: "30711111111 ", razon_social: "Papelera Norte SRL" },
              comprobante: {
                tipo: "FACTURA A",
                operacion: "C",
                punto_venta: 15,
                numero: 24,
                status: "EMITIDO",
                external_reference: "COMPRA-UNKNOWN",
              },
            },
          ],
        });
      }
      // Stored, and the answer lost.
      stored = true;
      req.socket.destroy();
    });
    const lost = await u.run(["--json", "issue", "--no-pdf", u.write("compra.json", purchase("COMPRA-UNKNOWN"))]);
    expect(lost.code, lost.stderr).toBe(8);
    asking = true;
    const settled = await u.run(["--json", "journal", "--reconcile"]);
    expect(settled.code, settled.stderr).toBe(0);
    expect(ndjson(settled.stdout).find((e) => e.external_reference === "COMPRA-UNKNOWN")).toMatchObject({
      status: "issued",
      numero: 24,
    });
    // Sales first (the journal keeps no operacion), then purchases.
    expect(asked.slice(-2)).toEqual(["V", "C"]);
  }, 30_000);

  it("resend and queue delete whose answers are lost are sent once: exit 8, told they may have been done", async () => {
    const calls: string[] = [];
    const u = await scripted((method, _body, req) => {
      calls.push(method);
      req.socket.destroy();
    });
    const resent = await u.run(["resend", "--type", "FACTURA B", "--number", "00679-00000007"]);
    expect(resent.code, resent.stderr).toBe(8);
    expect(resent.stderr).toMatch(
      /the answer to reenviar was lost \(.*\): FACTURA B 00679-00000007 may have been e-mailed/,
    );
    expect(resent.stderr).toMatch(/ask the client before sending it again/);
    const deleted = await u.run(["queue", "delete", "--ref", "COLA-7"]);
    expect(deleted.code, deleted.stderr).toBe(8);
    expect(deleted.stderr).toMatch(/delete COLA-7: .*; the service may or may not have done it/);
    expect(deleted.stderr).toMatch(/check with: facturar query --ref COLA-7/);
    // Neither is retried: an e-mail and a queue change are not asked for twice.
    expect(calls.filter((m) => m === "facturacion/reenviar")).toHaveLength(1);
    expect(calls.filter((m) => m === "facturacion/eliminar_encolado")).toHaveLength(1);
  }, 30_000);

  it("pay whose answer is lost is not sent again: exit 8, and where to look", async () => {
    const payments: unknown[] = [];
    const u = await scripted((method, body, req, res) => {
      if (method === "facturacion/pagar") {
        payments.push(body.comprobante);
        return req.socket.destroy();
      }
      json(res, NOT_FOUND);
    });
    const r = await u.run(["pay", "--type", "FACTURA B", "--number", "00679-00000007", "--amount", "100"]);
    expect(r.code).toBe(8);
    expect(r.stderr).toMatch(/the payment may be recorded/);
    expect(r.stderr).toMatch(/customer-ledger/);
    expect(payments).toEqual([
      {
        tipo: "FACTURA B",
        operacion: "V",
        punto_venta: 679,
        numero: 7,
        pagos: { formas_pago: [{ descripcion: "Efectivo", importe: 100 }], total: 100 },
      },
    ]);
  }, 30_000);

  it("pay and queue retry answered with a page that is no JSON (a proxy's) are lost answers, sent once: exit 8", async () => {
    const calls: string[] = [];
    const u = await scripted((method, _body, _req, res) => {
      calls.push(method);
      if (method !== "facturacion/pagar" && method !== "facturacion/reenviar_encolado") return json(res, NOT_FOUND);
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html><body>502 Bad Gateway</body></html>");
    });
    const paid = await u.run(["pay", "--type", "FACTURA B", "--number", "00679-00000007", "--amount", "100"]);
    expect(paid.code, paid.stderr).toBe(8);
    expect(paid.stderr).toMatch(/the payment may be recorded/);
    const requeued = await u.run(["queue", "retry", "--ref", "COLA-8"]);
    expect(requeued.code, requeued.stderr).toBe(8);
    expect(requeued.stderr).toMatch(/check with: facturar query --ref COLA-8/);
    expect(calls.filter((m) => m === "facturacion/pagar")).toHaveLength(1);
    expect(calls.filter((m) => m === "facturacion/reenviar_encolado")).toHaveLength(1);
  }, 30_000);

  it("afip-info's data with error S (no VAT registration) is a record; consumo's documented counts are read, its other fields not", async () => {
    const u = await scripted((method, _body, _req, res) => {
      if (method === "clientes/afip-info")
        return json(res, {
          error: "S",
          razon_social: "PEREZ ANA ",
          condicion_impositiva: "",
          direccion: "MITRE 10",
          localidad: "SALTA",
          codigopostal: "4400",
          estado: "ACTIVO",
          provincia: "SALTA",
          actividad: [],
          errores: ["No inscripto en IVA ni Monotributo"],
        });
      if (method === "estado_servicios/alertas")
        return json(res, { error: "N", errores: [""], facturacion: "OK", prox_mantenimientos_programados: [] });
      if (method === "micuenta/consumo")
        return json(res, {
          error: "N",
          errores: [],
          abonos_pendientes: 21,
          comprobantes_generados: "12",
          comprobantes_cupo: 100,
          comprobantes_disponibles: 79,
          // Not in the documented answer: never read as the plan's end.
          plan_vencimiento: "01/01/2020",
        });
      json(res, { error: "S", errores: [`El metodo ${method} no existe.`] });
    });
    const r = await u.run(["--json", "cuit", "27334445556"]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      razon_social: "PEREZ ANA",
      condicion_impositiva: "",
      condicion_iva: null,
      errors: ["No inscripto en IVA ni Monotributo"],
    });
    const status = await u.run(["status"]);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(
      /^ {2}vouchers: 12 issued of the 100 in the subscription, 21 scheduled as recurring, 79 left$/m,
    );
    expect(status.stdout).not.toMatch(/plan|2020/);
    expect(JSON.parse((await u.run(["--json", "status"])).stdout).usage).toEqual({
      abonos_pendientes: 21,
      comprobantes_generados: 12,
      comprobantes_cupo: 100,
      comprobantes_disponibles: 79,
    });
  }, 30_000);
  it("table reads whatever list of records the service sends (the real shape is undocumented, reference §14.4)", async () => {
    const shapes: Record<string, unknown> = {
      // The answer is the list itself, its fields named otherwise, codes as numbers.
      provincias: [
        { codigo: 1, nombre: "CIUDAD AUTONOMA DE BUENOS AIRES" },
        { codigo: 2, nombre: "BUENOS AIRES" },
      ],
      // Under `datos`, `code` and `detalle`.
      monedas: {
        error: "N",
        errores: [""],
        datos: [
          { code: "PES", detalle: "Pesos" },
          { code: "DOL", detalle: "Dolar" },
        ],
      },
      // Nested, records as pairs.
      idiomas: {
        error: "N",
        rta: "OK",
        resultado: {
          tabla: [
            ["1", "Español"],
            ["2", "Inglés"],
          ],
        },
      },
      // Plain codes.
      documentos_tipos: { error: "N", errores: [], items: ["DNI", "CUIT", "PASAPORTE"] },
      // No list at all.
      condiciones_iva: { error: "N", errores: [""], rta: "OK" },
    };
    const u = await scripted((method, _body, _req, res) => {
      const name = method.replace("tablas_referencia/", "");
      json(res, shapes[name] ?? { error: "S", errores: [`El metodo ${method} no existe.`] });
    });
    const provinces = await u.run(["table", "provincias"]);
    expect(provinces.code, provinces.stderr).toBe(0);
    expect(provinces.stdout).toBe("1   CIUDAD AUTONOMA DE BUENOS AIRES\n2   BUENOS AIRES\n");
    const currencies = await u.run(["table", "monedas"]);
    expect(currencies.stdout).toBe("PES  Pesos\nDOL  Dolar\n");
    expect((await u.run(["table", "idiomas"])).stdout).toBe("1   Español\n2   Inglés\n");
    expect((await u.run(["table", "documentos_tipos"])).stdout).toBe("DNI\nCUIT\nPASAPORTE\n");
    // --json: the records as the service sent them, beside the codes read from them.
    const asJson = JSON.parse((await u.run(["--json", "table", "monedas"])).stdout);
    expect(asJson).toEqual({
      ok: true,
      table: "monedas",
      source: "service",
      items: [
        { id: "PES", descripcion: "Pesos" },
        { id: "DOL", descripcion: "Dolar" },
      ],
      records: [
        { code: "PES", detalle: "Pesos" },
        { code: "DOL", detalle: "Dolar" },
      ],
    });
    // No list of records: said so, naming what the answer holds, never an empty table.
    const none = await u.run(["table", "condiciones_iva"]);
    expect(none.code).toBe(6);
    expect(none.stdout).toBe("");
    expect(none.stderr).toMatch(
      /tablas_referencia\/condiciones_iva .*holds no list of records \(its fields: error, errores, rta\)/,
    );
    expect(none.stderr).toMatch(/--verbose/);
  }, 30_000);
  it("the export tables: from the service where it answers them, else the reference's entries, labelled so", async () => {
    const asked: string[] = [];
    let refuse = false;
    const u = await scripted((method, _body, _req, res) => {
      asked.push(method);
      // The shape of the vendor's incoterms page.
      if (method === "tablas_referencia/incoterms")
        return json(res, {
          error: "N",
          errores: [""],
          items: [
            { id: "EXW", descripcion: "EXW - Vigente del 20100101 a hoy" },
            { id: "FOB", descripcion: "FOB - Vigente del 20100101 a hoy" },
          ],
        });
      if (method === "tablas_referencia/cuit_pais") return json(res, { error: "N", errores: [""], items: [] });
      // The service's own refusal (quota spent, maintenance, credentials): told as every command tells it.
      if (method === "tablas_referencia/paises" && refuse)
        return json(res, { error: "S", errores: ["Ha superado el cupo de requests de su plan."] });
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: "S", errores: [`El recurso /app/api/v2/${method} no existe.`] }));
    });
    const incoterms = await u.run(["table", "incoterms"]);
    expect(incoterms.code, incoterms.stderr).toBe(0);
    expect(incoterms.stdout).toBe("EXW  EXW - Vigente del 20100101 a hoy\nFOB  FOB - Vigente del 20100101 a hoy\n");
    expect(incoterms.stderr).not.toMatch(/reference/);
    // Not answered: the entries the reference documents, told as such.
    const countries = await u.run(["table", "paises"]);
    expect(countries.code, countries.stderr).toBe(0);
    expect(countries.stdout).toBe("250  AAE Tierra del Fuego - ARGENTINA\n301  AFGANISTAN\n");
    expect(countries.stderr).toMatch(/from the reference, not the service/);
    expect(countries.stderr).toMatch(/HTTP 404/);
    const json404 = JSON.parse((await u.run(["--json", "table", "paises"])).stdout);
    expect(json404).toMatchObject({
      ok: true,
      table: "paises",
      source: "reference",
      items: [
        { id: "250", descripcion: "AAE Tierra del Fuego - ARGENTINA" },
        { id: "301", descripcion: "AFGANISTAN" },
      ],
      service_error: expect.stringMatching(/HTTP 404/),
    });
    // An empty list is no answer either.
    const cuits = await u.run(["table", "cuit-pais"]);
    expect(cuits.code, cuits.stderr).toBe(0);
    expect(cuits.stdout).toBe(
      "51600003015  AFGANISTAN - Otro tipo de Entidad\n50000003015  AFGANISTAN - Persona Fisica\n",
    );
    expect(cuits.stderr).toMatch(/from the reference, not the service.*\n?.*empty/);
    expect(asked).toContain("tablas_referencia/cuit_pais");
    refuse = true;
    const refused = await u.run(["table", "paises"]);
    expect(refused.code, refused.stdout).toBe(4);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toMatch(/Ha superado el cupo/);
    expect(refused.stderr).not.toMatch(/from the reference/);
  }, 30_000);
  it("status: no voucher left in the subscription is exit 6, said with consumo's own figures", async () => {
    const u = await scripted((method, _body, _req, res) => {
      if (method === "estado_servicios/alertas")
        return json(res, { error: "N", errores: [""], facturacion: "OK", prox_mantenimientos_programados: [] });
      json(res, {
        error: "N",
        errores: [],
        abonos_pendientes: 0,
        comprobantes_generados: 100,
        comprobantes_cupo: 100,
        comprobantes_disponibles: 0,
      });
    });
    const r = await u.run(["-q", "status"]);
    expect(r.code).toBe(6);
    expect(r.stdout).toBe("✖ invoicing: no voucher left in the subscription (100 of 100 issued)\n");
  }, 30_000);

  it("query --ref shows why a voucher failed in the queue when the service says (afip_observaciones)", async () => {
    const u = await scripted((_method, _body, _req, res) =>
      json(res, {
        error: "N",
        errores: [],
        comprobantes: [
          {
            cliente: { razon_social: "Juana" },
            comprobante: {
              tipo: "FACTURA B",
              external_reference: "QX-1",
              status: "ENVIADO A PROCESAR - CON ERROR",
              punto_venta: 679,
              numero: 0,
              fecha: "27/11/2026",
              total: "121.00",
              afip_observaciones: "Cod. Error: #6661145.10016 - Campo CbteFch fuera de rango",
            },
          },
        ],
      }),
    );
    const r = await u.run(["query", "--ref", "QX-1"]);
    expect(r.stdout + r.stderr).toMatch(/Campo CbteFch fuera de rango/);
  }, 30_000);
});

describe("status when consumo's own quota is spent", () => {
  it("tells the usage unread, with the service's words, and invoicing OK: exit 0, and the batch still issues", async () => {
    const s = await startSandboxProcess({ args: ["--quota", "2"] });
    try {
      const u = user();
      const env = sandboxEnv(s, u.env);
      for (let i = 0; i < 2; i++) expect((await u.run(["status"], env)).code).toBe(0);
      const spent = await u.run(["status"], env);
      expect(spent.code, spent.stdout + spent.stderr).toBe(0);
      expect(spent.stdout).toMatch(/✔ invoicing: OK/);
      expect(spent.stderr).toMatch(/quota use not read: .*micuenta\/consumo/);
      expect((await u.run(["issue", "--no-pdf", join(ROOT, "samples", "factura-b-dni.json")], env)).code).toBe(0);
    } finally {
      await s.stop();
    }
  }, 60_000);
});
