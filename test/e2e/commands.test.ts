/** issue, issue-queued, query, ceiling and status as users run them: the built CLI, a real sandbox. */

import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { writeSafely } from "../../src/durable/files.js";
import {
  freshUser,
  inTerminal,
  journalStates,
  journalText,
  ndjson,
  ROOT,
  runCli,
  TODAY,
  userConfig,
} from "../helpers.js";
import { pdfText } from "../pdf-text.js";
import { startSandboxProcess, tempDir } from "../sandbox-process.js";

const sample = (name: string) => join(ROOT, "samples", `${name}.json`);

/** A fresh user: own home, XDG folders and working directory, no configuration. */
function user(extra: Record<string, string> = {}) {
  const fresh = freshUser();
  const { home, cwd } = fresh;
  const env = { ...fresh.env, ...extra };
  return {
    home,
    cwd,
    env,
    run: (args: string[], more: Record<string, string> = {}) => runCli(args, { cwd, env: { ...env, ...more } }),
  };
}

/** A fresh user who has issued the sample FACTURA B (00679-00000001, FB-2026-0001) with its documents. */
async function issuedSample() {
  const u = user();
  return { u, first: await u.run(["issue", sample("factura-b-dni")]) };
}

// Each test its own user: any one runs alone, in any order.
describe("issue with no configuration at all (the embedded sandbox)", () => {
  it("issues a B invoice, prints its number and saves its PDF and ticket", async () => {
    const { u, first: r } = await issuedSample();
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/✔ FACTURA B 00679-00000001 {2}ref FB-2026-0001 {2}issued/);
    // Read by a script (stdout is no terminal): the path whole.
    expect(r.stdout).toContain(`PDF: ${join(u.cwd, "comprobantes/FACTURA_B-00679-00000001.pdf")}`);
    const pdf = readFileSync(join(u.cwd, "comprobantes/FACTURA_B-00679-00000001.pdf"));
    const text = pdfText(pdf);
    expect(text).toContain("Juana Pérez");
    expect(text).toContain("Zapatillas running");
    expect(text).toContain("133.463,00");
    expect(existsSync(join(u.cwd, "comprobantes/FACTURA_B-00679-00000001-ticket.pdf"))).toBe(true);
  });

  it("reports the same file again as already issued and sends nothing", async () => {
    const { u } = await issuedSample();
    const r = await u.run(["--json", "issue", sample("factura-b-dni")]);
    expect(r.code).toBe(0);
    const [result] = ndjson(r.stdout);
    expect(result).toMatchObject({ ok: true, status: "skipped-duplicate", comprobante_nro: "00679-00000001" });
    const q = ndjson((await u.run(["--json", "query", "--ref", "FB-2026-0001"])).stdout);
    expect(q).toHaveLength(1);
  });

  it("fetches the PDF of an already issued voucher again when it is not where the journal says", async () => {
    const { u } = await issuedSample();
    const pdf = join(u.cwd, "comprobantes", "FACTURA_B-00679-00000001.pdf");
    const ticket = join(u.cwd, "comprobantes", "FACTURA_B-00679-00000001-ticket.pdf");
    unlinkSync(pdf);
    unlinkSync(ticket);
    const r = await u.run(["--json", "issue", sample("factura-b-dni")]);
    expect(ndjson(r.stdout)[0]).toMatchObject({ status: "skipped-duplicate", pdf, ticket });
    expect(readFileSync(pdf).subarray(0, 5).toString()).toBe("%PDF-");
    expect(readFileSync(ticket).subarray(0, 5).toString()).toBe("%PDF-");
  });

  it("finds it with query --ref, as a table and as JSON", async () => {
    const { u } = await issuedSample();
    const human = await u.run(["query", "--ref", "FB-2026-0001"]);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(
      /FACTURA B\s+00679-00000001\s+20\/11\/2026\s+Juana Pérez\s+133,463\.00\s+issued\s+FB-2026-0001/,
    );
    // Support's first question: the CAE, as issue shows it (the development service gives none).
    expect(human.stdout).toMatch(/FACTURA B 00679-00000001: CAE — \(development: no CAE\)/);
    // The status in the user's language, not the service's raw EMITIDO.
    const spanish = await u.run(["query", "--ref", "FB-2026-0001"], { LANG: "es_AR.UTF-8" });
    expect(spanish.stdout).toMatch(/133\.463,00\s+emitido\s+FB-2026-0001/);
    expect(spanish.stdout).toMatch(/FACTURA B 00679-00000001: CAE — \(desarrollo: sin CAE\)/);
    // Its PDF is on this machine: the table says where, whole.
    expect(human.stdout).toContain(join(u.cwd, "comprobantes/FACTURA_B-00679-00000001.pdf"));
    // Types as people type them: any case, accents.
    const [item] = ndjson((await u.run(["--json", "query", "--type", "factura b", "--number", "1"])).stdout);
    expect(item).toMatchObject({
      comprobante_nro: "00679-00000001",
      external_reference: "FB-2026-0001",
      cliente: { documento_nro: "30123456" },
    });
    // Exactly the one voucher of that day: a duplicate would show twice.
    expect(
      ndjson((await u.run(["--json", "query", "--date", "20/11/2026"])).stdout).map((v) => v.external_reference),
    ).toEqual(["FB-2026-0001"]);
    expect(
      ndjson((await u.run(["--json", "query", "--type", "FACTURA B", "--from", "1", "--to", "5"])).stdout),
    ).toHaveLength(1);
    const typo = await u.run(["query", "--type", "FACTRA B", "--number", "1"]);
    expect([typo.code, typo.stderr]).toEqual([2, expect.stringMatching(/did you mean "FACTURA B"\?/)]);
    // Nothing under a reference: exit 9, said on stderr, nothing on stdout (JSON says it there).
    const none = await u.run(["query", "--ref", "NO-SUCH-REF"]);
    expect([none.code, none.stdout, none.stderr.trim()]).toEqual([9, "", "no voucher with reference NO-SUCH-REF"]);
    // A reference read over the phone in lower case: the service matches exactly, so the hint.
    const lower = await u.run(["query", "--ref", "fb-2026-0001"]);
    expect(lower.code).toBe(9);
    expect(lower.stderr).toMatch(
      /no voucher with reference fb-2026-0001\nhint: references match exactly, capitals too: try FB-2026-0001/,
    );
    const noneJson = await u.run(["--json", "query", "--type", "FACTURA B", "--number", "999"]);
    expect(noneJson.code).toBe(9);
    expect(ndjson(noneJson.stdout)).toEqual([
      { ok: false, error: { code: "service.not-found", message: "no voucher found" } },
    ]);
  });

  it("prints every field design.md lists in JSON", async () => {
    const u = user();
    const [result] = ndjson((await u.run(["--json", "issue", sample("factura-a-mixed-rates")])).stdout);
    for (const key of [
      "ok",
      "external_reference",
      "comprobante_tipo",
      "punto_venta",
      "numero",
      "comprobante_nro",
      "cae",
      "vencimiento_cae",
      "vencimiento_pago",
      "qr",
      "pdf",
      "ticket",
      "errors",
      "error_details",
      "status",
    ]) {
      expect(result, key).toHaveProperty(key);
    }
    expect(result).toMatchObject({
      status: "issued",
      comprobante_tipo: "FACTURA A",
      punto_venta: 679,
      numero: 1,
      cae: null,
      errors: [],
      error_details: [],
    });
    expect(result.qr).toMatch(/^https:\/\/www\.afip\.gob\.ar\/fe\/qr\/\?p=[A-Za-z0-9+/=]+$/);
    expect(existsSync(result.pdf)).toBe(true);
  });

  it("issues through the queue and, with --wait, ends issued with its PDF", async () => {
    const u = user();
    const r = await u.run(["--json", "issue-queued", "--wait", "--timeout", "30", sample("factura-c")]);
    expect(r.code).toBe(0);
    const [result] = ndjson(r.stdout);
    expect(result).toMatchObject({ status: "issued", comprobante_tipo: "FACTURA C", numero: 1 });
    expect(existsSync(result.pdf)).toBe(true);
    const queuedOnly = await u.run(["--json", "issue-queued", sample("factura-m")]);
    expect(ndjson(queuedOnly.stdout)[0]).toMatchObject({ status: "queued", numero: null });
    expect(queuedOnly.code).toBe(0);
  });

  it("answers ceiling and status", async () => {
    const u = user();
    const ceiling = await u.run(["ceiling"]);
    expect(ceiling).toMatchObject({ code: 0 });
    expect(ceiling.stdout).toContain("$ 10,000,000.00");
    expect((await u.run(["--lang", "es", "ceiling"])).stdout).toContain("$ 10.000.000,00");
    expect(JSON.parse((await u.run(["--json", "ceiling"])).stdout)).toMatchObject({
      ok: true,
      monto: 10000000,
      cached: true,
    });
    const status = await u.run(["--json", "status"]);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ ok: true, sandbox: true, facturacion: "OK" });
  });

  it("writes the QR as a PNG", async () => {
    const u = user();
    const r = await u.run(["issue", "--qr", "qr.png", sample("nota-de-debito-b-period")]);
    expect(r.code).toBe(0);
    expect(readFileSync(join(u.cwd, "qr.png")).subarray(1, 4).toString()).toBe("PNG");
  });
});

describe("texts from the user's files, printed", () => {
  it("issue shows a reference's and a file name's escapes as visible text, never as terminal commands", async () => {
    const u = user();
    const raw = JSON.parse(readFileSync(sample("factura-b-dni"), "utf8"));
    raw.comprobante.external_reference = "A\u001b]0;X\u0007B\u202e";
    raw.comprobante.total = 1;
    const name = "v\u001b[2Jx.json";
    writeFileSync(join(u.cwd, name), JSON.stringify(raw));
    const r = await u.run(["issue", "--no-pdf", name]);
    expect(r.code, r.stderr).toBe(3);
    const printed = `${r.stdout}${r.stderr}`;
    expect(printed).toContain(String.raw`ref A\x1b]0;X\x07B\u202e`);
    expect(printed).toContain(String.raw`v\x1b[2Jx.json`);
    for (const raw of ["\u001b", "\u0007", "\u202e"]) expect(printed).not.toContain(raw);
    const missing = await u.run(["issue", "--no-pdf", "gone\u001b]0;T\u0007.json"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(String.raw`gone\x1b]0;T\x07.json: no such file`);
    expect(missing.stderr).not.toContain("\u001b");
  });
});

describe("the service's own examples", () => {
  it("a purchase as the service's example writes its supplier (condicion_pago 0, condicion_pago_otra 0) is issued", async () => {
    const u = freshUser("facturar-purchase-");
    const raw = JSON.parse(readFileSync(join(ROOT, "samples/purchase-proveedor.json"), "utf8"));
    Object.assign(raw.proveedor, { condicion_pago: 0, condicion_pago_otra: 0 });
    writeFileSync(join(u.cwd, "compra.json"), JSON.stringify(raw));
    const r = await runCli(["--json", "issue", "--no-pdf", "compra.json"], { cwd: u.cwd, env: u.env });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(ndjson(r.stdout)[0]).toMatchObject({ status: "issued" });
  });
});

describe("export notes", () => {
  it("issues NOTA DE CREDITO E with its voucher inside fex, where the vendor documents it", async () => {
    const u = freshUser("facturar-export-note-");
    const goods = await runCli(["--json", "issue", "--no-pdf", sample("nota-de-credito-e")], {
      cwd: u.cwd,
      env: u.env,
    });
    expect(goods.code, goods.stdout + goods.stderr).toBe(0);
    expect(ndjson(goods.stdout)[0]).toMatchObject({ status: "issued", comprobante_tipo: "NOTA DE CREDITO E" });
    // A services note the authority takes only with its invoice (WSFEX 2047): issued, so it reached the service.
    const raw = JSON.parse(readFileSync(join(ROOT, "samples/invalid/notes-association-export.json"), "utf8"));
    raw.comprobante.external_reference = "NDE-2026-0001";
    raw.comprobante.tipo = "NOTA DE DEBITO E";
    raw.comprobante.fex.comprobantes_asociados = [
      { tipo_comprobante: "FACTURA E", punto_venta: 3, numero: 12, cuit: "30555555551" },
    ];
    writeFileSync(join(u.cwd, "nde.json"), JSON.stringify(raw));
    const services = await runCli(["--json", "issue", "--no-pdf", "nde.json"], { cwd: u.cwd, env: u.env });
    expect(services.code, services.stdout + services.stderr).toBe(0);
    expect(ndjson(services.stdout)[0]).toMatchObject({ status: "issued", comprobante_tipo: "NOTA DE DEBITO E" });
    // At the top level instead: refused before sending, naming where it goes.
    raw.comprobante.external_reference = "NDE-2026-0002";
    raw.comprobante.comprobantes_asociados = [
      { ...raw.comprobante.fex.comprobantes_asociados[0], comprobante_fecha: "10/11/2026" },
    ];
    delete raw.comprobante.fex.comprobantes_asociados;
    writeFileSync(join(u.cwd, "top.json"), JSON.stringify(raw));
    const top = await runCli(["--json", "issue", "--no-pdf", "top.json"], { cwd: u.cwd, env: u.env });
    expect(top.code).toBe(3);
    const [refused] = ndjson(top.stdout);
    expect(refused.error_details).toEqual([expect.objectContaining({ code: "class-e.associations" })]);
    expect(refused.errors[0]).toMatch(/comprobante\.comprobantes_asociados: .*fex\.comprobantes_asociados/);
  });
});

describe("batches", () => {
  it("export and FCE lanes go one voucher at a time: the lotes page refuses both, so a default run never batches them", async () => {
    const u = user();
    const twice = (name: string) => {
      const raw = JSON.parse(readFileSync(sample(name), "utf8"));
      const other = structuredClone(raw);
      other.comprobante.external_reference = `${raw.comprobante.external_reference}-BIS`;
      writeFileSync(join(u.cwd, `${name}-2.json`), JSON.stringify([raw, other]));
      return `${name}-2.json`;
    };
    const r = await u.run(["--json", "--verbose", "issue", "--no-pdf", twice("factura-e-goods"), twice("fce-a")]);
    expect(r.code, r.stderr).toBe(0);
    expect(ndjson(r.stdout).map((x) => [x.comprobante_tipo, x.status, x.numero])).toEqual(
      expect.arrayContaining([
        ["FACTURA E", "issued", 1],
        ["FACTURA E", "issued", 2],
        ["FACTURA DE CREDITO ELECTRONICA MiPyME (FCE) A", "issued", 1],
        ["FACTURA DE CREDITO ELECTRONICA MiPyME (FCE) A", "issued", 2],
      ]),
    );
    expect(r.stderr).not.toMatch(/facturacion\/lotes/);
    expect(r.stderr.match(/POST \S+\/facturacion\/nuevo\b/g)).toHaveLength(4);
  });

  it("--skip-invalid issues the valid vouchers and reports the invalid ones (exit 7); without it nothing is sent (exit 3)", async () => {
    const u = freshUser("facturar-skip-");
    const good = JSON.parse(readFileSync(join(ROOT, "samples/factura-b-dni.json"), "utf8"));
    const other = {
      ...structuredClone(good),
      comprobante: { ...structuredClone(good.comprobante), external_reference: "SKIP-OK-2" },
    };
    const bad = structuredClone(good);
    bad.comprobante.external_reference = "SKIP-BAD";
    bad.comprobante.total = 1;
    writeFileSync(join(u.cwd, "mixed.json"), JSON.stringify([good, bad, other]));
    const strict = await runCli(["--json", "issue", "--no-pdf", "mixed.json"], { cwd: u.cwd, env: u.env });
    expect(strict.code).toBe(3);
    expect(journalText(u.env.XDG_STATE_HOME)).toBe("");
    // A cron log says what waits: the valid ones were not sent either.
    const told = await runCli(["issue", "--no-pdf", "mixed.json"], { cwd: u.cwd, env: u.env });
    expect(told.stderr).toMatch(/1 invalid, so nothing sent: 2 valid not sent either \(--skip-invalid sends them\)/);
    const r = await runCli(["--json", "issue", "--no-pdf", "--skip-invalid", "mixed.json"], { cwd: u.cwd, env: u.env });
    expect(r.code, r.stderr).toBe(7);
    expect(
      ndjson(r.stdout)
        .map((x) => [x.external_reference, x.status])
        .sort(),
    ).toEqual([
      ["FB-2026-0001", "issued"],
      ["SKIP-BAD", "invalid"],
      ["SKIP-OK-2", "issued"],
    ]);
    const human = await runCli(["issue", "--no-pdf", "--skip-invalid", "mixed.json"], { cwd: u.cwd, env: u.env });
    expect(human.code).toBe(7);
    expect(human.stderr).toMatch(/1 invalid \(skipped\), 2 already issued/);
    // Nothing valid at all: invalid, exit 3, as without the flag.
    writeFileSync(join(u.cwd, "bad.json"), JSON.stringify([bad]));
    const none = await runCli(["issue", "--no-pdf", "--skip-invalid", "bad.json"], { cwd: u.cwd, env: u.env });
    expect(none.code).toBe(3);
  });

  it("results and the report carry each voucher's warnings and its errors as objects; a ; CSV gets a ; report", async () => {
    const u = user();
    const day = TODAY;
    const header =
      "comprobante.external_reference;comprobante.tipo;comprobante.fecha;comprobante.vencimiento;comprobante.rubro;comprobante.rubro_grupo_contable;comprobante.total;cliente.documento_tipo;cliente.documento_nro;cliente.razon_social;cliente.condicion_iva;comprobante.detalle.cantidad;comprobante.detalle.producto.descripcion;comprobante.detalle.producto.precio_unitario_sin_iva;comprobante.detalle.producto.alicuota";
    const row = (ref: string, total: string) =>
      `${ref};FACTURA B;${day};${day};Ventas;Ventas;${total};DNI;30123456;Juana Pérez;CF;2;Yerba 1 kg;1.000,50;21`;
    // No total (filled in, a warning); a wrong total (invalid); 2 × 1000,50 + 21 % = 2421,21.
    writeFileSync(join(u.cwd, "es.csv"), [header, row("WARN-1", ""), row("BAD-1", "1,00")].join("\n"));
    const r = await u.run(["--json", "issue", "--no-pdf", "--skip-invalid", "--report", "r.csv", "es.csv"]);
    expect(r.code, r.stderr).toBe(7);
    const byRef = Object.fromEntries(ndjson(r.stdout).map((x) => [x.external_reference, x]));
    expect(byRef["WARN-1"]).toMatchObject({
      status: "issued",
      total: "2421.21",
      errors: [],
      error_details: [],
      warnings: [expect.stringMatching(/es\.csv:row 2, column comprobante\.total: no total given.*\[total\.missing\]/)],
      warning_details: [
        {
          code: "total.missing",
          field: "comprobante.total",
          place: "es.csv:row 2, column comprobante.total",
          message: expect.stringMatching(/filled in with the computed 2421\.21/),
        },
      ],
    });
    expect(byRef["BAD-1"]).toMatchObject({
      status: "invalid",
      total: "1",
      error_details: [
        {
          code: "total.mismatch",
          field: "comprobante.total",
          place: "es.csv:row 3, column comprobante.total",
          message: expect.stringMatching(/does not match the computed 2,421\.21/),
          text: expect.stringMatching(/does not match/),
        },
      ],
      warning_details: [],
    });
    const text = readFileSync(join(u.cwd, "r.csv"), "utf8");
    // A ; report is a Spanish spreadsheet's: it starts with a UTF-8 byte order mark.
    expect(text.split("\n")[0]).toBe(
      "\uFEFFsource;external_reference;status;comprobante_tipo;comprobante_nro;cae;pdf;ticket;errors;total;warnings;observations",
    );
    const report: string[][] = parse(text, { delimiter: ";", bom: true });
    expect(report).toHaveLength(3);
    const rows = Object.fromEntries(report.slice(1).map((cells) => [cells[1], cells]));
    expect(rows["WARN-1"]?.slice(2, 3)).toEqual(["issued"]);
    expect(rows["WARN-1"]?.[8]).toBe("");
    expect(rows["WARN-1"]?.[9]).toBe("2421,21");
    expect(rows["WARN-1"]?.[10]).toMatch(/no total given: filled in with the computed 2421\.21 \[total\.missing\]$/);
    expect(rows["BAD-1"]?.[2]).toBe("invalid");
    expect(rows["BAD-1"]?.[8]).toMatch(
      /^es\.csv:row 3, column comprobante\.total: total 1\.00 does not match.*\[total\.mismatch\]$/,
    );
    expect(rows["BAD-1"]?.[9]).toBe("1,00");
    // A JSON input: a , report, as before.
    const json = await u.run(["issue", "--no-pdf", "--report", "j.csv", sample("factura-c")]);
    expect(json.code, json.stderr).toBe(0);
    expect(readFileSync(join(u.cwd, "j.csv"), "utf8").split("\n")[0]).toBe(
      "source,external_reference,status,comprobante_tipo,comprobante_nro,cae,pdf,ticket,errors,total,warnings,observations",
    );
  });

  it("at a terminal with stdout redirected, every result lands in the file; the bar stays on the terminal", async () => {
    const u = freshUser("facturar-bar-");
    const env = { ...process.env, ...u.env, CI: "", TERM: "xterm" };
    const files = [join(ROOT, "samples/factura-b-dni.json"), join(ROOT, "samples/factura-c.json")];
    const quoted = [process.execPath, join(ROOT, "bin/facturar.js"), "issue", "--no-pdf", ...files]
      .map((a) => `'${a}'`)
      .join(" ");
    // script(1) gives the CLI a terminal for stderr (the bar's) while stdout goes to a file.
    const shell = spawnSync("script", ["-qfec", `${quoted} > out.txt; echo EXIT=$?`, "/dev/null"], {
      cwd: u.cwd,
      env,
      encoding: "utf8",
    });
    expect(shell.stdout).toMatch(/EXIT=0/);
    const out = readFileSync(join(u.cwd, "out.txt"), "utf8");
    expect(out.match(/^✔ /gm)).toHaveLength(2);
    expect(out).toMatch(/FACTURA B .*ref FB-2026-0001/);
    expect(out).toMatch(/FACTURA C /);
    // The bar (and nothing of it in the file) was drawn on the terminal.
    expect(shell.stdout).toMatch(/2\/2 \| issued 2/);
    expect(out).not.toMatch(/issued 2 rejected/);
  });

  it("at a terminal, results are printed above the bar, which counts a repeat as skipped", async () => {
    const u = freshUser("facturar-bar-tty-");
    const env = { ...process.env, ...u.env, CI: "", TERM: "xterm" };
    const files = ["samples/factura-b-dni.json", "samples/factura-c.json"].map((f) => join(ROOT, f));
    expect((await runCli(["--json", "issue", "--no-pdf", files[0] as string], { cwd: u.cwd, env: u.env })).code).toBe(
      0,
    );
    const screen = await inTerminal(["issue", "--no-pdf", ...files], { cwd: u.cwd, env }, []);
    expect(screen).toMatch(/EXIT=0/);
    // Each result clears the bar's line, is written, and the bar comes back under it.
    const cleared = screen.split("\r\u001b[2K").slice(1);
    expect(cleared.some((part) => /^\S* ?FACTURA B .*ref FB-2026-0001/.test(part))).toBe(true);
    expect(cleared.some((part) => /^\S* ?FACTURA C /.test(part))).toBe(true);
    expect(screen).toMatch(/2\/2 \| issued 1 rejected 0 skipped 1/);
  });

  it("issues a CSV batch through lotes in groups of one type, each exactly once, even when answers are lost", async () => {
    const u = user();
    const csv = join(ROOT, "samples/batch-nightly.csv");
    const r = await u.run(["--json", "issue", "--batch-size", "20", csv], {
      FACTURAR_SANDBOX_FAULTS: "drop-after-commit=0.3",
    });
    expect(r.code).toBe(0);
    const results = ndjson(r.stdout);
    expect(results).toHaveLength(24);
    expect(results.every((x) => x.status === "issued" && existsSync(x.pdf) && existsSync(x.ticket))).toBe(true);
    for (const tipo of ["FACTURA A", "FACTURA B"]) {
      const numbers = results
        .filter((x) => x.comprobante_tipo === tipo)
        .map((x) => x.numero)
        .sort((a, b) => a - b);
      expect(numbers).toEqual(numbers.map((_, i) => i + 1));
    }
    const stored = ndjson((await u.run(["--json", "query", "--date", "20/11/2026"])).stdout);
    expect(stored).toHaveLength(24);
    expect(new Set(stored.map((x) => x.external_reference)).size).toBe(24);
    const again = await u.run(["--json", "issue", "--batch-size", "20", csv]);
    expect(ndjson(again.stdout).every((x) => x.status === "skipped-duplicate")).toBe(true);
    expect((await u.run(["issue", "--batch-size", "21", csv])).code).toBe(2);
  });

  it("queues in groups with lotes_encola and follows them with --wait", async () => {
    const u = user();
    const r = await u.run([
      "--json",
      "issue-queued",
      "--batch-size",
      "5",
      "--wait",
      sample("factura-b-dni"),
      sample("factura-c"),
      sample("factura-m"),
    ]);
    expect(r.code).toBe(0);
    // Each type is its own lane; lanes run side by side, so results come in whatever order they settle.
    const byType = ndjson(r.stdout)
      .map((x) => [x.comprobante_tipo, x.status, x.numero])
      .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(byType).toEqual([
      ["FACTURA B", "issued", 1],
      ["FACTURA C", "issued", 1],
      ["FACTURA M", "issued", 1],
    ]);
  });

  it("query --pdf saves the documents of what it finds; --qr terminal draws the QR", async () => {
    const u = user();
    const issued = await u.run(["issue", "--no-pdf", "--qr", "terminal", sample("factura-b-dni")]);
    expect(issued.code).toBe(0);
    expect(issued.stdout).toContain("▄");
    expect(existsSync(join(u.cwd, "comprobantes"))).toBe(false);
    const q = await u.run(["--json", "query", "--ref", "FB-2026-0001", "--pdf", "--out", "docs"]);
    expect(q.code).toBe(0);
    expect(ndjson(q.stdout)[0]).toMatchObject({
      pdf: join(u.cwd, "docs", "FACTURA_B-00679-00000001.pdf"),
      ticket: join(u.cwd, "docs", "FACTURA_B-00679-00000001-ticket.pdf"),
    });
    for (const name of ["FACTURA_B-00679-00000001.pdf", "FACTURA_B-00679-00000001-ticket.pdf"])
      expect(
        readFileSync(join(u.cwd, "docs", name))
          .subarray(0, 5)
          .toString(),
        name,
      ).toBe("%PDF-");
    // Asked again without --pdf, query tells where both already are.
    const again = await u.run(["--json", "query", "--ref", "FB-2026-0001", "--out", "docs"]);
    expect(ndjson(again.stdout)[0]).toMatchObject({
      pdf: join(u.cwd, "docs", "FACTURA_B-00679-00000001.pdf"),
      ticket: join(u.cwd, "docs", "FACTURA_B-00679-00000001-ticket.pdf"),
    });
  });

  it("query shows the service's texts unescaped: #&# is %, #@# a line break (one line in the table)", async () => {
    const u = user();
    const raw = JSON.parse(readFileSync(sample("factura-b-dni"), "utf8"));
    raw.cliente.razon_social = "Gomez\nHermanos";
    raw.comprobante.detalle[0].producto.descripcion = "Descuento 10% pronto pago";
    raw.comprobante.leyenda_gral = "Gracias\nVuelva pronto";
    writeFileSync(join(u.cwd, "texts.json"), JSON.stringify(raw));
    const issued = await u.run(["issue", "--no-pdf", "texts.json"]);
    expect(issued.code, issued.stderr).toBe(0);
    const [found] = ndjson((await u.run(["--json", "query", "--ref", raw.comprobante.external_reference])).stdout);
    expect(found.cliente.razon_social).toBe("Gomez\nHermanos");
    expect(found.comprobante.detalle[0].producto.descripcion).toBe("Descuento 10% pronto pago");
    expect(found.comprobante.leyenda_gral).toBe("Gracias\nVuelva pronto");
    const table = await u.run(["query", "--ref", raw.comprobante.external_reference]);
    expect(table.stdout).toMatch(/ Gomez Hermanos /);
    expect(table.stdout).not.toMatch(/#&#|#@#/);
  });
});

describe("foreign currencies, against the authority's rate", () => {
  /** The dollar sample, dated today, with this reference and cotizacion (the sandbox's dollar is 1000). */
  function usd(ref: string, cotizacion: number, moneda = "DOL") {
    const raw = JSON.parse(readFileSync(sample("usd-invoice"), "utf8"));
    raw.comprobante.fecha = TODAY;
    raw.comprobante.external_reference = ref;
    raw.comprobante.cotizacion = cotizacion;
    raw.comprobante.moneda = moneda;
    return raw;
  }

  it("refuses a cotizacion outside 2-400 % of the authority's rate before sending (exit 3), asking once per currency and day", async () => {
    const u = user();
    writeFileSync(join(u.cwd, "usd.json"), JSON.stringify([usd("USD-OK-1", 1015.5), usd("USD-OK-2", 990)]));
    writeFileSync(join(u.cwd, "absurd.json"), JSON.stringify(usd("USD-ABSURD", 10)));
    // Offline, 10 pesos a dollar is no error: only the authority's rate tells.
    expect((await u.run(["validate", "absurd.json"])).code).toBe(0);
    const refused = await u.run(["--json", "--verbose", "issue", "--no-pdf", "usd.json", "absurd.json"]);
    expect(refused.code, refused.stderr).toBe(3);
    expect(refused.stderr.match(/POST \S+\/tablas_referencia\/cotizacion/g)).toHaveLength(1);
    expect(refused.stderr).not.toMatch(/facturacion\/nuevo/);
    expect(journalText(u.env.XDG_STATE_HOME)).toBe("");
    expect(ndjson(refused.stdout)).toEqual([
      expect.objectContaining({
        status: "invalid",
        external_reference: "USD-ABSURD",
        hint: expect.stringMatching(/facturar exchange-rate --currency DOL/),
        error_details: [
          {
            code: "currency.rate-range",
            field: "comprobante.cotizacion",
            place: "absurd.json comprobante.cotizacion",
            message: expect.stringMatching(
              /cotizacion 10 is not within 2 % to 400 % .* \(1000\.00\): it takes 20\.00 to 4000\.00/,
            ),
            text: expect.any(String),
          },
        ],
      }),
      // The valid ones are told not sent (#25).
      expect.objectContaining({ status: "held", external_reference: "USD-OK-1" }),
      expect.objectContaining({ status: "held", external_reference: "USD-OK-2" }),
    ]);
    // The ones within the band are issued; with --skip-invalid the absurd one is reported (exit 7).
    const partly = await u.run(["--json", "issue", "--no-pdf", "--skip-invalid", "usd.json", "absurd.json"]);
    expect(partly.code, partly.stderr).toBe(7);
    expect(
      ndjson(partly.stdout)
        .map((r) => [r.external_reference, r.status, r.error_details.map((d: { code: string }) => d.code)])
        .sort(),
    ).toEqual([
      ["USD-ABSURD", "invalid", ["currency.rate-range"]],
      ["USD-OK-1", "issued", []],
      ["USD-OK-2", "issued", []],
    ]);
  });

  it("compares with the service's rate of the day; sent anyway (--no-validate), the authority refuses it like production (exit 4)", async () => {
    const u = user();
    writeFileSync(join(u.cwd, "usd.json"), JSON.stringify(usd("USD-RATE-1", 1015.5)));
    // At 200 pesos a dollar, 1015.5 is over 400 %.
    const cheap = { FACTURAR_SANDBOX_RATES: "DOL=200" };
    const refused = await u.run(["issue", "--no-pdf", "usd.json"], cheap);
    expect(refused.code, refused.stderr).toBe(3);
    expect(refused.stdout).toMatch(
      /cotizacion 1015\.5 is not within .*\(200\.00\): it takes 4\.00 to 800\.00 \[currency\.rate-range\]/,
    );
    // The sandbox as production: the development plan skips the authority's rate check (spec §1).
    const sent = await u.run(["--json", "issue", "--no-pdf", "--no-validate", "usd.json"], {
      ...cheap,
      FACTURAR_SANDBOX_FAULTS: "authority-checks",
    });
    expect(sent.code, sent.stderr).toBe(4);
    expect(ndjson(sent.stdout)[0]).toMatchObject({
      status: "rejected",
      errors: [expect.stringMatching(/10119 - El campo MonCotiz \(1015\.5\)/)],
      error_details: [{ code: "TFC-6661", field: null, message: expect.stringMatching(/MonCotiz/) }],
    });
    expect((await u.run(["issue", "--no-pdf", "usd.json"])).code).toBe(0);
  });

  it("a currency the service has no rate of: a warning, and the voucher is sent", async () => {
    const u = user();
    writeFileSync(join(u.cwd, "abc.json"), JSON.stringify(usd("ABC-1", 1015.5, "ABC")));
    const r = await u.run(["issue", "--no-pdf", "abc.json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /could not get the authority's exchange rate for ABC .*the service will judge the cotizacion/,
    );
  });
});

describe("exit codes", () => {
  it("3: an invalid voucher stops the whole batch before anything is sent", async () => {
    const u = user();
    const r = await u.run([
      "--json",
      "issue",
      sample("factura-b-dni"),
      join(ROOT, "samples/invalid/total-mismatch.json"),
    ]);
    expect(r.code).toBe(3);
    const results = ndjson(r.stdout);
    expect(results).toHaveLength(2);
    expect(results[0]).toMatchObject({ status: "invalid", error_details: [{ code: "total.mismatch" }] });
    // The valid one is told not sent, and why (#25).
    expect(results[1]).toMatchObject({ ok: false, status: "held", error_details: [{ code: "voucher.held" }] });
    expect(existsSync(join(u.env.XDG_STATE_HOME, "facturar"))).toBe(false);
  });

  it("4: rejected by the service, with the service's codes and a hint; 7: partly done", async () => {
    const u = user();
    const bad = join(u.cwd, "to-ri.json");
    const raw = JSON.parse(readFileSync(sample("factura-b-dni"), "utf8"));
    raw.cliente = { ...raw.cliente, documento_tipo: "CUIT", documento_nro: "30712293841", condicion_iva: "RI" };
    raw.comprobante.external_reference = "TO-RI";
    writeFileSync(bad, JSON.stringify(raw));
    const rejected = await u.run(["--json", "issue", "--no-validate", bad]);
    expect(rejected.code).toBe(4);
    expect(ndjson(rejected.stdout)[0]).toMatchObject({
      ok: false,
      status: "rejected",
      error_details: [{ code: "TFC-8004" }],
      hint: expect.stringMatching(/condicion_iva/),
    });
    const partial = await u.run(["issue", "--no-validate", sample("factura-m"), bad]);
    expect(partial.code).toBe(7);
  });

  it("5: wrong credentials", async () => {
    const sbx = await startSandboxProcess();
    const u = user({
      FACTURAR_BASE_URL: sbx.baseUrl,
      FACTURAR_USERTOKEN: "x",
      FACTURAR_APIKEY: "1",
      FACTURAR_APITOKEN: "y",
    });
    const r = await u.run(["status"]);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/access denied \(HTTP 403\)/);
    await sbx.stop();
  });

  it("6: maintenance, and an authority outage for status", async () => {
    const u = user();
    const r = await u.run(["issue", sample("factura-b-dni")], { FACTURAR_SANDBOX_FAULTS: "maintenance" });
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/under maintenance until \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);
    expect((await u.run(["status"], { FACTURAR_SANDBOX_FAULTS: "authority-down" })).code).toBe(6);
  });

  it("6: a service that cannot even be asked whether it holds a voucher gets nothing; the next run issues in order", async () => {
    const u = user();
    const files = [sample("factura-b-dni"), sample("factura-b-anonymous")];
    const down = await u.run(["--json", "issue", ...files], {
      FACTURAR_SANDBOX_FAULTS: "drop-before=1",
      FACTURAR_RETRY_BACKOFF: "0.01",
    });
    expect(down.code, down.stderr).toBe(6);
    expect(ndjson(down.stdout).map((r) => [r.external_reference, r.status])).toEqual([
      ["FB-2026-0001", "held"],
      ["FB-2026-0002", "held"],
    ]);
    expect(down.stderr).toMatch(/stopped:/);
    // Nothing was sent: the journal holds no voucher as sent.
    expect([...journalStates(u.env.XDG_STATE_HOME).values()].filter((s) => s !== "held")).toEqual([]);
    const settled = await u.run(["--json", "issue", ...files]);
    expect(settled.code).toBe(0);
    // Numbered in lane order; told in the order their documents land, which may differ.
    expect(
      ndjson(settled.stdout)
        .map((r) => [r.external_reference, r.numero])
        .sort(),
    ).toEqual([
      ["FB-2026-0001", 1],
      ["FB-2026-0002", 2],
    ]);
  });

  it("0 with one voucher, never two, when the answer to an issue is lost after the service stored it", async () => {
    const u = user();
    const r = await u.run(["--json", "issue", sample("factura-b-dni"), sample("factura-m")], {
      FACTURAR_SANDBOX_FAULTS: "drop-after-commit=1",
    });
    expect(r.code).toBe(0);
    const results = ndjson(r.stdout);
    expect(results.map((x) => [x.status, x.reconciled, x.numero])).toEqual([
      ["issued", true, 1],
      ["issued", true, 1],
    ]);
    expect(results.every((x) => existsSync(x.pdf))).toBe(true);
    for (const ref of ["FB-2026-0001", "FM-2026-0001"]) {
      expect(ndjson((await u.run(["--json", "query", "--ref", ref])).stdout)).toHaveLength(1);
    }
  });

  it("2: a --report or --qr path that cannot be written stops the run before anything is sent", async () => {
    const u = user();
    const report = await u.run(["issue", "--report", "/nonexistent/r.csv", sample("factura-b-dni")]);
    expect(report.code).toBe(2);
    expect(report.stderr).toMatch(/cannot write the report \/nonexistent\/r\.csv/);
    const qr = await u.run(["issue", "--qr", "/nonexistent/q.png", sample("factura-b-dni")]);
    expect(qr.code).toBe(2);
    expect(qr.stderr).toMatch(/--qr \/nonexistent\/q\.png: its folder cannot be written \(ENOENT\)/);
    for (const r of [report, qr]) expect(r.stderr).not.toMatch(/internal error|at .*\.js:\d+/);
    expect(journalText(u.env.XDG_STATE_HOME)).toBe("");
  });

  it("a QR file that cannot be written is that voucher's warning: issued, told in --json and the report, exit 7", async () => {
    const u = user();
    // The folder can be written; the file's place is taken by a folder.
    mkdirSync(join(u.cwd, "qd", "q.png"), { recursive: true });
    const r = await u.run([
      "--json",
      "issue",
      "--no-pdf",
      "--qr",
      "qd/q.png",
      "--report",
      "r.csv",
      sample("factura-b-dni"),
    ]);
    expect(r.code, r.stderr).toBe(7);
    const [result] = ndjson(r.stdout);
    expect(result).toMatchObject({ status: "issued", ok: true });
    expect(result.warnings.join(" ")).toMatch(/QR not written: .*q\.png: it is not a regular file/);
    expect(readFileSync(join(u.cwd, "r.csv"), "utf8")).toMatch(/QR not written: /);
    expect(r.stderr).not.toMatch(/internal error|at .*\.js:\d+/);
  });

  it("6: a journal folder that cannot be used is a clear error naming it, before anything is sent", async () => {
    const u = user();
    const blocker = join(u.home, "not-a-folder");
    writeFileSync(blocker, "");
    const env = { XDG_STATE_HOME: blocker };
    const issued = await u.run(["issue", "--no-pdf", sample("factura-b-dni")], env);
    expect(issued.code).toBe(6);
    expect(issued.stderr).toMatch(/the journal .*not-a-folder\/facturar\/journal-[0-9a-f]+\.jsonl cannot be used/);
    expect(issued.stderr).not.toMatch(/internal error/);
    const listed = await u.run(["journal"], env);
    expect(listed.stderr).not.toMatch(/internal error/);
    expect([0, 6]).toContain(listed.code);
  });

  it("2: usage errors", async () => {
    const u = user();
    expect((await u.run(["query"])).code).toBe(2);
    expect((await u.run(["query", "--ref", "A", "--date", "20/11/2026"])).code).toBe(2);
    expect((await u.run(["query", "--type", "FACTURA Z", "--number", "1"])).code).toBe(2);
    expect((await u.run(["issue", "nope.json"])).code).toBe(2);
    expect((await u.run(["issue-queued", "--timeout", "5", sample("factura-b-dni")])).code).toBe(2);
    const bare = await u.run(["issue", "--out"]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/^error: option '--out <dir>' needs a value\n/);
    const plain = await u.run(["status"], {
      FACTURAR_BASE_URL: "http://example.com/app/api/v2",
      FACTURAR_USERTOKEN: "a",
      FACTURAR_APIKEY: "1",
      FACTURAR_APITOKEN: "b",
    });
    expect(plain.code).toBe(2);
    expect(plain.stderr).toMatch(/only https is allowed/);
  });
});

describe("profiles", () => {
  it("reads a cosmiconfig profile with credentials from env and file; --verbose never shows them", async () => {
    const sbx = await startSandboxProcess();
    const pv = sbx.pointsOfSale[1] as NonNullable<(typeof sbx.pointsOfSale)[number]>;
    const u = user({ PV2_USERTOKEN: pv.usertoken });
    writeFileSync(join(u.home, "apitoken"), `${pv.apitoken}\n`);
    userConfig(
      u.env,
      {
        default_profile: "pv2",
        profiles: {
          pv2: {
            base_url: sbx.baseUrl,
            usertoken: { env: "PV2_USERTOKEN" },
            apikey: pv.apikey,
            apitoken: { file: "~/apitoken" },
            punto_venta: pv.punto_venta,
          },
        },
      },
      0o644,
    );
    // The working folder's own config sets where its PDFs go.
    writeFileSync(join(u.cwd, ".facturarrc.json"), JSON.stringify({ profiles: { pv2: { pdf_dir: "./pdfs" } } }));
    const r = await u.run(["--verbose", "issue", sample("factura-b-dni")]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`FACTURA B ${String(pv.punto_venta).padStart(5, "0")}-00000001`);
    expect(readdirSync(join(u.cwd, "pdfs"))).toContain(
      `FACTURA_B-${String(pv.punto_venta).padStart(5, "0")}-00000001.pdf`,
    );
    // The literal apikey in a file others can read draws the warning.
    expect(r.stderr).toMatch(/holds literal credentials \(apikey\) and other users can read it/);
    expect(r.stderr).toMatch(/POST http:\/\/127\.0\.0\.1:\d+\/app\/api\/v2\/facturacion\/nuevo/);
    for (const secret of [pv.usertoken, pv.apitoken]) {
      expect(r.stderr).not.toContain(secret);
      expect(r.stdout).not.toContain(secret);
    }
    // The journal belongs to the account through a hash of the usertoken, never the token itself.
    const journal = journalText(u.env.XDG_STATE_HOME);
    expect(journal).toMatch(/"state":"issued"/);
    expect(journal).not.toContain(pv.usertoken);
    expect(readdirSync(join(u.env.XDG_STATE_HOME, "facturar")).join(" ")).not.toContain(pv.usertoken);
    // An unknown profile is a usage error naming the ones there are.
    const unknown = await u.run(["--profile", "nope", "status"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/profiles there: pv2/);
    await sbx.stop();
  });

  it("--config uses exactly that file, wherever it is; a credential from an unset variable and a missing file are told, exit 2", async () => {
    const sbx = await startSandboxProcess();
    const pv = sbx.pointsOfSale[1] as NonNullable<(typeof sbx.pointsOfSale)[number]>;
    const u = user();
    // A configuration the search would find, naming another profile: --config must skip it.
    writeFileSync(
      join(u.cwd, ".facturarrc.json"),
      JSON.stringify({ profiles: { elsewhere: { base_url: "sandbox" } } }),
    );
    mkdirSync(join(u.home, "configs"));
    const cfg = join(u.home, "configs", "facturar-pv3.json");
    writeFileSync(
      cfg,
      JSON.stringify({
        default_profile: "pv3",
        profiles: {
          pv3: {
            base_url: sbx.baseUrl,
            usertoken: { env: "PV3_USERTOKEN" },
            apikey: { env: "PV3_APIKEY" },
            apitoken: { env: "PV3_APITOKEN" },
            punto_venta: pv.punto_venta,
          },
        },
      }),
    );
    const creds = { PV3_USERTOKEN: pv.usertoken, PV3_APIKEY: pv.apikey, PV3_APITOKEN: pv.apitoken };
    const issued = await u.run(["--json", "-c", cfg, "issue", "--no-pdf", sample("factura-b-dni")], creds);
    expect(issued.code, issued.stderr).toBe(0);
    expect(ndjson(issued.stdout)[0]).toMatchObject({ status: "issued", punto_venta: pv.punto_venta, numero: 1 });
    expect((await u.run(["--config", cfg, "--profile", "elsewhere", "status"], creds)).stderr).toMatch(
      /profiles there: pv3/,
    );
    // A credential from a variable that is not set: named, before anything is sent.
    const unset = await u.run(["--config", cfg, "issue", "--no-pdf", sample("factura-c")], {
      PV3_USERTOKEN: pv.usertoken,
      PV3_APIKEY: pv.apikey,
    });
    expect(unset.code).toBe(2);
    expect(unset.stderr).toMatch(
      /credential apitoken comes from the environment variable PV3_APITOKEN, which is not set/,
    );
    const missing = await u.run(["--config", join(u.home, "configs", "nope.json"), "status"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(join(u.home, "configs", "nope.json"));
    expect(
      (
        await sbx.call(
          "facturacion/consulta_avanzada",
          { busqueda_tipo: "EXT_REF", comprobante: { external_reference: "FC-2026-0001" } },
          pv,
        )
      ).body.comprobantes ?? [],
    ).toHaveLength(0);
    await sbx.stop();
  });
});

describe("writing documents", () => {
  it("writes atomically, refuses symlinks and names that leave the folder", async () => {
    const dir = tempDir("facturar-out-");
    const path = await writeSafely(dir, "FACTURA_B-00001-00000001.pdf", Buffer.from("%PDF-1"));
    expect(readFileSync(path, "utf8")).toBe("%PDF-1");
    symlinkSync("/etc/passwd", join(dir, "evil.pdf"));
    await expect(writeSafely(dir, "evil.pdf", Buffer.from("x"))).rejects.toThrow(/symbolic link/);
    await expect(writeSafely(dir, "../escape.pdf", Buffer.from("x"))).rejects.toThrow(/not a plain file name/);
    await expect(writeSafely(dir, ".hidden", Buffer.from("x"))).rejects.toThrow(/not a plain file name/);
    expect(readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });
});

describe("a run again of a whole file", () => {
  it("says the hint once, not once per voucher; --json keeps it on every result", async () => {
    const u = freshUser("facturar-hint-once-");
    const csv = join(ROOT, "samples", "batch-nightly.csv");
    const first = await runCli(["issue", "--no-pdf", csv], { cwd: u.cwd, env: u.env });
    expect(first.code, first.stderr).toBe(0);
    const again = await runCli(["issue", "--no-pdf", csv], { cwd: u.cwd, env: u.env });
    expect(again.code).toBe(0);
    const vouchers = again.stdout.split("\n").filter((l) => l.includes("already issued, not sent again")).length;
    expect(vouchers).toBeGreaterThanOrEqual(20);
    expect(again.stdout.match(/--allow-duplicate issues another on purpose/g)).toHaveLength(1);
    const json = ndjson((await runCli(["--json", "issue", "--no-pdf", csv], { cwd: u.cwd, env: u.env })).stdout);
    expect(json.every((r) => /--allow-duplicate/.test(r.hint))).toBe(true);
  }, 60_000);
});

describe("journal of a file that is not there", () => {
  it("a name nothing was read from is a mistake (exit 2); a file deleted since its vouchers were sent still shows them", async () => {
    const u = freshUser("facturar-journal-file-");
    const none = await runCli(["journal", "missing.json"], { cwd: u.cwd, env: u.env });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/missing\.json: no such file, and the journal holds nothing read from it/);
    const file = join(u.cwd, "venta.json");
    writeFileSync(file, readFileSync(join(ROOT, "samples", "factura-b-dni.json")));
    expect((await runCli(["issue", "--no-pdf", file], { cwd: u.cwd, env: u.env })).code).toBe(0);
    expect((await runCli(["journal", "missing.json"], { cwd: u.cwd, env: u.env })).code).toBe(2);
    rmSync(file);
    const gone = await runCli(["journal", file], { cwd: u.cwd, env: u.env });
    expect(gone.code, gone.stderr).toBe(0);
    expect(gone.stdout).toMatch(/issued\s+FB-2026-0001/);
  }, 60_000);
});

describe("journal as support reads it", () => {
  it("a header, times in Argentina (UTC−3) rather than UTC, and --ref for one reference (not found: 9)", async () => {
    const u = freshUser("facturar-journal-ref-");
    const run = (args: string[]) => runCli(args, { cwd: u.cwd, env: u.env });
    const other = JSON.parse(readFileSync(join(ROOT, "samples", "factura-b-dni.json"), "utf8"));
    other.comprobante.external_reference = "OTRA-1";
    writeFileSync(join(u.cwd, "otra.json"), JSON.stringify(other));
    expect((await run(["issue", "--no-pdf", join(ROOT, "samples", "factura-b-dni.json"), "otra.json"])).code).toBe(0);
    const listed = await run(["journal"]);
    expect(listed.code, listed.stderr).toBe(0);
    const [head, ...lines] = listed.stdout.trimEnd().split("\n");
    expect(head).toMatch(/^state\s+reference\s+type\s+number\s+time \(Argentina\)\s+source$/);
    expect(lines).toHaveLength(2);
    // The journal keeps UTC; the table shows the time three hours earlier, as a person there reads it.
    const entries = ndjson((await run(["--json", "journal"])).stdout);
    const at = new Date(Date.parse(entries[0].at) - 3 * 3_600_000).toISOString();
    const local = `${at.slice(8, 10)}/${at.slice(5, 7)}/${at.slice(0, 4)} ${at.slice(11, 19)}`;
    expect(listed.stdout).toContain(local);
    expect(listed.stdout).not.toMatch(/\d{4}-\d\d-\d\dT/);
    const one = await run(["journal", "--ref", "OTRA-1"]);
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout).toMatch(/issued\s+OTRA-1\s+FACTURA B\s+00679-0000000\d/);
    expect(one.stdout).not.toMatch(/FB-2026-0001/);
    const none = await run(["journal", "--ref", "NOPE-1"]);
    expect(none.code).toBe(9);
    expect(none.stderr).toMatch(/the journal holds nothing under NOPE-1/);
  }, 30_000);
});
