/**
 * The lanes (src/batch/run.ts) in-process. First `lanes` and `runLanes` against a scripted issuer
 * (no service: each voucher's outcome is written in the test, every call recorded), so the order,
 * the vouchers in flight, what is held and why, and when the run stops are seen exactly; then
 * `issueFiles` whole, against the embedded sandbox in this process (milliseconds a run).
 */
import { chmodSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AccountKey } from "../../src/api/connection.js";
import { DOWNLOADS_AT_ONCE } from "../../src/batch/documents.js";
import { type Begun, Issuer, ServiceStop, type VoucherHeading } from "../../src/batch/issue.js";
import { Journal, JournalBusyError } from "../../src/batch/journal.js";
import { heldResult, lanes, RESULTS_AWAITING_DOCUMENTS, runLanes } from "../../src/batch/lanes.js";
import { blankResult, type VoucherResult } from "../../src/batch/result.js";
import { type IssueRequest, type IssueSummary, issueFiles } from "../../src/batch/run.js";
import { stateDir } from "../../src/config/paths.js";
import { loadProfile } from "../../src/config/profile.js";
import { FacturarError, UsageError } from "../../src/errors.js";
import { startSandbox } from "../../src/sandbox/server.js";
import { accountOf, connect } from "../../src/session/connect.js";
import { clockFrom } from "../../src/voucher/dates.js";
import { baseVoucher, freshUser, item, journalFiles, type Raw, ROOT, TODAY } from "../helpers.js";
import { SETTINGS, voucher, world } from "../inprocess.js";

/** Until `done()` holds, looked at every few ms for at most `ms` (then the test's expectations tell what did not happen). */
async function until(done: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!done() && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
}

const FCE_B = "FACTURA DE CREDITO ELECTRONICA MiPyME (FCE) B";

function heading(reference: string, changes: Partial<VoucherHeading> = {}): VoucherHeading {
  return {
    source: `${reference}.json`,
    reference,
    tipo: "FACTURA B",
    punto_venta: 1,
    fecha: "20/11/2026",
    vencimiento: "20/12/2026",
    total: "121.00",
    operacion: "V",
    datedToday: false,
    ...changes,
  };
}

const refsOf = (lane: VoucherHeading[]) => lane.map((v) => v.reference);

describe("lanes: which vouchers go together, in what order", () => {
  it("instant: one lane per point of sale and type, in date order, input order for equal dates", () => {
    const vs = [
      heading("B1-late", { fecha: "22/11/2026" }),
      heading("A1", { tipo: "FACTURA A" }),
      heading("B1-early", { fecha: "18/11/2026" }),
      heading("B2", { punto_venta: 2 }),
      heading("B1-same-1"),
      heading("B1-same-2"),
    ];
    expect(lanes(vs, "instant").map(refsOf)).toEqual([
      ["B1-early", "B1-same-1", "B1-same-2", "B1-late"],
      ["A1"],
      ["B2"],
    ]);
  });

  it("queued: one lane per point of sale, whatever the type (the queue numbers them later)", () => {
    const vs = [heading("B1"), heading("A1", { tipo: "FACTURA A" }), heading("B2", { punto_venta: 2 })];
    expect(lanes(vs, "queued").map(refsOf)).toEqual([["B1", "A1"], ["B2"]]);
  });

  it("purchases never share a lane with sales of the same point of sale and type", () => {
    const vs = [heading("SALE"), heading("BUY", { operacion: "C" }), heading("SALE-2")];
    expect(lanes(vs, "instant").map(refsOf)).toEqual([["SALE", "SALE-2"], ["BUY"]]);
    expect(lanes(vs, "queued").map(refsOf)).toEqual([["SALE", "SALE-2"], ["BUY"]]);
  });

  it("a held voucher's result names it, its due date, and why it was not sent", () => {
    const r = heldResult(heading("H-1", { punto_venta: 3, total: "50.00" }), "because");
    expect(r).toMatchObject({
      ok: false,
      status: "held",
      external_reference: "H-1",
      source: "H-1.json",
      comprobante_tipo: "FACTURA B",
      punto_venta: 3,
      total: "50.00",
      vencimiento_pago: "20/12/2026",
      errors: ["because"],
    });
    const bare = heldResult(heading("H-2", { punto_venta: undefined, total: undefined }), "why");
    expect([bare.punto_venta, bare.total]).toEqual([null, null]);
  });
});

/** What the scripted service does with a voucher. */
type Outcome =
  | { kind: "issued" }
  | { kind: "rejected"; error: string; code?: string }
  | { kind: "unknown" }
  /** Settled at `begin` (found issued before sending): no send. */
  | { kind: "known" }
  /** The service stops the run when this voucher is sent (or begun, with `atBegin`). */
  | { kind: "stop"; atBegin?: boolean }
  /** Not a service failure: a bug. */
  | { kind: "bug"; atBegin?: boolean };

const ISSUED: Outcome = { kind: "issued" };
const DOWN = new FacturarError("the tax authority's service is down", "unavailable", "authority.down");

function resultOf(v: VoucherHeading, o: Outcome): VoucherResult {
  if (o.kind === "rejected") {
    const r = blankResult("rejected", { ...v, punto_venta: v.punto_venta ?? null, total: v.total ?? null });
    r.errors = [o.error];
    r.error_details = [{ code: o.code ?? "X", text: o.error }];
    return r;
  }
  const status = o.kind === "unknown" ? "unknown" : o.kind === "known" ? "skipped-duplicate" : "issued";
  return blankResult(status, { ...v, punto_venta: v.punto_venta ?? null, total: v.total ?? null });
}

/**
 * A scripted issuer for runLanes: each call logged in order (`begin R`, `send R`, `batch R,S`,
 * `abandon R`, `told R status`), the sends in flight counted, each step a few turns long.
 */
function scripted(outcomes: Record<string, Outcome> = {}, opts: { stopAfterTold?: number } = {}) {
  const log: string[] = [];
  const told: VoucherResult[] = [];
  const abandoned: { ref: string; why: string }[] = [];
  let inFlight = 0;
  let most = 0;
  const outcome = (ref: string) => outcomes[ref] ?? ISSUED;
  const turns = async (n = 3) => {
    for (let k = 0; k < n; k++) await new Promise((r) => setImmediate(r));
  };
  const sending = async <T>(work: () => T): Promise<T> => {
    inFlight++;
    most = Math.max(most, inFlight);
    try {
      await turns();
      return work();
    } finally {
      inFlight--;
    }
  };
  const stopOf = (settled?: (VoucherResult | undefined)[]) => {
    const stop = new ServiceStop(DOWN);
    if (settled) stop.settled = settled;
    return stop;
  };
  const runner = {
    concurrency: 1,
    batchSize: 1,
    stopped: () => opts.stopAfterTold !== undefined && told.length >= opts.stopAfterTold,
    begin: async (v: VoucherHeading): Promise<Begun> => {
      log.push(`begin ${v.reference}`);
      await turns(1);
      const o = outcome(v.reference);
      if (o.kind === "stop" && o.atBegin) throw stopOf();
      if (o.kind === "bug" && o.atBegin) throw new Error(`bug at ${v.reference}`);
      const voucher = v as never;
      return o.kind === "known"
        ? { voucher, result: resultOf(v, o) }
        : { voucher, reference: v.reference, journaledAt: 0 };
    },
    finish: (b: Begun) =>
      sending(() => {
        const v = b.voucher as VoucherHeading;
        log.push(`send ${v.reference}`);
        const o = outcome(v.reference);
        if (o.kind === "stop") throw stopOf();
        if (o.kind === "bug") throw new Error(`bug at ${v.reference}`);
        return resultOf(v, o);
      }),
    abandon: async (b: Begun, why: string) => {
      const ref = (b.voucher as VoucherHeading).reference;
      log.push(`abandon ${ref}`);
      abandoned.push({ ref, why });
    },
    issueMany: (vs: VoucherHeading[]) =>
      sending(() => {
        log.push(`batch ${vs.map((v) => v.reference).join(",")}`);
        const stopAt = vs.findIndex((v) => outcome(v.reference).kind === "stop");
        const results = vs.map((v) => resultOf(v, outcome(v.reference)));
        if (stopAt >= 0) throw stopOf(results.slice(0, stopAt));
        return results;
      }),
    emit: async (r: VoucherResult, v: VoucherHeading) => {
      expect(r.external_reference).toBe(v.reference);
      log.push(`told ${r.external_reference} ${r.status}`);
      told.push(r);
    },
  };
  return {
    runner,
    log,
    told,
    abandoned,
    most: () => most,
    status: () => Object.fromEntries(told.map((r) => [r.external_reference, r.status])),
    why: (ref: string) => told.find((r) => r.external_reference === ref)?.errors.join(" "),
  };
}

const lane = (prefix: string, n: number, changes: Partial<VoucherHeading> = {}) =>
  Array.from({ length: n }, (_, i) => heading(`${prefix}${i + 1}`, changes));

describe("runLanes: one call at a time in a lane, lanes side by side", () => {
  it("inside a lane each voucher is sent after the one before has settled; the next is journaled meanwhile", async () => {
    const s = scripted();
    const ended = await runLanes([lane("A", 3)], s.runner);
    expect(ended).toEqual({});
    expect(s.log).toEqual([
      "begin A1",
      "begin A2",
      "send A1",
      "told A1 issued",
      "begin A3",
      "send A2",
      "told A2 issued",
      "send A3",
      "told A3 issued",
    ]);
  });

  it("as many lanes in flight as --concurrency allows, and no more", async () => {
    for (const [concurrency, expected] of [
      [2, 2],
      [3, 3],
      [10, 4],
      [0, 1],
    ] as const) {
      const s = scripted();
      await runLanes([lane("A", 3), lane("B", 3), lane("C", 3), lane("D", 3)], { ...s.runner, concurrency });
      expect(s.most(), `concurrency ${concurrency}`).toBe(expected);
      expect(s.told).toHaveLength(12);
      for (const p of ["A", "B", "C", "D"])
        expect(s.told.filter((r) => r.external_reference.startsWith(p)).map((r) => r.external_reference)).toEqual([
          `${p}1`,
          `${p}2`,
          `${p}3`,
        ]);
    }
  });

  it("no lanes: nothing to do, nothing told", async () => {
    const s = scripted();
    expect(await runLanes([], { ...s.runner, concurrency: 4 })).toEqual({});
    expect(s.log).toEqual([]);
  });

  it("a lane goes in batches of --batch-size, the last one short; a last single voucher goes on its own", async () => {
    const s = scripted();
    await runLanes([lane("A", 7)], { ...s.runner, batchSize: 3 });
    expect(s.log.filter((l) => !l.startsWith("told"))).toEqual([
      "batch A1,A2,A3",
      "batch A4,A5,A6",
      "begin A7",
      "send A7",
    ]);
    expect(s.told.map((r) => r.external_reference)).toEqual(refsOf(lane("A", 7)));
  });

  it("export and MiPyME lanes go one by one whatever the batch size (the lotes page refuses them)", async () => {
    for (const tipo of ["FACTURA E", FCE_B, "NO SUCH TYPE"]) {
      const s = scripted();
      await runLanes([lane("E", 3, { tipo })], { ...s.runner, batchSize: 20 });
      expect(
        s.log.filter((l) => l.startsWith("batch")),
        tipo,
      ).toEqual([]);
      expect(s.log.filter((l) => l.startsWith("send"))).toEqual(["send E1", "send E2", "send E3"]);
    }
    const s = scripted();
    await runLanes([lane("C", 2, { tipo: "FACTURA C" })], { ...s.runner, batchSize: 20 });
    expect(s.log.filter((l) => l.startsWith("batch"))).toEqual(["batch C1,C2"]);
  });
});

describe("runLanes: the rest of a lane held after a failure", () => {
  it("a numbering or date error holds the rest of its lane, saying which voucher and why; other lanes go on", async () => {
    const s = scripted({ A2: { kind: "rejected", error: "Error 10016: la fecha es anterior" } });
    await runLanes([lane("A", 4), lane("B", 2)], { ...s.runner, concurrency: 2 });
    expect(s.status()).toEqual({ A1: "issued", A2: "rejected", A3: "held", A4: "held", B1: "issued", B2: "issued" });
    expect(s.why("A4")).toBe("not sent: A2 failed in this lane with a numbering or date error, and this one would too");
    // A3 was journaled while A2 was in flight: it is abandoned (journaled held), never sent.
    expect(s.abandoned).toEqual([{ ref: "A3", why: s.why("A4") }]);
    expect(s.log).not.toContain("send A3");
    expect(s.why("A3")).toBe(s.why("A4"));
  });

  it("an unsettled voucher (unknown) holds the rest of its lane: sending them would break the order", async () => {
    const s = scripted({ A1: { kind: "unknown" } });
    await runLanes([lane("A", 3)], s.runner);
    expect(s.status()).toEqual({ A1: "unknown", A2: "held", A3: "held" });
    expect(s.why("A3")).toBe(
      "not sent: A1, earlier in this lane, is not settled; sending this one first would break the lane's order",
    );
  });

  it("any other rejection is that voucher's own: the lane goes on", async () => {
    const s = scripted({ A1: { kind: "rejected", error: "el documento del cliente es invalido" } });
    await runLanes([lane("A", 3)], s.runner);
    expect(s.status()).toEqual({ A1: "rejected", A2: "issued", A3: "issued" });
  });

  it("a voucher found settled when journaled ahead is told as it is, and the rest held", async () => {
    const s = scripted({ A1: { kind: "unknown" }, A2: { kind: "known" } });
    await runLanes([lane("A", 4)], s.runner);
    expect(s.status()).toEqual({ A1: "unknown", A2: "skipped-duplicate", A3: "held", A4: "held" });
    expect(s.abandoned).toEqual([]);
  });

  it("in a batch, the first break names the held vouchers; what the batch settled is told as settled", async () => {
    const s = scripted({
      A2: { kind: "rejected", error: "numero de comprobante no es el proximo a emitir" },
      A3: { kind: "unknown" },
    });
    await runLanes([lane("A", 6)], { ...s.runner, batchSize: 3 });
    expect(s.status()).toEqual({
      A1: "issued",
      A2: "rejected",
      A3: "unknown",
      A4: "held",
      A5: "held",
      A6: "held",
    });
    expect(s.why("A4")).toMatch(/^not sent: A2 failed in this lane with a numbering or date error/);
    expect(s.log.filter((l) => l.startsWith("batch"))).toEqual(["batch A1,A2,A3"]);
  });
});

describe("runLanes: the run stopped", () => {
  it("by the service: nothing more is sent in any lane, every voucher is told why, the run says who stopped it", async () => {
    const s = scripted({ A2: { kind: "stop" } });
    const ended = await runLanes([lane("A", 3), lane("B", 2)], s.runner);
    expect(ended.stoppedBy).toBe(DOWN);
    expect(s.status()).toEqual({ A1: "issued", A2: "held", A3: "held", B1: "held", B2: "held" });
    const why = "not sent: the service stopped the run: the tax authority's service is down";
    for (const ref of ["A2", "A3", "B1", "B2"]) expect(s.why(ref), ref).toBe(why);
    expect(s.log.filter((l) => l.startsWith("send"))).toEqual(["send A1", "send A2"]);
    // A3, journaled while A2 was in flight, is abandoned with the same reason.
    expect(s.abandoned).toEqual([{ ref: "A3", why }]);
  });

  it("mid-batch: what it issued before the stop is told issued, the rest held", async () => {
    const s = scripted({ A3: { kind: "stop" } });
    const ended = await runLanes([lane("A", 5), lane("B", 2)], { ...s.runner, batchSize: 4 });
    expect(ended.stoppedBy).toBe(DOWN);
    expect(s.status()).toEqual({
      A1: "issued",
      A2: "issued",
      A3: "held",
      A4: "held",
      A5: "held",
      B1: "held",
      B2: "held",
    });
    expect(s.log.filter((l) => l.startsWith("batch"))).toEqual(["batch A1,A2,A3,A4"]);
  });

  it("when journaling the next voucher ahead: that one and the rest held, the run stopped", async () => {
    const s = scripted({ A2: { kind: "stop", atBegin: true }, A1: { kind: "unknown" } });
    const ended = await runLanes([lane("A", 3)], s.runner);
    expect(ended.stoppedBy).toBe(DOWN);
    expect(s.status()).toEqual({ A1: "unknown", A2: "held", A3: "held" });
    expect(s.log.filter((l) => l.startsWith("send"))).toEqual(["send A1"]);
  });

  it("when journaling the voucher it is about to send: it and the rest are held", async () => {
    const s = scripted({ A1: { kind: "stop", atBegin: true } });
    const ended = await runLanes([lane("A", 2)], s.runner);
    expect(ended.stoppedBy).toBe(DOWN);
    expect(s.status()).toEqual({ A1: "held", A2: "held" });
    expect(s.why("A2")).toMatch(/the service stopped the run/);
  });

  it("by a signal: the vouchers in flight settle, the rest are held as interrupted, no stop reason", async () => {
    const s = scripted({}, { stopAfterTold: 1 });
    const ended = await runLanes([lane("A", 3), lane("B", 2)], s.runner);
    expect(ended).toEqual({});
    expect(s.status()).toEqual({ A1: "issued", A2: "held", A3: "held", B1: "held", B2: "held" });
    expect(s.why("B2")).toBe("not sent: interrupted");
    // A2 was journaled before the signal came: abandoned, not sent.
    expect(s.abandoned.map((a) => a.ref)).toEqual(["A2"]);
    expect(s.log.filter((l) => l.startsWith("send"))).toEqual(["send A1"]);
  });

  it("a signal before the last voucher of a lane is journaled: it is not begun ahead", async () => {
    const s = scripted();
    // The signal comes while A1 is being journaled.
    await runLanes([lane("A", 2)], { ...s.runner, stopped: () => s.log.includes("begin A1") });
    expect(s.log).toEqual(["begin A1", "send A1", "told A1 issued", "told A2 held"]);
  });

  it("when the journal fails (halted): the rest are held with its reason, which the run returns", async () => {
    const s = scripted();
    const full = new FacturarError("the journal cannot be written: disk full", "unavailable", "journal.full");
    const ended = await runLanes([lane("A", 3)], {
      ...s.runner,
      halted: () => (s.told.length >= 1 ? full : undefined),
    });
    expect(ended.stoppedBy).toBe(full);
    expect(s.status()).toEqual({ A1: "issued", A2: "held", A3: "held" });
    expect(s.why("A3")).toBe("not sent: the service stopped the run: the journal cannot be written: disk full");
  });

  it("the journal failing on the run's last outcome still stops the run", async () => {
    const s = scripted();
    const full = new FacturarError("disk full", "unavailable", "journal.full");
    let done = false;
    const ended = await runLanes([lane("A", 1)], {
      ...s.runner,
      emit: async (r, v) => {
        await s.runner.emit(r, v);
        done = true;
      },
      halted: () => (done ? full : undefined),
    });
    expect(ended.stoppedBy).toBe(full);
    expect(s.status()).toEqual({ A1: "issued" });
  });

  it("a bug in one lane: the other lanes end, every voucher told, then the bug is thrown", async () => {
    const s = scripted({ A1: { kind: "bug" } });
    await expect(runLanes([lane("A", 2), lane("B", 3)], { ...s.runner, concurrency: 2 })).rejects.toThrow("bug at A1");
    expect(s.status()).toMatchObject({ B1: "issued", B2: "issued", B3: "issued" });
  });

  it("a bug journaling ahead is not taken for a stop", async () => {
    const s = scripted({ A1: { kind: "unknown" }, A2: { kind: "bug", atBegin: true } });
    await expect(runLanes([lane("A", 3)], s.runner)).rejects.toThrow("bug at A2");
  });
});

describe("runLanes: documents downloading while the lane goes on", () => {
  it("a result is told once its documents landed; the lane waits only when RESULTS_AWAITING_DOCUMENTS wait", async () => {
    const s = scripted();
    const pending: { ref: string; land: () => void }[] = [];
    const runner = {
      ...s.runner,
      takeDownload: (ref: string) =>
        new Promise<VoucherResult>((resolve) => {
          pending.push({
            ref,
            land: () => {
              const r = blankResult("issued", {
                ...heading(ref),
                punto_venta: 1,
                total: "121.00",
              });
              r.pdf = `/out/${ref}.pdf`;
              resolve(r);
            },
          });
        }),
    };
    const n = RESULTS_AWAITING_DOCUMENTS + 4;
    const ran = runLanes([lane("A", n)], runner);
    await until(() => pending.length >= RESULTS_AWAITING_DOCUMENTS);
    for (let k = 0; k < 50; k++) await new Promise((r) => setImmediate(r));
    // As many results waiting as the bound: the lane waits (memory stays bounded), the results wait for their documents.
    expect(pending.map((p) => p.ref)).toEqual(refsOf(lane("A", RESULTS_AWAITING_DOCUMENTS)));
    expect(s.told).toEqual([]);
    pending[3]?.land();
    await until(() => s.told.length > 0 && pending.length > RESULTS_AWAITING_DOCUMENTS);
    expect(s.told.map((r) => r.external_reference)).toEqual(["A4"]);
    expect(pending).toHaveLength(RESULTS_AWAITING_DOCUMENTS + 1);
    // The run ends only once every result is told: all but the last landed, it is still waiting.
    let ended = false;
    void ran.then(() => (ended = true));
    const last = `A${n}`;
    for (let k = 0; k < 200 && pending.length < n; k++) {
      for (const p of pending) if (p.ref !== last) p.land();
      await new Promise((r) => setImmediate(r));
    }
    expect(pending).toHaveLength(n);
    expect(ended).toBe(false);
    pending[n - 1]?.land();
    await ran;
    expect(s.told).toHaveLength(n);
    expect(s.told.every((r) => r.pdf === `/out/${r.external_reference}.pdf`)).toBe(true);
  });

  it("a bug while its documents land is not lost: the other vouchers are told, then the bug is thrown", async () => {
    const s = scripted();
    const run = runLanes([lane("A", 3)], {
      ...s.runner,
      takeDownload: (ref: string) =>
        ref === "A2" ? Promise.reject(new Error("bug saving A2")) : Promise.resolve(resultOf(heading(ref), ISSUED)),
    });
    await expect(run).rejects.toThrow("bug saving A2");
    expect(s.status()).toEqual({ A1: "issued", A3: "issued" });
  });

  it("a download that failed no longer counts among those in flight: the lane goes on to its end", async () => {
    const s = scripted();
    const later = async (ref: string) => {
      for (let k = 0; k < 30; k++) await new Promise((r) => setImmediate(r));
      return resultOf(heading(ref), ISSUED);
    };
    const run = runLanes([lane("A", 20)], {
      ...s.runner,
      takeDownload: (ref: string) => (ref === "A1" ? Promise.reject(new Error("bug saving A1")) : later(ref)),
    });
    await expect(run).rejects.toThrow("bug saving A1");
    expect(s.told).toHaveLength(19);
  });

  it("downloads overlap the lane's calls, a few at a time: the lane never waits for its documents", async () => {
    const w = await world();
    try {
      // Every download waits until the test lets it land: as slow as a download can be.
      const waiting: (() => void)[] = [];
      let inFlight = 0;
      let most = 0;
      let landed = 0;
      Object.assign(w.service, {
        download: async () => {
          most = Math.max(most, ++inFlight);
          await new Promise<void>((land) => waiting.push(land));
          inFlight--;
          landed++;
          return { status: 200, headers: {}, body: Buffer.from("%PDF-1.4 slow") };
        },
      });
      const issuing: string[] = [];
      w.step = (method, _body, call) => {
        if (method === "facturacion/lotes" || method === "facturacion/nuevo")
          issuing.push(`${method} with ${landed} landed`);
        return call();
      };
      const journal = await Journal.open(join(w.dir, "state"), w.account, { lock: false, profile: "test" });
      const out = join(w.dir, "out");
      const issuer = new Issuer(
        w.service,
        journal,
        { ...SETTINGS, savePdf: true, deferDocuments: true, outDir: out },
        () => {},
      );
      const vouchers = Array.from({ length: 41 }, (_, i) => voucher(`OV-${i + 1}`));
      const told: VoucherResult[] = [];
      const ran = runLanes(lanes(vouchers, "instant"), {
        concurrency: 2,
        batchSize: 20,
        stopped: () => false,
        begin: (v) => issuer.begin(v),
        finish: (b) => issuer.finish(b),
        abandon: (b, why) => issuer.abandon(b, why),
        issueMany: (vs) => issuer.issueBatch(vs),
        takeDownload: (ref) => issuer.takeDownload(ref),
        emit: async (r) => {
          told.push(r);
        },
      });
      // The lane sends its three calls with no document landed (82 wait), never more than the pool downloading.
      await until(() => issuing.length === 3);
      expect(issuing).toEqual([
        "facturacion/lotes with 0 landed",
        "facturacion/lotes with 0 landed",
        "facturacion/nuevo with 0 landed",
      ]);
      expect(inFlight).toBe(DOWNLOADS_AT_ONCE);
      expect(told).toEqual([]);
      // Landing one by one, the next takes its place: still the pool's size at most.
      while (landed < 82) {
        await until(() => waiting.length > 0);
        waiting.shift()?.();
      }
      await ran;
      await journal.close();
      expect(most).toBe(DOWNLOADS_AT_ONCE);
      expect(told).toHaveLength(41);
      expect(told.filter((r) => r.pdf === null || r.ticket === null || r.documents_missing)).toEqual([]);
    } finally {
      await w.close();
    }
  });

  it("a result without documents to wait for is told at once", async () => {
    const s = scripted();
    await runLanes([lane("A", 2)], { ...s.runner, takeDownload: () => undefined });
    expect(s.status()).toEqual({ A1: "issued", A2: "issued" });
  });
});

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
      warn: (line) => warnings.push(line),
      log: (line) => log.push(line),
      onStart: (n) => {
        total = n;
      },
      ...req,
    },
    async (r) => {
      results.push(r);
    },
  );
  return { summary, results, warnings, log, ...(total !== undefined ? { total } : {}) };
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
          log: (line) => {
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
      log: (line) => {
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
        log: (line) => {
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
