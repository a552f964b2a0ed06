/** pdf, next-number, requires-fce, queue, qr, schema and template as users run them. */
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { voucherJsonSchema } from "../../src/voucher/json-schema.js";
import { freshUser, ndjson, ROOT, runCli, TODAY } from "../helpers.js";

function user() {
  const { cwd, env } = freshUser("facturar-methods-");
  return { cwd, env, run: (args: string[]) => runCli(args, { cwd, env }) };
}

// Each test its own user: any one runs alone, in any order (a queued voucher would hold instant
// issuing on its point of sale).
describe("the other service methods", () => {
  it("pdf saves fresh documents; next-number tells the next one; requires-fce answers", async () => {
    const u = user();
    expect((await u.run(["issue", "--no-pdf", join(ROOT, "samples", "factura-b-dni.json")])).code).toBe(0);
    const pdf = JSON.parse(
      (await u.run(["--json", "pdf", "--type", "FACTURA B", "--number", "1", "--out", "docs"])).stdout,
    );
    expect(pdf).toMatchObject({ ok: true, pdf: join(u.cwd, "docs", "FACTURA_B-00679-00000001.pdf") });
    expect(existsSync(pdf.ticket)).toBe(true);
    expect(JSON.parse((await u.run(["--json", "next-number", "--type", "FACTURA B"])).stdout)).toMatchObject({
      punto_venta: 679,
      numero: 2,
      next: 2,
      last: 1,
    });
    expect(JSON.parse((await u.run(["--json", "requires-fce", "--cuit", "30-50001091-2"])).stdout)).toMatchObject({
      esta_obligado: true,
      importe_desde: 5549862,
    });
    expect((await u.run(["requires-fce", "--cuit", "20111111113"])).code).toBe(2);
    expect((await u.run(["pdf", "--type", "FACTURA B", "--number", "9"])).code).toBe(4);
  });

  it("qr decodes the payload and checks it against the voucher", async () => {
    const u = user();
    expect((await u.run(["issue", "--no-pdf", join(ROOT, "samples", "factura-b-dni.json")])).code).toBe(0);
    const r = await u.run(["--json", "qr", "--ref", "FB-2026-0001"]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.qr).toMatchObject({ ver: 1, tipoCmp: 6, ptoVta: 679, nroCmp: 1, importe: 133463 });
    // Every field checked, and each one agrees; the development service leaves the CAE empty
    // (reference §2): not compared, not a mismatch.
    expect(
      out.checks.map((c: { field: string; ok: boolean; compared: boolean }) => [c.field, c.ok, c.compared]),
    ).toEqual(
      ["tipoCmp", "ptoVta", "nroCmp", "fecha", "importe", "moneda", "codAut", "nroDocRec"].map((f) => [
        f,
        true,
        f !== "codAut",
      ]),
    );
    // The QR of another voucher does not match this one.
    const wrong = `https://www.afip.gob.ar/fe/qr/?p=${Buffer.from(JSON.stringify({ ...out.qr, importe: 1 })).toString("base64")}`;
    const mismatch = await u.run(["--json", "qr", wrong, "--ref", "FB-2026-0001"]);
    expect(mismatch.code).toBe(3);
    expect(JSON.parse(mismatch.stdout).checks.find((c: { field: string }) => c.field === "importe")).toMatchObject({
      ok: false,
    });
    expect((await u.run(["qr", "not a qr"])).code).toBe(3);
    // For people: each field labelled, its codes named, the QR's own key after it.
    const human = await u.run(["qr", "--ref", "FB-2026-0001"]);
    expect(human.stdout).toMatch(/^voucher type +6 \(FACTURA B\) +tipoCmp$/m);
    expect(human.stdout).toMatch(/^receiver's document type +96 \(DNI\) +tipoDocRec$/m);
    expect(human.stdout).toMatch(/^receiver's document +30123456 +nroDocRec$/m);
    expect(human.stdout).toMatch(/^authorisation code +0 +codAut$/m);
    expect(human.stdout).not.toMatch(/^tipoCmp /m);
  });

  it("exchange-rate prints the authority's rate of a currency, and the band a voucher's cotizacion must keep", async () => {
    const u = user();
    const dollar = await u.run(["exchange-rate"]);
    expect(dollar.code, dollar.stderr).toBe(0);
    expect(dollar.stdout.trim()).toBe("DOL (Dólar estadounidense): 1,000.00 pesos, the authority's rate now");
    expect(dollar.stderr).toMatch(/a voucher in DOL takes a cotizacion from 20\.00 to 4,000\.00/);
    const day = TODAY;
    const euro = await u.run(["--json", "exchange-rate", "--currency", "060", "--date", day]);
    expect(JSON.parse(euro.stdout)).toEqual({
      ok: true,
      moneda: "060",
      fecha: day,
      cotizacion: "1100.00",
      band: { min: "22.00", max: "4400.00" },
    });
    // The sandbox's rates can be set for tests and examples.
    const set = await runCli(["exchange-rate", "--currency", "dol"], {
      cwd: u.cwd,
      env: { ...u.env, FACTURAR_SANDBOX_RATES: "DOL=1234.5" },
    });
    expect(set.stdout).toMatch(/^DOL \(Dólar estadounidense\): 1,234\.50 pesos/);
    // The service refuses a day more than 2 months back, or a currency it has no rate of (exit 4).
    const old = await u.run(["exchange-rate", "--date", "01/01/2020"]);
    expect(old.code).toBe(4);
    expect(old.stderr).toMatch(/no exchange rate for DOL: .*2 meses/);
    expect((await u.run(["exchange-rate", "--currency", "XYZ"])).code).toBe(4);
    for (const bad of [
      ["--currency", "dollars"],
      ["--date", "2026-11-20"],
    ])
      expect((await u.run(["exchange-rate", ...bad])).code).toBe(2);
  });

  it("queue reschedules, deletes and re-queues by reference", async () => {
    const u = user();
    const raw = JSON.parse(readFileSync(join(ROOT, "samples", "factura-m.json"), "utf8"));
    raw.comprobante.fecha = "01/01/2099";
    raw.comprobante.vencimiento = "31/12/2099";
    writeFileSync(join(u.cwd, "future.json"), JSON.stringify(raw));
    expect((await u.run(["issue-queued", "future.json"])).code).toBe(0);
    expect((await u.run(["--json", "queue", "reschedule", "--ref", "FM-2026-0001", "--date", "02/01/2099"])).code).toBe(
      0,
    );
    const [queued] = ndjson((await u.run(["--json", "query", "--ref", "FM-2026-0001"])).stdout);
    // Without --due the voucher keeps its own due date, still after the new date.
    expect(queued.comprobante).toMatchObject({
      fecha: "02/01/2099",
      vencimiento_pago: "31/12/2099",
      status: "APROBADO Y EN COLA. SE EMITE EL 02/01/2099",
    });
    // A new date past the due date takes the due date along: the authority refuses one before it.
    expect((await u.run(["queue", "reschedule", "--ref", "FM-2026-0001", "--date", "05/01/2100"])).code).toBe(0);
    const [later] = ndjson((await u.run(["--json", "query", "--ref", "FM-2026-0001"])).stdout);
    expect(later.comprobante).toMatchObject({ fecha: "05/01/2100", vencimiento_pago: "05/01/2100" });
    const backwards = await u.run([
      "queue",
      "reschedule",
      "--ref",
      "FM-2026-0001",
      "--date",
      "06/01/2100",
      "--due",
      "01/01/2100",
    ]);
    expect([backwards.code, backwards.stderr]).toEqual([
      2,
      expect.stringContaining("--due 01/01/2100 is before --date 06/01/2100"),
    ]);
    expect(
      (await u.run(["queue", "reschedule", "--ref", "FM-2026-0001", "--date", "06/01/2100", "--due", "20/01/2100"]))
        .code,
    ).toBe(0);
    const [due] = ndjson((await u.run(["--json", "query", "--ref", "FM-2026-0001"])).stdout);
    expect(due.comprobante).toMatchObject({ fecha: "06/01/2100", vencimiento_pago: "20/01/2100" });
    expect((await u.run(["queue", "retry", "--ref", "FM-2026-0001"])).code).toBe(4); // nothing failed
    const deleted = JSON.parse((await u.run(["--json", "queue", "delete", "--ref", "FM-2026-0001"])).stdout);
    expect(deleted).toMatchObject({ ok: true, procesados: [expect.stringMatching(/se ha eliminado correctamente/)] });
    expect((await u.run(["queue", "explode", "--ref", "X"])).code).toBe(2);
  });
});

describe("what support staff type", () => {
  const u = user();
  const saved = (name: string) => join(u.cwd, "comprobantes", name);

  it("pdf --ref, numbers as printed (00679-00000001), whole paths when piped, query's local PDF", async () => {
    const issued = await u.run(["issue", join(ROOT, "samples", "factura-b-dni.json")]);
    expect(issued.code).toBe(0);
    // stdout is a pipe here: paths whole, for the script reading them.
    expect(issued.stdout).toContain(`PDF: ${saved("FACTURA_B-00679-00000001.pdf")}`);
    expect(issued.stdout).toContain(`ticket: ${saved("FACTURA_B-00679-00000001-ticket.pdf")}`);

    // The PDF is where the tool saved it: query --json says so, by reference or by printed number.
    const [byRef] = ndjson((await u.run(["--json", "query", "--ref", "FB-2026-0001"])).stdout);
    expect(byRef).toMatchObject({ comprobante_nro: "00679-00000001", pdf: saved("FACTURA_B-00679-00000001.pdf") });
    const [printed] = ndjson(
      (await u.run(["--json", "query", "--type", "FACTURA B", "--number", "00679-00000001"])).stdout,
    );
    expect(printed).toMatchObject({ external_reference: "FB-2026-0001", pdf: byRef.pdf });
    // Looking in another folder, the journal still knows where it went.
    const [fromJournal] = ndjson((await u.run(["--json", "query", "--ref", "FB-2026-0001", "--out", "otra"])).stdout);
    expect(fromJournal.pdf).toBe(byRef.pdf);
    const range = ndjson(
      (await u.run(["--json", "query", "--type", "FACTURA B", "--from", "00679-00000001", "--to", "1"])).stdout,
    );
    expect(range).toHaveLength(1);
    // Not there: null.
    rmSync(join(u.cwd, "comprobantes"), { recursive: true });
    const [gone] = ndjson((await u.run(["--json", "query", "--ref", "FB-2026-0001"])).stdout);
    expect(gone.pdf).toBeNull();

    const byRefPdf = JSON.parse((await u.run(["--json", "pdf", "--ref", "FB-2026-0001", "--out", "docs"])).stdout);
    expect(byRefPdf).toMatchObject({ ok: true, pdf: join(u.cwd, "docs", "FACTURA_B-00679-00000001.pdf") });
    expect(readFileSync(byRefPdf.pdf).subarray(0, 5).toString()).toBe("%PDF-");
    const human = await u.run(["pdf", "--type", "factura b", "--number", "00679-00000001"]);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain(`PDF: ${saved("FACTURA_B-00679-00000001.pdf")}`);

    const missing = await u.run(["pdf", "--ref", "NO-SUCH-REF"]);
    expect(missing.code).toBe(9);
    expect(missing.stderr).toMatch(/no voucher with reference NO-SUCH-REF/);
    const both = await u.run(["pdf", "--ref", "FB-2026-0001", "--number", "1"]);
    expect(both.code).toBe(2);
    const twoPoints = await u.run(["pdf", "--type", "FACTURA B", "--number", "00679-00000001", "--pv", "3"]);
    expect(twoPoints.code).toBe(2);
    expect(twoPoints.stderr).toMatch(/two points of sale given: 3 and 679/);
    expect((await u.run(["query", "--type", "FACTURA B", "--number", "00679-0000000x"])).code).toBe(2);
  });
});

describe("schema and template", () => {
  const u = user();

  it("schema prints the JSON Schema; template gives a valid voucher and CSV", async () => {
    expect(JSON.parse((await u.run(["schema"])).stdout)).toEqual(voucherJsonSchema());
    const json = await u.run(["template", "FACTURA A"]);
    writeFileSync(join(u.cwd, "a.json"), json.stdout);
    expect((await u.run(["validate", "-q", "a.json"])).code).toBe(0);
    const csv = await u.run(["template", "NOTA DE CREDITO B", "--csv"]);
    expect(csv.stdout.split("\n")[0]).toMatch(/^comprobante\.external_reference,/);
    writeFileSync(join(u.cwd, "nc.csv"), csv.stdout);
    expect((await u.run(["validate", "-q", "nc.csv"])).code).toBe(0);
    expect((await u.run(["template", "FACTURA Z"])).code).toBe(2);
  });
});
