/**
 * `issueFiles` whole (src/batch/run.ts), against the embedded sandbox in this process: a run from
 * the files to every voucher's result (milliseconds to a second a run). The lanes themselves,
 * against a scripted issuer, are test/unit/lanes.test.ts.
 */
import { chmodSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AccountKey, Connect } from "../../src/api/connection.js";
import { TransportError } from "../../src/api/http.js";
import type { Service } from "../../src/api/protocol.js";
import { Journal, JournalBusyError } from "../../src/batch/journal.js";
import type { VoucherResult } from "../../src/batch/result.js";
import { type IssueRequest, type IssueSummary, issueFiles } from "../../src/batch/run.js";
import { stateDir } from "../../src/config/paths.js";
import { loadProfile } from "../../src/config/profile.js";
import { UsageError } from "../../src/errors.js";
import { english } from "../../src/i18n/message.js";
import { startSandbox } from "../../src/sandbox/server.js";
import { accountOf, connect } from "../../src/session/connect.js";
import { clockFrom } from "../../src/voucher/dates.js";
import { asRead, baseVoucher, freshUser, item, journalFiles, type Raw, ROOT, TODAY } from "../helpers.js";

/** A user of their own (home, XDG folders, working folder) on TODAY; the embedded sandbox runs in this process. */
function user() {
  const u = freshUser("facturar-lanes-");
  return { ...u, env: { ...u.env, FACTURAR_TODAY: TODAY } as NodeJS.ProcessEnv };
}

function raw(ref: string, changes: (r: Raw) => void = () => {}): Raw {
  const r = baseVoucher();
  r.comprobante.external_reference = ref;
  changes(r);
  return r;
}

let files = 0;

/** issueFiles on one JSON file per list given; what it told, returned and warned. */
async function issue(
  u: ReturnType<typeof user>,
  inputs: Raw[][],
  req: Partial<IssueRequest> = {},
): Promise<{ summary: IssueSummary; results: VoucherResult[]; warnings: string[]; log: string[]; total?: number }> {
  const paths = inputs.map((list) => {
    const path = join(u.cwd, `in-${++files}.json`);
    writeFileSync(path, JSON.stringify(list));
    return path;
  });
  const results: VoucherResult[] = [];
  const warnings: string[] = [];
  const log: string[] = [];
  let total: number | undefined;
  const summary = await issueFiles(
    {
      files: paths,
      read: {},
      validate: true,
      mode: "instant",
      allowDuplicate: false,
      savePdf: false,
      wait: false,
      waitTimeoutMs: 1000,
      profile: { env: u.env, cwd: u.cwd },
      connect,
      env: u.env,
      cwd: u.cwd,
      warn: (line) => warnings.push(english(line)),
      log: (line) => log.push(english(line)),
      onStart: (n) => {
        total = n;
      },
      ...req,
    },
    async (r) => {
      results.push(asRead(r));
    },
  );
  return { summary: asRead(summary), results, warnings, log, ...(total !== undefined ? { total } : {}) };
}

/** The user's environment, with the embedded sandbox as production: the authority's checks applied. */
const likeProduction = (u: ReturnType<typeof user>) => ({ ...u.env, FACTURAR_SANDBOX_FAULTS: "authority-checks" });
const by = (results: VoucherResult[]) => results.map((r) => [r.external_reference, r.status]);
/** The service methods a run called, in order, from its verbose log. */
const calls = (log: string[]) =>
  log
    .flatMap((l) => /^POST \S+\/app\/api\/v2\/(\S+)/.exec(l)?.[1] ?? [])
    .filter((m) => m !== "facturacion/consulta_avanzada");
const NONE = {
  invalid: 0,
  issued: 0,
  queued: 0,
  skipped: 0,
  rejected: 0,
  unknown: 0,
  held: 0,
  conflicts: 0,
  documentsMissing: 0,
  cancelled: false,
  interrupted: false,
};

describe("issueFiles: a run from the files to every voucher's result", () => {
  it("every voucher told and counted; the next run finds them issued and skips them", async () => {
    const u = user();
    const first = await issue(u, [[raw("R-1"), raw("R-2")], [raw("R-3")]]);
    expect(by(first.results)).toEqual([
      ["R-1", "issued"],
      ["R-2", "issued"],
      ["R-3", "issued"],
    ]);
    expect(first.results.map((r) => r.numero)).toEqual([1, 2, 3]);
    expect(first.summary).toEqual({ ...NONE, issued: 3 });
    expect(first.total).toBe(3);
    // No warnings, none listed.
    expect(first.results.map((r) => r.warning_details)).toEqual([undefined, undefined, undefined]);
    const again = await issue(u, [[raw("R-1"), raw("R-2"), raw("R-3")]]);
    expect(again.summary).toEqual({ ...NONE, skipped: 3 });
    // The journal lost: the service is asked once for the day's listing, nothing is sent again.
    rmSync(join(u.env.XDG_STATE_HOME as string, "facturar"), { recursive: true });
    const lost = await issue(u, [[raw("R-1"), raw("R-2"), raw("R-3")]]);
    expect(lost.summary).toEqual({ ...NONE, skipped: 3 });
    expect(lost.log.filter((l) => / \S+\/facturacion\/consulta_avanzada /.test(l))).toHaveLength(1);
    expect(calls(lost.log)).toEqual([]);
  });

  it("the checks read the run's clock: five days back from it is within the authority's window", async () => {
    const u = user();
    const out = await issue(u, [[raw("CLOCK-1", (r) => (r.comprobante.fecha = "15/11/2026"))]]);
    expect(by(out.results)).toEqual([["CLOCK-1", "issued"]]);
  });

  it("one invalid voucher: it is told with its findings, nothing is sent, the valid ones told held and counted", async () => {
    const u = user();
    const bad = raw("BAD-1", (r) => (r.comprobante.total = 999));
    const out = await issue(u, [[raw("OK-1"), bad, raw("OK-2")]]);
    expect(out.summary).toEqual({ ...NONE, invalid: 1, validNotSent: 2 });
    // Every voucher of the input has its result: the valid ones, after it, in input order (#25).
    expect(by(out.results)).toEqual([
      ["BAD-1", "invalid"],
      ["OK-1", "held"],
      ["OK-2", "held"],
    ]);
    for (const held of out.results.slice(1))
      expect(held).toMatchObject({
        ok: false,
        comprobante_tipo: "FACTURA B",
        punto_venta: null,
        numero: null,
        cae: null,
        errors: ["not sent: 1 voucher of this run is invalid; --skip-invalid sends the valid ones"],
        error_details: [],
      });
    expect(out.results[2]?.source).toMatch(/in-\d+\.json\[2\]$/);
    const r = out.results[0] as VoucherResult;
    expect(r).toMatchObject({
      ok: false,
      status: "invalid",
      external_reference: "BAD-1",
      comprobante_tipo: "FACTURA B",
      total: "999",
      numero: null,
    });
    expect(r.source).toMatch(/in-\d+\.json/);
    expect(r.error_details.length).toBeGreaterThan(0);
    expect(r.errors).toEqual(r.error_details.map((d) => `${d.place}: ${d.text} [${d.code}]`));
    expect(r.error_details[0]?.field).toMatch(/total/);
    expect(r.warning_details).toBeUndefined();
    // Nothing was sent: the next run numbers OK-1 first.
    const next = await issue(u, [[raw("OK-1")]]);
    expect(next.results[0]?.numero).toBe(1);
  });

  it("refused for an invalid one: every other voucher told held in input order, repeats and unnamed ones too", async () => {
    const u = user();
    const unnamed = (pv?: number) =>
      raw("", (r) => {
        delete r.comprobante.external_reference;
        if (pv !== undefined) r.comprobante.punto_venta = pv;
      });
    const bad = raw("BAD-2", (r) => (r.comprobante.total = 1));
    const warned = raw("H-1", (r) => (r.cliente.documento_nro = "123456"));
    const out = await issue(u, [[unnamed(), warned, bad, warned, unnamed(679)]]);
    expect(out.results.map((r) => r.status)).toEqual(["invalid", "held", "held", "held", "held"]);
    const [, pending, first, repeat, named] = out.results as VoucherResult[];
    // No reference and no point of sale: its reference waits for the profile's, never asked.
    expect(pending?.external_reference).toBe("");
    expect(named?.external_reference).toMatch(/^F-[0-9a-f]{24}-679$/);
    expect([first?.external_reference, repeat?.external_reference]).toEqual(["H-1", "H-1"]);
    expect(repeat?.source).not.toBe(first?.source);
    // Each with its own warnings, as read.
    expect(repeat?.warning_details?.map((w) => w.code)).toEqual(["document.dni"]);
    expect(out.summary).toEqual({ ...NONE, invalid: 1, validNotSent: 4 });
    expect(out.log).toEqual([]);
  });

  it("an invalid voucher that does not even parse is told with what can be read of it", async () => {
    const u = user();
    const out = await issue(u, [
      [
        raw("X", (r) => {
          r.comprobante.tipo = 6;
          r.comprobante.external_reference = 77;
        }),
        { cliente: {} },
      ],
    ]);
    expect(out.results.map((r) => [r.external_reference, r.comprobante_tipo, r.total, r.status])).toEqual([
      ["77", null, null, "invalid"],
      ["", null, null, "invalid"],
    ]);
    expect(out.summary).toEqual({ ...NONE, invalid: 2, validNotSent: 0 });
  });

  it("an invalid voucher's warnings are in its result", async () => {
    const u = user();
    const out = await issue(u, [
      [
        raw("BADW", (r) => {
          r.cliente.documento_nro = "123456";
          r.comprobante.total = 5;
        }),
      ],
    ]);
    expect(out.results[0]?.warning_details?.map((w) => w.code)).toEqual(["document.dni"]);
    expect(out.results[0]?.warning_details?.[0]?.place).toMatch(/cliente/);
  });

  it("--skip-invalid: the valid vouchers are sent, the invalid ones told", async () => {
    const u = user();
    const out = await issue(u, [[raw("S-1"), raw("S-BAD", (r) => (r.comprobante.total = 1)), raw("S-2")]], {
      skipInvalid: true,
    });
    expect(by(out.results)).toEqual([
      ["S-BAD", "invalid"],
      ["S-1", "issued"],
      ["S-2", "issued"],
    ]);
    expect(out.summary).toEqual({ ...NONE, invalid: 1, issued: 2, skippedInvalid: true });
    const none = await issue(u, [[raw("S-BAD2", (r) => (r.comprobante.total = 1))]], { skipInvalid: true });
    expect(none.summary).toEqual({ ...NONE, invalid: 1, validNotSent: 0 });
  });

  it("without validation a voucher the checks refuse is sent all the same, for the service to judge", async () => {
    const u = user();
    const out = await issue(u, [[raw("NV-1", (r) => (r.cliente.documento_nro = "123456"))]], { validate: false });
    expect(out.results.map((r) => r.status)).not.toContain("invalid");
    expect(out.summary.invalid).toBe(0);
  });

  it("a warning repeated voucher after voucher is told once, then counted", async () => {
    const u = user();
    const short = (ref: string) => raw(ref, (r) => (r.cliente.documento_nro = "123456"));
    const out = await issue(u, [[short("W-1"), short("W-2"), short("W-3")], [short("W-4")]]);
    expect(out.summary.issued).toBe(4);
    const told = out.warnings.filter((w) => /document\.dni/.test(w));
    expect(told).toHaveLength(3);
    expect(told[0]).toMatch(/\/in-\d+\.json\[0\] cliente\.documento_nro: .*\[document\.dni\]$/);
    expect(told[1]).toMatch(/\/in-\d+\.json\[0\] cliente\.documento_nro: /);
    expect(told[2]).toMatch(
      /\/in-\d+\.json: the same warning \[document\.dni\] on cliente\.documento_nro for 2 more vouchers \(each result lists its own\)$/,
    );
    // Each voucher's result lists its own.
    for (const r of out.results) expect(r.warning_details?.map((w) => w.code)).toEqual(["document.dni"]);
    // The same warning on another item (the 2nd, the 11th) is the same warning.
    const legend = (ref: string, items: number) =>
      raw(ref, (r) => {
        r.comprobante.detalle = Array.from({ length: items }, () => item("Caja", 1, 100));
        r.comprobante.detalle[items - 1].leyenda = "x".repeat(101);
        r.comprobante.total = 121 * items;
      });
    const items = await issue(u, [[legend("LG-1", 1), legend("LG-2", 2), legend("LG-11", 11)]]);
    expect(items.summary.issued).toBe(3);
    const long = items.warnings.filter((w) => /text\.max/.test(w));
    expect(long).toEqual([
      expect.stringMatching(/\[0\] comprobante\.detalle\[0\]\.leyenda: .*\[text\.max\]$/),
      expect.stringMatching(
        /: the same warning \[text\.max\] on comprobante\.detalle\[0\]\.leyenda for 2 more vouchers/,
      ),
    ]);
  });
});

describe("issueFiles: one reference, twice in the input", () => {
  it("the same voucher twice is sent once; the repeat is told the first's outcome", async () => {
    const u = user();
    const out = await issue(u, [[raw("D-1"), raw("D-2")], [raw("D-1")]]);
    expect(by(out.results)).toEqual([
      ["D-1", "issued"],
      ["D-1", "skipped-duplicate"],
      ["D-2", "issued"],
    ]);
    const [first, repeat] = out.results as [VoucherResult, VoucherResult];
    expect(repeat.source).not.toBe(first.source);
    expect(repeat.comprobante_nro).toBe(first.comprobante_nro);
    expect(repeat.hint).toBe(`the same voucher as ${first.source} (same external_reference): sent once`);
    expect(repeat.warnings ?? []).toEqual(first.warnings ?? []);
    expect(out.summary).toEqual({ ...NONE, issued: 2, skipped: 1 });
    expect(out.total).toBe(3);
  });

  it("two different vouchers under one reference: invalid input, nothing sent", async () => {
    const u = user();
    const other = raw("C-1", (r) => {
      r.comprobante.detalle[0].producto.descripcion = "Otro producto";
      r.cliente.documento_nro = "123456";
    });
    const out = await issue(u, [[raw("C-1"), raw("C-2"), other]]);
    expect(by(out.results)).toEqual([
      ["C-1", "invalid"],
      ["C-1", "held"],
      ["C-2", "held"],
    ]);
    const r = out.results[0] as VoucherResult;
    expect(r.source).toMatch(/\.json\[2\]$/);
    const message = `external_reference C-1 is also used by ${r.source.replace(/\[2\]$/, "[0]")}, with other content`;
    expect(r.errors).toEqual([`${r.source}: ${message}`]);
    expect(r.error_details).toEqual([
      { code: "reference.conflict", text: message, field: "comprobante.external_reference", place: r.source },
    ]);
    expect(r.hint).toBe("give each voucher its own external_reference");
    expect(r.warning_details?.map((w) => w.code)).toEqual(["document.dni"]);
    expect(out.summary).toEqual({ ...NONE, invalid: 1, validNotSent: 2 });
    expect((await issue(u, [[raw("C-2")]])).results[0]?.numero).toBe(1);
    // --skip-invalid: the first under the reference is sent, the other told.
    const skipping = await issue(u, [[raw("C-1"), other]], { skipInvalid: true });
    expect(by(skipping.results)).toEqual([
      ["C-1", "invalid"],
      ["C-1", "issued"],
    ]);
    expect(skipping.summary).toEqual({ ...NONE, invalid: 1, issued: 1, skippedInvalid: true });
  });

  it("one names the point of sale, the other leaves it to the profile: the same voucher, sent once", async () => {
    const u = user();
    const out = await issue(u, [[raw("P-1", (r) => (r.comprobante.punto_venta = 679)), raw("P-1")]]);
    expect(by(out.results)).toEqual([
      ["P-1", "issued"],
      ["P-1", "skipped-duplicate"],
    ]);
    expect(out.summary).toEqual({ ...NONE, issued: 1, skipped: 1 });
  });

  it("vouchers without a reference: one derived from the content and the point of sale, filled in from the profile", async () => {
    const u = user();
    const unnamed = (pv?: number) =>
      raw("", (r) => {
        delete r.comprobante.external_reference;
        if (pv !== undefined) r.comprobante.punto_venta = pv;
      });
    const out = await issue(u, [[unnamed(679), unnamed(), unnamed()]]);
    expect(out.results.map((r) => r.status)).toEqual(["issued", "skipped-duplicate", "skipped-duplicate"]);
    const [a, b, c] = out.results as VoucherResult[];
    expect(a?.external_reference).toMatch(/^F-[0-9a-f]{24}-679$/);
    expect([b?.external_reference, c?.external_reference]).toEqual([a?.external_reference, a?.external_reference]);
    expect(out.results.map((r) => r.punto_venta)).toEqual([679, 679, 679]);
    expect(out.summary).toEqual({ ...NONE, issued: 1, skipped: 2 });
    // Again: found issued, whichever way each names its point of sale.
    const again = await issue(u, [[unnamed(), unnamed(679)]]);
    expect(again.results.map((r) => r.status)).toEqual(["skipped-duplicate", "skipped-duplicate"]);
  });
});

describe("issueFiles: checks made once the service can be asked", () => {
  const anonymous = (ref: string) =>
    raw(ref, (r) => {
      r.cliente = {
        documento_tipo: "OTRO",
        documento_nro: "0",
        razon_social: "Consumidor final",
        condicion_iva: "CF",
        provincia: 1,
      };
    });

  it("a sale to an unidentified consumer at or above the service's ceiling is invalid, repeats too", async () => {
    const u = user();
    expect((await issue(u, [[anonymous("U-1")]])).summary).toEqual({ ...NONE, issued: 1 });
    // Today's ceiling, as the service said it, is cached: the service lowers it.
    const cache = join(u.env.XDG_STATE_HOME as string, "facturar", "ceiling.json");
    const cached = JSON.parse(readFileSync(cache, "utf8")) as Record<string, { day: string; monto: string }>;
    for (const key of Object.keys(cached)) (cached[key] as { monto: string }).monto = "121.00";
    writeFileSync(cache, JSON.stringify(cached));
    // In dollars, the amount is weighed in pesos: 1.21 dollars at 1000 is 1210 pesos.
    const dollars = anonymous("U-USD");
    dollars.comprobante.moneda = "DOL";
    dollars.comprobante.cotizacion = 1000;
    dollars.comprobante.detalle[0].producto.precio_unitario_sin_iva = 1;
    dollars.comprobante.total = 1.21;
    const out = await issue(u, [[raw("ID-1"), anonymous("U-2"), anonymous("U-2"), dollars]]);
    expect(by(out.results)).toEqual([
      ["U-2", "invalid"],
      ["U-2", "invalid"],
      ["U-USD", "invalid"],
      ["ID-1", "held"],
    ]);
    expect(out.results[3]?.errors).toEqual([
      "not sent: 3 vouchers of this run are invalid; --skip-invalid sends the valid ones",
    ]);
    const r = out.results[0] as VoucherResult;
    expect(r.error_details).toEqual([
      {
        code: "anonymous.ceiling",
        text: expect.stringMatching(/ceiling for unidentified consumers \(121\.00\)/),
        field: "cliente.documento_tipo",
        place: `${r.source} cliente.documento_tipo`,
      },
    ]);
    expect(r.errors).toEqual([`${r.source} cliente.documento_tipo: ${r.error_details[0]?.text} [anonymous.ceiling]`]);
    expect(out.summary).toEqual({ ...NONE, invalid: 3, validNotSent: 1 });
    const skipping = await issue(u, [[raw("ID-1"), anonymous("U-2"), anonymous("U-2")]], { skipInvalid: true });
    expect(by(skipping.results)).toEqual([
      ["U-2", "invalid"],
      ["U-2", "invalid"],
      ["ID-1", "issued"],
    ]);
    expect(skipping.summary).toEqual({ ...NONE, invalid: 2, issued: 1, skippedInvalid: true });
    // Neither U-2 is left to send: only ID-1 is counted for the progress bar.
    expect(skipping.total).toBe(1);
    // Without validation the service judges it (the sandbox takes it).
    const unchecked = await issue(u, [[anonymous("U-3")]], { validate: false });
    expect(by(unchecked.results)).toEqual([["U-3", "issued"]]);
  });

  it("a cotizacion far from the authority's rate is invalid, with a hint to look it up", async () => {
    const u = user();
    const usd = (ref: string, cotizacion: number) =>
      raw(ref, (r) => {
        r.comprobante.moneda = "DOL";
        r.comprobante.cotizacion = cotizacion;
      });
    expect(by((await issue(u, [[usd("USD-0", 1000)]])).results)).toEqual([["USD-0", "issued"]]);
    const out = await issue(u, [[usd("USD-1", 1000), usd("USD-2", 10)]]);
    expect(by(out.results)).toEqual([
      ["USD-2", "invalid"],
      ["USD-1", "held"],
    ]);
    const r = out.results[0] as VoucherResult;
    expect(r.error_details).toEqual([
      {
        code: "currency.rate-range",
        text: expect.any(String),
        field: "comprobante.cotizacion",
        place: `${r.source} comprobante.cotizacion`,
      },
    ]);
    expect(r.hint).toBe(
      "give the rate in pesos per unit; `facturar exchange-rate --currency DOL` shows the authority's",
    );
    expect(out.summary).toEqual({ ...NONE, invalid: 1, validNotSent: 1 });
    // USD-1 again with another rate is a conflict: told as one, not checked against the rate too.
    const skipping = await issue(u, [[usd("USD-1", 1000), usd("USD-2", 10), usd("USD-1", 9)]], { skipInvalid: true });
    expect(by(skipping.results)).toEqual([
      ["USD-1", "invalid"],
      ["USD-2", "invalid"],
      ["USD-1", "issued"],
    ]);
    expect(skipping.results[0]?.error_details[0]?.code).toBe("reference.conflict");
    expect(skipping.summary).toEqual({ ...NONE, invalid: 2, issued: 1, skippedInvalid: true });
    // Without validation the rate is not checked here: it is sent, and the service like production
    // refuses it (the development plan skips the authority's checks, spec §1).
    const unchecked = await issue(u, [[usd("USD-3", 10)]], { validate: false, env: likeProduction(u) });
    expect(by(unchecked.results)).toEqual([["USD-3", "rejected"]]);
    expect(unchecked.results[0]?.error_details.map((d) => d.code)).not.toContain("currency.rate-range");
  });

  it("dated before the latest voucher issued in its lane: invalid before sending (10016)", async () => {
    const u = user();
    const yesterday = (ref: string) => raw(ref, (r) => (r.comprobante.fecha = "19/11/2026"));
    await issue(u, [[yesterday("L-A"), raw("L-1")]]);
    // L-A, issued before, is no voucher to send: found issued, not refused.
    // L-0 with a warning of its own (a short DNI): its result carries it.
    const warned = raw("L-0", (r) => {
      r.comprobante.fecha = "19/11/2026";
      r.cliente.documento_nro = "123456";
    });
    const out = await issue(u, [[warned, raw("L-2"), raw("L-1"), yesterday("L-A")]]);
    // The others are told not sent, in input order; L-1 and L-A, issued before, too: the run
    // stopped before asking anything of them.
    expect(by(out.results)).toEqual([
      ["L-0", "invalid"],
      ["L-2", "held"],
      ["L-1", "held"],
      ["L-A", "held"],
    ]);
    const r = out.results[0] as VoucherResult;
    const message =
      "dated 19/11/2026, before 20/11/2026, the date of the latest FACTURA B issued at point of sale 679: the authority refuses a date earlier than its lane's last voucher";
    expect(r.error_details).toEqual([
      { code: "date.order", text: message, field: "comprobante.fecha", place: `${r.source} comprobante.fecha` },
    ]);
    expect(r.hint).toBe("date it on or after 20/11/2026, or issue it from another point of sale");
    // Its own warnings, as every voucher refused before sending (one refusal path for all).
    expect(r.warning_details?.map((w) => w.code)).toEqual(["document.dni"]);
    expect(out.summary).toEqual({ ...NONE, invalid: 1, validNotSent: 3 });
    const skipping = await issue(u, [[yesterday("L-0"), raw("L-2"), yesterday("L-0"), yesterday("L-A")]], {
      skipInvalid: true,
    });
    expect(by(skipping.results)).toEqual([
      ["L-0", "invalid"],
      ["L-A", "skipped-duplicate"],
      ["L-2", "issued"],
    ]);
    expect(skipping.summary).toEqual({ ...NONE, invalid: 1, issued: 1, skipped: 1, skippedInvalid: true });
    expect(skipping.total).toBe(2);
  });
});

describe("issueFiles: asked first, stopped, sent in batches", () => {
  it("a confirmation refused: nothing is sent, the run is cancelled", async () => {
    const u = user();
    const asked: string[][] = [];
    const out = await issue(u, [[raw("K-1"), raw("K-2")]], {
      confirm: async (_profile, vs) => {
        asked.push(vs.map((v) => v.reference));
        return false;
      },
    });
    expect(asked).toEqual([["K-1", "K-2"]]);
    expect(out.results).toEqual([]);
    expect(out.summary).toEqual({ ...NONE, cancelled: true });
    const yes = await issue(u, [[raw("K-2")]], { confirm: async () => true });
    expect(yes.results.map((r) => [r.status, r.numero])).toEqual([["issued", 1]]);
  });

  it("a stop asked before sending: every voucher held as interrupted, the run says so", async () => {
    const u = user();
    const named = raw("I-680", (r) => (r.comprobante.punto_venta = 680));
    const out = await issue(u, [[raw("I-1"), raw("I-2"), raw("I-1"), named]], { stop: { requested: true } });
    // Each says which voucher it is: its point of sale (the profile's, or its own) and total.
    const told = out.results.map((r) => [r.external_reference, r.status, r.punto_venta, r.total, r.errors.join()]);
    expect(told.sort((a, b) => String(a[0]).localeCompare(String(b[0])))).toEqual([
      ["I-1", "held", 679, "121", "not sent: interrupted"],
      ["I-1", "held", 679, "121", "not sent: interrupted"],
      ["I-2", "held", 679, "121", "not sent: interrupted"],
      ["I-680", "held", 680, "121", "not sent: interrupted"],
    ]);
    expect(out.summary).toEqual({ ...NONE, held: 4, interrupted: true });
  });

  it("instant: up to 20 vouchers a lotes call by default, a single one through nuevo; --batch-size 1 one by one", async () => {
    const u = user();
    const many = await issue(u, [Array.from({ length: 21 }, (_, i) => raw(`B-${i + 1}`))]);
    expect(many.summary.issued).toBe(21);
    expect(calls(many.log)).toEqual(["facturacion/lotes", "facturacion/nuevo"]);
    const single = await issue(u, [[raw("S-1"), raw("S-2")]], { batchSize: 1 });
    expect(calls(single.log)).toEqual(["facturacion/nuevo", "facturacion/nuevo"]);
  });

  it("queued: one lotes_encola call takes more than the instant 20 by default (up to 100)", async () => {
    const u = user();
    const queued = (ref: string) => raw(ref, (r) => (r.comprobante.numero = 0));
    const out = await issue(u, [Array.from({ length: 21 }, (_, i) => queued(`Q-${i + 1}`))], { mode: "queued" });
    expect(out.summary).toEqual({ ...NONE, queued: 21 });
    expect(calls(out.log)).toEqual(["facturacion/lotes_encola"]);
    // --wait follows a queued voucher until the service's queue (every 200 ms here) issues it.
    const waited = await issue(u, [[queued("QW-1")]], { mode: "queued", wait: true, waitTimeoutMs: 10_000 });
    expect(waited.results.map((r) => [r.status, r.comprobante_nro !== null])).toEqual([["issued", true]]);
    // The queue takes a voucher dated ahead (it is issued on its day); an instant run refuses it.
    const ahead = (ref: string) =>
      raw(ref, (r) => {
        r.comprobante.numero = 0;
        r.comprobante.fecha = "15/12/2026";
        r.comprobante.vencimiento = "30/12/2026";
      });
    expect(by((await issue(u, [[ahead("QA-1")]], { mode: "queued" })).results)).toEqual([["QA-1", "queued"]]);
    expect(by((await issue(u, [[ahead("QA-2")]])).results)).toEqual([["QA-2", "invalid"]]);
  });
});

describe("issueFiles: what the service or the disk says midway", () => {
  it("the authority down: nothing issued, every voucher held, the run stopped by it", async () => {
    const u = user();
    const env = { ...u.env, FACTURAR_SANDBOX_FAULTS: "authority-down" };
    const out = await issue(u, [[raw("AD-1"), raw("AD-2"), raw("AD-1")]], { env, profile: { env, cwd: u.cwd } });
    expect(by(out.results)).toEqual([
      ["AD-1", "held"],
      ["AD-1", "held"],
      ["AD-2", "held"],
    ]);
    expect(out.summary.stoppedBy?.message).toMatch(/authority/);
    expect(out.results[2]?.errors[0]).toBe(`not sent: the service stopped the run: ${out.summary.stoppedBy?.message}`);
    expect(out.summary).toMatchObject({ ...NONE, held: 3 });
  });

  it("a journal that fills up midway stops the run, and the outcomes it could not take are told", async () => {
    const u = user();
    const env = { ...u.env, FACTURAR_TEST_JOURNAL_FULL_AT: "3000" };
    const out = await issue(u, [Array.from({ length: 12 }, (_, i) => raw(`J-${i + 1}`))], { env, batchSize: 1 });
    expect(out.summary.stoppedBy?.message).toMatch(/journal.*cannot be used: .*ENOSPC/);
    expect(out.results).toHaveLength(12);
    expect(out.summary.issued).toBeGreaterThan(0);
    expect(out.summary.held).toBe(12 - out.summary.issued);
    expect(out.warnings).toContainEqual(
      expect.stringMatching(/^\d+ outcomes are not in the journal; the next run asks the service about them$/),
    );
  });

  it("a date the authority refuses (unchecked, like production): told rejected, the rest of its lane held, both counted", async () => {
    const u = user();
    const vouchers = [raw("RJ-1", (r) => (r.comprobante.fecha = "01/10/2026")), raw("RJ-2"), raw("RJ-3")];
    const out = await issue(u, [vouchers], { validate: false, env: likeProduction(u) });
    expect(by(out.results)).toEqual([
      ["RJ-1", "rejected"],
      ["RJ-2", "held"],
      ["RJ-3", "held"],
    ]);
    expect(out.results[0]?.errors.join(" ")).toMatch(/10016/);
    expect(out.summary).toEqual({ ...NONE, rejected: 1, held: 2 });
    // One by one, RJ-2 is journaled while RJ-1 is in flight: the journal then says held, not sending.
    const single = await issue(u, [vouchers], { validate: false, batchSize: 1, env: likeProduction(u) });
    expect(by(single.results)).toEqual([
      ["RJ-1", "rejected"],
      ["RJ-2", "held"],
      ["RJ-3", "held"],
    ]);
    const [journal] = journalFiles(u.env.XDG_STATE_HOME as string);
    const states = readFileSync(journal as string, "utf8")
      .split("\n")
      .flatMap((line) => (line.includes('"RJ-2"') ? [JSON.parse(line).state] : []));
    expect(states.at(-1)).toBe("held");
  });
});

describe("issueFiles: the documents", () => {
  it("documents not saved are counted; a later run that saves documents fetches them, unless it has them itself", async () => {
    const u = user();
    const blocker = join(u.cwd, "blocker");
    writeFileSync(blocker, "a file where the folder should be");
    const first = await issue(u, [[raw("DOC-1"), raw("DOC-2"), raw("DOC-1")]], {
      savePdf: true,
      outDir: join(blocker, "pdf"),
    });
    expect(by(first.results)).toEqual([
      ["DOC-1", "issued"],
      ["DOC-1", "skipped-duplicate"],
      ["DOC-2", "issued"],
    ]);
    expect(first.results.map((r) => r.documents_missing)).toEqual([true, undefined, true]);
    expect(first.summary).toEqual({ ...NONE, issued: 2, skipped: 1, documentsMissing: 2 });
    // The repeat tells the first's warnings (why its documents are missing), not counted again.
    expect(first.results[1]?.warnings).toEqual(first.results[0]?.warnings);
    expect(first.results[0]?.warnings?.length).toBeGreaterThan(0);
    const about = (warnings: string[]) => warnings.filter((w) => /^DOC-\d: /.test(w));
    // Without documents, or stopped: not fetched.
    expect(about((await issue(u, [[raw("OTHER-1")]])).warnings)).toEqual([]);
    const ok = join(u.cwd, "ok");
    expect(
      about((await issue(u, [[raw("OTHER-2")]], { savePdf: true, outDir: ok, stop: { requested: true } })).warnings),
    ).toEqual([]);
    const down = { ...u.env, FACTURAR_SANDBOX_FAULTS: "authority-down" };
    const stopped = await issue(u, [[raw("OTHER-4")]], {
      savePdf: true,
      outDir: ok,
      env: down,
      profile: { env: down, cwd: u.cwd },
    });
    expect(stopped.summary.stoppedBy).toBeDefined();
    expect(about(stopped.warnings)).toEqual([]);
    // DOC-1, in this run's input, is told in its own result; DOC-2 is fetched, and fails again.
    const still = await issue(u, [[raw("DOC-1")]], { savePdf: true, outDir: join(blocker, "pdf") });
    expect(still.results.map((r) => [r.status, r.documents_missing])).toEqual([["skipped-duplicate", true]]);
    expect(about(still.warnings)).toEqual([
      expect.stringMatching(/^DOC-2: its documents are still missing: PDF not saved: .+; ticket not saved: .+/),
    ]);
    rmSync(blocker);
    const fixed = await issue(u, [[raw("DOC-1")]], { savePdf: true, outDir: ok });
    expect(about(fixed.warnings)).toEqual([
      expect.stringMatching(/^DOC-2: the documents an earlier run could not save are saved now: .*\.pdf$/),
    ]);
  });
});

describe("issueFiles: a service at a URL", () => {
  it("requests 100 ms apart unless --rate; a voucher without a point of sale, and none in the profile, refused", async () => {
    const u = user();
    const sandbox = await startSandbox({ dataDir: join(u.home, "service"), now: clockFrom(u.env) });
    try {
      const pv = sandbox.pointsOfSale[0] as (typeof sandbox.pointsOfSale)[number];
      const env = {
        ...u.env,
        FACTURAR_BASE_URL: sandbox.baseUrl,
        FACTURAR_USERTOKEN: pv.usertoken,
        FACTURAR_APIKEY: pv.apikey,
        FACTURAR_APITOKEN: pv.apitoken,
      };
      const req = { env, profile: { env, cwd: u.cwd }, rateMs: 0 };
      const named = await issue(u, [[raw("URL-1", (r) => (r.comprobante.punto_venta = pv.punto_venta))]], req);
      expect(by(named.results)).toEqual([["URL-1", "issued"]]);
      // Without --rate, a service at a URL gets the 100 ms it asks between requests.
      const sent: number[] = [];
      const spaced = await issue(
        u,
        [["URL-4", "URL-5"].map((ref) => raw(ref, (r) => (r.comprobante.punto_venta = pv.punto_venta)))],
        {
          ...req,
          rateMs: undefined,
          batchSize: 1,
          log: (said) => {
            const line = english(said);
            if (/\/facturacion\/nuevo /.test(line)) sent.push(performance.now());
          },
        },
      );
      expect(spaced.summary.issued).toBe(2);
      expect((sent[1] as number) - (sent[0] as number)).toBeGreaterThanOrEqual(95);
      const unnamed = issue(
        u,
        [[raw("URL-2", (r) => (r.comprobante.punto_venta = pv.punto_venta)), raw("URL-3")]],
        req,
      );
      await expect(unnamed).rejects.toThrow(
        /in-\d+\.json\[1\]: no point of sale: the voucher names none and profile default has no punto_venta/,
      );
      await expect(unnamed).rejects.toBeInstanceOf(UsageError);
      await expect(unnamed).rejects.toMatchObject({
        hint: "set punto_venta in the profile (or FACTURAR_PUNTO_VENTA), or comprobante.punto_venta in the voucher",
      });
      expect(sandbox.store.findByReference(pv.punto_venta, "URL-2")).toEqual([]);
    } finally {
      await sandbox.close();
    }
  });

  it("--rate spaces the requests", async () => {
    const u = user();
    const sent: number[] = [];
    const out = await issue(u, [[raw("RATE-1"), raw("RATE-2")]], {
      batchSize: 1,
      rateMs: 150,
      log: (said) => {
        const line = english(said);
        if (/\/facturacion\/nuevo /.test(line)) sent.push(performance.now());
      },
    });
    expect(out.summary.issued).toBe(2);
    expect(sent).toHaveLength(2);
    expect((sent[1] as number) - (sent[0] as number)).toBeGreaterThanOrEqual(145);
  });
});

describe("issueFiles: purchases, re-issues, where documents go", () => {
  it("a purchase dated before the last one from its supplier's point of sale is sent: that order is the supplier's", async () => {
    const u = user();
    const sample = JSON.parse(readFileSync(join(ROOT, "samples", "purchase-proveedor.json"), "utf8"));
    const buy = (ref: string, fecha: string, numero: number) => {
      const r = structuredClone(sample);
      r.comprobante.external_reference = ref;
      r.comprobante.fecha = fecha;
      r.comprobante.numero = numero;
      return r;
    };
    expect(by((await issue(u, [[buy("BUY-2", "20/11/2026", 30)]])).results)).toEqual([["BUY-2", "issued"]]);
    expect(by((await issue(u, [[buy("BUY-1", "19/11/2026", 31)]])).results)).toEqual([["BUY-1", "issued"]]);
    // Nor by this account's own sales at the same point of sale and type.
    const sale = JSON.parse(readFileSync(join(ROOT, "samples", "usd-invoice.json"), "utf8"));
    sale.comprobante = { ...sale.comprobante, moneda: "PES", external_reference: "SALE-A", fecha: "20/11/2026" };
    delete sale.comprobante.cotizacion;
    expect(by((await issue(u, [[sale]])).results)).toEqual([["SALE-A", "issued"]]);
    const own = buy("BUY-679", "19/11/2026", 32);
    own.comprobante.punto_venta = 679;
    expect(by((await issue(u, [[own]])).results)).toEqual([["BUY-679", "issued"]]);
  });

  it("--allow-duplicate sends an issued voucher again under another reference; its repeat in the input is told so", async () => {
    const u = user();
    const first = await issue(u, [[raw("AG-1")]]);
    const again = await issue(u, [[raw("AG-1"), raw("AG-1")]], { allowDuplicate: true });
    expect(again.results.map((r) => r.status)).toEqual(["issued", "skipped-duplicate"]);
    const [copy, repeat] = again.results as [VoucherResult, VoucherResult];
    expect(copy.external_reference).not.toBe("AG-1");
    expect(copy.numero).toBe((first.results[0]?.numero ?? 0) + 1);
    expect(repeat.comprobante_nro).toBe(copy.comprobante_nro);
    expect(repeat.hint).toMatch(/sent once/);
  });

  it("documents go to ./comprobantes by default, or to --out under the working folder", async () => {
    const u = user();
    const out = await issue(u, [[raw("PDF-1")]], { savePdf: true });
    expect(out.results[0]?.pdf).toBe(join(u.cwd, "comprobantes", "FACTURA_B-00679-00000001.pdf"));
    const relative = await issue(u, [[raw("PDF-2")]], { savePdf: true, outDir: "mine" });
    expect(relative.results[0]?.pdf).toBe(join(u.cwd, "mine", "FACTURA_B-00679-00000002.pdf"));
  });
});

describe("issueFiles: the service's queue", () => {
  it("a voucher the queue failed is reported, and put back in the queue only with --requeue", async () => {
    const u = user();
    const failing = { ...u.env, FACTURAR_SANDBOX_FAULTS: "queue-error=1" };
    const v = raw("RQ-1", (r) => (r.comprobante.numero = 0));
    const queued = { mode: "queued" as const };
    const failed = await issue(u, [[v]], {
      ...queued,
      wait: true,
      waitTimeoutMs: 10_000,
      env: failing,
      profile: { env: failing, cwd: u.cwd },
    });
    expect(by(failed.results)).toEqual([["RQ-1", "rejected"]]);
    const told = await issue(u, [[v]], queued);
    expect(by(told.results)).toEqual([["RQ-1", "rejected"]]);
    expect(told.results[0]?.hint).toMatch(/--requeue/);
    expect(calls(told.log)).not.toContain("facturacion/reenviar_encolado");
    const requeued = await issue(u, [[v]], { ...queued, requeue: true });
    expect(by(requeued.results)).toEqual([["RQ-1", "queued"]]);
    expect(calls(requeued.log)).toContain("facturacion/reenviar_encolado");
  });
});

describe("issueFiles: an answer lost, and the service then out of reach", () => {
  it("the voucher is unknown, counted so; the next run settles it", async () => {
    const u = user();
    const sandbox = await startSandbox({ dataDir: join(u.home, "service"), now: clockFrom(u.env) });
    try {
      const pv = sandbox.pointsOfSale[0] as (typeof sandbox.pointsOfSale)[number];
      const env = {
        ...u.env,
        FACTURAR_BASE_URL: sandbox.baseUrl,
        FACTURAR_USERTOKEN: pv.usertoken,
        FACTURAR_APIKEY: pv.apikey,
        FACTURAR_APITOKEN: pv.apitoken,
        FACTURAR_PUNTO_VENTA: String(pv.punto_venta),
        FACTURAR_RETRY_BACKOFF: "0.001",
        FACTURAR_SETTLE_WINDOW: "0.05",
      };
      const req = { env, profile: { env, cwd: u.cwd }, rateMs: 0 };
      const out = await issue(u, [[raw("UNK-1")]], {
        ...req,
        // From the send on, every connection drops before the service reads it.
        log: (said) => {
          const line = english(said);
          if (/\/facturacion\/nuevo /.test(line)) sandbox.faults.dropBefore = 1;
        },
      });
      expect(by(out.results)).toEqual([["UNK-1", "unknown"]]);
      expect(out.summary).toEqual({ ...NONE, unknown: 1 });
      sandbox.faults.dropBefore = 0;
      const next = await issue(u, [[raw("UNK-1")]], req);
      expect(next.results.map((r) => r.status)).toEqual(["issued"]);
    } finally {
      await sandbox.close();
    }
  });
});

describe("issueFiles: one run at a time on a journal", () => {
  it("a run finding another at work on its journal sends nothing and says which process", async () => {
    const u = user();
    await issue(u, [[raw("LOCK-1")]]);
    const account = await accountOf(await loadProfile({ env: u.env, cwd: u.cwd }), u.env);
    const other = await Journal.open(stateDir(u.env), account as AccountKey, { lock: true, profile: "other" });
    try {
      const busy = issue(u, [[raw("LOCK-2")]]);
      await expect(busy).rejects.toBeInstanceOf(JournalBusyError);
      await expect(busy).rejects.toThrow(/^another facturar run \(process \d+\) is issuing/);
    } finally {
      await other.close();
    }
    expect((await issue(u, [[raw("LOCK-2")]])).results.map((r) => r.numero)).toEqual([2]);
  });
});

describe("issueFiles: the profile", () => {
  it("a profile's warnings are told (literal credentials in a file others can read)", async () => {
    const u = user();
    const config = join(u.cwd, "facturar.json");
    writeFileSync(config, JSON.stringify({ profiles: { sandbox: { base_url: "sandbox", usertoken: "literal" } } }));
    chmodSync(config, 0o644);
    // No progress bar asked for (onStart left out): the run goes on all the same.
    const out = await issue(u, [[raw("PW-1")]], { profile: { env: u.env, cwd: u.cwd, config }, onStart: undefined });
    expect(out.warnings).toContainEqual(
      expect.stringMatching(/holds literal credentials \(usertoken\) and other users can read it/),
    );
    expect(out.summary.issued).toBe(1);
  });
});

describe("issueFiles: what the mutation run of 27/11 found untested", () => {
  /** `connect`, with some of the service's methods replaced; the rest answer as the sandbox does. */
  function scripted(parts: (real: Service) => Partial<Record<keyof Service, unknown>>): Connect {
    return async (profile, opts) => {
      const connection = await connect(profile, opts);
      const service = Object.assign(Object.create(connection.service), parts(connection.service)) as Service;
      return { ...connection, service, close: () => connection.close() };
    };
  }

  it("a reference issued before, given again with other content: told a conflict, counted so, nothing sent", async () => {
    const u = user();
    await issue(u, [[raw("K-1")]]);
    const out = await issue(u, [[raw("K-1", (r) => (r.cliente.razon_social = "Otra"))]]);
    expect(by(out.results)).toEqual([["K-1", "conflict"]]);
    expect(out.summary).toEqual({ ...NONE, conflicts: 1 });
    expect(calls(out.log)).not.toContain("facturacion/nuevo");
  });

  it("--wait that cannot ask the service how a queued voucher ended: the run says why", async () => {
    const u = user();
    let queued = false;
    const out = await issue(u, [[raw("UF-1", (r) => (r.comprobante.numero = 0))]], {
      mode: "queued",
      wait: true,
      waitTimeoutMs: 60_000,
      connect: scripted((real) => ({
        issue: async (mode: "queued", body: Record<string, unknown>) => {
          const answer = await real.issue(mode, body);
          queued = true;
          return answer;
        },
        findByReference: async (ref: string, operacion?: "V" | "C") => {
          if (queued) throw new TransportError("cannot connect", "refused", false);
          return real.findByReference(ref, operacion);
        },
      })),
    });
    expect(by(out.results)).toEqual([["UF-1", "queued"]]);
    expect(out.summary.unfollowed?.message).toMatch(/cannot connect/);
  });

  it("a voucher's documents download beside its lane: the next voucher is sent before they land", async () => {
    const u = user();
    let secondSent = () => {};
    const sent = new Promise<void>((done) => (secondSent = done));
    const out = await issue(u, [[raw("DL-1"), raw("DL-2")]], {
      savePdf: true,
      batchSize: 1,
      connect: scripted((real) => ({
        issue: async (mode: "instant", body: Record<string, unknown>) => {
          if ((body.comprobante as { external_reference: string }).external_reference === "DL-2") secondSent();
          return real.issue(mode, body);
        },
        // Each document waits for the lane's next voucher to be sent: a lane that waited for them would never end.
        download: async (url: URL) => {
          await sent;
          return real.download(url);
        },
      })),
    });
    // A result is told when its documents land: in either order, as both land once DL-2 is sent.
    const told = [...out.results].sort((a, b) => a.external_reference.localeCompare(b.external_reference));
    expect(by(told)).toEqual([
      ["DL-1", "issued"],
      ["DL-2", "issued"],
    ]);
    expect(told.map((r) => r.pdf === null)).toEqual([false, false]);
  });
});
