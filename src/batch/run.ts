/**
 * `issue` and `issue-queued` end to end: read and validate every voucher first (nothing is sent
 * if any is invalid), then connect, take the journal, and issue one voucher at a time.
 */
import { connect } from "../api/connect.js";
import { stateDir } from "../config/paths.js";
import { loadProfile, type Profile, type ProfileRequest } from "../config/profile.js";
import { checkSource, type VoucherCheck } from "../input/check.js";
import { readVouchers } from "../input/read.js";
import type { ReadOptions } from "../input/source.js";
import { DEFAULT_FINAL_CONSUMER_CEILING } from "../voucher/codes.js";
import { dayNumber } from "../voucher/dates.js";
import { Dec } from "../voucher/decimal.js";
import type { Envelope } from "../voucher/schema.js";
import { ruleOptions } from "../voucher/validate.js";
import { currentCeiling } from "./ceiling.js";
import { Issuer, type PreparedVoucher, type VoucherResult } from "./issue.js";
import { Journal } from "./journal.js";

export interface IssueRequest {
  files: string[];
  read: ReadOptions;
  validate: boolean;
  mode: "instant" | "queued";
  allowDuplicate: boolean;
  savePdf: boolean;
  outDir?: string;
  wait: boolean;
  waitTimeoutMs: number;
  /** Send in groups through `lotes` (2..20, one type) or `lotes_encola` (2..100). */
  batchSize?: number;
  profile: ProfileRequest;
  env: NodeJS.ProcessEnv;
  cwd: string;
  log?: (line: string) => void;
  warn: (line: string) => void;
  /** Asked before sending to a production profile; false stops without sending. */
  confirm?: (profile: Profile, vouchers: PreparedVoucher[]) => Promise<boolean>;
}

export interface IssueSummary {
  invalid: number;
  issued: number;
  queued: number;
  skipped: number;
  rejected: number;
  unknown: number;
  cancelled: boolean;
}

export function invalidResult(check: VoucherCheck): VoucherResult {
  const raw = check.source.raw as { comprobante?: { tipo?: unknown; external_reference?: unknown } };
  return {
    ok: false,
    status: "invalid",
    source: check.source.label,
    external_reference: String(raw.comprobante?.external_reference ?? ""),
    comprobante_tipo: typeof raw.comprobante?.tipo === "string" ? raw.comprobante.tipo : null,
    punto_venta: null,
    numero: null,
    comprobante_nro: null,
    cae: null,
    vencimiento_cae: null,
    vencimiento_pago: null,
    total: null,
    qr: null,
    pdf: null,
    ticket: null,
    errors: check.errors.map((e) => `${e.place}: ${e.message} [${e.code}]`),
    error_details: check.errors.map((e) => ({ code: e.code, text: e.message })),
  };
}

export async function issueFiles(
  req: IssueRequest,
  emit: (result: VoucherResult) => Promise<void>,
): Promise<IssueSummary> {
  const summary: IssueSummary = {
    invalid: 0,
    issued: 0,
    queued: 0,
    skipped: 0,
    rejected: 0,
    unknown: 0,
    cancelled: false,
  };
  const rules = ruleOptions();
  const checks: VoucherCheck[] = [];
  for (const file of req.files) {
    for await (const source of readVouchers(file, req.read)) checks.push(checkSource(source, rules));
  }
  const bad = checks.filter((c) => !c.result.envelope || (req.validate && !c.ok));
  if (bad.length > 0) {
    // Nothing is sent while any voucher is invalid: a batch goes whole or not at all.
    for (const check of bad) await emit(invalidResult(check));
    summary.invalid = bad.length;
    return summary;
  }
  for (const check of checks) for (const w of check.warnings) req.warn(`${w.place}: ${w.message} [${w.code}]`);

  const profile = await loadProfile(req.profile);
  for (const w of profile.warnings) req.warn(w);
  const connection = await connect(profile, { env: req.env, ...(req.log ? { log: req.log } : {}) });
  try {
    const prepared = checks.map((c) =>
      Issuer.prepare(
        c.result.envelope as Envelope,
        c.source.label,
        connection.puntoVenta ?? profile.puntoVenta,
        req.mode,
      ),
    );
    // Unidentified consumers are checked again against the service's current ceiling.
    if (prepared.some((p) => p.envelope.cliente?.documento_tipo === "OTRO")) {
      const ceiling = await currentCeiling(connection.client, stateDir(req.env), profile.name, req.warn);
      if (!ceiling.eq(Dec.parse(DEFAULT_FINAL_CONSUMER_CEILING))) {
        const again = checks.map((c) => checkSource(c.source, { ...rules, ceiling }));
        const refused = again.filter((c) => req.validate && !c.ok);
        if (refused.length > 0) {
          for (const check of refused) await emit(invalidResult(check));
          summary.invalid = refused.length;
          return summary;
        }
      }
    }
    if (req.confirm && !(await req.confirm(profile, prepared))) {
      summary.cancelled = true;
      return summary;
    }
    const journal = await Journal.open(stateDir(req.env), profile.name);
    try {
      const issuer = new Issuer(
        connection.client,
        journal,
        {
          mode: req.mode,
          allowDuplicate: req.allowDuplicate,
          savePdf: req.savePdf,
          outDir: req.outDir ?? profile.pdfDir ?? `${req.cwd}/comprobantes`,
          wait: req.wait,
          waitTimeoutMs: req.waitTimeoutMs,
        },
        req.warn,
      );
      const count = async (result: VoucherResult) => {
        if (result.status === "issued") summary.issued++;
        else if (result.status === "queued") summary.queued++;
        else if (result.status === "skipped-duplicate") summary.skipped++;
        else if (result.status === "rejected") summary.rejected++;
        else if (result.status === "unknown") summary.unknown++;
        await emit(result);
      };
      if (req.batchSize && req.batchSize > 1) {
        for (const group of batches(prepared, req.batchSize, req.mode))
          for (const result of await issuer.issueBatch(group)) await count(result);
      } else {
        for (const voucher of prepared) await count(await issuer.issue(voucher));
      }
    } finally {
      await journal.close();
    }
  } finally {
    await connection.close();
  }
  return summary;
}

/**
 * Groups for `lotes`: consecutive vouchers of one type, in date order within the group (the
 * service wants them ordered by date, then number). `lotes_encola` takes any mix.
 */
export function batches(vouchers: PreparedVoucher[], size: number, mode: "instant" | "queued"): PreparedVoucher[][] {
  const groups: PreparedVoucher[][] = [];
  let current: PreparedVoucher[] = [];
  for (const v of vouchers) {
    const sameType =
      current.length === 0 ||
      mode === "queued" ||
      current[0]?.envelope.comprobante.tipo === v.envelope.comprobante.tipo;
    if (current.length >= size || !sameType) {
      groups.push(current);
      current = [];
    }
    current.push(v);
  }
  if (current.length > 0) groups.push(current);
  if (mode === "queued") return groups;
  return groups.map((g) =>
    [...g].sort((a, b) => dayNumber(a.envelope.comprobante.fecha) - dayNumber(b.envelope.comprobante.fecha)),
  );
}
