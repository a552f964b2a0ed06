/**
 * The Issuer's own decisions, in-process (test/inprocess.ts): what it sends and how many times,
 * what result each voucher gets, what the journal keeps, what it warns about, the documents it
 * saves. Milliseconds a test: the service's answers are scripted where the sandbox would need
 * minutes or a broken authority to give them.
 */

import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { AccessDeniedError } from "../../src/api/client.js";
import type { HttpResponse } from "../../src/api/http.js";
import { TransportError } from "../../src/api/http.js";
import {
  AuthorityDownError,
  type HttpService,
  type IssueAnswer,
  type Service,
  WebhookRequiredError,
} from "../../src/api/protocol.js";
import { saveDocument } from "../../src/batch/documents.js";
import {
  type Begun,
  headingOf,
  Issuer,
  type IssueSettings,
  isServiceFailure,
  type PreparedVoucher,
  ServiceStop,
} from "../../src/batch/issue.js";
import { Journal, JournalUnwritableError } from "../../src/batch/journal.js";
import { laneBreak, NO_ANSWER } from "../../src/batch/outcome.js";
import { blankResult, type VoucherResult } from "../../src/batch/result.js";
import { FacturarError } from "../../src/errors.js";
import { say, useLang } from "../../src/i18n/index.js";
import { english, msg } from "../../src/i18n/message.js";
import type { ServiceVoucher } from "../../src/voucher/held.js";
import type { Envelope } from "../../src/voucher/schema.js";
import { reading } from "../helpers.js";
import { lost, run, SETTINGS, voucher, type World, world } from "../inprocess.js";

let w: World;
afterEach(async () => {
  await w?.close();
});

const PDF = Buffer.from("%PDF-1.4 test document");

/** Replaces some of the service's methods; the rest answer as the embedded sandbox does. */
function script(target: World, parts: Partial<Record<keyof Service, unknown>>): HttpService {
  const real = target.service;
  target.service = Object.assign(Object.create(real), parts) as HttpService;
  return real;
}

/** Documents served from memory: each URL's answer by `answer`, every URL asked kept in `asked`. */
function documents(target: World, answer: (url: string) => HttpResponse = () => ok(PDF)) {
  const asked: string[] = [];
  script(target, {
    download: async (url: URL) => {
      asked.push(url.href);
      return answer(url.href);
    },
  });
  return asked;
}

function ok(body: Buffer): HttpResponse {
  return { status: 200, headers: {}, body };
}

function status(code: number): HttpResponse {
  return { status: code, headers: {}, body: Buffer.from("") };
}

interface Rig {
  issuer: Issuer;
  journal: Journal;
  warnings: string[];
  close(): Promise<void>;
}

/** An Issuer over the world's journal, driven directly (no lanes): issue, issueBatch, survey. */
async function rig(
  target: World,
  settings: Partial<IssueSettings> = {},
  wrap: (j: Journal) => Journal = (j) => j,
): Promise<Rig> {
  const journal = await Journal.open(join(target.dir, "state"), target.account, { lock: false, profile: "test" });
  const warnings: string[] = [];
  const issuer = new Issuer(target.service, wrap(journal), { ...SETTINGS, ...settings }, (l) =>
    warnings.push(english(l)),
  );
  return { issuer: reading(issuer), journal: reading(journal), warnings, close: () => journal.close() };
}

/** The journal's entry for a reference, as a later run reads it. */
async function entryOf(target: World, ref: string) {
  const journal = await Journal.open(join(target.dir, "state"), target.account, { lock: false, profile: "test" });
  const entry = journal.get(ref);
  await journal.close();
  return entry;
}

function outDir(): string {
  return mkdtempSync(join(tmpdir(), "facturar-docs-"));
}

const queuedVoucher = (ref: string) => voucher(ref, (raw) => (raw.comprobante.numero = 0));

/** A result with only what laneBreak reads. */
function outcome(status: VoucherResult["status"], errors: string[] = [], codes: string[] = []): VoucherResult {
  const r = blankResult(status, { source: "x.json", reference: "R", tipo: null, punto_venta: null, total: null });
  r.errors = errors;
  r.error_details = codes.map((code) => ({ code, text: code }));
  return r;
}

describe("which failures stop the run", () => {
  it("access denied and an unavailable service are the service's; a bad request is the voucher's", () => {
    expect(isServiceFailure(new AccessDeniedError("no"))).toBe(true);
    expect(isServiceFailure(new FacturarError("down", "unavailable", "service.x"))).toBe(true);
    expect(isServiceFailure(new FacturarError("HTTP 500", "rejected", "http.500"))).toBe(true);
    expect(isServiceFailure(new FacturarError("HTTP 409", "rejected", "http.409"))).toBe(true);
    for (const code of ["http.400", "http.413", "http.422"])
      expect(isServiceFailure(new FacturarError(code, "rejected", code)), code).toBe(false);
    expect(isServiceFailure(new FacturarError("refused", "rejected", "service.refused"))).toBe(false);
    expect(isServiceFailure(new Error("HTTP 500"))).toBe(false);
  });

  it("a lane waits behind a voucher not settled, or one whose numbering or date would fail the rest", () => {
    expect(laneBreak(outcome("unknown"))).toBe("unsettled");
    expect(laneBreak(outcome("held"))).toBe("unsettled");
    expect(laneBreak(outcome("issued", ["fecha"]))).toBeUndefined();
    expect(laneBreak(outcome("queued", ["numero"]))).toBeUndefined();
    expect(laneBreak(outcome("rejected", ["x"], [NO_ANSWER]))).toBe("unsettled");
    expect(laneBreak(outcome("rejected", ["x"], ["TFC-1", NO_ANSWER]))).toBe("unsettled");
    expect(laneBreak(outcome("rejected", ["x"]))).toBeUndefined();
    expect(laneBreak(outcome("rejected", ["Error 10016: algo"]))).toBe("sequence");
    expect(laneBreak(outcome("rejected", ["Error 10015"]))).toBe("sequence");
    expect(laneBreak(outcome("rejected", ["El Numero no es el proximo a emitir"]))).toBe("sequence");
    expect(laneBreak(outcome("rejected", ["La FECHA es anterior"]))).toBe("sequence");
    expect(laneBreak(outcome("rejected", ["ok", "proximo a emitir"]))).toBe("sequence");
    // Each error is read on its own: a code is not glued to the error before it.
    expect(laneBreak(outcome("rejected", ["Error", "10016"]))).toBe("sequence");
    expect(laneBreak(outcome("rejected", ["Error 100160", "Error 110015"]))).toBeUndefined();
    expect(laneBreak(outcome("rejected", ["El CUIT es invalido"], ["TFC-8004"]))).toBeUndefined();
  });
});

describe("saving a document", () => {
  const service = (answers: HttpResponse[], asked: string[] = []) =>
    ({
      baseUrl: new URL("http://sandbox.invalid/app/api/v2"),
      download: async (url: URL) => {
        asked.push(url.href);
        return answers.shift() ?? status(599);
      },
    }) as unknown as Service;
  const link = (n: number) => `http://sandbox.invalid/app/api/v2/comprobantes/pdf/${n}.pdf`;

  it("writes what the link serves, under its name, and says where", async () => {
    const dir = outDir();
    const path = await saveDocument(service([ok(PDF)]), dir, "FB-1.pdf", link(1), async () => null);
    expect(path).toBe(join(dir, "FB-1.pdf"));
    expect(readFileSync(path)).toEqual(PDF);
  });

  it("an expired link (410, 404, 403) is regenerated once; a second refusal fails", async () => {
    for (const code of [410, 404, 403]) {
      const asked: string[] = [];
      let regenerated = 0;
      const dir = outDir();
      const regenerate = async () => link(100 + ++regenerated);
      await saveDocument(service([status(code), ok(PDF)], asked), dir, "a.pdf", link(1), regenerate);
      expect(asked, String(code)).toEqual([link(1), link(101)]);
      expect(regenerated).toBe(1);
      await expect(
        saveDocument(service([status(code), status(code)]), dir, "b.pdf", link(1), regenerate),
      ).rejects.toThrow(`the link answered HTTP ${code}`);
      expect(existsSync(join(dir, "b.pdf"))).toBe(false);
    }
  });

  it("any other status fails at once, without asking for a fresh link", async () => {
    let regenerated = 0;
    const asked: string[] = [];
    await expect(
      saveDocument(service([status(500)], asked), outDir(), "a.pdf", link(1), async () => link(++regenerated)),
    ).rejects.toThrow("the link answered HTTP 500");
    expect(regenerated).toBe(0);
    expect(asked).toHaveLength(1);
  });

  it("something that is not a PDF is not saved", async () => {
    const dir = outDir();
    await expect(
      saveDocument(service([ok(Buffer.from("<html>"))]), dir, "a.pdf", link(1), async () => null),
    ).rejects.toThrow("the link did not return a PDF");
    expect(existsSync(join(dir, "a.pdf"))).toBe(false);
  });

  it("no link at hand: a fresh one is asked for first; none to be had is no document", async () => {
    const asked: string[] = [];
    const path = await saveDocument(service([ok(PDF)], asked), outDir(), "a.pdf", null, async () => link(7));
    expect(asked).toEqual([link(7)]);
    expect(existsSync(path)).toBe(true);
    await expect(saveDocument(service([ok(PDF)]), outDir(), "b.pdf", null, async () => null)).rejects.toThrow();
  });

  it("an expired link whose first renewal gave nothing is renewed once more", async () => {
    const asked: string[] = [];
    const fresh = [null, link(9)];
    const path = await saveDocument(
      service([status(410), ok(PDF)], asked),
      outDir(),
      "a.pdf",
      link(1),
      async () => fresh.shift() ?? null,
    );
    expect(asked).toEqual([link(1), link(9)]);
    expect(existsSync(path)).toBe(true);
  });

  it("a link to a host other than the service's is refused before connecting", async () => {
    const asked: string[] = [];
    await expect(
      saveDocument(service([ok(PDF)], asked), outDir(), "a.pdf", "http://10.0.0.1/x.pdf", async () => null),
    ).rejects.toThrow();
    expect(asked).toEqual([]);
  });
});

describe("an issued voucher", () => {
  it("is reported with what the service gave, and the journal keeps it all for the next run", async () => {
    w = await world();
    script(w, {
      issue: async (): Promise<IssueAnswer> => ({
        ok: true,
        state: "issued",
        comprobante_tipo: null,
        punto_venta: null,
        numero: 12,
        cae: "76123456789012",
        vencimiento_cae: "30/11/2026",
        vencimiento_pago: null,
        qr: "https://qr.example/x",
        pdf_url: null,
        ticket_url: null,
        observations: ["Observado: 10217"],
      }),
    });
    const r = await rig(w);
    const result = await r.issuer.issue(voucher("J-1"));
    await r.close();
    expect(result).toMatchObject({
      ok: true,
      status: "issued",
      source: "J-1.json",
      external_reference: "J-1",
      // The answer left type, point of sale and due date out: the voucher's own are reported.
      comprobante_tipo: "FACTURA B",
      punto_venta: 679,
      numero: 12,
      comprobante_nro: "00679-00000012",
      cae: "76123456789012",
      vencimiento_cae: "30/11/2026",
      vencimiento_pago: "20/12/2026",
      qr: "https://qr.example/x",
      observations: ["Observado: 10217"],
    });
    expect(result.warnings).toBeUndefined();
    expect(await entryOf(w, "J-1")).toMatchObject({
      state: "issued",
      tipo: "FACTURA B",
      punto_venta: 679,
      numero: 12,
      comprobante_nro: "00679-00000012",
      fecha: "20/11/2026",
      cae: "76123456789012",
      vencimiento_cae: "30/11/2026",
      vencimiento_pago: "20/12/2026",
      total: "121",
      observations: ["Observado: 10217"],
      digest: voucher("J-1").digest,
    });
  });

  it("the answer's own type, point of sale and due date win over the file's", async () => {
    w = await world();
    script(w, {
      issue: async (): Promise<IssueAnswer> => ({
        ok: true,
        state: "issued",
        comprobante_tipo: "FACTURA C",
        punto_venta: 5,
        numero: 3,
        cae: null,
        vencimiento_cae: null,
        vencimiento_pago: "01/01/2027",
        qr: null,
        pdf_url: null,
        ticket_url: null,
        observations: [],
      }),
    });
    const r = await rig(w);
    const result = await r.issuer.issue(voucher("J-2"));
    await r.close();
    expect(result).toMatchObject({
      comprobante_tipo: "FACTURA C",
      punto_venta: 5,
      comprobante_nro: "00005-00000003",
      vencimiento_pago: "01/01/2027",
    });
    expect(result.observations).toBeUndefined();
    const entry = await entryOf(w, "J-2");
    expect(entry).toMatchObject({ tipo: "FACTURA C", punto_venta: 5, numero: 3 });
    expect(entry?.cae).toBeUndefined();
    expect(entry?.observations).toBeUndefined();
  });

  it("issued without a readable number: the service's record gives it", async () => {
    w = await world();
    const real = script(w, {
      issue: async (mode: "instant", body: Record<string, unknown>): Promise<IssueAnswer> => {
        const answer = await real.issue(mode, body);
        return answer.ok ? { ...answer, numero: null, pdf_url: null } : answer;
      },
    });
    const asked = documents(w);
    const r = await rig(w, { savePdf: true, outDir: outDir() });
    const result = await r.issuer.issue(voucher("NN-1"));
    await r.close();
    expect(result).toMatchObject({ status: "issued", numero: 1, comprobante_nro: "00679-00000001" });
    expect(result.total).toBe("121.00");
    expect(result.warnings).toBeUndefined();
    // The documents come from the links the service's record gives.
    expect(asked).toHaveLength(2);
    expect(w.calls.get("facturacion/regenerar_pdf")).toBeUndefined();
    expect((await entryOf(w, "NN-1"))?.numero).toBe(1);
  });

  it("issued without a number the service can tell: reported issued, with a warning, no PDF", async () => {
    w = await world();
    let sent = false;
    const real = script(w, {
      issue: async (mode: "instant", body: Record<string, unknown>): Promise<IssueAnswer> => {
        const answer = await real.issue(mode, body);
        sent = true;
        return answer.ok ? { ...answer, numero: null } : answer;
      },
      // Asked before sending, it answers; asked for the number afterwards, it cannot be reached.
      findByReference: async (ref: string) => {
        if (sent) throw new TransportError("cannot connect", "refused", false);
        return real.findByReference(ref);
      },
    });
    const asked = documents(w);
    const r = await rig(w, { savePdf: true, outDir: outDir() });
    const result = await r.issuer.issue(voucher("NN-2"));
    await r.close();
    expect(result.status).toBe("issued");
    expect(result.numero).toBeNull();
    expect(result.comprobante_nro).toBeNull();
    expect(result.warnings).toEqual([
      "issued, but the service gave no readable voucher number for NN-2: `facturar query --ref NN-2` tells it later",
      "PDF not saved: the answer gave no usable voucher number",
    ]);
    expect(result.documents_missing).toBe(true);
    expect(asked).toEqual([]);
    expect(await entryOf(w, "NN-2")).toMatchObject({ state: "issued", documents_missing: true });
  });

  it("a queued answer: journaled queued, reported queued with the due date the service set", async () => {
    w = await world();
    const real = script(w, {
      issue: async (mode: "queued", body: Record<string, unknown>): Promise<IssueAnswer> => {
        const answer = await real.issue(mode, body);
        return answer.ok ? { ...answer, vencimiento_pago: "15/01/2027" } : answer;
      },
    });
    const r = await rig(w, { mode: "queued" });
    const result = await r.issuer.issue(queuedVoucher("QA-1"));
    await r.close();
    expect(result).toMatchObject({ status: "queued", ok: true, vencimiento_pago: "15/01/2027", numero: null });
    expect(await entryOf(w, "QA-1")).toMatchObject({ state: "queued", mode: "queued" });
  });
});

describe("a voucher the service refuses", () => {
  const refuse =
    (errors: string[], codes: string[] = [], requiresFce = false) =>
    async (): Promise<IssueAnswer> => ({
      ok: false,
      errors,
      details: codes.map((code) => ({ code, text: errors[0] ?? "" })),
      requiresFce,
    });

  it("is rejected with the service's errors and a hint that fits them; the journal says rejected", async () => {
    const cases: [string[], string[], boolean, RegExp | undefined][] = [
      [["El receptor debe recibir FCE"], [], true, /MiPyME credit invoice/],
      [["Condicion IVA invalida"], ["TFC-8004"], false, /condicion_iva does not fit/],
      [["Hay comprobantes ENCOLADOS pendientes"], [], false, /issue-queued/],
      [["El numero no es el proximo a emitir"], [], false, /leave numero out/],
      [["Next number expected"], [], false, /leave numero out/],
      [["El CUIT es invalido"], ["TFC-1"], false, undefined],
    ];
    for (const [i, [errors, codes, fce, hint]] of cases.entries()) {
      w = await world();
      script(w, { issue: refuse(errors, codes, fce) });
      const r = await rig(w);
      const result = await r.issuer.issue(voucher(`RJ-${i}`));
      await r.close();
      expect(result.status).toBe("rejected");
      expect(result.ok).toBe(false);
      expect(result.errors).toEqual(errors);
      expect(result.error_details.map((d) => d.code)).toEqual(codes);
      if (hint) expect(result.hint, errors[0]).toMatch(hint);
      else expect(result.hint).toBeUndefined();
      expect(await entryOf(w, `RJ-${i}`)).toMatchObject({ state: "rejected", errors });
      await w.close();
    }
  });

  it("a bad request (HTTP 400) is that voucher's: rejected with the error's code and hint, nothing to settle", async () => {
    w = await world();
    script(w, {
      issue: async () => {
        throw new FacturarError("HTTP 400: bad body", "rejected", "http.400", "fix the body");
      },
    });
    const r = await rig(w);
    const result = await r.issuer.issue(voucher("BR-1"));
    expect(r.warnings).toEqual([]);
    await r.close();
    expect(result).toMatchObject({
      status: "rejected",
      errors: ["HTTP 400: bad body"],
      error_details: [{ code: "http.400", text: "HTTP 400: bad body" }],
      hint: "fix the body",
    });
    expect(await entryOf(w, "BR-1")).toMatchObject({ state: "rejected", errors: ["HTTP 400: bad body"] });
  });

  it("access denied stops the run: the voucher is held in the journal, not sending", async () => {
    w = await world();
    script(w, {
      issue: async () => {
        throw new AccessDeniedError("HTTP 403: credentials");
      },
    });
    const r = await rig(w);
    const stop = await r.issuer.issue(voucher("AD-1")).catch((e: unknown) => e);
    await r.close();
    expect(stop).toBeInstanceOf(ServiceStop);
    expect((stop as ServiceStop).reason).toBeInstanceOf(AccessDeniedError);
    expect(await entryOf(w, "AD-1")).toMatchObject({ state: "held", errors: ["HTTP 403: credentials"] });
  });

  it("keeps the service's stop and the failed lookup as messages, said later in the reader's language (#27)", async () => {
    w = await world();
    script(w, {
      issue: async () => {
        throw new AccessDeniedError(msg("access denied (HTTP {status})", { status: 403 }));
      },
    });
    let r = await rig(w);
    await r.issuer.issue(voucher("AD-ES")).catch((e: unknown) => e);
    await r.close();
    const denied = await entryOf(w, "AD-ES");
    await w.close();
    // Unknown: the lookup after a lost answer fails.
    w = await world();
    let sent = false;
    w.step = async (method, _body, call) => {
      if (method === "facturacion/nuevo") {
        sent = true;
        throw lost();
      }
      if (sent) throw new TransportError(msg("the connection broke while the answer arrived"), "dropped", true);
      return call();
    };
    r = await rig(w);
    expect((await r.issuer.issue(voucher("UNK-ES"))).status).toBe("unknown");
    await r.close();
    // As a later `facturar journal` reads them (the results here are said in English already).
    const unknown = await entryOf(w, "UNK-ES");
    await useLang("es");
    try {
      expect(say(denied?.errors?.[0] ?? "")).toContain("acceso denegado (HTTP 403)");
      expect(say(unknown?.errors?.[0] ?? "")).toBe(
        "no se pudo consultar al servicio por UNK-ES: la conexión se cortó mientras llegaba la respuesta (después de reintentar)",
      );
    } finally {
      await useLang("en");
    }
  });

  it("a bug (not the service's word) is thrown as it is, and the journal keeps `sending`", async () => {
    w = await world();
    script(w, {
      issue: async () => {
        throw new TypeError("a bug");
      },
    });
    const r = await rig(w);
    await expect(r.issuer.issue(voucher("BUG-1"))).rejects.toThrow(TypeError);
    await r.close();
    expect((await entryOf(w, "BUG-1"))?.state).toBe("sending");
  });
});

describe("an answer lost on the way", () => {
  it("is told, the service asked, and the voucher sent again until three sends went unanswered", async () => {
    w = await world();
    w.step = async (method, _body, call) => {
      if (method === "facturacion/nuevo") throw lost();
      return call();
    };
    const r = await rig(w);
    const result = await r.issuer.issue(voucher("LOST-1"));
    await r.close();
    expect(w.calls.get("facturacion/nuevo")).toBe(3);
    expect(r.warnings).toHaveLength(3);
    expect(r.warnings[0]).toMatch(
      /^LOST-1\.json: no complete answer within 1 s.*; asking the service whether LOST-1 was stored$/,
    );
    expect(result).toMatchObject({ status: "rejected", ok: false });
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatch(/no complete answer/);
    expect(result.error_details).toEqual([{ code: NO_ANSWER, text: result.errors[0] }]);
    expect(result.hint).toBe(
      "sent 3 times without an answer, and the service holds nothing under LOST-1: not issued; run again later",
    );
    expect(await entryOf(w, "LOST-1")).toMatchObject({ state: "rejected", errors: result.errors });
  });

  it("each send again is journaled `sending` first, with its own time", async () => {
    w = await world();
    w.step = async (method, _body, call) => {
      if (method === "facturacion/nuevo") throw lost();
      return call();
    };
    let clock = Date.parse("2026-11-20T12:00:00Z");
    const sending: string[] = [];
    // Both clocks move a second a read: each send's wall time (sent_at) is its own.
    const r = await rig(w, { now: () => (clock += 1000), wall: () => clock }, (j) => {
      const recordAll = j.recordAll.bind(j);
      j.recordAll = async (entries) => {
        for (const e of entries) if (e.state === "sending") sending.push(e.sent_at as string);
        return recordAll(entries);
      };
      return j;
    });
    await r.issuer.issue(voucher("LOST-2"));
    await r.close();
    expect(sending).toHaveLength(3);
    expect(new Set(sending).size).toBe(3);
  });

  it("found at the service after a lost answer: issued by this run, reconciled", async () => {
    w = await world();
    w.step = async (method, _body, call) => {
      if (method !== "facturacion/nuevo") return call();
      await call();
      throw lost();
    };
    const r = await rig(w);
    const result = await r.issuer.issue(voucher("FOUND-1"));
    await r.close();
    expect(result).toMatchObject({ status: "issued", reconciled: true, numero: 1 });
    // Sent now: no "already issued" hint, no drift.
    expect(result.hint).toBeUndefined();
    expect(w.calls.get("facturacion/nuevo")).toBe(1);
    expect(await entryOf(w, "FOUND-1")).toMatchObject({
      state: "issued",
      numero: 1,
      digest: voucher("FOUND-1").digest,
    });
  });

  it("the service cannot be asked after a lost answer: unknown, journaled so, with the reconcile hint", async () => {
    w = await world();
    let sent = false;
    w.step = async (method, _body, call) => {
      if (method === "facturacion/nuevo") {
        sent = true;
        throw lost();
      }
      if (sent) throw new TransportError("cannot connect", "refused", false);
      return call();
    };
    const r = await rig(w);
    const result = await r.issuer.issue(voucher("UNK-1"));
    await r.close();
    expect(result.status).toBe("unknown");
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatch(/^could not ask the service about UNK-1: /);
    expect(result.hint).toMatch(/facturar journal --reconcile/);
    expect(await entryOf(w, "UNK-1")).toMatchObject({ state: "unknown", errors: result.errors });
  });

  it("waits for a voucher still being stored, asking less and less often, within the settle window", async () => {
    w = await world();
    const sleeps: number[] = [];
    let clock = 0;
    let lookups = 0;
    w.step = async (method, _body, call) => {
      if (method === "facturacion/nuevo") throw lost();
      return call();
    };
    script(w, {
      findByReference: async () => {
        lookups++;
        return [];
      },
    });
    const r = await rig(w, {
      settleWindowMs: 30_000,
      now: () => clock,
      sleep: async (ms) => {
        sleeps.push(ms);
        clock += ms;
      },
    });
    await r.issuer.issue(voucher("SLOW-1"));
    await r.close();
    // Each of the three sends waits out the window: 500, 1000, 2000… at most 10 s, never past it.
    const first = sleeps.slice(0, sleeps.indexOf(10_000) + 2);
    expect(first).toEqual([500, 1000, 2000, 4000, 8000, 10_000, 4500]);
    expect(sleeps.reduce((a, b) => a + b, 0)).toBe(3 * 30_000);
    expect(lookups).toBeGreaterThanOrEqual(3 * 8);
  });
});

describe("deciding before sending", () => {
  it("a reference the journal holds as issued: reported from the journal, nothing asked, nothing sent", async () => {
    w = await world();
    script(w, {
      issue: async (): Promise<IssueAnswer> => ({
        ok: true,
        state: "issued",
        comprobante_tipo: "FACTURA B",
        punto_venta: 679,
        numero: 4,
        cae: "71000000000004",
        vencimiento_cae: "30/11/2026",
        vencimiento_pago: "21/12/2026",
        qr: null,
        pdf_url: null,
        ticket_url: null,
        observations: ["obs"],
      }),
    });
    const first = await rig(w);
    await first.issuer.issue(voucher("JR-1"));
    await first.close();
    w.calls.clear();
    const r = await rig(w);
    const result = await r.issuer.issue(voucher("JR-1"));
    await r.close();
    expect(w.calls.size).toBe(0);
    expect(result).toMatchObject({
      status: "skipped-duplicate",
      ok: true,
      comprobante_tipo: "FACTURA B",
      punto_venta: 679,
      numero: 4,
      comprobante_nro: "00679-00000004",
      cae: "71000000000004",
      vencimiento_cae: "30/11/2026",
      vencimiento_pago: "21/12/2026",
      total: "121",
      pdf: null,
      ticket: null,
      observations: ["obs"],
      hint: "already issued (journal): not sent again; --allow-duplicate issues another on purpose",
    });
    expect(result.content_changed).toBeUndefined();
    expect(result.warnings).toBeUndefined();
  });

  it("journaled issued without its number: the service is asked for it, nothing is sent", async () => {
    w = await world();
    await run(w, [voucher("NUM-1")]);
    rmSync(join(w.dir, "state"), { recursive: true });
    const journal = await Journal.open(join(w.dir, "state"), w.account, { lock: false, profile: "test" });
    await journal.record({ ref: "NUM-1", state: "issued", mode: "instant", tipo: "FACTURA B", punto_venta: 679 });
    await journal.close();
    w.calls.clear();
    const r = await rig(w);
    const result = await r.issuer.issue(voucher("NUM-1"));
    await r.close();
    expect(result).toMatchObject({ status: "skipped-duplicate", reconciled: true, numero: 1 });
    expect(w.calls.get("facturacion/nuevo")).toBeUndefined();
    expect((await entryOf(w, "NUM-1"))?.numero).toBe(1);
  });

  it("journaled issued without its number and the service cannot be asked: the journal's word, no stop", async () => {
    w = await world();
    const journal = await Journal.open(join(w.dir, "state"), w.account, { lock: false, profile: "test" });
    await journal.record({ ref: "NUM-2", state: "issued", mode: "instant", tipo: "FACTURA B", punto_venta: 679 });
    await journal.close();
    w.step = async () => {
      throw new TransportError("cannot connect", "refused", false);
    };
    const r = await rig(w);
    const result = await r.issuer.issue(voucher("NUM-2"));
    await r.close();
    expect(result).toMatchObject({ status: "skipped-duplicate", numero: null, comprobante_nro: null });
    expect(result.reconciled).toBeUndefined();
  });

  it("never sent, and the service cannot be asked whether another run sent it: the run stops, nothing sent", async () => {
    w = await world();
    w.step = async (method, _body, call) => {
      if (method === "facturacion/consulta_avanzada") throw new TransportError("cannot connect", "refused", false);
      return call();
    };
    const r = await rig(w);
    const stop = await r.issuer.issue(voucher("STOP-1")).catch((e: unknown) => e);
    await r.close();
    expect(stop).toBeInstanceOf(ServiceStop);
    expect((stop as ServiceStop).reason).toBeInstanceOf(FacturarError);
    expect((stop as ServiceStop).reason.outcome).toBe("unavailable");
    expect((stop as ServiceStop).message).toMatch(/cannot connect/);
    expect(w.calls.get("facturacion/nuevo")).toBeUndefined();
    expect(await entryOf(w, "STOP-1")).toBeUndefined();
  });

  it("a bug in asking is thrown as it is", async () => {
    w = await world();
    script(w, {
      findByReference: async () => {
        throw new TypeError("a bug");
      },
    });
    const r = await rig(w);
    await expect(r.issuer.issue(voucher("BUG-2"))).rejects.toThrow("a bug");
    await r.close();
  });

  it("two issued vouchers under one reference: told, and the newest reported", async () => {
    w = await world();
    await run(w, [voucher("TWICE-1")]);
    rmSync(join(w.dir, "state"), { recursive: true });
    await run(w, [voucher("TWICE-1")], { allowDuplicate: true });
    // The second went as TWICE-1-R2; make the service hold two under TWICE-1 as an older client might.
    const real = script(w, {
      findByReference: async (ref: string) => [
        ...(await real.findByReference(`${ref}-R2`)).map((v) => ({ ...v, external_reference: ref })),
        ...(await real.findByReference(ref)),
      ],
    });
    rmSync(join(w.dir, "state"), { recursive: true });
    const r = await rig(w);
    const result = await r.issuer.issue(voucher("TWICE-1"));
    await r.close();
    expect(r.warnings).toEqual([
      "the service holds 2 issued vouchers under TWICE-1 (sent twice before?); reporting the newest",
    ]);
    expect(result).toMatchObject({ status: "skipped-duplicate", numero: 2 });
  });
});

describe("--allow-duplicate", () => {
  it("issues another voucher under R-R2, R-R3… whether the journal or the service holds the reference", async () => {
    w = await world();
    const first = await run(w, [voucher("DUP-1")]);
    expect(first.results[0]?.external_reference).toBe("DUP-1");
    const second = await run(w, [voucher("DUP-1")], { allowDuplicate: true });
    expect(second.results[0]).toMatchObject({ status: "issued", external_reference: "DUP-1-R2", numero: 2 });
    const third = await run(w, [voucher("DUP-1")], { allowDuplicate: true });
    expect(third.results[0]).toMatchObject({ status: "issued", external_reference: "DUP-1-R3", numero: 3 });
    // The journal lost: the service's R and R-R2… are found and recorded, the next free one issued.
    rmSync(join(w.dir, "state"), { recursive: true });
    const fourth = await run(w, [voucher("DUP-1")], { allowDuplicate: true });
    expect(fourth.results[0]).toMatchObject({ status: "issued", external_reference: "DUP-1-R4", numero: 4 });
    expect(await entryOf(w, "DUP-1-R2")).toMatchObject({
      state: "issued",
      numero: 2,
      comprobante_nro: "00679-00000002",
    });
    expect(["DUP-1", "DUP-1-R2", "DUP-1-R3", "DUP-1-R4"].map((ref) => w.held(ref))).toEqual([1, 1, 1, 1]);
  });

  it("a long reference is cut so that its suffix still fits", async () => {
    w = await world();
    const long = `L${"x".repeat(254)}`;
    await run(w, [voucher(long)]);
    const again = await run(w, [voucher(long)], { allowDuplicate: true });
    expect(again.results[0]?.external_reference).toBe(`${long.slice(0, 250)}-R2`);
    const third = await run(w, [voucher(long)], { allowDuplicate: true });
    expect(third.results[0]?.external_reference).toBe(`${long.slice(0, 250)}-R3`);
  });
});

describe("the survey before the lanes", () => {
  const listings = () => w.calls.get("facturacion/consulta_avanzada") ?? 0;

  it("lists a date once for its references; one the listing lacks is still asked for by reference", async () => {
    w = await world();
    const r = await rig(w);
    const vs = ["S-1", "S-2", "S-3"].map((ref) => voucher(ref));
    await r.issuer.survey(vs);
    expect(listings()).toBe(1);
    for (const v of vs) expect((await r.issuer.issue(v)).status).toBe("issued");
    await r.close();
    // A listing proves presence, never absence: the service may hold a reference under another date.
    expect(listings()).toBe(1 + 3);
  });

  it("a reference alone on its date is left to its own lookup", async () => {
    w = await world();
    const r = await rig(w);
    await r.issuer.survey([voucher("S-1"), voucher("S-2", (raw) => (raw.comprobante.fecha = "19/11/2026"))]);
    expect(listings()).toBe(0);
    await r.close();
  });

  it("sales and purchases, and each date, are listed apart", async () => {
    w = await world();
    const asked: string[] = [];
    const real = script(w, {
      listByDate: (fecha: string, operacion: "V" | "C") => {
        asked.push(`${operacion} ${fecha}`);
        return real.listByDate(fecha, operacion);
      },
    });
    const r = await rig(w);
    const purchase = (v: PreparedVoucher): PreparedVoucher => ({ ...v, operacion: "C" });
    await r.issuer.survey([
      voucher("A-1"),
      voucher("A-2"),
      purchase(voucher("B-1")),
      purchase(voucher("B-2")),
      voucher("C-1", (raw) => (raw.comprobante.fecha = "19/11/2026")),
      voucher("C-2", (raw) => (raw.comprobante.fecha = "19/11/2026")),
    ]);
    await r.close();
    expect(asked.sort()).toEqual(["C 20/11/2026", "V 19/11/2026", "V 20/11/2026"]);
  });

  it("references the journal settled, or holds in flight, are not listed for", async () => {
    w = await world();
    await run(w, [voucher("J-1"), voucher("J-2")]);
    const journal = await Journal.open(join(w.dir, "state"), w.account, { lock: false, profile: "test" });
    await journal.recordAll(
      ["J-3", "J-4"].map((ref) => ({
        ref,
        state: "sending" as const,
        mode: "instant" as const,
        sent_at: "2026-11-20T00:00:00Z",
      })),
    );
    await journal.close();
    w.calls.clear();
    const r = await rig(w);
    await r.issuer.survey(["J-1", "J-2", "J-3", "J-4"].map((ref) => voucher(ref)));
    await r.close();
    expect(listings()).toBe(0);
  });

  it("a voucher dated today for want of a date is not listed for (it may carry another day at the service)", async () => {
    w = await world();
    const undated = (ref: string) =>
      voucher(ref, (raw) => {
        delete raw.comprobante.fecha;
      });
    expect(undated("U-1").datedToday).toBe(true);
    const r = await rig(w);
    await r.issuer.survey([undated("U-1"), undated("U-2")]);
    await r.close();
    expect(listings()).toBe(0);
  });

  it("queued vouchers are never listed for: the queue changes their dates", async () => {
    w = await world();
    const r = await rig(w, { mode: "queued" });
    await r.issuer.survey([queuedVoucher("Q-1"), queuedVoucher("Q-2")]);
    await r.close();
    expect(listings()).toBe(0);
  });

  it("a listing that fails is told, and each voucher is then looked up by its reference", async () => {
    w = await world();
    let failed = false;
    w.step = async (method, body, call) => {
      if (method === "facturacion/consulta_avanzada" && body.busqueda_tipo === "F") {
        failed = true;
        throw new TransportError("cannot connect", "refused", false);
      }
      return call();
    };
    const r = await rig(w);
    await r.issuer.survey([voucher("F-1"), voucher("F-2")]);
    expect(failed).toBe(true);
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toMatch(
      /^could not list the vouchers of 20\/11\/2026 \(cannot connect.*\); asking about each voucher instead$/,
    );
    w.calls.clear();
    await r.issuer.issue(voucher("F-1"));
    await r.close();
    expect(listings()).toBe(1);
  });

  it("what a listing found settles its reference without asking again", async () => {
    w = await world();
    await run(w, [voucher("L-1"), voucher("L-2")]);
    rmSync(join(w.dir, "state"), { recursive: true });
    w.calls.clear();
    const r = await rig(w);
    await r.issuer.survey([voucher("L-1"), voucher("L-2"), voucher("L-3")]);
    const results = await Promise.all(["L-1", "L-2", "L-3"].map((ref) => r.issuer.issue(voucher(ref))));
    await r.close();
    expect(results.map((x) => x.status)).toEqual(["skipped-duplicate", "skipped-duplicate", "issued"]);
    // The listing, and a lookup of the one it lacked.
    expect(listings()).toBe(2);
    expect(w.calls.get("facturacion/nuevo")).toBe(1);
  });

  it("a listing far longer than its references is cut short: those it did not show are looked up", async () => {
    w = await world();
    let pulled = 0;
    const real = script(w, {
      listByDate: async function* () {
        const [sample] = await real.findByReference("OTHER");
        for (let i = 0; i < 5000; i++) {
          pulled++;
          yield { ...(sample as ServiceVoucher), external_reference: `OTHER-${i}` };
        }
      },
    });
    await run(w, [voucher("OTHER")]);
    w.calls.clear();
    const r = await rig(w);
    await r.issuer.survey([voucher("M-1"), voucher("M-2")]);
    w.calls.clear();
    await r.issuer.issue(voucher("M-1"));
    await r.close();
    // 2 references: no more than 2000 items read, then each asked about by reference.
    expect(pulled).toBe(2001);
    expect(listings()).toBe(1);
  });
});

describe("the service's queue", () => {
  it("a voucher already queued is not sent again: reported queued and reconciled, its type journaled", async () => {
    w = await world();
    await run(w, [queuedVoucher("QQ-1")], { mode: "queued" });
    rmSync(join(w.dir, "state"), { recursive: true });
    const r = await rig(w, { mode: "queued" });
    const result = await r.issuer.issue(queuedVoucher("QQ-1"));
    await r.close();
    expect(result).toMatchObject({
      status: "queued",
      reconciled: true,
      hint: "already in the service's queue under QQ-1: not sent again",
    });
    expect(result.content_changed).toBeUndefined();
    expect(await entryOf(w, "QQ-1")).toMatchObject({ state: "queued", mode: "queued", tipo: "FACTURA B" });
    expect(w.calls.get("facturacion/nuevo_encola")).toBe(1);
  });

  it("queued under the reference with other figures: flagged as changed", async () => {
    w = await world();
    await run(w, [queuedVoucher("QQ-2")], { mode: "queued" });
    rmSync(join(w.dir, "state"), { recursive: true });
    const changed = voucher("QQ-2", (raw) => {
      raw.comprobante.numero = 0;
      raw.comprobante.detalle[0].producto.precio_unitario_sin_iva = 200;
      raw.comprobante.total = 242;
    });
    const r = await rig(w, { mode: "queued" });
    const result = await r.issuer.issue(changed);
    await r.close();
    expect(result).toMatchObject({ status: "conflict", ok: false, content_changed: true });
    expect(result.errors).toEqual([
      "QQ-2.json: QQ-2 was used before for another voucher (FACTURA B 121.00); nothing sent: this sale is not invoiced",
    ]);
    expect(result.error_details).toEqual([
      expect.objectContaining({ code: "reference.reused", field: "comprobante.external_reference" }),
    ]);
    expect(w.calls.get("facturacion/nuevo_encola")).toBe(1);
  });

  it("failed in the queue: reported with the service's errors and how to put it back, journaled queue-error", async () => {
    w = await world();
    await run(w, [queuedVoucher("QE-1")], { mode: "queued" });
    w.sandbox.options.faults.queueError = 1;
    await w.sandbox.processQueue();
    const r = await rig(w, { mode: "queued" });
    const result = await r.issuer.issue(queuedVoucher("QE-1"));
    await r.close();
    expect(result.status).toBe("rejected");
    expect(result.reconciled).toBe(true);
    // The service's items say only their status: that, and where the reason is.
    expect(result.errors).toEqual(["ENVIADO A PROCESAR - CON ERROR"]);
    expect(result.error_details).toEqual([{ code: "queue-error", text: result.errors.join("; ") }]);
    expect(result.hint).toMatch(/issue-queued --requeue.*queue retry --ref QE-1.*queue delete --ref QE-1/);
    expect(result.hint).toMatch(/gives no reason.*webhook.*error.*panel/);
    expect(await entryOf(w, "QE-1")).toMatchObject({ state: "queue-error", mode: "queued", errors: result.errors });
  });

  it("--requeue puts it back: reported queued with the reason, journaled queued", async () => {
    w = await world();
    await run(w, [queuedVoucher("QR-1")], { mode: "queued" });
    w.sandbox.options.faults.queueError = 1;
    await w.sandbox.processQueue();
    rmSync(join(w.dir, "state"), { recursive: true });
    const r = await rig(w, { mode: "queued", requeue: true });
    const result = await r.issuer.issue(queuedVoucher("QR-1"));
    await r.close();
    expect(result).toMatchObject({
      status: "queued",
      reconciled: true,
      hint: "re-queued QR-1 (reenviar_encolado): it had failed in the queue",
    });
    expect(await entryOf(w, "QR-1")).toMatchObject({ state: "queued", mode: "queued" });
  });

  it("--requeue the service refuses to take: the run stops; one whose answer was lost: unknown", async () => {
    w = await world();
    await run(w, [queuedVoucher("QR-2")], { mode: "queued" });
    w.sandbox.options.faults.queueError = 1;
    await w.sandbox.processQueue();
    script(w, {
      requeue: async () => {
        throw new AccessDeniedError("HTTP 403");
      },
    });
    const r = await rig(w, { mode: "queued", requeue: true });
    const stop = await r.issuer.issue(queuedVoucher("QR-2")).catch((e: unknown) => e);
    expect(stop).toBeInstanceOf(ServiceStop);
    script(w, {
      requeue: async () => {
        throw lost();
      },
    });
    const r2 = await rig(w, { mode: "queued", requeue: true });
    const result = await r2.issuer.issue(queuedVoucher("QR-2"));
    expect(result.status).toBe("unknown");
    script(w, {
      requeue: async () => {
        throw new TypeError("a bug");
      },
    });
    const r3 = await rig(w, { mode: "queued", requeue: true });
    await expect(r3.issuer.issue(queuedVoucher("QR-2"))).rejects.toThrow(TypeError);
    for (const x of [r, r2, r3]) await x.close();
  });
});

describe("--wait", () => {
  /** A clock moved only by the issuer's own sleeps: --wait's timeout without waiting. */
  function clock() {
    let now = Date.parse("2026-11-20T12:00:00Z");
    const sleeps: number[] = [];
    return {
      sleeps,
      now: () => now,
      sleep: async (ms: number) => {
        sleeps.push(ms);
        now += ms;
      },
    };
  }

  it("follows a queued voucher until it is issued: numbered, journaled issued", async () => {
    w = await world();
    const c = clock();
    let polls = 0;
    const r = await rig(w, {
      mode: "queued",
      wait: true,
      waitTimeoutMs: 60_000,
      pollMs: 700,
      now: c.now,
      sleep: async (ms) => {
        await c.sleep(ms);
        if (++polls === 3) await w.sandbox.processQueue();
      },
    });
    const result = await r.issuer.issue(queuedVoucher("W-1"));
    await r.close();
    expect(result).toMatchObject({ status: "issued", numero: 1, comprobante_nro: "00679-00000001" });
    expect(c.sleeps).toEqual([700, 700, 700]);
    expect(await entryOf(w, "W-1")).toMatchObject({ state: "issued", numero: 1 });
  });

  it("still queued at the timeout: reported queued, with how long it waited", async () => {
    w = await world();
    const c = clock();
    const r = await rig(w, { mode: "queued", wait: true, waitTimeoutMs: 2000, pollMs: 500, ...c });
    const result = await r.issuer.issue(queuedVoucher("W-2"));
    await r.close();
    expect(result.status).toBe("queued");
    expect(result.warnings).toEqual(["still queued after 2 s"]);
    expect(c.sleeps).toEqual([500, 500, 500, 500]);
  });

  it("gone from the queue while followed: rejected, journaled deleted, to be sent anew", async () => {
    w = await world();
    const c = clock();
    const r = await rig(w, {
      mode: "queued",
      wait: true,
      waitTimeoutMs: 60_000,
      now: c.now,
      sleep: async (ms) => {
        await c.sleep(ms);
        await w.service.deleteQueued("W-3");
      },
    });
    const result = await r.issuer.issue(queuedVoucher("W-3"));
    await r.close();
    expect(result).toMatchObject({
      status: "rejected",
      errors: ["W-3 is no longer in the service's queue (deleted?)"],
      hint: "run again to send it anew",
    });
    expect(await entryOf(w, "W-3")).toMatchObject({ state: "deleted", mode: "queued" });
  });

  it("the service cannot be asked: that voucher and the next are told queued, asked no more", async () => {
    w = await world();
    const c = clock();
    let broken = false;
    w.step = async (method, _body, call) => {
      if (broken && method === "facturacion/consulta_avanzada")
        throw new TransportError("cannot connect", "refused", false);
      return call();
    };
    const r = await rig(w, { mode: "queued", wait: true, waitTimeoutMs: 60_000, ...c });
    // Both decided (looked up) first, as a lane does; then the service can no longer be asked.
    const begun = [await r.issuer.begin(queuedVoucher("W-4")), await r.issuer.begin(queuedVoucher("W-5"))];
    broken = true;
    w.calls.clear();
    expect(r.issuer.unfollowed()).toBeUndefined();
    const first = await r.issuer.finish(begun[0] as Begun);
    const asked = w.calls.get("facturacion/consulta_avanzada");
    const second = await r.issuer.finish(begun[1] as Begun);
    await r.close();
    for (const result of [first, second]) {
      expect(result.status).toBe("queued");
      expect(result.warnings).toHaveLength(1);
      expect(result.warnings?.[0]).toMatch(/^could not follow it: cannot connect/);
    }
    expect(r.issuer.unfollowed()).toBeInstanceOf(FacturarError);
    expect(r.issuer.unfollowed()?.message).toMatch(/cannot connect/);
    expect(asked).toBeGreaterThan(0);
    expect(w.calls.get("facturacion/consulta_avanzada")).toBe(asked);
    expect(w.calls.get("facturacion/nuevo_encola")).toBe(2);
  });

  it("without --wait nothing is followed", async () => {
    w = await world();
    const r = await rig(w, { mode: "queued" });
    const result = await r.issuer.issue(queuedVoucher("W-6"));
    await r.close();
    expect(result.status).toBe("queued");
    expect(r.issuer.unfollowed()).toBeUndefined();
  });
});

describe("documents", () => {
  it("an issued voucher's PDF and ticket are saved under their names, and the journal says where", async () => {
    w = await world();
    const asked = documents(w);
    const dir = outDir();
    const r = await rig(w, { savePdf: true, outDir: dir });
    const result = await r.issuer.issue(voucher("D-1"));
    await r.close();
    expect(asked).toHaveLength(2);
    expect(result.pdf).toBe(join(dir, "FACTURA_B-00679-00000001.pdf"));
    expect(result.ticket).toBe(join(dir, "FACTURA_B-00679-00000001-ticket.pdf"));
    expect(readFileSync(result.pdf as string)).toEqual(PDF);
    expect(result.documents_missing).toBeUndefined();
    expect(result.warnings).toBeUndefined();
    expect(result.hint).toBeUndefined();
    expect(await entryOf(w, "D-1")).toMatchObject({
      state: "issued",
      pdf: result.pdf,
      ticket: result.ticket,
      documents_missing: false,
      out_dir: dir,
    });
  });

  it("without --pdf nothing is downloaded", async () => {
    w = await world();
    const asked = documents(w);
    const r = await rig(w);
    const result = await r.issuer.issue(voucher("D-0"));
    await r.close();
    expect(asked).toEqual([]);
    expect(result.pdf).toBeNull();
  });

  it("a PDF that cannot be saved: issued all the same, told, journaled missing for the next run", async () => {
    w = await world();
    documents(w, (url) => (url.includes("/pdf/") ? status(500) : ok(PDF)));
    const dir = outDir();
    const r = await rig(w, { savePdf: true, outDir: dir });
    const result = await r.issuer.issue(voucher("D-2"));
    await r.close();
    expect(result.status).toBe("issued");
    expect(result.pdf).toBeNull();
    expect(result.ticket).toBe(join(dir, "FACTURA_B-00679-00000001-ticket.pdf"));
    expect(result.warnings).toEqual(["PDF not saved: the link answered HTTP 500"]);
    expect(result.documents_missing).toBe(true);
    expect(result.hint).toBe("issued, but its documents were not saved: the next run fetches them");
    expect(await entryOf(w, "D-2")).toMatchObject({ documents_missing: true, out_dir: dir, pdf: null });
  });

  it("a PDF that cannot be saved is told in the reader's words, the link's failure too (#27)", async () => {
    w = await world();
    documents(w, (url) => (url.includes("/pdf/") ? status(500) : ok(PDF)));
    const r = await rig(w, { savePdf: true, outDir: outDir() });
    await useLang("es");
    try {
      // The rig gives results as read, in the language of the moment.
      const result = await r.issuer.issue(voucher("D-ES"));
      expect(result.warnings).toEqual(["PDF no guardado: el enlace respondió HTTP 500"]);
    } finally {
      await useLang("en");
      await r.close();
    }
  });

  it("a ticket that cannot be saved is told as the ticket's", async () => {
    w = await world();
    documents(w, (url) => (url.includes("/ticket/") ? status(500) : ok(PDF)));
    const r = await rig(w, { savePdf: true, outDir: outDir() });
    const result = await r.issuer.issue(voucher("D-3"));
    await r.close();
    expect(result.pdf).not.toBeNull();
    expect(result.ticket).toBeNull();
    expect(result.warnings).toEqual(["ticket not saved: the link answered HTTP 500"]);
    expect(result.documents_missing).toBe(true);
  });

  it("an expired link is renewed once through regenerar_pdf, for both documents at once", async () => {
    w = await world();
    const seen = new Set<string>();
    // Each first link has expired; the renewed ones work.
    const asked = documents(w, (url) => {
      const fresh = seen.size >= 2;
      seen.add(url);
      return fresh ? ok(PDF) : status(410);
    });
    const r = await rig(w, { savePdf: true, outDir: outDir() });
    const result = await r.issuer.issue(voucher("D-4"));
    await r.close();
    expect(asked).toHaveLength(4);
    expect(new Set(asked).size).toBe(4);
    expect(w.calls.get("facturacion/regenerar_pdf")).toBe(1);
    expect(result.pdf).not.toBeNull();
    expect(result.ticket).not.toBeNull();
  });

  it("--defer-documents: the result at once, the download left for the lane to collect", async () => {
    w = await world();
    let release = () => {};
    const gate = new Promise<void>((done) => (release = done));
    const real = script(w, {
      download: async (_url: URL) => {
        await gate;
        return ok(PDF);
      },
    });
    void real;
    const r = await rig(w, { savePdf: true, deferDocuments: true, outDir: outDir() });
    const result = await r.issuer.issue(voucher("D-5"));
    expect(result.pdf).toBeNull();
    const download = r.issuer.takeDownload("D-5");
    expect(download).toBeDefined();
    expect(r.issuer.takeDownload("D-5")).toBeUndefined();
    release();
    const saved = await download;
    await r.close();
    expect(saved?.pdf).toMatch(/FACTURA_B-00679-00000001\.pdf$/);
  });

  it("the next run fetches what an earlier one could not save, into that run's folder, and not twice", async () => {
    w = await world();
    documents(w, () => status(500));
    const dir = outDir();
    const first = await rig(w, { savePdf: true, outDir: dir });
    await first.issuer.issue(voucher("M-1"));
    await first.issuer.issue(voucher("M-2"));
    await first.issuer.issue(voucher("M-3"));
    await first.close();
    documents(w);
    // This run saves its own vouchers elsewhere: the earlier run's go where that run meant.
    const r = await rig(w, { savePdf: true, outDir: outDir() });
    const fetched = await r.issuer.fetchMissing(new Set(["M-1"]), 1);
    await r.close();
    expect(fetched).toHaveLength(1);
    expect(fetched[0]).toMatchObject({
      status: "skipped-duplicate",
      external_reference: "M-2",
      source: "M-2.json",
      comprobante_tipo: "FACTURA B",
      punto_venta: 679,
      numero: 2,
      comprobante_nro: "00679-00000002",
      total: "121",
      pdf: join(dir, "FACTURA_B-00679-00000002.pdf"),
    });
    expect(existsSync(join(dir, "FACTURA_B-00679-00000002-ticket.pdf"))).toBe(true);
    expect((await entryOf(w, "M-2"))?.documents_missing).toBe(false);
    const r2 = await rig(w, { savePdf: true, outDir: dir });
    const rest = await r2.issuer.fetchMissing(new Set());
    await r2.close();
    expect(rest.map((x) => x.external_reference).sort()).toEqual(["M-1", "M-3"]);
  });

  it("a journal-settled voucher whose PDF went missing gets it again; one still on disk is left alone", async () => {
    w = await world();
    const asked = documents(w);
    const dir = outDir();
    const first = await rig(w, { savePdf: true, outDir: dir });
    const issued = await first.issuer.issue(voucher("K-1"));
    await first.close();
    asked.length = 0;
    const again = await rig(w, { savePdf: true, outDir: dir });
    const kept = await again.issuer.issue(voucher("K-1"));
    await again.close();
    expect(asked).toEqual([]);
    expect(kept.pdf).toBe(issued.pdf);
    rmSync(issued.pdf as string);
    const r = await rig(w, { savePdf: true, outDir: dir });
    const refetched = await r.issuer.issue(voucher("K-1"));
    await r.close();
    expect(refetched.status).toBe("skipped-duplicate");
    expect(w.calls.get("facturacion/regenerar_pdf")).toBe(1);
    expect(existsSync(issued.pdf as string)).toBe(true);
    expect(asked).toHaveLength(2);
  });

  it("found at the service with its PDF still where the journal says: not downloaded again", async () => {
    w = await world();
    const asked = documents(w);
    const dir = outDir();
    // Issued, its documents saved, then the issued entry lost: the journal says `sending` again.
    const first = await rig(w, { savePdf: true, outDir: dir });
    const issued = await first.issuer.issue(voucher("K-2"));
    await first.journal.record({ ref: "K-2", state: "sending", mode: "instant", sent_at: "2026-11-20T00:00:00Z" });
    await first.close();
    asked.length = 0;
    const r = await rig(w, { savePdf: true, outDir: dir });
    const result = await r.issuer.issue(voucher("K-2"));
    await r.close();
    expect(result).toMatchObject({
      status: "skipped-duplicate",
      reconciled: true,
      pdf: issued.pdf,
      ticket: issued.ticket,
    });
    expect(asked).toEqual([]);
  });

  it("found at the service, the journal's ticket gone: both fetched again", async () => {
    w = await world();
    const asked = documents(w);
    const dir = outDir();
    const first = await rig(w, { savePdf: true, outDir: dir });
    const issued = await first.issuer.issue(voucher("K-3"));
    await first.journal.record({ ref: "K-3", state: "sending", mode: "instant", sent_at: "2026-11-20T00:00:00Z" });
    await first.close();
    rmSync(issued.ticket as string);
    asked.length = 0;
    const r = await rig(w, { savePdf: true, outDir: dir });
    const result = await r.issuer.issue(voucher("K-3"));
    await r.close();
    expect(asked).toHaveLength(2);
    expect(existsSync(result.ticket as string)).toBe(true);
  });
});

describe("a batch", () => {
  const refusal = (errors: string[]): IssueAnswer => ({
    ok: false,
    errors,
    details: [{ code: "TFC-1", text: errors[0] ?? "" }],
    requiresFce: false,
  });

  /** `lotes` refusing the whole batch for row `row` the first time, answering as the sandbox after. */
  function refuseRow(row: number, errors: string[]) {
    const sent: string[][] = [];
    let refused = false;
    const real = script(w, {
      issueBatch: async (mode: "instant", bodies: Record<string, unknown>[]) => {
        const refs = bodies.map((b) => (b.comprobante as { external_reference: string }).external_reference);
        sent.push(refs);
        if (refused) return real.issueBatch(mode, bodies);
        refused = true;
        return {
          items: bodies.map((_, i) => (i === row ? refusal(errors) : refusal(["not looked at"]))),
          refusedRow: row,
        };
      },
      issue: async (mode: "instant", body: Record<string, unknown>) => {
        sent.push([(body.comprobante as { external_reference: string }).external_reference]);
        return real.issue(mode, body);
      },
    });
    return sent;
  }

  it("refused whole for one row: that voucher rejected, the others asked about, then sent again one by one, in order", async () => {
    w = await world();
    const sent = refuseRow(1, ["El CUIT es invalido"]);
    const r = await rig(w);
    const results = await r.issuer.issueBatch(["B-1", "B-2", "B-3", "B-4"].map((ref) => voucher(ref)));
    await r.close();
    expect(results.map((x) => [x.external_reference, x.status])).toEqual([
      ["B-1", "issued"],
      ["B-2", "rejected"],
      ["B-3", "issued"],
      ["B-4", "issued"],
    ]);
    expect(results[1]?.errors).toEqual(["El CUIT es invalido"]);
    // The answer names no other voucher: each is asked about before it goes again, alone.
    expect(sent).toEqual([["B-1", "B-2", "B-3", "B-4"], ["B-1"], ["B-3"], ["B-4"]]);
    expect(results.map((x) => x.numero)).toEqual([1, null, 2, 3]);
  });

  it("refused for a numbering or date error: those before it sent again, those after it held", async () => {
    w = await world();
    const sent = refuseRow(2, ["Error 10016: el numero no es el proximo"]);
    const r = await rig(w);
    const results = await r.issuer.issueBatch(["N-1", "N-2", "N-3", "N-4", "N-5"].map((ref) => voucher(ref)));
    await r.close();
    expect(results.map((x) => x.status)).toEqual(["issued", "issued", "rejected", "held", "held"]);
    expect(results[3]?.errors).toEqual([
      "not sent: N-3 failed in this lane with a numbering or date error, and this one would too",
    ]);
    expect(sent).toEqual([["N-1", "N-2", "N-3", "N-4", "N-5"], ["N-1"], ["N-2"]]);
    expect(await entryOf(w, "N-4")).toMatchObject({ state: "held", errors: results[3]?.errors });
  });

  it("refused for the first row alone, with one other: that other goes alone", async () => {
    w = await world();
    const sent = refuseRow(0, ["Error 10016"]);
    const r = await rig(w);
    const results = await r.issuer.issueBatch([voucher("O-1"), voucher("O-2")]);
    await r.close();
    expect(results.map((x) => x.status)).toEqual(["rejected", "held"]);
    expect(sent).toEqual([["O-1", "O-2"]]);
  });

  it("one refused and one alone left: that one is sent alone", async () => {
    w = await world();
    const sent = refuseRow(1, ["El CUIT es invalido"]);
    const r = await rig(w);
    const results = await r.issuer.issueBatch([voucher("P-1"), voucher("P-2")]);
    await r.close();
    expect(results.map((x) => x.status)).toEqual(["issued", "rejected"]);
    expect(sent).toEqual([["P-1", "P-2"], ["P-1"]]);
  });

  it("items not processed behind a failed one are held, and say which one failed", async () => {
    w = await world();
    script(w, {
      issueBatch: async () => ({
        items: [
          refusal(["El CUIT es invalido"]),
          { ...refusal(["no procesado"]), notProcessed: true },
          { ...refusal(["no procesado"]), notProcessed: true },
        ],
      }),
    });
    const r = await rig(w);
    const results = await r.issuer.issueBatch([voucher("X-1"), voucher("X-2"), voucher("X-3")]);
    await r.close();
    expect(results.map((x) => x.status)).toEqual(["rejected", "held", "held"]);
    const why = "not processed by the service: X-1, earlier in its batch, failed";
    expect(results[1]).toMatchObject({ errors: [why], error_details: [{ code: "not-processed", text: why }] });
    expect(await entryOf(w, "X-2")).toMatchObject({ state: "held", errors: [why] });
  });

  it("not processed with no failed one before it: said so without a name", async () => {
    w = await world();
    script(w, {
      issueBatch: async () => ({
        items: [
          { ...refusal(["no procesado"]), notProcessed: true },
          { ...refusal(["no procesado"]), notProcessed: true },
        ],
      }),
    });
    const r = await rig(w);
    const results = await r.issuer.issueBatch([voucher("Y-1"), voucher("Y-2")]);
    await r.close();
    expect(results[0]?.errors).toEqual(["not processed by the service: an earlier voucher of its batch failed"]);
  });

  it("a bad request (HTTP 400) naming no voucher: each asked about, then sent alone for its own answer", async () => {
    w = await world();
    script(w, {
      issueBatch: async () => {
        throw new FacturarError("HTTP 400: bad batch", "rejected", "http.400");
      },
    });
    const r = await rig(w);
    const results = await r.issuer.issueBatch([voucher("Z-1"), voucher("Z-2")]);
    await r.close();
    expect(results.map((x) => x.status)).toEqual(["issued", "issued"]);
    expect(r.warnings[0]).toMatch(/^batch of 2: HTTP 400: bad batch; asking the service about each voucher$/);
    expect(w.calls.get("facturacion/nuevo")).toBe(2);
    expect(["Z-1", "Z-2"].map((ref) => w.held(ref))).toEqual([1, 1]);
  });

  it("a bad request (HTTP 400) naming a row: that voucher rejected with it, the others asked about and sent alone", async () => {
    w = await world();
    script(w, {
      issueBatch: async () => {
        throw new FacturarError("HTTP 400: la fila 1 (comenzando en 0) es invalida", "rejected", "http.400");
      },
    });
    const r = await rig(w);
    const results = await r.issuer.issueBatch([voucher("Z-5"), voucher("Z-6"), voucher("Z-7")]);
    await r.close();
    expect(results.map((x) => x.status)).toEqual(["issued", "rejected", "issued"]);
    // The batch's row told as the voucher's place in the input.
    expect(results[1]?.errors).toEqual(["HTTP 400: Z-6.json es invalida"]);
    expect(await entryOf(w, "Z-6")).toMatchObject({ state: "rejected" });
    expect(["Z-5", "Z-6", "Z-7"].map((ref) => w.held(ref))).toEqual([1, 0, 1]);
  });

  it("refused by a service failure: the run stops, both held in the journal", async () => {
    w = await world();
    script(w, {
      issueBatch: async () => {
        throw new AccessDeniedError("HTTP 403");
      },
    });
    const r = await rig(w);
    const stop = await r.issuer.issueBatch([voucher("Z-3"), voucher("Z-4")]).catch((e: unknown) => e);
    await r.close();
    expect(stop).toBeInstanceOf(ServiceStop);
    expect((stop as ServiceStop).settled).toEqual([]);
    expect((await entryOf(w, "Z-4"))?.state).toBe("held");
  });

  it("a bug in sending a batch is thrown as it is; the vouchers stay `sending`", async () => {
    w = await world();
    script(w, {
      issueBatch: async () => {
        throw new TypeError("a bug");
      },
    });
    const r = await rig(w);
    await expect(r.issuer.issueBatch([voucher("Z-5"), voucher("Z-6")])).rejects.toThrow(TypeError);
    await r.close();
    expect((await entryOf(w, "Z-6"))?.state).toBe("sending");
  });

  it("a batch with settled vouchers sends only the others; one left is sent alone", async () => {
    w = await world();
    await run(w, [voucher("S-1")]);
    w.calls.clear();
    const r = await rig(w);
    const results = await r.issuer.issueBatch([voucher("S-1"), voucher("S-2")]);
    const all = await r.issuer.issueBatch([voucher("S-1"), voucher("S-2")]);
    await r.close();
    expect(results.map((x) => x.status)).toEqual(["skipped-duplicate", "issued"]);
    expect(all.map((x) => x.status)).toEqual(["skipped-duplicate", "skipped-duplicate"]);
    expect(w.calls.get("facturacion/lotes")).toBeUndefined();
    expect(w.calls.get("facturacion/nuevo")).toBe(1);
  });

  it("lost, and the service cannot be asked: each unknown; lost, and the service then stops: unknown, run stopped", async () => {
    w = await world();
    let lostBatch = false;
    w.step = async (method, _body, call) => {
      if (method === "facturacion/lotes") {
        lostBatch = true;
        throw lost();
      }
      if (lostBatch && method === "facturacion/consulta_avanzada")
        throw new TransportError("cannot connect", "refused", false);
      return call();
    };
    const r = await rig(w);
    const results = await r.issuer.issueBatch([voucher("U-1"), voucher("U-2")]);
    await r.close();
    expect(r.warnings[0]).toMatch(/^batch of 2: no complete answer.*; asking the service about each voucher$/);
    expect(results.map((x) => x.status)).toEqual(["unknown", "unknown"]);
    expect((await entryOf(w, "U-2"))?.state).toBe("unknown");
  });

  it("lost, then the re-send of the first is refused by a stop: the rest are unknown, the first held", async () => {
    w = await world();
    let lotes = 0;
    w.step = async (method, _body, call) => {
      if (method === "facturacion/lotes" && lotes++ === 0) throw lost();
      if (method === "facturacion/nuevo")
        return {
          status: 403,
          headers: {},
          body: Buffer.from('{"error":"S","errores":["Las credenciales enviadas no son validas."]}'),
        };
      return call();
    };
    const r = await rig(w);
    const stop = await r.issuer.issueBatch([voucher("V-1"), voucher("V-2"), voucher("V-3")]).catch((e: unknown) => e);
    await r.close();
    expect(stop).toBeInstanceOf(ServiceStop);
    const settled = (stop as ServiceStop).settled ?? [];
    expect(settled[0]).toBeUndefined();
    expect(settled.slice(1).map((x) => x?.status)).toEqual(["unknown", "unknown"]);
    expect((await entryOf(w, "V-1"))?.state).toBe("held");
    expect((await entryOf(w, "V-3"))?.state).toBe("unknown");
  });

  it("lost: what the service holds is settled, what it lacks goes again alone; behind one not settled, held", async () => {
    w = await world();
    let lotes = 0;
    w.step = async (method, body, call) => {
      if (method === "facturacion/lotes" && lotes++ === 0) {
        // The service stored the first of the batch only.
        body.requests = (body.requests as unknown[]).slice(0, 1);
        await call();
        throw lost();
      }
      const ref = (body.comprobante as { external_reference?: string } | undefined)?.external_reference;
      if (method === "facturacion/nuevo" && ref === "H-2") throw lost();
      return call();
    };
    const r = await rig(w);
    const results = await r.issuer.issueBatch([voucher("H-1"), voucher("H-2"), voucher("H-3")]);
    await r.close();
    expect(results.map((x) => x.status)).toEqual(["issued", "rejected", "held"]);
    expect(results[0]?.reconciled).toBe(true);
    expect(results[2]?.errors).toEqual([
      "not sent: H-2, earlier in this lane, is not settled; sending this one first would break the lane's order",
    ]);
    expect(w.held("H-3")).toBe(0);
  });
});

describe("a journal that cannot be written", () => {
  /** A journal whose writes fail from the `from`-th on (a full disk), or only those `failing` says. */
  function fullDisk(from: number, failing: (n: number) => boolean = (n) => n >= from) {
    return (journal: Journal): Journal => {
      let writes = 0;
      const recordAll = journal.recordAll.bind(journal);
      journal.recordAll = async (entries) => {
        if (failing(++writes))
          throw new JournalUnwritableError(
            join(w.dir, "state"),
            Object.assign(new Error("no space"), { code: "ENOSPC" }),
          );
        return recordAll(entries);
      };
      return journal;
    };
  }

  it("no `sending` entry, no send: the run stops before anything goes", async () => {
    w = await world();
    const r = await rig(w, {}, fullDisk(1));
    const stop = await r.issuer.issue(voucher("JF-1")).catch((e: unknown) => e);
    await r.close();
    expect(stop).toBeInstanceOf(ServiceStop);
    expect((stop as ServiceStop).reason).toBeInstanceOf(JournalUnwritableError);
    expect(r.issuer.halted()).toBeInstanceOf(JournalUnwritableError);
    expect(w.calls.get("facturacion/nuevo")).toBeUndefined();
  });

  it("an outcome it cannot take is still told, kept, and written at the end if the disk has room again", async () => {
    for (const roomAtTheEnd of [false, true]) {
      w = await world();
      let full = true;
      const r = await rig(
        w,
        {},
        fullDisk(2, (n) => n >= 2 && full),
      );
      expect(r.issuer.halted()).toBeUndefined();
      const result = await r.issuer.issue(voucher("JF-2"));
      expect(result.status).toBe("issued");
      expect(r.issuer.halted()).toBeInstanceOf(JournalUnwritableError);
      // Nothing more is sent this run.
      await expect(r.issuer.issue(voucher("JF-3"))).rejects.toBeInstanceOf(ServiceStop);
      expect(w.calls.get("facturacion/nuevo")).toBe(1);
      full = !roomAtTheEnd;
      expect(await r.issuer.flushUnwritten()).toBe(roomAtTheEnd ? 0 : 1);
      await r.close();
      // Not written: the journal still says `sending`, and the next run asks the service.
      expect((await entryOf(w, "JF-2"))?.state).toBe(roomAtTheEnd ? "issued" : "sending");
      await w.close();
    }
  });

  it("a voucher journaled `sending` before the journal failed is not sent: held, and the run stops", async () => {
    w = await world();
    // Writes: 1 sending A, 2 sending B (both begun), 3 issued A fails.
    const r = await rig(
      w,
      {},
      fullDisk(3, (n) => n === 3),
    );
    const a = await r.issuer.begin(voucher("JF-4"));
    const b = await r.issuer.begin(voucher("JF-5"));
    expect((await r.issuer.finish(a)).status).toBe("issued");
    const stop = await r.issuer.finish(b).catch((e: unknown) => e);
    await r.close();
    expect(stop).toBeInstanceOf(ServiceStop);
    expect(w.calls.get("facturacion/nuevo")).toBe(1);
    expect(await entryOf(w, "JF-5")).toMatchObject({
      state: "held",
      errors: ["not sent: the journal cannot be written"],
    });
  });

  it("any other failure of the journal is a bug, thrown as it is", async () => {
    w = await world();
    let n = 0;
    const r = await rig(w, {}, (journal) => {
      const recordAll = journal.recordAll.bind(journal);
      journal.recordAll = async (entries) => {
        if (++n >= 2) throw new TypeError("a bug");
        return recordAll(entries);
      };
      return journal;
    });
    await expect(r.issuer.issue(voucher("JF-6"))).rejects.toThrow(TypeError);
    n = 0;
    await expect(r.issuer.issue(voucher("JF-7"))).rejects.toThrow(TypeError);
    n = 1;
    await expect(r.issuer.flushUnwritten()).resolves.toBe(0);
    await r.close();
  });
});

describe("a lane's next voucher, begun ahead", () => {
  it("is journaled `sending` again when it waited long, so the next run counts from the real send", async () => {
    w = await world();
    let clock = Date.parse("2026-11-20T12:00:00Z");
    const sentAt: string[] = [];
    const r = await rig(w, { now: () => clock, wall: () => clock }, (journal) => {
      const recordAll = journal.recordAll.bind(journal);
      journal.recordAll = async (entries) => {
        for (const e of entries) if (e.state === "sending") sentAt.push(e.sent_at as string);
        return recordAll(entries);
      };
      return journal;
    });
    const soon = await r.issuer.begin(voucher("BA-1"));
    clock += 1000;
    await r.issuer.finish(soon);
    expect(sentAt).toEqual(["2026-11-20T12:00:00.000Z"]);
    const late = await r.issuer.begin(voucher("BA-2"));
    clock += 1001;
    await r.issuer.finish(late);
    await r.close();
    expect(sentAt).toEqual(["2026-11-20T12:00:00.000Z", "2026-11-20T12:00:01.000Z", "2026-11-20T12:00:02.001Z"]);
  });

  it("abandoned: the journal says held, with why; one settled already is left as it is", async () => {
    w = await world();
    await run(w, [voucher("AB-1")]);
    const r = await rig(w);
    const begun = await r.issuer.begin(voucher("AB-2"));
    await r.issuer.abandon(begun, "stopped by the user");
    const settled = await r.issuer.begin(voucher("AB-1"));
    await r.issuer.abandon(settled, "stopped by the user");
    await r.close();
    expect(await entryOf(w, "AB-2")).toMatchObject({ state: "held", errors: ["stopped by the user"] });
    expect((await entryOf(w, "AB-1"))?.state).toBe("issued");
  });
});

describe("the same reference with other content", () => {
  it("journaled with its digest: any change is a conflict, not ok, nothing sent; the same content is skipped", async () => {
    w = await world();
    await run(w, [voucher("DG-1")]);
    const r = await rig(w);
    const same = await r.issuer.issue(voucher("DG-1"));
    const other = await r.issuer.issue(voucher("DG-1", (raw) => (raw.cliente.razon_social = "Otra")));
    await r.close();
    expect(same).toMatchObject({ status: "skipped-duplicate", ok: true });
    expect(same.content_changed).toBeUndefined();
    expect(other).toMatchObject({
      status: "conflict",
      ok: false,
      content_changed: true,
      comprobante_nro: "00679-00000001",
    });
    expect(other.errors).toEqual([
      "DG-1.json: DG-1 was used before for another voucher (FACTURA B 00679-00000001 121.00); nothing sent: this sale is not invoiced",
    ]);
    expect(other.hint).toMatch(/^give the new voucher its own external_reference/);
    expect(w.calls.get("facturacion/nuevo")).toBe(1);
  });

  it("without a digest: a different type or total is flagged; the same type and total are not", async () => {
    w = await world();
    const journal = await Journal.open(join(w.dir, "state"), w.account, { lock: false, profile: "test" });
    const base = { state: "issued" as const, mode: "instant" as const, punto_venta: 679 };
    await journal.recordAll([
      { ...base, ref: "ND-1", tipo: "FACTURA B", total: "121.00", numero: 1 },
      { ...base, ref: "ND-2", tipo: "FACTURA A", total: "121", numero: 2 },
      { ...base, ref: "ND-3", tipo: "FACTURA B", total: "130", numero: 3 },
      { ...base, ref: "ND-4", numero: 4 },
    ]);
    await journal.close();
    const r = await rig(w);
    const results = await Promise.all(["ND-1", "ND-2", "ND-3", "ND-4"].map((ref) => r.issuer.issue(voucher(ref))));
    await r.close();
    expect(results.map((x) => x.content_changed ?? false)).toEqual([false, true, true, false]);
  });

  it("found at the service (journal lost): its type and total are compared, and the journal keeps no digest", async () => {
    w = await world();
    await run(w, [voucher("SV-1"), voucher("SV-2")]);
    rmSync(join(w.dir, "state"), { recursive: true });
    const r = await rig(w);
    const same = await r.issuer.issue(voucher("SV-1"));
    const other = await r.issuer.issue(
      voucher("SV-2", (raw) => {
        raw.comprobante.detalle[0].producto.precio_unitario_sin_iva = 200;
        raw.comprobante.total = 242;
      }),
    );
    await r.close();
    expect(same).toMatchObject({ status: "skipped-duplicate", reconciled: true, total: "121.00" });
    expect(same.hint).toBe("already issued (the service holds SV-1): not sent again");
    expect(same.content_changed).toBeUndefined();
    expect(other.content_changed).toBe(true);
    // What was sent is not this file: its digest is not journaled as if it were.
    expect((await entryOf(w, "SV-2"))?.digest).toBeUndefined();
    expect((await entryOf(w, "SV-1"))?.digest).toBe(voucher("SV-1").digest);
  });
});

describe("what is sent", () => {
  it("the service gets the texts escaped, the reference, the point of sale, and no credentials from the file", async () => {
    w = await world();
    const bodies: Record<string, unknown>[] = [];
    const real = script(w, {
      issue: async (mode: "instant", body: Record<string, unknown>) => {
        bodies.push(body);
        return real.issue(mode, body);
      },
    });
    const v = voucher("W-1", (raw) => {
      raw.$schema = "https://example.invalid/schema.json";
      raw.usertoken = "secret-user";
      raw.apikey = "secret-key";
      raw.apitoken = "secret-token";
      raw.cliente.razon_social = "Pérez 100%";
      delete raw.comprobante.punto_venta;
    });
    const r = await rig(w);
    await r.issuer.issue(v);
    await r.close();
    const [body] = bodies as [Record<string, unknown>];
    expect(Object.keys(body).sort()).toEqual(["cliente", "comprobante"]);
    expect((body.cliente as { razon_social: string }).razon_social).toBe("Pérez 100#&#");
    expect(body.comprobante).toMatchObject({ external_reference: "W-1", punto_venta: 679 });
    // The prepared voucher itself is not escaped (it is what the journal's digest and results read).
    expect((v.envelope.cliente as { razon_social: string }).razon_social).toBe("Pérez 100%");
  });

  it("a voucher without a date says so; without a reference it gets one derived from its content", () => {
    const undated = voucher("H-1", (raw) => {
      delete raw.comprobante.fecha;
    });
    expect(undated.datedToday).toBe(true);
    expect(voucher("H-2").datedToday).toBe(false);
    const a = voucher("", (raw) => {
      delete raw.comprobante.external_reference;
    });
    const b = voucher("", (raw) => {
      delete raw.comprobante.external_reference;
    });
    expect(a.reference).toMatch(/^F-[0-9a-f]{24}-679$/);
    expect(a.reference).toBe(b.reference);
    expect(a.envelope.comprobante.external_reference).toBe(a.reference);
    expect(a).toMatchObject({ tipo: "FACTURA B", punto_venta: 679, fecha: "20/11/2026", operacion: "V", total: "121" });
  });

  it("queued mode sends numero 0; the file's own point of sale is kept", () => {
    const v = voucher("H-3", (raw) => {
      raw.comprobante.numero = 5;
      raw.comprobante.punto_venta = 2;
    });
    expect(v.envelope.comprobante.numero).toBe(5);
    expect(v.punto_venta).toBe(2);
    expect(v.envelope.comprobante.punto_venta).toBe(2);
    const q = Issuer.prepare(v.envelope, "h.json", 679, "queued");
    expect(q.envelope.comprobante.numero).toBe(0);
    expect(q.envelope.comprobante.punto_venta).toBe(2);
    const none = Issuer.prepare(
      { ...v.envelope, comprobante: { ...v.envelope.comprobante, punto_venta: undefined } },
      "h.json",
      undefined,
      "instant",
    );
    expect(none.envelope.comprobante.punto_venta).toBeUndefined();
    expect(none.punto_venta).toBeUndefined();
  });
});

describe("a purchase", () => {
  it("is looked up among purchases, and journaled as one", async () => {
    w = await world();
    const asked: string[] = [];
    const real = script(w, {
      findByReference: async (ref: string, operacion: "V" | "C") => {
        asked.push(`${operacion} ${ref}`);
        return real.findByReference(ref, operacion);
      },
    });
    const purchase: PreparedVoucher = { ...voucher("PC-1"), operacion: "C" };
    const r = await rig(w);
    await r.issuer.issue(purchase);
    await r.issuer.issue(voucher("PC-2"));
    await r.close();
    expect(asked).toEqual(["C PC-1", "V PC-2"]);
    expect((await entryOf(w, "PC-1"))?.operacion).toBe("C");
    expect((await entryOf(w, "PC-2"))?.operacion).toBeUndefined();
  });
});

describe("documents journaled missing", () => {
  it("a journal-settled voucher whose ticket was not saved gets both fetched again", async () => {
    w = await world();
    const asked = documents(w, (url) => (url.includes("/ticket/") ? status(500) : ok(PDF)));
    const dir = outDir();
    const first = await rig(w, { savePdf: true, outDir: dir });
    const issued = await first.issuer.issue(voucher("TM-1"));
    await first.close();
    expect(existsSync(issued.pdf as string)).toBe(true);
    documents(w);
    asked.length = 0;
    const r = await rig(w, { savePdf: true, outDir: dir });
    const again = await r.issuer.issue(voucher("TM-1"));
    await r.close();
    expect(again.status).toBe("skipped-duplicate");
    expect(again.ticket).toMatch(/-ticket\.pdf$/);
    expect(again.documents_missing).toBeUndefined();
    expect((await entryOf(w, "TM-1"))?.documents_missing).toBe(false);
  });

  it("without --pdf a journal-settled voucher's missing documents are left alone", async () => {
    w = await world();
    const asked = documents(w, () => status(500));
    const first = await rig(w, { savePdf: true, outDir: outDir() });
    await first.issuer.issue(voucher("TM-2"));
    await first.close();
    asked.length = 0;
    const r = await rig(w);
    const again = await r.issuer.issue(voucher("TM-2"));
    await r.close();
    expect(again.status).toBe("skipped-duplicate");
    expect(asked).toEqual([]);
  });
});

describe("an Issuer given no clock", () => {
  it("really sleeps between questions about a lost answer: a few lookups in the settle window, not a busy loop", async () => {
    w = await world();
    let lookups = 0;
    w.step = async (method, _body, call) => {
      if (method === "facturacion/nuevo") throw lost();
      if (method === "facturacion/consulta_avanzada") lookups++;
      return call();
    };
    const journal = await Journal.open(join(w.dir, "state"), w.account, { lock: false, profile: "test" });
    const { sleep: _s, now: _n, ...settings } = { ...SETTINGS, settleWindowMs: 40 };
    const issuer = new Issuer(w.service, journal, settings, () => {});
    const started = Date.now();
    const result = await issuer.issue(voucher("CLK-1"));
    await journal.close();
    expect(result.status).toBe("rejected");
    expect(Date.now() - started).toBeGreaterThanOrEqual(3 * 40);
    // One lookup before sending, then about two per send (one, a sleep to the window's end, one more).
    expect(lookups).toBeLessThanOrEqual(1 + 3 * 3);
  });
});

describe("what a result and the journal say", () => {
  it("a rejected voucher still says which voucher it is: type, point of sale, total, due date", async () => {
    w = await world();
    script(w, {
      issue: async (): Promise<IssueAnswer> => ({ ok: false, errors: ["no"], details: [], requiresFce: false }),
    });
    const r = await rig(w);
    const result = await r.issuer.issue(voucher("RS-1"));
    await r.close();
    expect(result).toMatchObject({
      status: "rejected",
      comprobante_tipo: "FACTURA B",
      punto_venta: 679,
      total: "121",
      vencimiento_pago: "20/12/2026",
      numero: null,
      comprobante_nro: null,
    });
  });

  it("issued with no point of sale known anywhere: no voucher number made up, and no PDF", async () => {
    w = await world();
    script(w, {
      issue: async (): Promise<IssueAnswer> => ({
        ok: true,
        state: "issued",
        comprobante_tipo: "FACTURA B",
        punto_venta: null,
        numero: 5,
        cae: null,
        vencimiento_cae: null,
        vencimiento_pago: null,
        qr: null,
        pdf_url: null,
        ticket_url: null,
        observations: [],
      }),
    });
    const base = voucher("NP-1");
    const { punto_venta: _p, ...comprobante } = base.envelope.comprobante;
    const v = Issuer.prepare({ ...base.envelope, comprobante }, "np.json", undefined, "instant");
    const asked = documents(w);
    const r = await rig(w, { savePdf: true, outDir: outDir() });
    const result = await r.issuer.issue(v);
    await r.close();
    expect(result).toMatchObject({ status: "issued", numero: 5, punto_venta: null, comprobante_nro: null });
    expect(result.warnings).toEqual(["PDF not saved: the answer gave no usable voucher number"]);
    expect(asked).toEqual([]);
  });

  it("what the journal says is reported, not what the file says now", async () => {
    w = await world();
    const journal = await Journal.open(join(w.dir, "state"), w.account, { lock: false, profile: "test" });
    await journal.record({
      ref: "JW-1",
      state: "issued",
      mode: "instant",
      tipo: "FACTURA C",
      punto_venta: 5,
      numero: 9,
      cae: "7",
      vencimiento_cae: "01/12/2026",
      vencimiento_pago: "02/01/2027",
      total: "999",
      pdf: "/somewhere/a.pdf",
      ticket: "/somewhere/a-ticket.pdf",
    });
    await journal.close();
    const r = await rig(w);
    const result = await r.issuer.issue(voucher("JW-1"));
    await r.close();
    expect(result).toMatchObject({
      comprobante_tipo: "FACTURA C",
      punto_venta: 5,
      numero: 9,
      comprobante_nro: "00005-00000009",
      cae: "7",
      vencimiento_cae: "01/12/2026",
      vencimiento_pago: "02/01/2027",
      total: "999",
      pdf: "/somewhere/a.pdf",
      ticket: "/somewhere/a-ticket.pdf",
    });
    expect(result.observations).toBeUndefined();
  });

  it("found at the service: its figures reported, the file's where it gives none", async () => {
    w = await world();
    await run(w, [voucher("FS-1"), voucher("FS-2")]);
    rmSync(join(w.dir, "state"), { recursive: true });
    const real = script(w, {
      findByReference: async (ref: string) =>
        (await real.findByReference(ref)).map((v) =>
          ref === "FS-1"
            ? { ...v, tipo: "", vencimiento_pago: null, total: null, observations: [] }
            : {
                ...v,
                tipo: "FACTURA C",
                punto_venta: 5,
                vencimiento_pago: "03/01/2027",
                total: "999.00",
                observations: ["obs"],
              },
        ),
    });
    const r = await rig(w);
    const [a, b] = [await r.issuer.issue(voucher("FS-1")), await r.issuer.issue(voucher("FS-2"))];
    await r.close();
    expect(a).toMatchObject({ comprobante_tipo: "FACTURA B", vencimiento_pago: "20/12/2026", total: "121" });
    expect(a.observations).toBeUndefined();
    expect(b).toMatchObject({
      comprobante_tipo: "FACTURA C",
      punto_venta: 5,
      vencimiento_pago: "03/01/2027",
      total: "999.00",
      observations: ["obs"],
    });
  });

  it("found at the service with the journal lost: the journal gets everything again", async () => {
    w = await world();
    await run(w, [voucher("JL-1")]);
    rmSync(join(w.dir, "state"), { recursive: true });
    const r = await rig(w);
    const result = await r.issuer.issue(voucher("JL-1"));
    await r.close();
    expect(r.warnings).toEqual([]);
    expect(result.status).toBe("skipped-duplicate");
    expect(await entryOf(w, "JL-1")).toMatchObject({
      state: "issued",
      tipo: "FACTURA B",
      punto_venta: 679,
      numero: 1,
      comprobante_nro: "00679-00000001",
      fecha: "20/11/2026",
      vencimiento_pago: "20/12/2026",
      total: "121.00",
      digest: voucher("JL-1").digest,
    });
  });

  it("issued without a number journaled: the next run asks the service for it", async () => {
    w = await world();
    let sent = false;
    const real = script(w, {
      issue: async (mode: "instant", body: Record<string, unknown>): Promise<IssueAnswer> => {
        const answer = await real.issue(mode, body);
        sent = true;
        return answer.ok ? { ...answer, numero: null } : answer;
      },
      findByReference: async (ref: string) => {
        if (sent) throw new TransportError("cannot connect", "refused", false);
        return real.findByReference(ref);
      },
    });
    const first = await rig(w);
    expect((await first.issuer.issue(voucher("NN-3"))).numero).toBeNull();
    await first.close();
    w.service = real;
    const r = await rig(w);
    const again = await r.issuer.issue(voucher("NN-3"));
    await r.close();
    expect(again).toMatchObject({ status: "skipped-duplicate", numero: 1, reconciled: true });
  });

  it("the `sending` entry says what was sent, so that the journal can show it before any answer", async () => {
    w = await world();
    w.step = async (method, _body, call) => {
      if (method === "facturacion/nuevo") throw new TypeError("the process dies here");
      return call();
    };
    const r = await rig(w, { wall: () => Date.parse("2026-11-20T12:00:00Z") });
    await expect(r.issuer.issue(voucher("SE-1"))).rejects.toThrow();
    await r.close();
    expect(await entryOf(w, "SE-1")).toMatchObject({
      state: "sending",
      mode: "instant",
      tipo: "FACTURA B",
      punto_venta: 679,
      total: "121",
      fecha: "20/11/2026",
      source: "SE-1.json",
      digest: voucher("SE-1").digest,
      sent_at: "2026-11-20T12:00:00.000Z",
    });
  });

  it("a bug while asking about a lost answer is thrown as it is", async () => {
    w = await world();
    let sent = false;
    w.step = async (method, _body, call) => {
      if (method === "facturacion/nuevo") {
        sent = true;
        throw lost();
      }
      return call();
    };
    const real = script(w, {
      findByReference: async (ref: string) => {
        if (sent) throw new TypeError("a bug");
        return real.findByReference(ref);
      },
    });
    const r = await rig(w);
    await expect(r.issuer.issue(voucher("BG-1"))).rejects.toThrow("a bug");
    await r.close();
  });

  it("one issued and one queued under a reference is no duplicate to warn about", async () => {
    w = await world();
    await run(w, [voucher("IQ-1")]);
    rmSync(join(w.dir, "state"), { recursive: true });
    const real = script(w, {
      findByReference: async (ref: string) => {
        const found = await real.findByReference(ref);
        return [...found, ...found.map((v) => ({ ...v, state: "queued" as const, numero: null }))];
      },
    });
    const r = await rig(w);
    const result = await r.issuer.issue(voucher("IQ-1"));
    await r.close();
    expect(r.warnings).toEqual([]);
    expect(result.status).toBe("skipped-duplicate");
  });

  it("queued in the service under another type: the journal keeps the service's type, or the file's if it gives none", async () => {
    w = await world();
    await run(w, [queuedVoucher("QT-1"), queuedVoucher("QT-2")], { mode: "queued" });
    rmSync(join(w.dir, "state"), { recursive: true });
    const real = script(w, {
      findByReference: async (ref: string) =>
        (await real.findByReference(ref)).map((v) => ({ ...v, tipo: ref === "QT-1" ? "FACTURA C" : "" })),
    });
    const r = await rig(w, { mode: "queued" });
    await r.issuer.issue(queuedVoucher("QT-1"));
    await r.issuer.issue(queuedVoucher("QT-2"));
    await r.close();
    expect((await entryOf(w, "QT-1"))?.tipo).toBe("FACTURA C");
    expect((await entryOf(w, "QT-2"))?.tipo).toBe("FACTURA B");
  });

  it("a queued answer with no due date keeps the file's", async () => {
    w = await world();
    const real = script(w, {
      issue: async (mode: "queued", body: Record<string, unknown>): Promise<IssueAnswer> => {
        const answer = await real.issue(mode, body);
        return answer.ok ? { ...answer, vencimiento_pago: null } : answer;
      },
    });
    const r = await rig(w, { mode: "queued" });
    const result = await r.issuer.issue(queuedVoucher("QD-1"));
    await r.close();
    expect(result.vencimiento_pago).toBe("20/12/2026");
  });
});

describe("documents the answer does not link", () => {
  it("a PDF without a ticket (the old model): only the PDF saved, no fresh links asked", async () => {
    w = await world();
    const real = script(w, {
      issue: async (mode: "instant", body: Record<string, unknown>): Promise<IssueAnswer> => {
        const answer = await real.issue(mode, body);
        return answer.ok ? { ...answer, ticket_url: null } : answer;
      },
    });
    const asked = documents(w);
    const r = await rig(w, { savePdf: true, outDir: outDir() });
    const result = await r.issuer.issue(voucher("OM-1"));
    await r.close();
    expect(asked).toHaveLength(1);
    expect(result.pdf).not.toBeNull();
    expect(result.ticket).toBeNull();
    expect(result.documents_missing).toBeUndefined();
    expect(w.calls.get("facturacion/regenerar_pdf")).toBeUndefined();
  });

  it("no links, and no fresh ones to be had: journaled missing, and told why", async () => {
    w = await world();
    const real = script(w, {
      issue: async (mode: "instant", body: Record<string, unknown>): Promise<IssueAnswer> => {
        const answer = await real.issue(mode, body);
        return answer.ok ? { ...answer, pdf_url: null, ticket_url: null } : answer;
      },
      freshLinks: async () => ({ pdf: null, ticket: null }),
    });
    const asked = documents(w);
    const r = await rig(w, { savePdf: true, outDir: outDir() });
    const result = await r.issuer.issue(voucher("NL-1"));
    await r.close();
    expect(asked).toEqual([]);
    expect(result).toMatchObject({ pdf: null, ticket: null, documents_missing: true });
    // Without a reason, a later run's "its documents are still missing:" said nothing after its colon.
    expect(result.warnings).toEqual(["PDF not saved: the service gives no link to it yet"]);
  });

  it("found at the service without links: both documents fetched through fresh ones", async () => {
    w = await world();
    await run(w, [voucher("FL-1")]);
    rmSync(join(w.dir, "state"), { recursive: true });
    const real = script(w, {
      findByReference: async (ref: string) =>
        (await real.findByReference(ref)).map((v) => ({ ...v, pdf_url: null, ticket_url: null })),
    });
    const asked = documents(w);
    const r = await rig(w, { savePdf: true, outDir: outDir() });
    const result = await r.issuer.issue(voucher("FL-1"));
    await r.close();
    expect(asked).toHaveLength(2);
    expect(result.pdf).not.toBeNull();
    expect(result.ticket).not.toBeNull();
    expect(w.calls.get("facturacion/regenerar_pdf")).toBe(1);
  });

  it("found at the service with a PDF link only: the ticket is not asked for", async () => {
    w = await world();
    await run(w, [voucher("FL-2")]);
    rmSync(join(w.dir, "state"), { recursive: true });
    const real = script(w, {
      findByReference: async (ref: string) =>
        (await real.findByReference(ref)).map((v) => ({ ...v, ticket_url: null })),
    });
    const asked = documents(w);
    const r = await rig(w, { savePdf: true, outDir: outDir() });
    const result = await r.issuer.issue(voucher("FL-2"));
    await r.close();
    expect(asked).toHaveLength(1);
    expect(result.ticket).toBeNull();
  });

  it("issued before without --pdf: a run with --pdf fetches its documents", async () => {
    w = await world();
    await run(w, [voucher("LP-1")]);
    const asked = documents(w);
    const r = await rig(w, { savePdf: true, outDir: outDir() });
    const result = await r.issuer.issue(voucher("LP-1"));
    await r.close();
    expect(result.status).toBe("skipped-duplicate");
    expect(asked).toHaveLength(2);
    expect(result.pdf).not.toBeNull();
  });
});

describe("a batch answered item by item", () => {
  const issued = (numero: number): IssueAnswer => ({
    ok: true,
    state: "issued",
    comprobante_tipo: "FACTURA B",
    punto_venta: 679,
    numero,
    cae: null,
    vencimiento_cae: null,
    vencimiento_pago: null,
    qr: null,
    pdf_url: null,
    ticket_url: null,
    observations: [],
  });
  const refused = (extra: Partial<Extract<IssueAnswer, { ok: false }>> = {}): IssueAnswer => ({
    ok: false,
    errors: ["El CUIT es invalido"],
    details: [],
    requiresFce: false,
    ...extra,
  });

  it("not processed behind a failed one names it, not an issued one before it", async () => {
    w = await world();
    script(w, { issueBatch: async () => ({ items: [issued(1), refused(), refused({ notProcessed: true })] }) });
    const r = await rig(w);
    const results = await r.issuer.issueBatch([voucher("IB-1"), voucher("IB-2"), voucher("IB-3")]);
    await r.close();
    expect(results.map((x) => x.status)).toEqual(["issued", "rejected", "held"]);
    expect(results[2]?.errors).toEqual(["not processed by the service: IB-2, earlier in its batch, failed"]);
  });

  it("the authority down at an item: those before stay issued in the journal, it and the rest held", async () => {
    w = await world();
    const down = new AuthorityDownError(["AFIP No devolvio el CAE asociado."]);
    script(w, {
      issueBatch: async () => ({
        items: [issued(1), issued(2), refused({ unavailable: down }), refused({ notProcessed: true })],
      }),
    });
    const r = await rig(w);
    const stop = await r.issuer
      .issueBatch(["AU-1", "AU-2", "AU-3", "AU-4"].map((ref) => voucher(ref)))
      .catch((e: unknown) => e);
    await r.close();
    expect(stop).toBeInstanceOf(ServiceStop);
    expect((stop as ServiceStop).reason).toBe(down);
    expect((stop as ServiceStop).settled?.map((x) => x?.status)).toEqual(["issued", "issued"]);
    const states = [];
    for (const ref of ["AU-1", "AU-2", "AU-3", "AU-4"]) states.push((await entryOf(w, ref))?.state);
    expect(states).toEqual(["issued", "issued", "held", "held"]);
  });
});

describe("the survey and what it did not ask about", () => {
  it("a voucher left out of the survey is looked up by reference even when the day's listing showed it", async () => {
    w = await world();
    await run(w, [voucher("DT-1")]);
    rmSync(join(w.dir, "state"), { recursive: true });
    w.calls.clear();
    const undated = voucher("DT-1", (raw) => {
      delete raw.comprobante.fecha;
    });
    const r = await rig(w);
    await r.issuer.survey([voucher("DT-2"), voucher("DT-3"), undated]);
    expect(w.calls.get("facturacion/consulta_avanzada")).toBe(1);
    const result = await r.issuer.issue(undated);
    await r.close();
    expect(result.status).toBe("skipped-duplicate");
    expect(w.calls.get("facturacion/consulta_avanzada")).toBe(2);
  });
});

describe("survivors of the mutation run, each a behaviour", () => {
  it("a voucher with a supplier (`proveedor`) is a purchase; any other is a sale", () => {
    const sale = voucher("OP-1");
    expect(headingOf(sale.envelope, "s.json", 679).operacion).toBe("V");
    const withSupplier = { ...sale.envelope, proveedor: { razon_social: "Proveedor SA" } } as unknown as Envelope;
    expect(headingOf(withSupplier, "p.json", 679).operacion).toBe("C");
    const emptySupplier = { ...sale.envelope, proveedor: undefined } as unknown as Envelope;
    expect(headingOf(emptySupplier, "p.json", 679).operacion).toBe("V");
  });

  it("a bug while asking for a journaled voucher's missing number is thrown as it is", async () => {
    w = await world();
    const journal = await Journal.open(join(w.dir, "state"), w.account, { lock: false, profile: "test" });
    await journal.record({ ref: "NB-1", state: "issued", mode: "instant", tipo: "FACTURA B", punto_venta: 679 });
    await journal.close();
    script(w, {
      findByReference: async () => {
        throw new TypeError("a bug");
      },
    });
    const r = await rig(w);
    await expect(r.issuer.issue(voucher("NB-1"))).rejects.toThrow("a bug");
    await r.close();
  });

  it("flushing the unwritten outcomes: a failure that is not the disk's is thrown, not counted", async () => {
    w = await world();
    let mode: "ok" | "full" | "bug" = "ok";
    let writes = 0;
    const r = await rig(w, {}, (journal) => {
      const recordAll = journal.recordAll.bind(journal);
      journal.recordAll = async (entries) => {
        if (++writes === 2) mode = "full";
        if (mode === "full") throw new JournalUnwritableError(w.dir, new Error("no space"));
        if (mode === "bug") throw new TypeError("a bug");
        return recordAll(entries);
      };
      return journal;
    });
    await r.issuer.issue(voucher("FB-1"));
    mode = "bug";
    await expect(r.issuer.flushUnwritten()).rejects.toThrow("a bug");
    await r.close();
  });

  it("a journal that failed once stops the run, even if its next write would have landed", async () => {
    w = await world();
    let writes = 0;
    const r = await rig(w, {}, (journal) => {
      const recordAll = journal.recordAll.bind(journal);
      journal.recordAll = async (entries) => {
        if (++writes === 2) throw new JournalUnwritableError(w.dir, new Error("no space"));
        return recordAll(entries);
      };
      return journal;
    });
    await r.issuer.issue(voucher("JO-1"));
    await expect(r.issuer.issue(voucher("JO-2"))).rejects.toBeInstanceOf(ServiceStop);
    await r.close();
    expect(w.calls.get("facturacion/nuevo")).toBe(1);
    expect(await entryOf(w, "JO-2")).toBeUndefined();
  });

  it("abandoning a voucher settled already writes nothing", async () => {
    w = await world();
    await run(w, [voucher("AS-1")]);
    const r = await rig(w);
    const before = r.journal.all().length;
    await r.issuer.abandon(await r.issuer.begin(voucher("AS-1")), "stopped");
    expect(r.journal.all()).toHaveLength(before);
    await r.close();
  });

  it("sent before without an answer, and the service cannot be asked now: unknown, the run goes on", async () => {
    w = await world();
    const journal = await Journal.open(join(w.dir, "state"), w.account, { lock: false, profile: "test" });
    await journal.record({ ref: "IF-1", state: "sending", mode: "instant", sent_at: "2026-11-20T00:00:00Z" });
    await journal.close();
    w.step = async () => {
      throw new TransportError("cannot connect", "refused", false);
    };
    const r = await rig(w);
    const result = await r.issuer.issue(voucher("IF-1"));
    await r.close();
    expect(result.status).toBe("unknown");
    expect(result.errors[0]).toMatch(/^could not ask the service about IF-1: /);
    expect((await entryOf(w, "IF-1"))?.state).toBe("unknown");
  });

  it("--allow-duplicate does not duplicate a voucher still in the queue", async () => {
    w = await world();
    await run(w, [queuedVoucher("AQ-1")], { mode: "queued" });
    rmSync(join(w.dir, "state"), { recursive: true });
    const again = await run(w, [queuedVoucher("AQ-1")], { mode: "queued", allowDuplicate: true });
    expect(again.results[0]).toMatchObject({ status: "queued", external_reference: "AQ-1" });
    expect(w.calls.get("facturacion/nuevo_encola")).toBe(1);
  });

  it("--allow-duplicate of a reference that itself ends in -R<n> counts from its own suffix", async () => {
    w = await world();
    const journal = await Journal.open(join(w.dir, "state"), w.account, { lock: false, profile: "test" });
    const issued = (ref: string, numero: number) => ({
      ref,
      state: "issued" as const,
      mode: "instant" as const,
      tipo: "FACTURA B",
      punto_venta: 679,
      numero,
    });
    await journal.record(issued("INV-R7", 1));
    await journal.close();
    const first = await run(w, [voucher("INV-R7")], { allowDuplicate: true });
    expect(first.results[0]?.external_reference).toBe("INV-R7-R2");
    const second = await run(w, [voucher("INV-R7")], { allowDuplicate: true });
    expect(second.results[0]?.external_reference).toBe("INV-R7-R3");
    // Past nine: two digits.
    const more = await Journal.open(join(w.dir, "state"), w.account, { lock: false, profile: "test" });
    await more.recordAll([4, 5, 6, 7, 8, 9, 10].map((n) => issued(`INV-R7-R${n}`, 100 + n)));
    await more.close();
    const eleventh = await run(w, [voucher("INV-R7")], { allowDuplicate: true });
    expect(eleventh.results[0]?.external_reference).toBe("INV-R7-R11");
  });

  it("a voucher of a batch sent alone is journaled `sending` before it goes", async () => {
    w = await world();
    await run(w, [voucher("BS-1")]);
    w.step = async (method, _body, call) => {
      if (method === "facturacion/nuevo") throw new TypeError("the process dies here");
      return call();
    };
    const r = await rig(w);
    await expect(r.issuer.issueBatch([voucher("BS-1"), voucher("BS-2")])).rejects.toThrow();
    await r.close();
    expect((await entryOf(w, "BS-2"))?.state).toBe("sending");
  });

  it("a lost batch, then a stop while settling it: what was settled before keeps its result", async () => {
    w = await world();
    let lotes = 0;
    w.step = async (method, body, call) => {
      if (method === "facturacion/lotes" && lotes++ === 0) {
        body.requests = (body.requests as unknown[]).slice(0, 1);
        await call();
        throw lost();
      }
      if (method === "facturacion/nuevo")
        return {
          status: 403,
          headers: {},
          body: Buffer.from('{"error":"S","errores":["Las credenciales enviadas no son validas."]}'),
        };
      return call();
    };
    const r = await rig(w);
    const stop = await r.issuer
      .issueBatch([voucher("LS-1"), voucher("LS-2"), voucher("LS-3")])
      .catch((e: unknown) => e);
    await r.close();
    expect(stop).toBeInstanceOf(ServiceStop);
    expect((stop as ServiceStop).settled?.map((x) => x?.status)).toEqual(["issued", undefined, "unknown"]);
    expect((await entryOf(w, "LS-1"))?.state).toBe("issued");
    expect((await entryOf(w, "LS-2"))?.state).toBe("held");
  });

  it("a bug while settling a lost batch is thrown as it is", async () => {
    w = await world();
    let lostBatch = false;
    w.step = async (method, _body, call) => {
      if (method === "facturacion/lotes") {
        lostBatch = true;
        throw lost();
      }
      return call();
    };
    const real = script(w, {
      findByReference: async (ref: string) => {
        if (lostBatch) throw new TypeError("a bug");
        return real.findByReference(ref);
      },
    });
    const r = await rig(w);
    await expect(r.issuer.issueBatch([voucher("LB-1"), voucher("LB-2")])).rejects.toThrow("a bug");
    await r.close();
  });

  it("found at the service with the journal's PDF gone but its ticket there: the PDF fetched again", async () => {
    w = await world();
    const asked = documents(w);
    const dir = outDir();
    const first = await rig(w, { savePdf: true, outDir: dir });
    const issued = await first.issuer.issue(voucher("K-4"));
    await first.journal.record({ ref: "K-4", state: "sending", mode: "instant", sent_at: "2026-11-20T00:00:00Z" });
    await first.close();
    rmSync(issued.pdf as string);
    asked.length = 0;
    const r = await rig(w, { savePdf: true, outDir: dir });
    const result = await r.issuer.issue(voucher("K-4"));
    await r.close();
    expect(existsSync(result.pdf as string)).toBe(true);
    expect(asked.some((u) => u.includes("/pdf/"))).toBe(true);
  });

  it("queued by this run after a lost answer: reconciled, without the 'already queued' hint", async () => {
    w = await world();
    w.step = async (method, _body, call) => {
      if (method !== "facturacion/nuevo_encola") return call();
      await call();
      throw lost();
    };
    const r = await rig(w, { mode: "queued" });
    const result = await r.issuer.issue(queuedVoucher("QL-1"));
    await r.close();
    expect(result).toMatchObject({ status: "queued", reconciled: true });
    expect(result.hint).toBeUndefined();
    expect(w.calls.get("facturacion/nuevo_encola")).toBe(1);
  });

  it("a queue error with several causes tells them all", async () => {
    w = await world();
    await run(w, [queuedVoucher("QM-1")], { mode: "queued" });
    w.sandbox.options.faults.queueError = 1;
    await w.sandbox.processQueue();
    const real = script(w, {
      findByReference: async (ref: string) =>
        (await real.findByReference(ref)).map((v) => ({ ...v, errors: ["uno", "dos"] })),
    });
    const r = await rig(w, { mode: "queued" });
    const result = await r.issuer.issue(queuedVoucher("QM-1"));
    await r.close();
    expect(result.errors).toEqual(["uno", "dos"]);
    expect(result.error_details).toEqual([{ code: "queue-error", text: "uno; dos" }]);
  });

  it("a bug while following a queued voucher is thrown as it is", async () => {
    w = await world();
    let sent = false;
    const real = script(w, {
      issue: async (mode: "queued", body: Record<string, unknown>) => {
        sent = true;
        return real.issue(mode, body);
      },
      findByReference: async (ref: string) => {
        if (sent) throw new TypeError("a bug");
        return real.findByReference(ref);
      },
    });
    const r = await rig(w, { mode: "queued", wait: true });
    await expect(r.issuer.issue(queuedVoucher("FB-2"))).rejects.toThrow("a bug");
    await r.close();
  });

  it("followed until issued, with no links in the service's record: both documents through fresh links", async () => {
    w = await world();
    let processed = false;
    const real = script(w, {
      findByReference: async (ref: string) =>
        (await real.findByReference(ref)).map((v) => ({ ...v, pdf_url: null, ticket_url: null })),
    });
    const asked = documents(w);
    const r = await rig(w, {
      mode: "queued",
      wait: true,
      savePdf: true,
      outDir: outDir(),
      sleep: async () => {
        if (!processed) await w.sandbox.processQueue();
        processed = true;
      },
    });
    const result = await r.issuer.issue(queuedVoucher("FD-1"));
    await r.close();
    expect(result.status).toBe("issued");
    expect(asked).toHaveLength(2);
    expect(result.ticket).not.toBeNull();
  });

  it("the service cannot be asked whether a voucher was sent: the stop carries the service's own error", async () => {
    for (const [thrown, code] of [
      [new TransportError("cannot connect", "refused", false), "service.unavailable"],
      [new AccessDeniedError("HTTP 403"), "service.denied"],
    ] as const) {
      w = await world();
      script(w, {
        findByReference: async () => {
          throw thrown;
        },
      });
      const r = await rig(w);
      const stop = (await r.issuer.issue(voucher("SE-2")).catch((e: unknown) => e)) as ServiceStop;
      await r.close();
      expect(stop).toBeInstanceOf(ServiceStop);
      expect(stop.reason).toBeInstanceOf(FacturarError);
      expect(stop.reason.code).toBe(code);
      expect(stop.reason.outcome).toBe(code === "service.denied" ? "denied" : "unavailable");
      expect(stop.message).toBe(thrown.message);
      await w.close();
    }
  });

  it("a fresh link that has expired too is not renewed again", async () => {
    const asked: string[] = [];
    const links = ["http://sandbox.invalid/app/api/v2/a.pdf", "http://sandbox.invalid/app/api/v2/b.pdf"];
    const service = {
      baseUrl: new URL("http://sandbox.invalid/app/api/v2"),
      download: async (url: URL) => {
        asked.push(url.href);
        return url.href.endsWith("a.pdf") ? status(410) : ok(PDF);
      },
    } as unknown as Service;
    await expect(saveDocument(service, outDir(), "x.pdf", null, async () => links.shift() ?? null)).rejects.toThrow(
      "the link answered HTTP 410",
    );
    expect(asked).toEqual(["http://sandbox.invalid/app/api/v2/a.pdf"]);
  });
});

describe("survivors of the mutation run of 27/11, each a behaviour", () => {
  /** A download held until released, and a promise that tells when the first one was asked for. */
  function gatedDocuments(target: World) {
    let release = () => {};
    const gate = new Promise<void>((done) => (release = done));
    let asked = () => {};
    const firstAsked = new Promise<void>((done) => (asked = done));
    script(target, {
      download: async (_url: URL) => {
        asked();
        await gate;
        return ok(PDF);
      },
    });
    return { release, firstAsked };
  }

  it("a refusal told by its batch row is told by its place in the user's file; the journal keeps the service's words", async () => {
    w = await world();
    const rowText = "El comprobante enviado en la fila 1 (comenzando en 0) tiene un CUIT invalido";
    const codeless = "Fila 1 (comenzando en 0): el domicilio falta";
    let refused = false;
    const real = script(w, {
      issueBatch: async (mode: "instant", bodies: Record<string, unknown>[]) => {
        if (refused) return real.issueBatch(mode, bodies);
        refused = true;
        const refusal: IssueAnswer = {
          ok: false,
          errors: [rowText, codeless, "Error 10000: sin fila", "Observacion sin codigo"],
          details: [
            { code: "TFC-1", text: rowText },
            { code: "TFC-2", text: "Error 10000: sin fila" },
          ],
          requiresFce: false,
        };
        const other: IssueAnswer = { ok: false, errors: ["no mirado"], details: [], requiresFce: false };
        return { items: [other, refusal], refusedRow: 1 };
      },
    });
    const r = await rig(w);
    const results = await r.issuer.issueBatch([voucher("FR-1"), voucher("FR-2")]);
    await r.close();
    expect(results.map((x) => x.status)).toEqual(["issued", "rejected"]);
    const placedRow = "El comprobante enviado en FR-2.json tiene un CUIT invalido";
    const placedCodeless = "FR-2.json: el domicilio falta";
    expect(results[1]?.errors).toEqual([placedRow, placedCodeless, "Error 10000: sin fila", "Observacion sin codigo"]);
    // Each text that named the row is said once, with its place; those that named none are left as they came.
    expect(results[1]?.error_details).toEqual([
      { code: "TFC-1", text: placedRow, place: "FR-2.json" },
      { code: "TFC-2", text: "Error 10000: sin fila" },
      { code: "service.rejected", text: placedCodeless, field: null, place: "FR-2.json" },
    ]);
    expect(r.warnings).toContain(
      "batch of 2: the service refused FR-2; asking it about the others before sending them again",
    );
    expect((await entryOf(w, "FR-2"))?.errors).toEqual([
      rowText,
      codeless,
      "Error 10000: sin fila",
      "Observacion sin codigo",
    ]);
  });

  it("an issued voucher is journaled with its documents missing until they are saved", async () => {
    w = await world();
    const { release, firstAsked } = gatedDocuments(w);
    const dir = outDir();
    const r = await rig(w, { savePdf: true, outDir: dir });
    const issuing = r.issuer.issue(voucher("DM-1"));
    await firstAsked;
    // A run that died here would leave them for the next run to fetch (fetchMissing).
    expect(r.journal.get("DM-1")).toMatchObject({ state: "issued", documents_missing: true, out_dir: dir });
    expect(r.journal.withMissingDocuments().map((e) => e.ref)).toEqual(["DM-1"]);
    release();
    const result = await issuing;
    await r.close();
    expect(result.pdf).not.toBeNull();
    expect(await entryOf(w, "DM-1")).toMatchObject({ state: "issued", documents_missing: false, out_dir: dir });
  });

  it("found at the service without its documents on disk: journaled missing them until they are saved", async () => {
    w = await world();
    await run(w, [voucher("DM-2")]);
    rmSync(join(w.dir, "state"), { recursive: true });
    const { release, firstAsked } = gatedDocuments(w);
    const dir = outDir();
    const r = await rig(w, { savePdf: true, outDir: dir });
    const issuing = r.issuer.issue(voucher("DM-2"));
    await firstAsked;
    expect(r.journal.get("DM-2")).toMatchObject({ state: "issued", documents_missing: true, out_dir: dir });
    release();
    expect((await issuing).status).toBe("skipped-duplicate");
    await r.close();
    expect((await entryOf(w, "DM-2"))?.documents_missing).toBe(false);
  });

  it("followed out of the queue until issued: journaled missing its documents until they are saved", async () => {
    w = await world();
    const { release, firstAsked } = gatedDocuments(w);
    const dir = outDir();
    const r = await rig(w, {
      mode: "queued",
      wait: true,
      waitTimeoutMs: 60_000,
      savePdf: true,
      outDir: dir,
      sleep: async () => {
        await w.sandbox.processQueue();
      },
    });
    const issuing = r.issuer.issue(queuedVoucher("DM-3"));
    await firstAsked;
    expect(r.journal.get("DM-3")).toMatchObject({ state: "issued", documents_missing: true, out_dir: dir });
    release();
    expect((await issuing).status).toBe("issued");
    await r.close();
    expect((await entryOf(w, "DM-3"))?.documents_missing).toBe(false);
  });

  it("without --pdf, or for a voucher not issued, the journal awaits no documents", async () => {
    w = await world();
    const r = await rig(w);
    await r.issuer.issue(voucher("DM-4"));
    await r.close();
    expect(await entryOf(w, "DM-4")).toMatchObject({ state: "issued" });
    expect((await entryOf(w, "DM-4"))?.documents_missing).toBeUndefined();
  });

  it("--allow-duplicate --pdf: the voucher already at the service is not journaled as awaiting documents", async () => {
    w = await world();
    await run(w, [voucher("DM-5")]);
    rmSync(join(w.dir, "state"), { recursive: true });
    documents(w);
    const r = await rig(w, { savePdf: true, outDir: outDir(), allowDuplicate: true });
    const result = await r.issuer.issue(voucher("DM-5"));
    expect(result.external_reference).toBe("DM-5-R2");
    expect(r.journal.withMissingDocuments()).toEqual([]);
    await r.close();
    expect(await entryOf(w, "DM-5")).toMatchObject({ state: "issued" });
    expect((await entryOf(w, "DM-5"))?.documents_missing).toBeUndefined();
  });

  it("the `sending` entry carries this boot, so that the next run can count the settle window from it", async () => {
    w = await world();
    w.step = async (method, _body, call) => {
      if (method === "facturacion/nuevo") throw new TypeError("the process dies here");
      return call();
    };
    const r = await rig(w, { boot: "boot-of-the-test" });
    await expect(r.issuer.issue(voucher("BT-1"))).rejects.toThrow();
    await r.close();
    expect((await entryOf(w, "BT-1"))?.boot).toBe("boot-of-the-test");
  });

  it("sent long ago on this boot by a run that died: asked about once, not waited for again", async () => {
    w = await world();
    const journal = await Journal.open(join(w.dir, "state"), w.account, { lock: false, profile: "test" });
    await journal.record({
      ref: "LW-1",
      state: "sending",
      mode: "instant",
      sent_at: "2026-11-20T00:00:00Z",
      sent_mono: 400_000,
      boot: "this-boot",
    });
    await journal.close();
    let now = 1_000_000;
    let lookups = 0;
    const real = script(w, {
      findByReference: async (ref: string) => {
        lookups++;
        return real.findByReference(ref);
      },
    });
    const r = await rig(w, {
      boot: "this-boot",
      now: () => now,
      settleWindowMs: 60_000,
      sleep: async (ms) => {
        now += ms;
      },
    });
    const result = await r.issuer.issue(voucher("LW-1"));
    await r.close();
    expect(result.status).toBe("issued");
    // Ten minutes after its send, the window has passed: one question, then the send.
    expect(lookups).toBe(1);
  });

  it("issued without a number, and the service holds nothing under it yet: reported issued, with a warning", async () => {
    w = await world();
    let sent = false;
    const real = script(w, {
      issue: async (mode: "instant", body: Record<string, unknown>): Promise<IssueAnswer> => {
        const answer = await real.issue(mode, body);
        sent = true;
        return answer.ok ? { ...answer, numero: null } : answer;
      },
      findByReference: async (ref: string) => (sent ? [] : real.findByReference(ref)),
    });
    const r = await rig(w);
    const result = await r.issuer.issue(voucher("NN-3"));
    await r.close();
    expect(result).toMatchObject({ status: "issued", numero: null });
    expect(result.warnings).toEqual([
      "issued, but the service gave no readable voucher number for NN-3: `facturar query --ref NN-3` tells it later",
    ]);
  });

  it("--wait: queued under the reference with other figures is a conflict, not followed", async () => {
    w = await world();
    await run(w, [queuedVoucher("QC-1")], { mode: "queued" });
    rmSync(join(w.dir, "state"), { recursive: true });
    const changed = voucher("QC-1", (raw) => {
      raw.comprobante.numero = 0;
      raw.comprobante.detalle[0].producto.precio_unitario_sin_iva = 200;
      raw.comprobante.total = 242;
    });
    let lookups = 0;
    const real = script(w, {
      findByReference: async (ref: string) => {
        lookups++;
        return real.findByReference(ref);
      },
    });
    const r = await rig(w, { mode: "queued", wait: true, waitTimeoutMs: 60_000 });
    const result = await r.issuer.issue(changed);
    await r.close();
    expect(result).toMatchObject({ status: "conflict", ok: false, content_changed: true });
    expect(lookups).toBe(1);
  });

  it("--requeue does not put back a failed queued voucher with other figures: that would issue the other one", async () => {
    w = await world();
    await run(w, [queuedVoucher("QC-2")], { mode: "queued" });
    w.sandbox.options.faults.queueError = 1;
    await w.sandbox.processQueue();
    rmSync(join(w.dir, "state"), { recursive: true });
    const changed = voucher("QC-2", (raw) => {
      raw.comprobante.numero = 0;
      raw.comprobante.detalle[0].producto.precio_unitario_sin_iva = 200;
      raw.comprobante.total = 242;
    });
    const r = await rig(w, { mode: "queued", requeue: true });
    const result = await r.issuer.issue(changed);
    await r.close();
    expect(result).toMatchObject({ status: "conflict", ok: false, content_changed: true });
    expect(w.calls.get("facturacion/reenviar_encolado")).toBeUndefined();
  });

  it("the authority down at an item: an item after it that the answer names issued is issued", async () => {
    w = await world();
    const down = new AuthorityDownError(["AFIP No devolvio el CAE asociado."]);
    const real = script(w, {
      issueBatch: async (_mode: "instant", bodies: Record<string, unknown>[]) => {
        const first = await real.issue("instant", bodies[0] as Record<string, unknown>);
        const third = await real.issue("instant", bodies[2] as Record<string, unknown>);
        const refused: IssueAnswer = {
          ok: false,
          errors: ["caido"],
          details: [],
          requiresFce: false,
          unavailable: down,
        };
        return { items: [first, refused, third] };
      },
    });
    const r = await rig(w);
    const stop = await r.issuer
      .issueBatch(["AD-1", "AD-2", "AD-3"].map((ref) => voucher(ref)))
      .catch((e: unknown) => e);
    await r.close();
    expect(stop).toBeInstanceOf(ServiceStop);
    expect((stop as ServiceStop).settled?.map((x) => x?.status)).toEqual(["issued", undefined, "issued"]);
    const states = [];
    for (const ref of ["AD-1", "AD-2", "AD-3"]) states.push((await entryOf(w, ref))?.state);
    expect(states).toEqual(["issued", "held", "issued"]);
  });

  it("sent by a run that died, the file changed since with the same type and total: a conflict, by its digest", async () => {
    w = await world();
    // The earlier run sent DG-9 and died before the answer: the journal says `sending`, with its digest.
    w.step = async (method, _body, call) => {
      if (method !== "facturacion/nuevo") return call();
      await call();
      throw new TypeError("the process dies here");
    };
    const first = await rig(w);
    await expect(first.issuer.issue(voucher("DG-9"))).rejects.toThrow();
    await first.close();
    w.step = (_m, _b, call) => call();
    const r = await rig(w, { settleWindowMs: 0 });
    const result = await r.issuer.issue(voucher("DG-9", (raw) => (raw.cliente.razon_social = "Otra")));
    await r.close();
    expect(result).toMatchObject({ status: "conflict", ok: false, content_changed: true });
  });

  it("reporting a journal-settled voucher, or abandoning it, writes nothing to the journal", async () => {
    w = await world();
    await run(w, [voucher("NW-1")]);
    const r = await rig(w);
    const file = r.journal.path;
    const before = readFileSync(file, "utf8");
    const begun = await r.issuer.begin(voucher("NW-1"));
    await r.issuer.abandon(begun, "stopped");
    expect(await r.issuer.finish(begun)).toMatchObject({ status: "skipped-duplicate" });
    await r.close();
    expect(readFileSync(file, "utf8")).toBe(before);
  });

  it("a point of sale that takes no queued vouchers stops the run: every other would be refused alike", () => {
    expect(isServiceFailure(new WebhookRequiredError(["El punto de venta no tiene webhook"]))).toBe(true);
  });
});
