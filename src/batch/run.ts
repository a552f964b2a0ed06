/**
 * `issue` and `issue-queued` end to end: read and validate every voucher first (plan.ts; nothing
 * is sent if any is invalid), then connect, check the plan against the service's live figures
 * (checks.ts), take the journal, and issue lane by lane (lanes.ts), several lanes at once, each
 * voucher loaded as its lane reaches it.
 */

import { resolve } from "node:path";
import type { Connect } from "../api/connection.js";
import { stateDir } from "../config/paths.js";
import { loadProfile, type Profile, type ProfileRequest } from "../config/profile.js";
import { type FacturarError, UsageError } from "../errors.js";
import { joined, msg, type Text } from "../i18n/message.js";
import { conflicts, offRate, outOfLaneOrder, overCeiling, type Refusal } from "./checks.js";
import { Issuer, type VoucherHeading } from "./issue.js";
import { accountId, Journal, testJournalLimit } from "./journal.js";
import { lanes, runLanes } from "./lanes.js";
import { INSTANT_BATCH_MAX, QUEUED_BATCH_MAX } from "./limits.js";
import {
  dropFromPlan,
  fillPointOfSale,
  holdRefused,
  type Planned,
  type ReadPlan,
  type ReadRequest,
  readPlan,
  withNotes,
} from "./plan.js";
import type { Problem, VoucherResult } from "./result.js";
import { EnvelopeStore } from "./spill.js";

export interface IssueRequest extends ReadRequest {
  allowDuplicate: boolean;
  savePdf: boolean;
  outDir?: string;
  wait: boolean;
  waitTimeoutMs: number;
  /** Queued mode: put vouchers that failed in the service's queue back in it (`reenviar_encolado`). */
  requeue?: boolean;
  /**
   * Vouchers of a lane per call: `lotes` (at most 20, one type) or `lotes_encola` (at most 100);
   * by default the most the method takes (a lane of one still goes through `nuevo`); 1 sends
   * one by one.
   */
  batchSize?: number;
  /** Lanes (point of sale and type) issued in parallel; inside a lane, one call at a time, in order. */
  concurrency?: number;
  /** Least ms between request starts; default: the profile's, else the service's (see connect). */
  rateMs?: number;
  /** Set by a signal: finish what is in flight, send nothing new. */
  stop?: { requested: boolean };
  /** Told how many vouchers are about to be sent (for a progress bar). */
  onStart?: (total: number) => void;
  profile: ProfileRequest;
  /** From the profile to the service (session/connect.ts: a URL, or the embedded sandbox). */
  connect: Connect;
  cwd: string;
  log?: (line: Text) => void;
  /** Asked before sending to a production profile; false stops without sending. */
  confirm?: (profile: Profile, vouchers: VoucherHeading[]) => Promise<boolean>;
}

export interface IssueSummary {
  invalid: number;
  issued: number;
  queued: number;
  skipped: number;
  rejected: number;
  unknown: number;
  /** Not sent: held back after a numbering or date error in their lane, or interrupted. */
  held: number;
  /** Not sent: the reference was used before for a voucher with other content. */
  conflicts: number;
  /** Issued, but a PDF or ticket could not be saved (the next run fetches it). */
  documentsMissing: number;
  cancelled: boolean;
  interrupted: boolean;
  /** The service refused to go on (access, maintenance, unreachable): nothing more was sent. */
  stoppedBy?: FacturarError;
  /** Queued, but --wait could not ask the service how they ended: why. */
  unfollowed?: FacturarError;
  /** Invalid vouchers were reported and the valid ones sent (--skip-invalid). */
  skippedInvalid?: boolean;
  /** Valid vouchers not sent because others are invalid (all or nothing): each told `held`. */
  validNotSent?: number;
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
    held: 0,
    conflicts: 0,
    documentsMissing: 0,
    cancelled: false,
    interrupted: false,
  };
  const store = new EnvelopeStore();
  // Kept apart from the envelopes, and spilled as they are: many CSV vouchers have one ("total filled in").
  const notes = new EnvelopeStore<Problem[]>();
  try {
    const plan = await readPlan(req, store, notes, emit);
    summary.invalid = plan.invalid;
    // Nothing valid to send: invalid (exit 3), --skip-invalid or not.
    if (plan.invalid > 0 && (!req.skipInvalid || plan.planned.length === 0)) {
      summary.validNotSent = await holdRefused(plan, new Set(), plan.invalid, emit);
      return summary;
    }
    if (plan.invalid > 0) summary.skippedInvalid = true;
    return await sendPlan(req, plan, store, summary, emit);
  } finally {
    await store.close();
    await notes.close();
  }
}

async function sendPlan(
  req: IssueRequest,
  plan: ReadPlan,
  store: EnvelopeStore,
  summary: IssueSummary,
  emit: (result: VoucherResult) => Promise<void>,
): Promise<IssueSummary> {
  const profile = await loadProfile(req.profile);
  for (const w of profile.warnings) req.warn(w);
  const connection = await req.connect(profile, {
    env: req.env,
    notice: req.warn,
    ...(req.log ? { log: req.log } : {}),
    ...(req.rateMs !== undefined ? { client: { minIntervalMs: req.rateMs } } : {}),
  });
  try {
    const puntoVenta = connection.puntoVenta ?? profile.puntoVenta;
    const load = async (v: Planned) => Issuer.prepare(await store.get(v.slot), v.source, puntoVenta, req.mode);
    fillPointOfSale(plan, puntoVenta);
    // The service refuses a voucher without one (TFC-8002): say so before anything leaves.
    const noPoint = plan.planned.find((v) => v.punto_venta === undefined);
    if (noPoint)
      throw new UsageError(
        msg("{source}: no point of sale: the voucher names none and profile {profile} has no punto_venta", {
          source: noPoint.source,
          profile: profile.name,
        }),
        msg("set punto_venta in the profile (or FACTURAR_PUNTO_VENTA), or comprobante.punto_venta in the voucher"),
      );
    /**
     * The one way a voucher is refused before sending: each told with its own warnings and
     * counted; true when the run stops there (without --skip-invalid: every other voucher is told
     * held, not sent), else they leave the plan.
     */
    const refuse = async (refused: Refusal[]): Promise<boolean> => {
      if (refused.length === 0) return false;
      for (const r of refused) await emit(await withNotes(plan, r.result, r.voucher));
      summary.invalid += refused.length;
      if (!req.skipInvalid) {
        summary.validNotSent = await holdRefused(plan, new Set(refused.map((r) => r.voucher)), summary.invalid, emit);
        return true;
      }
      summary.skippedInvalid = true;
      dropFromPlan(plan, new Set(refused.map((r) => r.voucher)));
      return false;
    };
    if (await refuse(await conflicts(plan, load))) return summary;
    // Checked against the service's figures: the live ceiling, then the authority's rate.
    const at = { stateDir: stateDir(req.env), account: accountId(connection.account), validate: req.validate };
    if (await refuse(await overCeiling(plan, connection.service, at, req.warn))) return summary;
    if (req.validate && (await refuse(await offRate(plan, connection.service, req.env, req.warn)))) return summary;
    const fullAtBytes = testJournalLimit(req.env);
    const journal = await Journal.open(stateDir(req.env), connection.account, {
      lock: true,
      profile: profile.name,
      ...(fullAtBytes !== undefined ? { fullAtBytes } : {}),
    });
    try {
      // Checked against the journal: a lane's dates run forward.
      if (req.validate && (await refuse(outOfLaneOrder(plan, journal)))) return summary;
      if (req.confirm && !(await req.confirm(profile, plan.planned))) {
        summary.cancelled = true;
        return summary;
      }
      const issuer = new Issuer(
        connection.service,
        journal,
        {
          mode: req.mode,
          allowDuplicate: req.allowDuplicate,
          savePdf: req.savePdf,
          deferDocuments: true,
          // Absolute: the journal keeps it for a later run, which may start elsewhere.
          outDir: resolve(req.cwd, req.outDir ?? profile.pdfDir ?? "comprobantes"),
          wait: req.wait,
          waitTimeoutMs: req.waitTimeoutMs,
          settleWindowMs: connection.settleWindowMs,
          requeue: req.requeue ?? false,
        },
        req.warn,
      );
      /** A result; `voucher` as read; a first's repeats in the input are told next. */
      const count = async (result: VoucherResult, voucher: Planned, repeat = false) => {
        await withNotes(plan, result, voucher);
        if (result.status === "issued") summary.issued++;
        else if (result.status === "queued") summary.queued++;
        else if (result.status === "skipped-duplicate") summary.skipped++;
        else if (result.status === "rejected") summary.rejected++;
        else if (result.status === "unknown") summary.unknown++;
        else if (result.status === "held") summary.held++;
        else if (result.status === "conflict") summary.conflicts++;
        if (result.documents_missing) summary.documentsMissing++;
        await emit(result);
        // The same voucher again in this run's input: told once the first has settled. By the
        // reference as read: under --allow-duplicate the result's is another (R-R2).
        if (!repeat)
          for (const again of plan.repeats.get(voucher.reference) ?? [])
            await count(repeatOf(result, again), again, true);
      };
      let repeated = 0;
      for (const list of plan.repeats.values()) repeated += list.length;
      req.onStart?.(plan.planned.length + repeated);
      await issuer.survey(plan.planned);
      const ended = await runLanes(lanes(plan.planned, req.mode), {
        concurrency: req.concurrency ?? 4,
        batchSize: req.batchSize ?? (req.mode === "queued" ? QUEUED_BATCH_MAX : INSTANT_BATCH_MAX),
        stopped: () => req.stop?.requested ?? false,
        halted: () => issuer.halted(),
        begin: async (v) => issuer.begin(await load(v)),
        finish: (b) => issuer.finish(b),
        abandon: (b, why) => issuer.abandon(b, why),
        issueMany: async (vs) => issuer.issueBatch(await Promise.all(vs.map(load))),
        takeDownload: (ref) => issuer.takeDownload(ref),
        emit: count,
      });
      summary.interrupted = req.stop?.requested ?? false;
      // What an earlier run issued but could not save the documents of: fetched now.
      if (req.savePdf && !summary.interrupted && !ended.stoppedBy)
        for (const r of await issuer.fetchMissing(new Set(plan.planned.map((v) => v.reference))))
          req.warn(
            r.pdf
              ? msg("{ref}: the documents an earlier run could not save are saved now: {pdf}", {
                  ref: r.external_reference,
                  pdf: r.pdf,
                })
              : msg("{ref}: its documents are still missing: {why}", {
                  ref: r.external_reference,
                  why: joined(r.warnings ?? [], "; "),
                }),
          );
      if (ended.stoppedBy) summary.stoppedBy = ended.stoppedBy;
      const unfollowed = issuer.unfollowed();
      if (unfollowed) summary.unfollowed = unfollowed;
      if (issuer.halted()) {
        const left = await issuer.flushUnwritten();
        if (left > 0)
          req.warn(msg("{n} outcomes are not in the journal; the next run asks the service about them", { n: left }));
      }
    } finally {
      await journal.close();
    }
  } finally {
    await connection.close();
  }
  return summary;
}

/** The outcome of a voucher's repeat in the same input: the first's, sent once. */
function repeatOf(result: VoucherResult, repeat: VoucherHeading): VoucherResult {
  const told: VoucherResult = {
    ...result,
    source: repeat.source,
    status: result.status === "issued" ? "skipped-duplicate" : result.status,
    warnings: [...(result.warnings ?? [])],
  };
  delete told.documents_missing;
  told.hint = msg("the same voucher as {source} (same external_reference): sent once", { source: result.source });
  return told;
}
