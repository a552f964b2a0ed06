/**
 * The exactly-once core driven in-process: the embedded service's own logic answers through the
 * client's transport (no HTTP), and a script can lose answers, delay storing, or "crash" the run
 * at any step. Tests built on this run in milliseconds, beside the real-process tests.
 */

import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiClient } from "../src/api/client.js";
import type { AccountKey } from "../src/api/connection.js";
import { type HttpOptions, type HttpResponse, TransportError } from "../src/api/http.js";
import { HttpService } from "../src/api/protocol.js";
import { Issuer, type IssueSettings, type PreparedVoucher } from "../src/batch/issue.js";
import { Journal } from "../src/batch/journal.js";
import { lanes, runLanes } from "../src/batch/lanes.js";
import type { VoucherResult } from "../src/batch/result.js";
import { english } from "../src/i18n/message.js";
import { type Faults, NO_FAULTS } from "../src/sandbox/faults.js";
import { SandboxService } from "../src/sandbox/service.js";
import { Store } from "../src/sandbox/store.js";
import { clockFrom, dayNumber } from "../src/voucher/dates.js";
import { Dec } from "../src/voucher/decimal.js";
import type { Envelope } from "../src/voucher/schema.js";
import { validateEnvelope } from "../src/voucher/validate.js";
import { asRead, baseVoucher, type Raw, TODAY } from "./helpers.js";

/** Thrown by a script to stop the run where a crash would: nothing after it happens. */
export class Crash extends Error {}

export type Step = (
  method: string,
  body: Record<string, unknown>,
  call: () => Promise<HttpResponse>,
) => Promise<HttpResponse>;

export interface World {
  dir: string;
  store: Store;
  sandbox: SandboxService;
  account: AccountKey;
  /** Replaced by tests to lose answers, delay storing or crash; default: answer. */
  step: Step;
  /** Calls by method name. */
  calls: Map<string, number>;
  service: HttpService;
  /** How many vouchers the service holds under a reference (deleted ones not counted). */
  held(reference: string): number;
  close(): Promise<void>;
}

/** A service on its own in a fresh folder; `faults` as `--fault` sets them (authority-checks: like production). */
export async function world(faults: Partial<Faults> = {}): Promise<World> {
  const dir = mkdtempSync(join(tmpdir(), "facturar-core-"));
  const store = await Store.open(join(dir, "service"), { now: clockFrom(process.env) });
  const sandbox = new SandboxService(store, {
    faults: { ...NO_FAULTS, ...faults },
    baseUrl: () => "http://sandbox.invalid/app/api/v2",
    now: clockFrom(process.env),
    random: Math.random,
    ceiling: 10_000_000,
  });
  const pv = store.account.points_of_sale[0] as (typeof store.account.points_of_sale)[number];
  const calls = new Map<string, number>();
  const w: World = {
    dir,
    store,
    sandbox,
    account: { service: `sandbox:${dir}`, punto_venta: pv.punto_venta, usertoken: pv.usertoken },
    step: (_m, _b, call) => call(),
    calls,
    service: undefined as unknown as HttpService,
    held: (reference) => store.findByReference(pv.punto_venta, reference).length,
    close: () => store.close(),
  };
  const transport = async (url: URL, opts: HttpOptions): Promise<HttpResponse> => {
    const method = url.pathname.replace(/^\/app\/api\/v2\//, "");
    calls.set(method, (calls.get(method) ?? 0) + 1);
    const body = JSON.parse(opts.body ?? "{}") as Record<string, unknown>;
    const call = async (): Promise<HttpResponse> => {
      const auth = sandbox.authenticate(body);
      const reply = "status" in auth ? auth : await sandbox.call(method, body, auth);
      return { status: reply.status, headers: {}, body: Buffer.from(JSON.stringify(reply.body)) };
    };
    return w.step(method, body, call);
  };
  const client = new ApiClient({
    baseUrl: "http://sandbox.invalid/app/api/v2",
    credentials: pv,
    userAgent: "test",
    retries: 2,
    backoffMs: 1,
    transport,
  });
  w.service = new HttpService(client);
  return w;
}

/** A lost answer: the request reached the service, which did (or did not) do the work. */
export function lost(): TransportError {
  return new TransportError("no complete answer within 1 s", "timeout", true);
}

export function voucher(ref: string, changes: (raw: Raw) => void = () => {}): PreparedVoucher {
  const raw = baseVoucher();
  raw.comprobante.external_reference = ref;
  changes(raw);
  const checked = validateEnvelope(raw, { today: dayNumber(TODAY), ceiling: Dec.parse("10000000") });
  if (!checked.envelope) throw new Error(`test voucher ${ref} does not parse`);
  return Issuer.prepare(checked.envelope as Envelope, `${ref}.json`, 679, "instant");
}

export const SETTINGS: IssueSettings = {
  mode: "instant",
  allowDuplicate: false,
  savePdf: false,
  outDir: "/nonexistent",
  wait: false,
  waitTimeoutMs: 1000,
  pollMs: 5,
  settleWindowMs: 50,
  sleep: (ms) => new Promise((r) => setTimeout(r, Math.min(ms, 5))),
};

/** One run: the journal opened, every voucher through its lane, the journal closed (unless it crashed). */
export async function run(
  w: World,
  vouchers: PreparedVoucher[],
  settings: Partial<IssueSettings> = {},
  hooks: { journal?: (j: Journal) => Journal; batchSize?: number } = {},
): Promise<{ results: VoucherResult[]; crashed: boolean; warnings: string[]; stoppedBy?: Error }> {
  const opened = await Journal.open(join(w.dir, "state"), w.account, { lock: false, profile: "test" });
  const journal = hooks.journal ? hooks.journal(opened) : opened;
  const warnings: string[] = [];
  const issuer = new Issuer(w.service, journal, { ...SETTINGS, ...settings }, (line) => warnings.push(english(line)));
  const results: VoucherResult[] = [];
  let crashed = false;
  let stoppedBy: Error | undefined;
  try {
    await issuer.survey(vouchers);
    ({ stoppedBy } = await runLanes(lanes(vouchers, settings.mode ?? "instant"), {
      concurrency: 2,
      batchSize: hooks.batchSize ?? 1,
      stopped: () => false,
      begin: (v) => issuer.begin(v),
      finish: (b) => issuer.finish(b),
      abandon: (b, why) => issuer.abandon(b, why),
      issueMany: (vs) => issuer.issueBatch(vs),
      emit: async (r) => {
        results.push(asRead(r));
      },
    }));
  } catch (error) {
    if (!(error instanceof Crash)) throw error;
    crashed = true;
  }
  await opened.close();
  return { results, crashed, warnings, ...(stoppedBy ? { stoppedBy } : {}) };
}

/** A journal that crashes the run at its `at`-th write, before or after the write lands. */
export function crashingJournal(at: number, when: "before" | "after"): (j: Journal) => Journal {
  return (journal) => {
    let writes = 0;
    const recordAll = journal.recordAll.bind(journal);
    return new Proxy(journal, {
      get(target, key, receiver) {
        if (key === "recordAll")
          return async (entries: Parameters<Journal["recordAll"]>[0]) => {
            const n = ++writes;
            if (n === at && when === "before") throw new Crash(`crash before write ${at}`);
            const done = await recordAll(entries);
            if (n === at && when === "after") throw new Crash(`crash after write ${at}`);
            return done;
          };
        if (key === "record")
          return async (entry: Parameters<Journal["record"]>[0]) =>
            ((await (receiver as Journal).recordAll([entry])) as unknown[])[0];
        const value = Reflect.get(target, key, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  };
}
