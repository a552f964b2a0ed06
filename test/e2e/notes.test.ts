/**
 * `facturar credit-note` and `debit-note` against the embedded sandbox: the note of each class
 * from an issued voucher, its association read back from the service, issued once; partial by
 * amount and by items; the mistakes a user makes. And observations, where results are told.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { decodeQr } from "../../src/voucher/qr.js";
import { freshUser, journalStates, journalText, ndjson, ROOT, runCli, startCli, TODAY } from "../helpers.js";
import { type RunningSandbox, sandboxEnv, startSandboxProcess } from "../sandbox-process.js";

function user() {
  const { cwd, env } = freshUser("facturar-notes-");
  return {
    cwd,
    env,
    run: (args: string[], extra: Record<string, string> = {}) => runCli(args, { cwd, env: { ...env, ...extra } }),
  };
}
type User = ReturnType<typeof user>;

/** A sample dated today under `reference`, written to the user's folder: its path. */
function sampleAs(u: User, sample: string, reference: string): string {
  const raw = JSON.parse(readFileSync(join(ROOT, "samples", `${sample}.json`), "utf8"));
  Object.assign(raw.comprobante, { fecha: TODAY, vencimiento: TODAY, external_reference: reference });
  const path = join(u.cwd, `${reference}.json`);
  writeFileSync(path, JSON.stringify(raw));
  return path;
}

/** What the service holds under a reference, as `query --json` gives it. */
async function held(u: User, reference: string): Promise<any[]> {
  const query = await u.run(["--json", "query", "--ref", reference]);
  return ndjson(query.stdout);
}

async function issueSample(u: User, sample: string, reference: string): Promise<any> {
  const issued = await u.run(["issue", "--no-pdf", sampleAs(u, sample, reference)]);
  expect(issued.code, issued.stderr).toBe(0);
  const [invoice] = await held(u, reference);
  expect(invoice).toMatchObject({ status: "issued" });
  return invoice;
}

/** The note's association, read back from the service, names the invoice as the service holds it. */
function expectAssociated(note: any, invoice: any): void {
  expect(note.comprobante.comprobantes_asociados).toEqual([
    {
      tipo_comprobante: invoice.comprobante.tipo,
      punto_venta: invoice.comprobante.punto_venta,
      numero: invoice.comprobante.numero,
      comprobante_fecha: invoice.comprobante.fecha,
      cuit: String(decodeQr(invoice.comprobante.afip_qr)?.cuit),
    },
  ]);
  expect(note.cliente).toMatchObject({
    documento_tipo: invoice.cliente.documento_tipo,
    documento_nro: invoice.cliente.documento_nro,
    razon_social: invoice.cliente.razon_social,
  });
}

describe("facturar credit-note and debit-note", () => {
  it("a whole credit note of FACTURA A, B, M and FCE A, each associated with its invoice at the service", async () => {
    const u = user();
    const cases = [
      ["factura-a-mixed-rates", "VA-1", "NOTA DE CREDITO A"],
      ["factura-b-dni", "VB-1", "NOTA DE CREDITO B"],
      ["factura-m", "VM-1", "NOTA DE CREDITO M"],
      ["fce-a", "VF-1", "NOTA DE CREDITO ELECTRONICA MiPyME (FCE) A"],
    ] as const;
    for (const [sample, reference, noteType] of cases) {
      const invoice = await issueSample(u, sample, reference);
      const run = await u.run(["--json", "credit-note", "--ref", reference, "--no-pdf"]);
      expect(run.code, run.stderr).toBe(0);
      expect(ndjson(run.stdout)).toEqual([
        expect.objectContaining({
          status: "issued",
          external_reference: `${reference}-NC1`,
          comprobante_tipo: noteType,
          observations: [],
        }),
      ]);
      const [note] = await held(u, `${reference}-NC1`);
      expect(note).toMatchObject({
        status: "issued",
        comprobante: { tipo: noteType, total: invoice.comprobante.total },
      });
      expectAssociated(note, invoice);
    }
  }, 120_000);

  it("issues a note once: a second run sends nothing, --new makes the next one, then that one is kept", async () => {
    const u = user();
    await issueSample(u, "factura-b-dni", "VENTA-7");
    // Partial: a whole one would leave nothing for the next note to credit.
    const first = await u.run(["credit-note", "--ref", "VENTA-7", "--amount", "1210", "--no-pdf"]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/✔ NOTA DE CREDITO B 00679-00000001 .*ref VENTA-7-NC1 .*issued/);

    const again = await u.run(["--json", "credit-note", "--ref", "VENTA-7", "--amount", "1210", "--no-pdf"]);
    expect(again.code, again.stderr).toBe(0);
    const [result] = ndjson(again.stdout);
    expect(result).toMatchObject({ status: "skipped-duplicate", external_reference: "VENTA-7-NC1", numero: 1 });
    expect(result.hint).toMatch(/--new issues another/);
    // The whole voucher this time: not the note issued before, so nothing is sent, and it says why.
    const whole = await u.run(["--json", "credit-note", "--ref", "VENTA-7", "--no-pdf"]);
    expect(whole.code, whole.stderr).toBe(3);
    expect(ndjson(whole.stdout)[0]).toMatchObject({ status: "conflict", external_reference: "VENTA-7-NC1" });
    expect(ndjson(whole.stdout)[0].hint).toMatch(
      /for another amount or items: nothing sent; --new issues another note/,
    );
    expect(journalStates(u.env.XDG_STATE_HOME).get("VENTA-7-NC1")).toBe("issued");
    const notes = async () =>
      ndjson((await u.run(["--json", "query", "--type", "NOTA DE CREDITO B", "--from", "1", "--to", "9"])).stdout);
    expect(await notes()).toHaveLength(1);

    const another = await u.run(["credit-note", "--ref", "VENTA-7", "--new", "--amount", "121", "--no-pdf"]);
    expect(another.code, another.stderr).toBe(0);
    expect(another.stdout).toMatch(/✔ NOTA DE CREDITO B 00679-00000002 .*ref VENTA-7-NC2 .*issued/);
    // Without --new, the latest note is the one kept: nothing more is sent.
    const third = await u.run(["credit-note", "--ref", "VENTA-7", "--amount", "121", "--no-pdf"]);
    expect(third.code, third.stderr).toBe(0);
    expect(third.stdout).toMatch(/VENTA-7-NC2 .*already issued, not sent again/);
    expect((await notes()).map((n) => n.external_reference)).toEqual(["VENTA-7-NC2", "VENTA-7-NC1"]);
  }, 90_000);

  it("partial notes: --amount over the voucher's VAT rates, --items whole, with their totals", async () => {
    const u = user();
    const invoice = await issueSample(u, "factura-b-dni", "VENTA-P");
    // 1210.00 with VAT at 21 %: one line of 1000.00 net.
    const byAmount = await u.run(["--json", "credit-note", "--ref", "VENTA-P", "--amount", "1210", "--no-pdf"]);
    expect(byAmount.code, byAmount.stderr).toBe(0);
    const [amountNote] = await held(u, "VENTA-P-NC1");
    expect(amountNote.comprobante).toMatchObject({ tipo: "NOTA DE CREDITO B", total: 1210 });
    expect(amountNote.comprobante.detalle).toEqual([
      expect.objectContaining({
        cantidad: 1,
        producto: expect.objectContaining({ precio_unitario: 1000, alicuota: 21 }),
      }),
    ]);
    expectAssociated(amountNote, invoice);

    // Item 2 of the sample: 2 × 8500.00 less 10 % = 15300.00 net, plus 21 % VAT.
    const raw = JSON.parse(readFileSync(join(ROOT, "samples", "factura-b-dni.json"), "utf8"));
    const item = raw.comprobante.detalle[1];
    const net = item.cantidad * item.producto.precio_unitario_sin_iva * (1 - item.bonificacion_porcentaje / 100);
    const expected = Math.round(net * (1 + item.producto.alicuota / 100) * 100) / 100;
    expect(expected).toBe(18513);
    const byItems = await u.run(["credit-note", "--ref", "VENTA-P", "--new", "--items", "2", "--no-pdf"]);
    expect(byItems.code, byItems.stderr).toBe(0);
    const [itemsNote] = await held(u, "VENTA-P-NC2");
    expect(itemsNote.comprobante.total).toBe(expected);
    expect(itemsNote.comprobante.detalle.map((d: any) => d.producto.descripcion)).toEqual([item.producto.descripcion]);
    expectAssociated(itemsNote, invoice);

    // Several rates: the amount split in their proportion, a line per rate, to the cent.
    const mixed = await issueSample(u, "factura-a-mixed-rates", "VENTA-X");
    const split = await u.run(["credit-note", "--ref", "VENTA-X", "--amount", "10000", "--no-pdf"]);
    expect(split.code, split.stderr).toBe(0);
    const [splitNote] = await held(u, "VENTA-X-NC1");
    expect(splitNote.comprobante.total).toBe(10000);
    expect(splitNote.comprobante.detalle.map((d: any) => d.producto.alicuota).sort()).toEqual(
      [-1, -2, 10.5, 21, 27].sort(),
    );
    expectAssociated(splitNote, mixed);
  }, 90_000);

  it("a debit note charges more on the voucher, associated with it", async () => {
    const u = user();
    const invoice = await issueSample(u, "factura-b-dni", "VENTA-D");
    const run = await u.run(["--json", "debit-note", "--ref", "VENTA-D", "--amount", "242", "--no-pdf"]);
    expect(run.code, run.stderr).toBe(0);
    expect(ndjson(run.stdout)[0]).toMatchObject({ status: "issued", external_reference: "VENTA-D-ND1" });
    const [note] = await held(u, "VENTA-D-ND1");
    expect(note.comprobante).toMatchObject({ tipo: "NOTA DE DEBITO B", total: 242 });
    expectAssociated(note, invoice);
  }, 60_000);

  it("mistakes end before anything is sent, each with its exit code", async () => {
    const u = user();
    await issueSample(u, "factura-b-dni", "VENTA-E");
    const unknown = await u.run(["credit-note", "--ref", "NO-EXISTE"]);
    expect(unknown.code).toBe(9);
    expect(unknown.stderr).toMatch(/the service holds no voucher with reference NO-EXISTE/);
    const outside = await u.run(["credit-note", "--ref", "VENTA-E", "--items", "9"]);
    expect(outside.code).toBe(3);
    expect(outside.stderr).toMatch(/FACTURA B 00679-00000001 has items 1 to 2, not 9/);
    const tooMuch = await u.run(["credit-note", "--ref", "VENTA-E", "--amount", "133463.01"]);
    expect(tooMuch.code).toBe(3);
    expect(tooMuch.stderr).toMatch(
      /a credit note of 133,463\.01 is more than FACTURA B 00679-00000001 was worth \(133,463\.00\), before what its earlier notes credited/,
    );
    // In Spanish, amounts as es-AR writes them.
    const enEspañol = await u.run(["--lang", "es", "credit-note", "--ref", "VENTA-E", "--amount", "133463.01"]);
    expect(enEspañol.stderr).toContain(
      "una nota de crédito de 133.463,01 supera lo que valía FACTURA B 00679-00000001 (133.463,00), antes de lo que acreditaron sus notas anteriores",
    );
    const both = await u.run(["credit-note", "--ref", "VENTA-E", "--amount", "10", "--items", "1"]);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--amount and --items exclude each other/);
    for (const items of ["0", "1,x", "1;2"]) {
      const counted = await u.run(["credit-note", "--ref", "VENTA-E", "--items", items]);
      expect(counted.code).toBe(2);
      expect(counted.stderr).toContain(
        `--items takes item numbers counted from 1, comma separated (1,3), not "${items}"`,
      );
    }
    const noRef = await u.run(["debit-note"]);
    expect(noRef.code).toBe(2);
    expect(await held(u, "VENTA-E-NC1")).toMatchObject([{ ok: false, error: { code: "service.not-found" } }]);

    // Queued, not issued yet: the authority is down, the service's queue waits.
    const down = { FACTURAR_SANDBOX_FAULTS: "authority-down" };
    const queued = await u.run(["issue-queued", "--no-pdf", sampleAs(u, "factura-b-dni", "VENTA-Q")], down);
    expect(queued.code, queued.stderr).toBe(0);
    const notIssued = await u.run(["credit-note", "--ref", "VENTA-Q"], down);
    expect(notIssued.code).toBe(3);
    expect(notIssued.stderr).toMatch(/VENTA-Q is not issued/);
  }, 90_000);
});

describe("observations", () => {
  it("the authority's observations in the human output, --json, the report and the journal", async () => {
    const u = user();
    const observe = { FACTURAR_SANDBOX_FAULTS: "observe=1" };
    const human = await u.run(
      ["issue", "--no-pdf", "--report", "r.csv", sampleAs(u, "factura-b-dni", "OBS-1")],
      observe,
    );
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(
      /✔ FACTURA B 00679-00000001 .*\n.*CAE.*\n\s+observed by the authority: 10217: El credito fiscal/,
    );
    const [header, row] = readFileSync(join(u.cwd, "r.csv"), "utf8").split("\n");
    expect(header?.split(",").at(-1)).toBe("observations");
    expect(header?.split(",").slice(0, 11).join(",")).toBe(
      "source,external_reference,status,comprobante_tipo,comprobante_nro,cae,pdf,ticket,errors,total,warnings",
    );
    expect(row).toMatch(/,10217: El credito fiscal[^,]*$/);
    const entry = journalText(u.env.XDG_STATE_HOME)
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line))
      .find((e) => e.ref === "OBS-1" && e.state === "issued");
    expect(entry.observations).toEqual([expect.stringMatching(/^10217: /)]);
    const journal = await u.run(["journal"]);
    expect(journal.stdout).toMatch(/issued\s+OBS-1 .*\n\s+observed by the authority: 10217: /);

    // A batch (lotes): each item's own observations, in --json.
    const files = [sampleAs(u, "factura-b-dni", "OBS-2"), sampleAs(u, "factura-b-dni", "OBS-3")];
    const batch = await u.run(["--json", "issue", "--no-pdf", ...files], observe);
    expect(batch.code, batch.stderr).toBe(0);
    const results = ndjson(batch.stdout);
    expect(results.map((r) => r.observations)).toEqual([
      [expect.stringMatching(/^10217: /)],
      [expect.stringMatching(/^10217: /)],
    ]);
    // What the service holds says it too; and a voucher approved without any has an empty list.
    expect((await held(u, "OBS-2"))[0].observations).toEqual([expect.stringMatching(/^10217: /)]);
    const plain = await u.run(["--json", "issue", "--no-pdf", sampleAs(u, "factura-b-dni", "OBS-4")]);
    expect(ndjson(plain.stdout)[0]).toMatchObject({ status: "issued", observations: [] });
    // Issued again from the journal: the observations kept are told again.
    const again = await u.run(["--json", "issue", "--no-pdf", join(u.cwd, "OBS-1.json")]);
    expect(ndjson(again.stdout)[0]).toMatchObject({
      status: "skipped-duplicate",
      observations: [expect.stringMatching(/^10217: /)],
    });
  }, 90_000);
});

describe("credit notes never credit more than the voucher charged", () => {
  it("--amount is capped at what the note carries: a voucher's perceptions are not part of it", async () => {
    const u = user();
    await issueSample(u, "perceptions", "VP-1");
    // 160000.00 net + 33600.00 VAT; the 8800.00 of perceptions the note does not adjust.
    const over = await u.run(["credit-note", "--ref", "VP-1", "--amount", "202400", "--no-pdf"]);
    expect(over.code).toBe(3);
    expect(over.stderr).toMatch(/202,400\.00 .*193,600\.00.*perceptions/);
    expect(await held(u, "VP-1-NC1")).toMatchObject([{ ok: false, error: { code: "service.not-found" } }]);
    const most = await u.run(["--json", "credit-note", "--ref", "VP-1", "--amount", "193600", "--no-pdf"]);
    expect(most.code, most.stderr).toBe(0);
    const [note] = await held(u, "VP-1-NC1");
    expect(note.comprobante).toMatchObject({ total: 193600, tributos: [] });
    expect(note.comprobante.detalle).toEqual([
      expect.objectContaining({ producto: expect.objectContaining({ precio_unitario: 160000, alicuota: 21 }) }),
    ]);
    // Nor a few notes at a time: the perceptions' 8800.00 is not left to credit as net and VAT.
    const rest = await u.run(["credit-note", "--ref", "VP-1", "--new", "--amount", "8800", "--no-pdf"]);
    expect(rest.code).toBe(3);
    expect(rest.stderr).toMatch(
      /193,600\.00 credited already .*by 1 credit note: .*8,800\.00 .*193,600\.00.*0\.00 left/,
    );
    const whole = await u.run(["credit-note", "--ref", "VP-1", "--new", "--no-pdf"]);
    expect(whole.code).toBe(3);
  }, 60_000);

  it("refuses a note that takes all the credit notes of a voucher above its total, its debit notes added", async () => {
    const u = user();
    await issueSample(u, "factura-b-dni", "VL-1");
    const first = await u.run(["credit-note", "--ref", "VL-1", "--amount", "100000", "--no-pdf"]);
    expect(first.code, first.stderr).toBe(0);
    const over = await u.run(["credit-note", "--ref", "VL-1", "--new", "--amount", "40000", "--no-pdf"]);
    expect(over.code).toBe(3);
    expect(over.stderr).toMatch(/100,000\.00 credited already .*40,000\.00 .*133,463\.00.*33,463\.00 left/);
    // In Spanish, as es-AR writes amounts, and one note is one (#25 item 7).
    const spanish = await u.run([
      "--lang",
      "es",
      "credit-note",
      "--ref",
      "VL-1",
      "--new",
      "--amount",
      "40000",
      "--no-pdf",
    ]);
    expect(spanish.stderr).toMatch(
      /ya tiene 100\.000,00 acreditados por 1 nota de crédito: .*quedan 33\.463,00 por acreditar/,
    );
    const whole = await u.run(["credit-note", "--ref", "VL-1", "--new", "--no-pdf"]);
    expect(whole.code).toBe(3);
    // A debit note raises what may be credited.
    const debit = await u.run(["debit-note", "--ref", "VL-1", "--amount", "6537", "--no-pdf"]);
    expect(debit.code, debit.stderr).toBe(0);
    const rest = await u.run(["credit-note", "--ref", "VL-1", "--new", "--amount", "40000", "--no-pdf"]);
    expect(rest.code, rest.stderr).toBe(0);
    const more = await u.run(["credit-note", "--ref", "VL-1", "--new", "--amount", "0.01", "--no-pdf"]);
    expect(more.code).toBe(3);
    expect(await held(u, "VL-1-NC3")).toMatchObject([{ ok: false, error: { code: "service.not-found" } }]);
    // Support asking about the sale by reference is told its notes too (#25 walk).
    const asked = await u.run(["query", "--ref", "VL-1"]);
    expect(asked.stdout).toMatch(
      /FACTURA B 00679-00000001: credit notes: VL-1-NC1 \(00679-00000001, 100,000\.00, issued\); VL-1-NC2 \(00679-00000002, 40,000\.00, issued\)/,
    );
    expect(asked.stdout).toMatch(
      /FACTURA B 00679-00000001: debit notes: VL-1-ND1 \(00679-00000001, 6,537\.00, issued\)/,
    );
  }, 90_000);
});

describe("what the note is told", () => {
  it("--vat-condition the voucher's class does not allow is refused, naming those it does", async () => {
    const u = user();
    await issueSample(u, "factura-m", "VC-1");
    const run = await u.run(["credit-note", "--ref", "VC-1", "--vat-condition", "CF", "--no-pdf"]);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/class M .*RI, M, not CF/);
    expect(await held(u, "VC-1-NC1")).toMatchObject([{ ok: false, error: { code: "service.not-found" } }]);
  }, 60_000);

  it("--amount to the cent on several rates; an amount too small to split is not made of zero lines", async () => {
    const u = user();
    await issueSample(u, "factura-a-mixed-rates", "VR-1");
    const fifty = await u.run(["--json", "credit-note", "--ref", "VR-1", "--amount", "50", "--no-pdf"]);
    expect(fifty.code, fifty.stderr).toBe(0);
    expect(fifty.stderr).not.toMatch(/the note.s total is/);
    const [note] = await held(u, "VR-1-NC1");
    expect(note.comprobante.total).toBe(50);
    const cent = await u.run(["credit-note", "--ref", "VR-1", "--new", "--amount", "0.01", "--no-pdf"]);
    expect(cent.code, cent.stderr).toBe(0);
    const [small] = await held(u, "VR-1-NC2");
    expect(small.comprobante.total).toBe(0.01);
    expect(small.comprobante.detalle.every((d: any) => d.producto.precio_unitario > 0)).toBe(true);
  }, 60_000);

  it("--amount with a decimal comma; one separator before three digits is refused as ambiguous", async () => {
    const u = user();
    await issueSample(u, "factura-b-dni", "VD-1");
    const comma = await u.run(["--lang", "es", "credit-note", "--ref", "VD-1", "--amount", "1210,00", "--no-pdf"]);
    expect(comma.code, comma.stderr).toBe(0);
    expect((await held(u, "VD-1-NC1"))[0].comprobante.total).toBe(1210);
    const grouped = await u.run(["credit-note", "--ref", "VD-1", "--new", "--amount", "1.210,00", "--no-pdf"]);
    expect(grouped.code, grouped.stderr).toBe(0);
    expect((await held(u, "VD-1-NC2"))[0].comprobante.total).toBe(1210);
    for (const ambiguous of ["1,000", "1.000"]) {
      const run = await u.run(["credit-note", "--ref", "VD-1", "--new", "--amount", ambiguous, "--no-pdf"]);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/ambiguous/);
    }
  }, 60_000);
});

describe("a note e-mailed", () => {
  it("--mail sends the note to the voucher's addresses, so it can be resent; without one it is refused", async () => {
    const u = user();
    const path = sampleAs(u, "perceptions", "MAIL-1");
    const raw = JSON.parse(readFileSync(path, "utf8"));
    raw.cliente.envia_por_mail = "S";
    writeFileSync(path, JSON.stringify(raw));
    const issued = await u.run(["issue", "--no-pdf", path]);
    expect(issued.code, issued.stderr).toBe(0);
    const note = await u.run(["credit-note", "--ref", "MAIL-1", "--mail", "--no-pdf"]);
    expect(note.code, note.stderr).toBe(0);
    const [held1] = await held(u, "MAIL-1-NC1");
    expect(held1.cliente.email).toBe(raw.cliente.email);
    const resent = await u.run(["resend", "--ref", "MAIL-1-NC1"]);
    expect(resent.code, resent.stderr).toBe(0);

    const bare = sampleAs(u, "factura-b-dni", "MAIL-2");
    const noAddress = JSON.parse(readFileSync(bare, "utf8"));
    delete noAddress.cliente.email;
    writeFileSync(bare, JSON.stringify(noAddress));
    expect((await u.run(["issue", "--no-pdf", bare])).code).toBe(0);
    const nowhere = await u.run(["credit-note", "--ref", "MAIL-2", "--mail", "--no-pdf"]);
    expect(nowhere.code).toBe(3);
    expect(nowhere.stderr).toMatch(/no e-mail address at the service/);
  }, 60_000);
});

describe("a note command run again after a crash", () => {
  const sandboxes: RunningSandbox[] = [];
  afterEach(async () => {
    for (const s of sandboxes.splice(0)) await s.stop();
  });

  it("--new killed while the service stores its note: run again, that note is settled, no other is issued", async () => {
    const s = await startSandboxProcess({ args: ["--fault", "slow-commit=3000"] });
    sandboxes.push(s);
    const base = freshUser("facturar-notes-crash-");
    const env = sandboxEnv(s, base.env);
    const run = (args: string[]) => runCli(args, { cwd: base.cwd, env });
    const u = { cwd: base.cwd, env, run } as unknown as User;
    await issueSample(u, "factura-b-dni", "VK-1");
    const first = await run(["credit-note", "--ref", "VK-1", "--amount", "1000", "--no-pdf"]);
    expect(first.code, first.stderr).toBe(0);

    const command = ["--json", "credit-note", "--ref", "VK-1", "--new", "--amount", "1000", "--no-pdf"];
    const killed = startCli(command, { cwd: base.cwd, env });
    // Killed for real once its note is journaled as sent, while the service is still storing it.
    for (let i = 0; i < 500 && journalStates(base.env.XDG_STATE_HOME).get("VK-1-NC2") !== "sending"; i++)
      await new Promise((done) => setTimeout(done, 20));
    expect(journalStates(base.env.XDG_STATE_HOME).get("VK-1-NC2")).toBe("sending");
    // Past the send (storing takes 3 s): killed earlier, the next run would wait out its whole
    // settle window for a note that never left, as issue does; the outcome is one note either way.
    await new Promise((done) => setTimeout(done, 1000));
    killed.child.kill("SIGKILL");
    await killed.done;

    const again = await run(command);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/VK-1-NC2 was sent by an earlier run/);
    expect(ndjson(again.stdout)).toEqual([expect.objectContaining({ external_reference: "VK-1-NC2", numero: 2 })]);
    expect(journalStates(base.env.XDG_STATE_HOME).get("VK-1-NC2")).toBe("issued");
    expect((await held(u, "VK-1-NC2"))[0]).toMatchObject({ status: "issued" });
    expect(await held(u, "VK-1-NC3")).toMatchObject([{ ok: false, error: { code: "service.not-found" } }]);

    // Settled, the same command makes one more: --new means another note once nothing is pending.
    const next = await run(command);
    expect(next.code, next.stderr).toBe(0);
    expect(ndjson(next.stdout)[0]).toMatchObject({ status: "issued", external_reference: "VK-1-NC3" });
  }, 90_000);
});

describe("a note to a voucher older than about 15 days (the authority refuses it, reference §11)", () => {
  it("is told before it is sent, with the voucher's date as the service gives it and its age; the development plan issues it", async () => {
    const u = user();
    // Issued 56 days before the tests' today, on that day.
    const old = "25/09/2026";
    const raw = JSON.parse(readFileSync(join(ROOT, "samples", "factura-b-dni.json"), "utf8"));
    Object.assign(raw.comprobante, { fecha: old, vencimiento: old, external_reference: "VENTA-VIEJA" });
    writeFileSync(join(u.cwd, "vieja.json"), JSON.stringify(raw));
    const issued = await u.run(["issue", "--no-pdf", "vieja.json"], { FACTURAR_TODAY: old });
    expect(issued.code, issued.stderr).toBe(0);

    const run = await u.run(["credit-note", "--ref", "VENTA-VIEJA", "--amount", "1210", "--no-pdf"]);
    expect(run.stderr).toMatch(
      /FACTURA B 00679-00000001 is dated 25\/09\/2026, 56 days before this note \(20\/11\/2026\): the authority refuses notes to vouchers older than about 15 days/,
    );
    // The development plan skips the authority's checks (spec §1): the note is issued there.
    expect(run.code, run.stderr).toBe(0);
    const debit = await u.run(["--json", "debit-note", "--ref", "VENTA-VIEJA", "--amount", "121", "--no-pdf"]);
    expect(debit.code, debit.stderr).toBe(0);
    expect(ndjson(debit.stdout)[0].warning_details).toContainEqual(
      expect.objectContaining({
        code: "associations.age",
        field: "comprobante.comprobantes_asociados[0].comprobante_fecha",
        message: expect.stringMatching(/25\/09\/2026, 56 days before/),
      }),
    );
  }, 60_000);
});
