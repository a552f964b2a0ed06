/**
 * The exactly-once core in-process (design.md "Never twice, never lost"): the embedded service's
 * own logic behind the typed protocol, answers lost, storing delayed, the run crashed between
 * every pair of journal steps, the journal lost. Throughout: at most one voucher per reference at
 * the service, and every voucher issued, queued or reported with its reason.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type HttpResponse, TransportError } from "../../src/api/http.js";
import { Journal } from "../../src/batch/journal.js";
import { Crash, crashingJournal, lost, run, voucher, type World, world } from "../inprocess.js";

let w: World;
afterEach(async () => {
  await w?.close();
});

const refs = (n: number, prefix = "EO") => Array.from({ length: n }, (_, i) => `${prefix}-${i + 1}`);

describe("the service decides; the journal remembers", () => {
  it("a lost journal sends nothing again: each reference is found at the service, one listing for the day", async () => {
    w = await world();
    const vouchers = refs(30).map((r) => voucher(r));
    const first = await run(w, vouchers);
    expect(first.results.map((r) => r.status)).toEqual(Array(30).fill("issued"));
    rmSync(join(w.dir, "state"), { recursive: true });
    w.calls.clear();
    const again = await run(w, vouchers);
    expect(again.results.map((r) => r.status)).toEqual(Array(30).fill("skipped-duplicate"));
    for (const r of again.results) {
      expect(r.reconciled).toBe(true);
      expect(r.comprobante_nro).toMatch(/^\d{5}-\d{8}$/);
    }
    for (const r of refs(30)) expect(w.held(r)).toBe(1);
    // The remote check: one consulta_avanzada listing the day, no lookup per voucher, no issuing call.
    expect(w.calls.get("facturacion/consulta_avanzada")).toBe(1);
    expect(w.calls.get("facturacion/nuevo")).toBeUndefined();
  });

  it("a single voucher the journal does not know is looked up by reference before it is sent", async () => {
    w = await world();
    await run(w, [voucher("ONE-1")]);
    rmSync(join(w.dir, "state"), { recursive: true });
    w.calls.clear();
    const again = await run(w, [voucher("ONE-1")]);
    expect(again.results[0]?.status).toBe("skipped-duplicate");
    expect(w.calls.get("facturacion/consulta_avanzada")).toBe(1);
    expect(w.held("ONE-1")).toBe(1);
  });

  it("a reference reused with other content is a conflict: what was issued is shown, nothing sent", async () => {
    w = await world();
    await run(w, [voucher("DRIFT-1")]);
    const changed = voucher("DRIFT-1", (raw) => {
      raw.comprobante.detalle[0].producto.precio_unitario_sin_iva = 200;
      raw.comprobante.total = 242;
    });
    const again = await run(w, [changed]);
    const r = again.results[0];
    expect(r).toMatchObject({ status: "conflict", ok: false, content_changed: true });
    expect(Number(r?.total)).toBe(121);
    expect(r?.errors.join(" ")).toMatch(/was used before for another voucher/);
    // The same check without the journal: the service's figures differ from the file's.
    rmSync(join(w.dir, "state"), { recursive: true });
    const remote = await run(w, [changed]);
    expect(remote.results[0]).toMatchObject({ status: "conflict", ok: false, content_changed: true });
    expect(w.held("DRIFT-1")).toBe(1);
  });
});

describe("an answer that never came", () => {
  it("is not final while the service is still storing the voucher: asked again until it shows up", async () => {
    w = await world();
    let storing: Promise<unknown> | undefined;
    w.step = async (method, _body, call) => {
      if (method !== "facturacion/nuevo") return call();
      // The service takes 60 ms to store it; the client gave up at once.
      setTimeout(() => {
        storing = call();
      }, 60);
      throw lost();
    };
    const { results } = await run(w, [voucher("SLOW-1")], { settleWindowMs: 2000 });
    expect(results[0]?.status).toBe("issued");
    expect(results[0]?.reconciled).toBe(true);
    // Found, so the late send ran: its answer is awaited, not guessed at with a sleep.
    expect(storing).toBeDefined();
    await storing;
    expect(w.held("SLOW-1")).toBe(1);
    expect(w.calls.get("facturacion/nuevo")).toBe(1);
  });

  it("is sent again once the settle window has passed with nothing stored", async () => {
    w = await world();
    let dropped = 0;
    w.step = async (method, _body, call) => {
      if (method === "facturacion/nuevo" && dropped++ === 0) throw lost();
      return call();
    };
    const { results } = await run(w, [voucher("DROP-1")]);
    expect(results[0]?.status).toBe("issued");
    expect(w.calls.get("facturacion/nuevo")).toBe(2);
    expect(w.held("DROP-1")).toBe(1);
  });

  it("three sends without an answer: not issued, and the rest of its lane is held, in order", async () => {
    w = await world();
    w.step = async (method, body, call) => {
      const ref = (body.comprobante as { external_reference?: string } | undefined)?.external_reference;
      if (method === "facturacion/nuevo" && ref === "LANE-1") throw lost();
      return call();
    };
    const { results } = await run(w, [voucher("LANE-1"), voucher("LANE-2"), voucher("LANE-3")]);
    expect(results.map((r) => [r.external_reference, r.status])).toEqual([
      ["LANE-1", "rejected"],
      ["LANE-2", "held"],
      ["LANE-3", "held"],
    ]);
    expect(results[0]?.error_details[0]?.code).toBe("no-answer");
    expect(w.calls.get("facturacion/nuevo")).toBe(3);
    expect(w.held("LANE-2") + w.held("LANE-3")).toBe(0);
    // The next run sends them in order.
    w.step = (_m, _b, call) => call();
    const next = await run(w, [voucher("LANE-1"), voucher("LANE-2"), voucher("LANE-3")]);
    expect(next.results.map((r) => r.status)).toEqual(["issued", "issued", "issued"]);
    expect(next.results.map((r) => r.numero)).toEqual([1, 2, 3]);
  });

  it("is unknown (exit 8) when the service cannot be asked, and the next run settles it", async () => {
    w = await world();
    let sent = false;
    w.step = async (method, _body, call) => {
      if (method === "facturacion/nuevo") {
        sent = true;
        await call();
        throw lost();
      }
      if (sent) throw new TransportError("cannot connect", "refused", false);
      return call();
    };
    const first = await run(w, [voucher("UNK-1")]);
    expect(first.results[0]?.status).toBe("unknown");
    w.step = (_m, _b, call) => call();
    const next = await run(w, [voucher("UNK-1")]);
    expect(next.results[0]?.status).toBe("skipped-duplicate");
    expect(w.held("UNK-1")).toBe(1);
  });

  it("left unknown, still being stored when the next run starts: that run waits for it, sends nothing", async () => {
    w = await world();
    let stored: Promise<unknown> | undefined;
    let release = () => {};
    w.step = async (method, _body, call) => {
      if (method === "facturacion/nuevo") {
        // The service stores it only once released; the answer is lost, and it cannot be asked meanwhile.
        stored = new Promise<void>((done) => (release = done)).then(call);
        throw lost();
      }
      if (stored) throw new TransportError("cannot connect", "refused", false);
      return call();
    };
    const first = await run(w, [voucher("LATE-1")]);
    expect(first.results[0]?.status).toBe("unknown");
    // The next run's first question finds nothing; the voucher lands just after it.
    w.step = async (method, _body, call) => {
      const answer = await call();
      if (method === "facturacion/consulta_avanzada") release();
      return answer;
    };
    w.calls.clear();
    // With another voucher of its day, so the day's listing is asked too.
    const next = await run(w, [voucher("LATE-1"), voucher("LATE-2")], { settleWindowMs: 5000 });
    expect(next.results.map((r) => [r.external_reference, r.status])).toEqual([
      ["LATE-1", "skipped-duplicate"],
      ["LATE-2", "issued"],
    ]);
    expect(w.calls.get("facturacion/nuevo")).toBe(1);
    await stored;
    expect(w.held("LATE-1")).toBe(1);
  });

  it("a lost batch is settled voucher by voucher; what the service lacks goes again in order", async () => {
    w = await world();
    let batches = 0;
    w.step = async (method, _body, call) => {
      if (method === "facturacion/lotes" && batches++ === 0) throw lost();
      return call();
    };
    const vs = refs(6, "LOT").map((r) => voucher(r));
    const { results } = await run(w, vs, {}, { batchSize: 3 });
    expect(results.map((r) => r.status)).toEqual(Array(6).fill("issued"));
    for (const r of refs(6, "LOT")) expect(w.held(r)).toBe(1);
    // Lane order kept: numbers follow the input.
    expect(results.map((r) => r.numero)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("a batch stored but unanswered is found, not sent again", async () => {
    w = await world();
    w.step = async (method, _body, call) => {
      if (method === "facturacion/lotes") {
        await call();
        throw lost();
      }
      return call();
    };
    const { results } = await run(
      w,
      refs(4, "LB").map((r) => voucher(r)),
      {},
      { batchSize: 4 },
    );
    expect(results.map((r) => r.status)).toEqual(Array(4).fill("issued"));
    for (const r of refs(4, "LB")) expect(w.held(r)).toBe(1);
  });
});

describe("the authority down midway through a batch", () => {
  it("what it issued before is told issued; that voucher and the rest held, nothing more sent, the run stopped", async () => {
    w = await world();
    let lotes = 0;
    w.step = async (method, body, call) => {
      if (method !== "facturacion/lotes") return call();
      lotes++;
      // The service issues the first two, then the authority fails the third (§6.8: the rest not processed).
      const rest = (body.requests as { comprobante: { external_reference: string } }[]).slice(2);
      body.requests = (body.requests as unknown[]).slice(0, 2);
      const reply = await call();
      const answer = JSON.parse(reply.body.toString());
      const down = {
        error: "S",
        errores: ["AFIP No devolvio el CAE asociado. (Cod. Error #6661141.S1254)"],
        error_details: [{ code: "TFC-6661", text: "Servicio de la autoridad fiscal no disponible." }],
      };
      // Each item names its voucher, as the page's example of a partial failure does.
      answer.response = [
        ...answer.response,
        ...rest.map((r) => ({ ...down, external_reference: r.comprobante.external_reference })),
      ];
      return { ...reply, body: Buffer.from(JSON.stringify(answer)) };
    };
    const vs = refs(8, "AD").map((r) => voucher(r));
    const { results, stoppedBy } = await run(w, vs, {}, { batchSize: 5 });
    expect(results.map((r) => r.status)).toEqual(["issued", "issued", "held", "held", "held", "held", "held", "held"]);
    expect(stoppedBy?.message).toMatch(/the tax authority's service is down: AFIP No devolvio el CAE/);
    expect(lotes).toBe(1);
    expect(refs(8, "AD").map((r) => w.held(r))).toEqual([1, 1, 0, 0, 0, 0, 0, 0]);
  });
});

describe("a crash between any two steps", () => {
  /** Journal writes of a clean run of these vouchers: the crash points. */
  async function writesOfCleanRun(): Promise<number> {
    const probe = await world();
    let writes = 0;
    await run(
      probe,
      refs(3, "C").map((r) => voucher(r)),
      {},
      {
        journal: (j) => {
          const recordAll = j.recordAll.bind(j);
          j.recordAll = async (entries) => {
            writes++;
            return recordAll(entries);
          };
          return j;
        },
      },
    );
    await probe.close();
    return writes;
  }

  it("at every journal write, before or after it lands, and mid-request: the next run ends with one voucher each", async () => {
    const total = await writesOfCleanRun();
    expect(total).toBeGreaterThanOrEqual(6);
    const cases: { name: string; crash: (w: World) => Parameters<typeof run>[3] }[] = [];
    for (let at = 1; at <= total; at++)
      for (const when of ["before", "after"] as const)
        cases.push({ name: `${when} write ${at}`, crash: () => ({ journal: crashingJournal(at, when) }) });
    for (const n of [1, 2, 3])
      for (const stored of [true, false])
        cases.push({
          name: `${stored ? "after" : "before"} the service stored voucher ${n}`,
          crash: (cw) => {
            let sends = 0;
            cw.step = async (method, _body, call) => {
              if ((method !== "facturacion/nuevo" && method !== "facturacion/lotes") || ++sends !== n) return call();
              if (stored) await call();
              throw new Crash("killed mid-request");
            };
            return {};
          },
        });
    for (const c of cases) {
      for (const [journalLost, batchSize] of [
        [false, 1],
        [true, 1],
        [false, 3],
        [true, 3],
      ] as const) {
        const cw = await world();
        const vs = refs(3, "C").map((r) => voucher(r));
        const crashed = await run(cw, vs, {}, { ...c.crash(cw), batchSize });
        // A batch makes fewer journal writes than one by one: a crash point past its last is no crash.
        if (!crashed.crashed && batchSize > 1) {
          await cw.close();
          continue;
        }
        expect(crashed.crashed, c.name).toBe(true);
        for (const r of refs(3, "C")) expect(cw.held(r), `${c.name}: ${r}`).toBeLessThanOrEqual(1);
        cw.step = (_m, _b, call) => call();
        if (journalLost) rmSync(join(cw.dir, "state"), { recursive: true });
        const next = await run(cw, vs);
        const label = `${c.name}${journalLost ? ", journal lost" : ""}${batchSize > 1 ? ", batched" : ""}`;
        expect(next.crashed, label).toBe(false);
        for (const r of next.results) expect(["issued", "skipped-duplicate"], label).toContain(r.status);
        for (const r of refs(3, "C")) expect(cw.held(r), `${label}: ${r}`).toBe(1);
        // Numbers in input order: the lane's order survived the crash.
        const numbers = refs(3, "C").map(
          (r) => cw.store.findByReference(cw.account.punto_venta as number, r)[0]?.numero,
        );
        expect(numbers, label).toEqual([1, 2, 3]);
        await cw.close();
      }
    }
  });
});

describe("the queue belongs to the service", () => {
  it("an errored queued voucher is reported, never replaced; --requeue puts it back; issued then skipped", async () => {
    w = await world();
    const queued = { mode: "queued" as const };
    const v = () => voucher("Q-1", (raw) => (raw.comprobante.numero = 0));
    const first = await run(w, [v()], queued);
    expect(first.results[0]?.status).toBe("queued");
    w.sandbox.options.faults.queueError = 1;
    await w.sandbox.processQueue();
    const again = await run(w, [v()], queued);
    expect(again.results[0]?.status).toBe("rejected");
    expect(again.results[0]?.hint).toMatch(/queue retry|--requeue/);
    expect(w.held("Q-1")).toBe(1);
    expect(w.calls.get("facturacion/nuevo_encola")).toBe(1);
    w.sandbox.options.faults.queueError = 0;
    const requeued = await run(w, [v()], { ...queued, requeue: true });
    expect(requeued.results[0]?.status).toBe("queued");
    expect(w.calls.get("facturacion/reenviar_encolado")).toBe(1);
    await w.sandbox.processQueue();
    const done = await run(w, [v()], queued);
    expect(done.results[0]?.status).toBe("skipped-duplicate");
    expect(w.held("Q-1")).toBe(1);
    expect(w.calls.get("facturacion/nuevo_encola")).toBe(1);
  });

  it("--requeue with --wait re-queues a failing voucher once, then reports it: no loop", async () => {
    w = await world();
    const queued = { mode: "queued" as const };
    const v = () => voucher("Q-LOOP", (raw) => (raw.comprobante.numero = 0));
    await run(w, [v()], queued);
    w.sandbox.options.faults.queueError = 1;
    await w.sandbox.processQueue();
    const timer = setInterval(() => void w.sandbox.processQueue(), 5);
    const out = await run(w, [v()], { ...queued, requeue: true, wait: true, waitTimeoutMs: 5000 });
    clearInterval(timer);
    expect(out.results[0]?.status).toBe("rejected");
    expect(w.calls.get("facturacion/reenviar_encolado")).toBe(1);
    expect(w.held("Q-LOOP")).toBe(1);
  });

  it("a voucher deleted from the queue is sent again; one still queued is not", async () => {
    w = await world();
    const queued = { mode: "queued" as const };
    const v = () => voucher("Q-DEL", (raw) => (raw.comprobante.numero = 0));
    await run(w, [v()], queued);
    const still = await run(w, [v()], queued);
    expect(still.results[0]?.status).toBe("queued");
    expect(still.results[0]?.hint).toMatch(/already in the service's queue/);
    expect(w.calls.get("facturacion/nuevo_encola")).toBe(1);
    await w.service.deleteQueued("Q-DEL");
    const again = await run(w, [v()], queued);
    expect(again.results[0]?.status).toBe("queued");
    expect(w.calls.get("facturacion/nuevo_encola")).toBe(2);
    expect(w.held("Q-DEL")).toBe(1);
  });

  it("--wait follows a reference the journal holds as queued until it is issued", async () => {
    w = await world();
    const queued = { mode: "queued" as const };
    const v = () => voucher("Q-W", (raw) => (raw.comprobante.numero = 0));
    await run(w, [v()], queued);
    // The queue is processed while the run follows it (between its polls), not on a timer that a
    // loaded machine may fire before the run has even looked the reference up.
    const waited = await run(w, [v()], {
      ...queued,
      wait: true,
      waitTimeoutMs: 5000,
      sleep: async () => void (await w.sandbox.processQueue()),
    });
    expect(waited.results[0]?.status).toBe("issued");
    expect(waited.results[0]?.comprobante_nro).toMatch(/-00000001$/);
  });
});

describe("the service stops the run", () => {
  it("access denied: nothing more is sent, every voucher gets a result, the journal says held", async () => {
    w = await world();
    w.step = async (method, _body, call) =>
      method === "facturacion/nuevo"
        ? {
            status: 403,
            headers: {},
            body: Buffer.from('{"error":"S","errores":["Las credenciales enviadas no son validas."]}'),
          }
        : call();
    const vs = refs(5, "DENIED").map((r) => voucher(r));
    const out = await run(w, vs);
    expect(out.stoppedBy?.message).toMatch(/403/);
    expect(out.results).toHaveLength(5);
    expect(out.results.every((r) => r.status === "held")).toBe(true);
    expect(w.calls.get("facturacion/nuevo")).toBeLessThanOrEqual(2);
    const journal = await Journal.open(join(w.dir, "state"), w.account, { lock: false, profile: "test" });
    expect(journal.all().every((e) => e.state === "held")).toBe(true);
    await journal.close();
  });
});

describe("batch answers that name no voucher surely, then a crash or a lost journal", () => {
  type Mangle = (body: Record<string, unknown>, call: () => Promise<HttpResponse>) => Promise<HttpResponse>;
  const answer = (value: unknown, status = 200): HttpResponse => ({
    status,
    headers: {},
    body: Buffer.from(typeof value === "string" ? value : JSON.stringify(value)),
  });
  /** The first two stored, the answer says otherwise. */
  const firstTwo = (body: Record<string, unknown>) => {
    body.requests = (body.requests as unknown[]).slice(0, 2);
  };
  const answers: [string, Mangle][] = [
    [
      "items reversed",
      async (_b, call) => {
        const a = JSON.parse((await call()).body.toString());
        return answer({ ...a, response: [...a.response].reverse() });
      },
    ],
    [
      "items without their references",
      async (_b, call) => {
        const a = JSON.parse((await call()).body.toString());
        return answer({ ...a, response: a.response.map(({ external_reference: _, ...item }: any) => item) });
      },
    ],
    [
      "two stored, then an error naming row 2 and no items",
      async (b, call) => {
        firstTwo(b);
        await call();
        return answer({ error: "S", errores: ["la fila 2 (comenzando en 0) no es valida"], response: [] });
      },
    ],
    [
      "two stored, then PARCIAL and no items",
      async (b, call) => {
        firstTwo(b);
        await call();
        return answer({ error: "PARCIAL", errores: ["parcial"], response: [] });
      },
    ],
    [
      "two stored, then an HTTP 400 naming no row",
      async (b, call) => {
        firstTwo(b);
        await call();
        return answer({ error: "S", errores: ["Solicitud invalida"] }, 400);
      },
    ],
    [
      "all stored, then an answer nested too deep",
      async (_b, call) => {
        await call();
        return answer(`${"[".repeat(100_000)}${"]".repeat(100_000)}`);
      },
    ],
    [
      "all stored, then error N and S in one object",
      async (_b, call) => answer((await call()).body.toString().replace(/^\{/, '{"error":"S",')),
    ],
  ];

  it("each, alone, then crashed at the next journal write, then with the journal lost: one voucher each, in order", async () => {
    for (const [name, mangle] of answers)
      for (const after of ["nothing", "crash", "journal lost"] as const) {
        const cw = await world();
        let mangled = false;
        cw.step = async (method, body, call) => {
          if (method !== "facturacion/lotes" || mangled) return call();
          mangled = true;
          return mangle(body, call);
        };
        const vs = refs(4, "M").map((r) => voucher(r));
        const label = `${name}, then ${after}`;
        // The batch's answer is journaled first: a crash right then is one at the write after it.
        const first = await run(
          cw,
          vs,
          {},
          { batchSize: 4, ...(after === "crash" ? { journal: crashingJournal(2, "before") } : {}) },
        );
        for (const r of refs(4, "M")) expect(cw.held(r), `${label}: ${r}`).toBeLessThanOrEqual(1);
        if (after === "nothing") {
          expect(first.crashed, label).toBe(false);
          // The one an error named is refused; every other one is issued.
          for (const r of first.results)
            expect(r.status, `${label}: ${r.external_reference}`).toBe(
              name.includes("naming row 2") && r.external_reference === "M-3" ? "rejected" : "issued",
            );
        }
        if (after === "journal lost") rmSync(join(cw.dir, "state"), { recursive: true });
        const next = await run(cw, vs, {}, { batchSize: 4 });
        for (const r of next.results) expect(["issued", "skipped-duplicate"], label).toContain(r.status);
        for (const r of refs(4, "M")) expect(cw.held(r), `${label}: ${r}`).toBe(1);
        await cw.close();
      }
  });
});

describe("a wall clock that steps between a crash and the next run", () => {
  it("the settle window is counted on the monotonic clock: a voucher still being stored is waited for, not sent again", async () => {
    w = await world();
    // The service stores the voucher 300 ms after the call; the run is killed meanwhile.
    w.step = async (method, _body, call) => {
      if (method !== "facturacion/nuevo") return call();
      setTimeout(() => void call(), 300);
      throw new Crash("killed mid-request");
    };
    expect((await run(w, [voucher("WC-1")], { settleWindowMs: 5_000 })).crashed).toBe(true);
    w.step = (_m, _b, call) => call();
    // Ten minutes later by the wall clock, a moment later by the monotonic one.
    const next = await run(w, [voucher("WC-1")], { settleWindowMs: 5_000, wall: () => Date.now() + 600_000 });
    expect(next.results[0]).toMatchObject({ status: "skipped-duplicate", reconciled: true });
    expect(w.held("WC-1")).toBe(1);
    expect(w.calls.get("facturacion/nuevo")).toBe(1);
  });
});
