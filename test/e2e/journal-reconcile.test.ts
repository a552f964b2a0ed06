/**
 * `journal --reconcile` where the service lacks what the journal says: a queued voucher someone
 * deleted from the service's queue, a voucher whose answer was lost and that never arrived, one
 * sent too lately to judge. The built CLI against the real sandbox, behind a loopback relay that
 * loses the answers a test asks it to.
 */
import { readFileSync, writeFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshUser, journalStates, ndjson, ROOT, runCli, TODAY } from "../helpers.js";
import { type Loopback, serveLoopback } from "../loopback.js";
import { type RunningSandbox, sandboxEnv, startSandboxProcess } from "../sandbox-process.js";

/** `forward(false)`: the service does the work, and its answer is lost on the way back. */
type Relay = (
  method: string,
  body: any,
  req: IncomingMessage,
  res: ServerResponse,
  forward: (answer?: boolean) => Promise<void>,
) => void;

let sbx: RunningSandbox;
let relay: Loopback;
let rule: Relay = (_m, _b, _req, _res, forward) => void forward();

beforeAll(async () => {
  // The queue is never worked during the test: a queued voucher stays queued until deleted.
  sbx = await startSandboxProcess({ args: ["--queue-interval", "3600000"] });
  relay = await serveLoopback((req, res, text) => {
    const method = (req.url ?? "").replace(/^\/app\/api\/v2\//, "");
    const forward = async (answer = true) => {
      const reply = await fetch(`${sbx.baseUrl}/${method}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: text,
      });
      const reached = await reply.text();
      if (!answer) return void req.socket.destroy();
      res.writeHead(reply.status, { "content-type": "application/json" });
      res.end(reached);
    };
    rule(method, JSON.parse(text || "{}"), req, res, forward);
  });
});
afterAll(async () => {
  relay?.close();
  await sbx?.stop();
});

function voucher(reference: string) {
  const raw = JSON.parse(readFileSync(join(ROOT, "samples", "factura-b-dni.json"), "utf8"));
  Object.assign(raw.comprobante, { external_reference: reference, fecha: TODAY, vencimiento: TODAY });
  return raw;
}

describe("journal --reconcile asks the service about every open entry", () => {
  it("a queued voucher deleted at the service is told and sent anew; a lost one never stored is held, then sent once", async () => {
    const { cwd, env } = freshUser("facturar-reconcile-");
    const all = {
      ...sandboxEnv(sbx, env),
      FACTURAR_BASE_URL: relay.baseUrl,
      FACTURAR_RETRY_BACKOFF: "0.01",
      FACTURAR_SETTLE_WINDOW: "0.01",
    };
    const run = (args: string[], more: Record<string, string> = {}) => runCli(args, { cwd, env: { ...all, ...more } });
    writeFileSync(join(cwd, "queued.json"), JSON.stringify(voucher("REC-QUEUED")));
    writeFileSync(join(cwd, "lost.json"), JSON.stringify(voucher("REC-LOST")));
    const held = (reference: string) =>
      sbx.call("facturacion/consulta_avanzada", {
        busqueda_tipo: "EXT_REF",
        comprobante: { external_reference: reference },
      });

    // Asked before sending, the service lacks both. Then the queued voucher reaches it and its
    // answer is lost, and so is every lookup after it.
    let sent = false;
    rule = (method, _body, req, _res, forward) => {
      if (method === "facturacion/nuevo_encola") {
        sent = true;
        void forward(false);
      } else if (sent && method === "facturacion/consulta_avanzada") req.socket.destroy();
      else void forward();
    };
    const queued = await run(["--json", "issue-queued", "queued.json"]);
    expect(queued.code, queued.stderr).toBe(8);
    // The instant one never reaches it.
    sent = false;
    rule = (method, _body, req, _res, forward) => {
      if (method === "facturacion/nuevo") {
        sent = true;
        req.socket.destroy();
      } else if (sent && method === "facturacion/consulta_avanzada") req.socket.destroy();
      else void forward();
    };
    const lost = await run(["--json", "issue", "--no-pdf", "lost.json"]);
    expect(lost.code, lost.stderr).toBe(8);
    expect(journalStates(env.XDG_STATE_HOME)).toEqual(
      new Map([
        ["REC-QUEUED", "unknown"],
        ["REC-LOST", "unknown"],
      ]),
    );

    // The service answers again. Sent moments ago: the lost one may still be being stored.
    rule = (_m, _b, _req, _res, forward) => void forward();
    const early = await run(["--json", "journal", "--reconcile"], { FACTURAR_SETTLE_WINDOW: "600" });
    expect(early.stderr).toMatch(/REC-LOST: sent \d+ s ago and not at the service yet; it may still be storing it/);
    // Unknown outcomes first, and the exit code says one is left.
    expect(ndjson(early.stdout).map((e) => [e.external_reference, e.status])).toEqual([
      ["REC-LOST", "unknown"],
      ["REC-QUEUED", "queued"],
    ]);
    expect(early.code, early.stderr).toBe(8);

    // Somebody deletes the queued voucher at the service (its web panel, say).
    expect((await sbx.call("facturacion/eliminar_encolado", { external_reference: "REC-QUEUED" })).body.error).toBe(
      "N",
    );
    const settled = await run(["--json", "journal", "--reconcile"]);
    expect(settled.stderr).toContain("REC-QUEUED: no longer in the service's queue; the next issue run will send it");
    expect(settled.stderr).toContain("REC-LOST: the service has no voucher under it; the next issue run will send it");
    expect(ndjson(settled.stdout).map((e) => [e.external_reference, e.status])).toEqual([
      ["REC-LOST", "held"],
      ["REC-QUEUED", "deleted"],
    ]);
    expect(settled.code, settled.stderr).toBe(0);
    // Asked again, nothing changes: a held or deleted entry is not the service's to settle.
    const again = await run(["--json", "journal", "--reconcile"]);
    expect(again.stderr).not.toContain("REC-");
    expect(ndjson(again.stdout).map((e) => [e.external_reference, e.status])).toEqual([
      ["REC-LOST", "held"],
      ["REC-QUEUED", "deleted"],
    ]);

    // The next runs send each once.
    const issued = await run(["--json", "issue", "--no-pdf", "lost.json"]);
    expect(issued.code, issued.stderr).toBe(0);
    expect(ndjson(issued.stdout)[0]).toMatchObject({ status: "issued" });
    const requeued = await run(["--json", "issue-queued", "queued.json"]);
    expect(requeued.code, requeued.stderr).toBe(0);
    expect(ndjson(requeued.stdout)[0]).toMatchObject({ status: "queued" });
    expect((await held("REC-LOST")).body.comprobantes).toHaveLength(1);
    expect((await held("REC-QUEUED")).body.comprobantes).toHaveLength(1);
  }, 60_000);
});

describe("issue-queued --wait on a queue that does not move", () => {
  it("gives up after --timeout: told still queued with a warning, exit 7, the journal keeps it queued, nothing sent twice", async () => {
    const { cwd, env } = freshUser("facturar-wait-");
    // Its own point of sale: a voucher left queued blocks instant issuing at its point of sale,
    // which the other test of this file does.
    const pv = sbx.pointsOfSale[1] as NonNullable<(typeof sbx.pointsOfSale)[number]>;
    const all = { ...sandboxEnv(sbx, env, pv), FACTURAR_RETRY_BACKOFF: "0.01" };
    writeFileSync(join(cwd, "slow.json"), JSON.stringify(voucher("WAIT-SLOW")));
    // Gave up on its --timeout (the warning says after how long), not on the test's own.
    const r = await runCli(["--json", "issue-queued", "--wait", "--timeout", "1", "--no-pdf", "slow.json"], {
      cwd,
      env: all,
    });
    const [result] = ndjson(r.stdout);
    expect(result).toMatchObject({ ok: false, status: "queued", external_reference: "WAIT-SLOW" });
    expect(result.warnings.join(" ")).toContain("still queued after 1 s");
    // Not what --wait was asked for (issued, PDF saved): partly done.
    expect(r.code, r.stderr).toBe(7);
    expect(journalStates(env.XDG_STATE_HOME).get("WAIT-SLOW")).toBe("queued");
    // --quiet still tells it: it is not done.
    const quiet = await runCli(["--quiet", "issue-queued", "--wait", "--timeout", "1", "--no-pdf", "slow.json"], {
      cwd,
      env: all,
    });
    expect(quiet.code).toBe(7);
    expect(quiet.stdout + quiet.stderr).toMatch(/WAIT-SLOW/);
    expect(quiet.stdout + quiet.stderr).toMatch(/still queued after 1 s/);
    const again = await runCli(["--json", "issue-queued", "--no-pdf", "slow.json"], { cwd, env: all });
    expect(ndjson(again.stdout)[0]).toMatchObject({ status: "queued" });
    const held = await sbx.call(
      "facturacion/consulta_avanzada",
      { busqueda_tipo: "EXT_REF", comprobante: { external_reference: "WAIT-SLOW" } },
      pv,
    );
    expect(held.body.comprobantes).toHaveLength(1);
  }, 60_000);
});
