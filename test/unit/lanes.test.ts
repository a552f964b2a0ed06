import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DOWNLOADS_AT_ONCE } from "../../src/batch/documents.js";
import { type Begun, Issuer, ServiceStop, type VoucherHeading } from "../../src/batch/issue.js";
import { Journal } from "../../src/batch/journal.js";
import { heldResult, lanes, RESULTS_AWAITING_DOCUMENTS, runLanes } from "../../src/batch/lanes.js";
import { blankResult, type VoucherResult } from "../../src/batch/result.js";
import { FacturarError } from "../../src/errors.js";
import { english, type Text } from "../../src/i18n/message.js";
import { SETTINGS, voucher, world } from "../inprocess.js";

/** Until `done()` holds, looked at every few ms for at most `ms` (then the test's expectations tell what did not happen). */
async function until(done: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!done() && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
}

/**
 * Until `done()` holds, at most `turns` turns of the event loop: for the scripted runs, which use
 * no clock, so what has not happened in that many turns will not.
 */
async function turnsUntil(done: () => boolean, turns = 10_000): Promise<void> {
  for (let k = 0; k < turns && !done(); k++) await new Promise((r) => setImmediate(r));
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
    abandon: async (b: Begun, why: Text) => {
      const ref = (b.voucher as VoucherHeading).reference;
      log.push(`abandon ${ref}`);
      abandoned.push({ ref, why: english(why) });
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
    why: (ref: string) =>
      told
        .find((r) => r.external_reference === ref)
        ?.errors.map(english)
        .join(" "),
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
    await turnsUntil(() => pending.length >= RESULTS_AWAITING_DOCUMENTS);
    for (let k = 0; k < 50; k++) await new Promise((r) => setImmediate(r));
    // As many results waiting as the bound: the lane waits (memory stays bounded), the results wait for their documents.
    expect(pending.map((p) => p.ref)).toEqual(refsOf(lane("A", RESULTS_AWAITING_DOCUMENTS)));
    expect(s.told).toEqual([]);
    pending[3]?.land();
    await turnsUntil(() => s.told.length > 0 && pending.length > RESULTS_AWAITING_DOCUMENTS);
    // One landed, one more handed over, and the lane waits again.
    for (let k = 0; k < 50; k++) await new Promise((r) => setImmediate(r));
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

  it("a download that failed no longer counts among those waiting: at the bound the lane waits for one to land, then goes on to its end", async () => {
    const s = scripted();
    const waiting: (() => void)[] = [];
    const n = RESULTS_AWAITING_DOCUMENTS + 6;
    const run = runLanes([lane("A", n)], {
      ...s.runner,
      takeDownload: (ref: string) =>
        ref === "A1"
          ? Promise.reject(new Error("bug saving A1"))
          : new Promise<VoucherResult>((land) => waiting.push(() => land(resultOf(heading(ref), ISSUED)))),
    });
    const ended = run.then(
      () => undefined,
      (error: Error) => error,
    );
    // The lane hands over results until the bound's worth wait for their documents, A1's failed one not among them.
    await turnsUntil(() => waiting.length >= RESULTS_AWAITING_DOCUMENTS);
    expect(waiting).toHaveLength(RESULTS_AWAITING_DOCUMENTS);
    // Each landing lets it go on: every other voucher is told, then the bug is thrown.
    await turnsUntil(() => {
      for (const land of waiting.splice(0)) land();
      return s.told.length === n - 1;
    });
    expect((await ended)?.message).toBe("bug saving A1");
    expect(s.told.map((r) => r.external_reference)).toEqual(refsOf(lane("A", n)).slice(1));
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
      // 82 downloads let land (counted as let go: `landed` moves a turn later, and waiting for it
      // to reach 82 after the last was let go waited out until()'s 10 s for a download never coming).
      for (let k = 0; k < 82; k++) {
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
