/**
 * What a hostile review of the streaming issue, the journal index and the lost-batch settlement
 * found, each reduced to a case. The CLI runs in-process (src/cli.ts `run`) against a small fake
 * service on loopback, as test/e2e/fuzz-servers.test.ts does.
 */
import { writeFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runHere } from "../cli-here.js";
import { baseVoucher, freshUser, journalStates, ndjson, runCli } from "../helpers.js";
import { type Loopback, serveLoopback } from "../loopback.js";

const USERTOKEN = "ut-review-0001";
const APITOKEN = "at-review-0001";
const APIKEY = "4242";
const PV = 679;

function json(res: ServerResponse, body: unknown, status = 200): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

/**
 * A service that loses every `lotes` call (connection dropped before anything is done), holds
 * nothing, and is under maintenance for every `nuevo`.
 */
class LostBatchThenMaintenance {
  private server?: Loopback;
  baseUrl = "";
  readonly calls: string[] = [];

  async start(): Promise<void> {
    this.server = await serveLoopback((req, res, text) => this.handle(req, res, text));
    this.baseUrl = this.server.baseUrl;
  }

  close(): void {
    this.server?.close();
  }

  private handle(req: IncomingMessage, res: ServerResponse, _text: string) {
    const method = (req.url ?? "").split("?")[0]?.replace(/^\/app\/api\/v2\//, "") ?? "";
    this.calls.push(method);
    switch (method) {
      case "facturacion/lotes":
        req.socket.destroy();
        return;
      case "facturacion/consulta_avanzada":
        return json(res, { rta: "OK", error: "N", total: 0, errores: [], comprobantes: [] });
      case "facturacion/nuevo":
        return json(res, {
          error: "S",
          mantenimiento: 1,
          mantenimiento_hasta: "23/11/2026 23:00",
          errores: ["Estaremos realizando tareas de mantenimiento"],
        });
      case "facturacion/topecf":
        return json(res, { error: "N", errores: [], monto: 10_000_000 });
      default:
        return json(res, { error: "S", errores: [`El metodo ${method} no existe.`] });
    }
  }
}

describe("review findings", () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    for (const c of cleanups.splice(0)) c();
  });

  // A `lotes` answer is lost; settling its vouchers one by one, the first (not held by the
  // service) is sent alone and meets maintenance. The others went in the lost batch: they were
  // told "held: not sent" while the journal kept them `sending`. Now unknown, in both.
  it("a stop while a lost batch is settled: the report and the journal agree on the rest of the batch", async () => {
    const service = new LostBatchThenMaintenance();
    await service.start();
    cleanups.push(() => service.close());
    const u = freshUser("facturar-review-");
    const vouchers = [1, 2, 3].map((n) => {
      const v = baseVoucher();
      v.comprobante.external_reference = `R-${n}`;
      return v;
    });
    const file = join(u.home, "lote.json");
    writeFileSync(file, JSON.stringify(vouchers));
    const env = {
      PATH: process.env.PATH,
      ...u.env,
      FACTURAR_BASE_URL: service.baseUrl,
      FACTURAR_PUNTO_VENTA: String(PV),
      FACTURAR_USERTOKEN: USERTOKEN,
      FACTURAR_APIKEY: APIKEY,
      FACTURAR_APITOKEN: APITOKEN,
      FACTURAR_SETTLE_WINDOW: "0.01",
      FACTURAR_RETRY_BACKOFF: "0.001",
      FACTURAR_READ_TIMEOUT: "5",
      FACTURAR_ISSUE_TIMEOUT: "5",
    };
    const r = await runHere(["--json", "issue", "--rate", "0", "--no-pdf", "--batch-size", "3", file], env);
    // Unknown outcomes come first (summaryOutcome): the stop is told on stderr.
    expect(r.code, r.stderr).toBe(8);
    expect(r.stderr).toMatch(/stopped: .*mantenimiento/);
    const told = new Map(
      r.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l))
        .map((x) => [x.external_reference as string, x.status as string]),
    );
    const journal = journalStates(u.env.XDG_STATE_HOME);
    const expected = { "R-1": "held", "R-2": "unknown", "R-3": "unknown" };
    for (const [ref, state] of Object.entries(expected))
      expect({ ref, told: told.get(ref), journal: journal.get(ref) }).toEqual({ ref, told: state, journal: state });
  });

  // Repeats of a voucher in the input were found by the result's reference, which under
  // --allow-duplicate is another (AD-1-R2): the second copy never got a result line.
  it("--allow-duplicate with the same voucher twice in the input: every voucher gets a result", async () => {
    const u = freshUser("facturar-review-");
    const v = baseVoucher();
    v.comprobante.external_reference = "AD-1";
    writeFileSync(join(u.cwd, "twice.json"), JSON.stringify([v, v]));
    const first = await runCli(["--json", "issue", "--no-pdf", "twice.json"], { env: u.env, cwd: u.cwd });
    expect(first.code, first.stderr).toBe(0);
    expect(ndjson(first.stdout)).toHaveLength(2);
    const again = await runCli(["--json", "issue", "--no-pdf", "--allow-duplicate", "twice.json"], {
      env: u.env,
      cwd: u.cwd,
    });
    expect(again.code, again.stderr).toBe(0);
    expect(ndjson(again.stdout).map((x) => x.source)).toEqual(["twice.json[0]", "twice.json[1]"]);
  });
});
