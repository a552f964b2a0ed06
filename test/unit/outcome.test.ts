/**
 * settle() (src/batch/outcome.ts), the one place a voucher's outcome becomes its journal entry,
 * its result and its lane break: every kind of outcome, and what a reused reference turns into.
 */

import { describe, expect, it } from "vitest";
import { TransportError } from "../../src/api/http.js";
import type { PreparedVoucher } from "../../src/batch/issue.js";
import type { JournalEntry } from "../../src/batch/journal.js";
import {
  type Issued,
  laneBreak,
  NO_ANSWER,
  NOT_PROCESSED,
  type Outcome,
  reusedReference,
  settle,
} from "../../src/batch/outcome.js";
import { FacturarError } from "../../src/errors.js";
import { isMessage, msg } from "../../src/i18n/message.js";
import type { ServiceVoucher } from "../../src/voucher/held.js";
import { asRead } from "../helpers.js";
import { voucher } from "../inprocess.js";

const V = voucher("OUT-1");
const TOTAL = V.envelope.comprobante.total as string;

const ISSUED: Issued = {
  tipo: "FACTURA B",
  punto_venta: 679,
  numero: 12,
  cae: "71234567890123",
  vencimiento_cae: "30/11/2026",
  vencimiento_pago: null,
  total: TOTAL,
  qr: "https://www.afip.gob.ar/fe/qr/?p=x",
  observations: [],
};

function held(state: ServiceVoucher["state"], changes: Partial<ServiceVoucher> = {}): ServiceVoucher {
  return {
    ...ISSUED,
    external_reference: "OUT-1",
    state,
    status: state === "issued" ? "EMITIDO" : state === "queued" ? "ENVIADO A PROCESAR" : "CON ERROR",
    tipo: "FACTURA B",
    numero: state === "issued" ? 12 : null,
    fecha: V.fecha,
    errors: state === "queue-error" ? ["El CUIT no es valido"] : [],
    operacion: "V",
    pdf_url: null,
    ticket_url: null,
    raw: { comprobante: {} },
    ...changes,
  };
}

function settled(outcome: Outcome, journaled?: Partial<JournalEntry>, v: PreparedVoucher = V) {
  const entry = journaled
    ? ({ ref: "OUT-1", state: "sending", at: "", mode: "instant", ...journaled } as JournalEntry)
    : undefined;
  return asRead(settle(v, "OUT-1", outcome, { mode: "instant", journaled: entry }));
}

describe("settle: each outcome's journal entry, result and lane break", () => {
  /** One row per kind of outcome (the Record makes a new kind fail to compile until it has one). */
  const rows: Record<
    Outcome["kind"],
    { outcome: Outcome; journal: JournalEntry["state"] | undefined; status: string; ok: boolean; lane?: string }
  > = {
    issued: {
      outcome: { kind: "issued", by: "answer", issued: ISSUED },
      journal: "issued",
      status: "issued",
      ok: true,
    },
    journaled: {
      outcome: {
        kind: "journaled",
        entry: {
          ref: "OUT-1",
          state: "issued",
          at: "",
          mode: "instant",
          numero: 12,
          punto_venta: 679,
          digest: V.digest,
        },
      },
      journal: undefined,
      status: "skipped-duplicate",
      ok: true,
    },
    queued: {
      outcome: { kind: "queued", by: "answer", vencimiento_pago: null },
      journal: "queued",
      status: "queued",
      ok: true,
    },
    "queue-error": {
      outcome: { kind: "queue-error", by: "lookup", found: held("queue-error") },
      journal: "queue-error",
      status: "rejected",
      ok: false,
    },
    refused: {
      outcome: {
        kind: "refused",
        errors: ["Falta el CUIT"],
        details: [{ code: "TFC-1", text: "Falta el CUIT" }],
        requiresFce: false,
      },
      journal: "rejected",
      status: "rejected",
      ok: false,
    },
    "bad-request": {
      outcome: { kind: "bad-request", error: new FacturarError("HTTP 400", "rejected", "http.400") },
      journal: "rejected",
      status: "rejected",
      ok: false,
    },
    "no-answer": {
      outcome: { kind: "no-answer", attempts: 3, message: "socket hang up" },
      journal: "rejected",
      status: "rejected",
      ok: false,
      lane: "unsettled",
    },
    unknown: {
      outcome: { kind: "unknown", cause: new Error("ECONNREFUSED") },
      journal: "unknown",
      status: "unknown",
      ok: false,
      lane: "unsettled",
    },
    held: {
      outcome: { kind: "held", why: "not sent: interrupted" },
      journal: "held",
      status: "held",
      ok: false,
      lane: "unsettled",
    },
    deleted: { outcome: { kind: "deleted" }, journal: "deleted", status: "rejected", ok: false },
  };

  for (const [kind, row] of Object.entries(rows))
    it(`${kind}: journal ${row.journal ?? "untouched"}, told ${row.status}${row.lane ? `, holds its lane (${row.lane})` : ""}`, () => {
      const { result, entry } = settled(row.outcome);
      expect(entry?.state).toBe(row.journal);
      if (entry) expect(entry.ref).toBe("OUT-1");
      expect(result.status).toBe(row.status);
      expect(result.ok).toBe(row.ok);
      expect(result.external_reference).toBe("OUT-1");
      expect(result.source).toBe("OUT-1.json");
      // The lane break is the result's, whoever reads it later.
      expect(laneBreak(result)).toBe(row.lane);
      // Every failure says why.
      if (!row.ok) expect(result.errors.length).toBeGreaterThan(0);
    });
});

describe("settle: what each outcome says", () => {
  it("issued by this run's answer: the service's figures, the voucher's where it says none, and what was sent remembered", () => {
    const { result, entry } = settled({ kind: "issued", by: "answer", issued: { ...ISSUED, tipo: null, total: null } });
    expect(result).toMatchObject({
      comprobante_tipo: "FACTURA B",
      numero: 12,
      comprobante_nro: "00679-00000012",
      total: TOTAL,
    });
    expect(result.reconciled).toBeUndefined();
    expect(entry).toMatchObject({
      state: "issued",
      numero: 12,
      comprobante_nro: "00679-00000012",
      fecha: V.fecha,
      digest: V.digest,
    });
  });

  it("issued, found by asking after a lost answer: issued by this run, reconciled", () => {
    const { result } = settled({ kind: "issued", by: "lookup", issued: ISSUED });
    expect(result).toMatchObject({ status: "issued", reconciled: true });
  });

  it("issued, followed in the queue: issued, not reconciled", () => {
    const { result } = settled({ kind: "issued", by: "followed", issued: ISSUED });
    expect(result.status).toBe("issued");
    expect(result.reconciled).toBeUndefined();
  });

  it("the digest already journaled is kept: a later outcome never replaces what was sent", () => {
    const { entry } = settled({ kind: "issued", by: "lookup", issued: ISSUED }, { digest: "first" });
    expect(entry?.digest).toBeUndefined();
  });

  it("found issued before sending, the same voucher: told as already issued, not sent again", () => {
    const { result, entry } = settled({ kind: "issued", by: "found", issued: ISSUED });
    expect(result).toMatchObject({ status: "skipped-duplicate", ok: true, reconciled: true });
    expect(result.hint).toContain("not sent again");
    expect(entry).toMatchObject({ state: "issued", digest: V.digest });
  });

  it("found issued with another total: a conflict, and the journal records the service's voucher, not this file's", () => {
    const { result, entry } = settled({ kind: "issued", by: "found", issued: { ...ISSUED, total: "1.00" } });
    expect(result).toMatchObject({
      status: "conflict",
      ok: false,
      content_changed: true,
      comprobante_nro: "00679-00000012",
    });
    expect(result.error_details[0]).toMatchObject({
      code: "reference.reused",
      field: "comprobante.external_reference",
    });
    expect(result.errors[0]).toMatch(
      /^OUT-1\.json: OUT-1 was used before for another voucher \(FACTURA B 00679-00000012 1\.00\)/,
    );
    expect(result.hint).toContain("its own external_reference");
    expect(entry).toMatchObject({ state: "issued", total: "1.00" });
    expect(entry?.digest).toBeUndefined();
    expect(entry?.fecha).toBeUndefined();
    expect(laneBreak(result)).toBeUndefined();
  });

  it("a conflict says what is left undone in the words of what the voucher is: a sale, a note, a purchase", () => {
    const c = V.envelope.comprobante;
    const note = {
      ...V,
      envelope: { ...V.envelope, comprobante: { ...c, tipo: "NOTA DE CREDITO B" } },
    } as PreparedVoucher;
    const purchase = { ...V, operacion: "C" as const };
    const reused: Outcome = { kind: "issued", by: "found", issued: { ...ISSUED, total: "1.00" } };
    expect(settled(reused).result.errors[0]).toMatch(/this sale is not invoiced$/);
    expect(settled(reused, undefined, note).result.errors[0]).toMatch(/this voucher is not issued$/);
    expect(settled(reused, undefined, purchase).result.errors[0]).toMatch(/this purchase is not recorded$/);
    expect(settled(reused, undefined, purchase).result.hint).toBe("give each voucher its own external_reference");
  });

  it("a journaled digest decides over the figures: same total, other content is a conflict", () => {
    const { result } = settled({ kind: "issued", by: "found", issued: ISSUED }, { digest: "something else" });
    expect(result.status).toBe("conflict");
  });

  it("superseded (a duplicate wanted): journaled as the service holds it, without this file's content", () => {
    const { entry } = settled({ kind: "issued", by: "superseded", issued: ISSUED });
    expect(entry).toMatchObject({ state: "issued", numero: 12 });
    expect(entry?.digest).toBeUndefined();
  });

  it("journaled with other content: a conflict, and nothing written", () => {
    const { result, entry } = settled({
      kind: "journaled",
      entry: {
        ref: "OUT-1",
        state: "issued",
        at: "",
        mode: "instant",
        tipo: "FACTURA A",
        numero: 3,
        punto_venta: 679,
        total: "5.00",
      },
    });
    expect(result.status).toBe("conflict");
    expect(result.errors[0]).toContain("FACTURA A 00679-00000003 5.00");
    expect(entry).toBeUndefined();
  });

  it("queued by the answer keeps the payment due date it gave", () => {
    const { result } = settled({ kind: "queued", by: "answer", vencimiento_pago: "20/12/2026" });
    expect(result.vencimiento_pago).toBe("20/12/2026");
  });

  it("found queued with another type: a conflict; the journal says queued", () => {
    const { result, entry } = settled({ kind: "queued", by: "found", found: held("queued", { tipo: "FACTURA A" }) });
    expect(result.status).toBe("conflict");
    expect(entry).toMatchObject({ state: "queued", mode: "queued", tipo: "FACTURA A" });
  });

  it("still queued after --wait: not ok (it was asked for issued), told with why, nothing journaled", () => {
    const { result, entry } = settled({ kind: "queued", by: "still", warning: "could not follow it" });
    expect(result).toMatchObject({ status: "queued", ok: false, warnings: ["could not follow it"] });
    expect(entry).toBeUndefined();
  });

  it("re-queued: queued, with a hint saying so", () => {
    const { result, entry } = settled({ kind: "queued", by: "requeued", found: held("queue-error") });
    expect(result.hint).toContain("re-queued OUT-1");
    expect(entry?.state).toBe("queued");
  });

  it("failed in the queue: the service's reason, and how to put it back", () => {
    const { result, entry } = settled({ kind: "queue-error", by: "found", found: held("queue-error") });
    expect(result.errors).toEqual(["El CUIT no es valido"]);
    expect(result.error_details).toEqual([{ code: "queue-error", text: "El CUIT no es valido" }]);
    expect(result.hint).toContain("issue-queued --requeue");
    expect(entry).toMatchObject({ state: "queue-error", errors: ["El CUIT no es valido"] });
  });

  it("failed in the queue, the answer giving only its status: that, and where the reason is", () => {
    const found = held("queue-error", {
      status: "ENVIADO A PROCESAR - CON ERROR",
      errors: ["ENVIADO A PROCESAR - CON ERROR"],
      reasonMissing: true,
    });
    const { result } = settled({ kind: "queue-error", by: "found", found });
    expect(result.errors).toEqual(["ENVIADO A PROCESAR - CON ERROR"]);
    expect(result.hint).toMatch(/gives no reason, only its status; .*webhook.*\(event error, its msg\).*panel/);
    expect(settled({ kind: "queue-error", by: "found", found: held("queue-error") }).result.hint).not.toMatch(
      /webhook/,
    );
  });

  it("failed in the queue with other content: a conflict, never re-queued as this one", () => {
    const { result } = settled({ kind: "queue-error", by: "found", found: held("queue-error", { total: "1.00" }) });
    expect(result.status).toBe("conflict");
  });

  it("refused for its number or date: holds its lane (the rest would be refused too)", () => {
    const { result } = settled({
      kind: "refused",
      errors: ["El numero de comprobante no es el proximo a autorizar"],
      details: [],
      requiresFce: false,
    });
    expect(laneBreak(result)).toBe("sequence");
  });

  it("refused for a customer's document number: that voucher's alone", () => {
    const { result } = settled({
      kind: "refused",
      errors: ["El numero de documento del cliente es invalido"],
      details: [],
      requiresFce: false,
    });
    expect(laneBreak(result)).toBeUndefined();
  });

  it("refused because the buyer needs an FCE: the hint says so", () => {
    const { result } = settled({ kind: "refused", errors: ["x"], details: [], requiresFce: true });
    expect(result.hint).toContain("FCE");
  });

  it("refused for want of the point of sale's webhook (an item of a queued batch): the hint says where to set it", () => {
    const { result } = settled({
      kind: "refused",
      errors: ["Tu CUIT+PDV no posee una direccion de webhook valida."],
      details: [],
      requiresFce: false,
    });
    expect(result.hint).toMatch(/webhook URL on the point of sale: set it in the service's web panel/);
  });

  it("a bad request keeps the service's code and hint", () => {
    const { result } = settled({
      kind: "bad-request",
      error: new FacturarError("fila 2", "rejected", "http.400", "fix row 2"),
    });
    expect(result.error_details).toEqual([{ code: "http.400", text: "fila 2" }]);
    expect(result.hint).toBe("fix row 2");
  });

  it("keeps a bad request's and a failed lookup's words as messages, for the reader's language (#27)", () => {
    const text = msg("the connection broke while the answer arrived");
    const raw = (outcome: Outcome) => settle(V, "OUT-1", outcome, { mode: "instant", journaled: undefined });
    const bad = raw({ kind: "bad-request", error: new FacturarError(text, "rejected", "http.400") });
    const unknown = raw({ kind: "unknown", cause: new TransportError(text, "dropped", true) });
    for (const { result, entry } of [bad, unknown]) {
      expect(isMessage(result.errors[0])).toBe(true);
      expect(isMessage(entry?.errors?.[0])).toBe(true);
    }
    expect(isMessage(bad.result.error_details[0]?.text)).toBe(true);
  });

  it("no answer after three sends: not issued, coded, and the next run sends it again", () => {
    const { result } = settled({ kind: "no-answer", attempts: 3, message: "socket hang up" });
    expect(result.error_details).toEqual([{ code: NO_ANSWER, text: "socket hang up" }]);
    expect(result.hint).toContain("sent 3 times");
  });

  it("unknown: says it could not ask, and how to settle it later", () => {
    const { result, entry } = settled({ kind: "unknown", cause: new Error("ECONNREFUSED") });
    expect(result.errors).toEqual(["could not ask the service about OUT-1: ECONNREFUSED"]);
    expect(result.hint).toContain("journal --reconcile");
    expect(entry?.errors).toEqual(result.errors);
  });

  it("not processed in its batch: held, coded", () => {
    const { result } = settled({ kind: "held", why: "not processed", notProcessed: true });
    expect(result.error_details).toEqual([{ code: NOT_PROCESSED, text: "not processed" }]);
  });
});

/** What the mutation run of outcome.ts (CONTRIBUTING, the `outcome` scope) found no test holding. */
describe("settle: the service's e-mail and pages, and the literal codes", () => {
  const issued = (changes: Partial<Issued>) =>
    settled({ kind: "issued", by: "answer", issued: { ...ISSUED, ...changes } });

  it("e-mailed, to whom, and its pages, where the answer says them; nothing where it says nothing", () => {
    const site = { cliente: "https://x.ar/c", descarga: null };
    const { result, entry } = issued({ envio_x_mail: true, envio_x_mail_direcciones: ["a@b.ar"], micrositios: site });
    expect(result).toMatchObject({ envio_x_mail: true, envio_x_mail_direcciones: ["a@b.ar"], micrositios: site });
    expect(entry?.envio_x_mail_direcciones).toEqual(["a@b.ar"]);
    expect(issued({ envio_x_mail: false }).result.envio_x_mail).toBe(false);
    expect(issued({ micrositios: { cliente: null, descarga: "https://x.ar/d" } }).result.micrositios).toEqual({
      cliente: null,
      descarga: "https://x.ar/d",
    });
    // E-mailed to addresses the answer does not list: the journal says so, with none.
    expect(issued({ envio_x_mail: true }).entry?.envio_x_mail_direcciones).toEqual([]);
    for (const silent of [
      {},
      { envio_x_mail: null, envio_x_mail_direcciones: [], micrositios: { cliente: null, descarga: null } },
    ]) {
      const { result: r, entry: e } = issued(silent);
      expect(Object.keys(r)).not.toContain("envio_x_mail");
      expect(Object.keys(r)).not.toContain("envio_x_mail_direcciones");
      expect(Object.keys(r)).not.toContain("micrositios");
      expect(Object.keys(e ?? {})).not.toContain("envio_x_mail_direcciones");
    }
  });

  it("a failed queued voucher has no voucher number, even if the service names one", () => {
    const { result } = settled({ kind: "queue-error", by: "found", found: held("queue-error", { numero: 5 }) });
    expect(result.comprobante_nro).toBeNull();
  });

  it("held without a batch: no code; a plain error's bad request: coded `error`; the codes as written", () => {
    expect(settled({ kind: "held", why: "behind" }).result.error_details).toEqual([]);
    const bad = settled({ kind: "bad-request", error: new Error("HTTP 400") }).result;
    expect(bad.error_details).toEqual([{ code: "error", text: "HTTP 400" }]);
    expect(settled({ kind: "no-answer", attempts: 3, message: "x" }).result.error_details[0]?.code).toBe("no-answer");
  });

  it("a conflict with a total that is no number, a voucher without a total, the sale's hint naming the reference", () => {
    const { result } = settled({ kind: "issued", by: "found", issued: { ...ISSUED, total: "n/a" } });
    expect(result.status).toBe("conflict");
    expect(result.errors[0]).toContain("(FACTURA B 00679-00000012)");
    expect(result.hint).toContain("`facturar credit-note --ref OUT-1`");
    const c = V.envelope.comprobante;
    const untotalled = {
      ...V,
      envelope: { ...V.envelope, comprobante: { ...c, total: undefined } },
    } as PreparedVoucher;
    expect(reusedReference(untotalled, undefined, { tipo: "FACTURA B", total: "1.00" })).toBe(false);
    expect(reusedReference(V, undefined, undefined)).toBe(false);
  });

  it("a queue error found with other content is told as the conflict, not as the queue's error", () => {
    const { result } = settled({ kind: "queue-error", by: "found", found: held("queue-error", { total: "1.00" }) });
    expect(result.error_details.map((d) => d.code)).toEqual(["reference.reused"]);
    expect(result.hint).not.toContain("--requeue");
    // Asked after a lost answer, it is what this run sent: the queue's error, never a conflict.
    const lookup = settled({ kind: "queue-error", by: "lookup", found: held("queue-error", { total: "1.00" }) }).result;
    expect(lookup.status).toBe("rejected");
    expect(lookup.error_details.map((d) => d.code)).toEqual(["queue-error"]);
    // …and one with this content is the queue's error (not returned early).
    expect(settled({ kind: "queue-error", by: "found", found: held("queue-error") }).result.errors).toEqual([
      "El CUIT no es valido",
    ]);
  });
});
