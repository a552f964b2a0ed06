/**
 * `issue` and `issue-queued` end to end: read and validate every voucher first (nothing is sent
 * if any is invalid), keeping a heading of each in memory and its envelope in an EnvelopeStore;
 * then connect, take the journal, and issue lane by lane (point of sale and type, in order),
 * several lanes at once, each voucher loaded as its lane reaches it.
 */

import { resolve } from "node:path";
import type { Connect } from "../api/connection.js";
import { stateDir } from "../config/paths.js";
import { loadProfile, type Profile, type ProfileRequest } from "../config/profile.js";
import { type FacturarError, UsageError } from "../errors.js";
import { t } from "../i18n/index.js";
import { checkSource, type PlacedFinding, type VoucherCheck } from "../input/check.js";
import { readVouchers } from "../input/read.js";
import type { ReadOptions, SourceVoucher } from "../input/source.js";
import { voucherTypeInfo } from "../voucher/codes.js";
import { argentinaToday, clockFrom, dayNumber, formatDay } from "../voucher/dates.js";
import type { Dec } from "../voucher/decimal.js";
import { anonymousAmount, ceilingMessage, unidentifiedConsumer } from "../voucher/rules.js";
import { ruleOptions } from "../voucher/validate.js";
import { currentCeiling } from "./ceiling.js";
import { checkRates, type ForeignVoucher } from "./exchange.js";
import { type Begun, headingOf, Issuer, type PreparedVoucher, ServiceStop, type VoucherHeading } from "./issue.js";
import { accountId, Journal, testJournalLimit, withPointOfSale } from "./journal.js";
import { heldBehindWhy, type LaneBreak, laneBreak } from "./outcome.js";
import { blankResult, type Problem, type VoucherResult } from "./result.js";
import { EnvelopeStore } from "./spill.js";

/** The most vouchers `lotes` takes in one call (one type), and `lotes_encola` (reference §11). */
export const INSTANT_BATCH_MAX = 20;
export const QUEUED_BATCH_MAX = 100;

export interface IssueRequest {
  files: string[];
  /** Vouchers from memory (the guided issue), before the files. */
  sources?: SourceVoucher[];
  read: ReadOptions;
  validate: boolean;
  mode: "instant" | "queued";
  allowDuplicate: boolean;
  /** Issue the valid vouchers and report the invalid ones, instead of sending nothing. */
  skipInvalid?: boolean;
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
  env: NodeJS.ProcessEnv;
  cwd: string;
  log?: (line: string) => void;
  warn: (line: string) => void;
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
  /** Valid vouchers not sent because others are invalid (all or nothing). */
  validNotSent?: number;
}

function problem(f: PlacedFinding): Problem {
  return { code: f.code, field: f.field, place: f.place, message: f.message };
}

export function invalidResult(check: VoucherCheck): VoucherResult {
  const raw = check.source.raw as { comprobante?: { tipo?: unknown; external_reference?: unknown } };
  const result: VoucherResult = {
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
    total: check.result.envelope?.comprobante.total ?? null,
    qr: null,
    pdf: null,
    ticket: null,
    errors: check.errors.map((e) => `${e.place}: ${e.message} [${e.code}]`),
    error_details: check.errors.map((e) => ({ code: e.code, text: e.message, field: e.field, place: e.place })),
  };
  if (check.warnings.length > 0) result.warning_details = check.warnings.map(problem);
  return result;
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
      summary.validNotSent = plan.valid;
      return summary;
    }
    if (plan.invalid > 0) summary.skippedInvalid = true;
    return await sendPlan(req, plan, store, summary, emit);
  } finally {
    await store.close();
    await notes.close();
  }
}

/** A voucher as a run keeps it between reading and sending: its heading; its envelope waits in the store. */
interface Planned extends VoucherHeading {
  slot: number;
  /** Its reference is derived, and waits for the profile's point of sale (see derivedReference). */
  pointPending: boolean;
  /** Its warnings' slot in the plan's `notes`, or -1 for none. */
  notes: number;
}

/** What reading every input leaves: the vouchers to send, in input order, and how each reference was used. */
interface ReadPlan {
  planned: Planned[];
  /** The same voucher again under its reference: sent once, each repeat told the first's outcome. */
  repeats: Map<string, Planned[]>;
  /** One reference, two contents as written: a conflict, unless filling in the point of sale makes them one. */
  suspects: { first: Planned; other: Planned }[];
  /** Sales to unidentified consumers, in pesos: checked again against the service's live ceiling. */
  unidentified: { voucher: Planned; amount: Dec; place: string }[];
  /** Vouchers in a foreign currency: their cotizacion is checked against the authority's rate. */
  foreign: ForeignVoucher<Planned>[];
  invalid: number;
  /** Vouchers that passed their checks (sent only if none is invalid, or with --skip-invalid). */
  valid: number;
  /** The vouchers' warnings (Planned.notes), told in their results. */
  notes: EnvelopeStore<Problem[]>;
}

/**
 * Reads and validates every voucher before anything is sent. Only headings stay in memory; the
 * envelopes go to the store. An invalid voucher is told as soon as it is read; after one, the
 * rest are only checked, not kept.
 */
async function readPlan(
  req: IssueRequest,
  store: EnvelopeStore,
  notes: EnvelopeStore<Problem[]>,
  emit: (result: VoucherResult) => Promise<void>,
): Promise<ReadPlan> {
  const rules = { ...ruleOptions({ now: clockFrom(req.env)() }), scheduled: req.mode === "queued" };
  const plan: ReadPlan = {
    planned: [],
    repeats: new Map(),
    suspects: [],
    unidentified: [],
    foreign: [],
    invalid: 0,
    valid: 0,
    notes,
  };
  /** The first voucher under each reference. */
  const firstOf = new Map<string, Planned>();
  /**
   * What a first voucher says (see contentDigest), worked out only when its reference comes
   * again: hashing every voucher of a big run would cost more than reading it.
   */
  const firstDigests = new Map<Planned, string>();
  const digestOf = async (v: Planned): Promise<string> => {
    let digest = firstDigests.get(v);
    if (digest === undefined) {
      await store.seal();
      digest = Issuer.prepare(await store.get(v.slot), v.source, undefined, req.mode).digest;
      firstDigests.set(v, digest);
    }
    return digest;
  };
  // Types, dates and amounts repeat across a batch: one copy of each, not one per voucher.
  const copies = new Map<string, string>();
  const shared = (text: string): string => {
    const copy = copies.get(text);
    if (copy !== undefined) return copy;
    if (copies.size < 10_000) copies.set(text, text);
    return text;
  };
  const repeated = new Map<string, { file: string; code: string; field: string; more: number }>();
  const take = async (source: SourceVoucher) => {
    const checked = checkSource(source, rules);
    // A note's dates are today's by design: told nowhere as a default the file left out.
    const check = source.datedByCommand
      ? { ...checked, warnings: checked.warnings.filter((w) => w.code !== "date.default") }
      : checked;
    const envelope = check.result.envelope;
    if (!envelope || (req.validate && !check.ok)) {
      plan.invalid++;
      await emit(invalidResult(check));
      return;
    }
    for (const w of check.warnings) {
      // A batch repeats its warnings voucher after voucher: the first is told, the rest counted
      // (each voucher's own are in its result: --json, --report).
      const key = `${source.file}\u0000${w.code}\u0000${w.field.replace(/\[\d+\]/g, "[]")}`;
      const again = repeated.get(key);
      if (again === undefined) {
        repeated.set(key, { file: source.file, code: w.code, field: w.field, more: 0 });
        req.warn(`${w.place}: ${w.message} [${w.code}]`);
      } else again.more++;
    }
    plan.valid++;
    // Once one is invalid nothing is sent, unless the invalid ones are skipped: keep only the check.
    if (plan.invalid > 0 && !req.skipInvalid) return;
    const prepared = headingOf(envelope, source.label, undefined);
    // One literal, always the same fields in the same order: a run keeps hundreds of thousands.
    const voucher: Planned = {
      slot: await store.add(envelope),
      source: prepared.source,
      reference: prepared.reference,
      tipo: shared(prepared.tipo),
      punto_venta: prepared.punto_venta,
      fecha: shared(prepared.fecha),
      vencimiento: shared(prepared.vencimiento),
      total: prepared.total === undefined ? undefined : shared(prepared.total),
      operacion: prepared.operacion,
      datedToday: prepared.datedToday,
      pointPending: prepared.punto_venta === undefined && envelope.comprobante.external_reference === undefined,
      notes: check.warnings.length > 0 ? await notes.add(check.warnings.map(problem)) : -1,
    };
    const first = firstOf.get(voucher.reference);
    if (!first) {
      firstOf.set(voucher.reference, voucher);
      plan.planned.push(voucher);
    } else if ((await digestOf(first)) === Issuer.prepare(envelope, source.label, undefined, req.mode).digest)
      addRepeat(plan, voucher);
    else plan.suspects.push({ first, other: voucher });
    if (unidentifiedConsumer(envelope) && check.result.totals)
      plan.unidentified.push({
        voucher,
        amount: anonymousAmount(check.result.totals, envelope.comprobante.cotizacion ?? "1"),
        place: source.place(["cliente", "documento_tipo"]),
      });
    const { moneda, cotizacion } = envelope.comprobante;
    if (moneda !== "PES" && cotizacion !== undefined)
      plan.foreign.push({
        voucher,
        moneda: shared(moneda),
        cotizacion,
        fecha: voucher.fecha,
        place: source.place(["comprobante", "cotizacion"]),
      });
  };
  for (const source of req.sources ?? []) await take(source);
  for (const file of req.files) for await (const source of readVouchers(file, req.read)) await take(source);
  for (const { file, code, field, more } of repeated.values())
    if (more > 0)
      req.warn(
        t("{file}: the same warning [{code}] on {field} for {n} more vouchers (each result lists its own)", {
          file,
          code,
          field,
          n: more,
        }),
      );
  await store.seal();
  await notes.seal();
  return plan;
}

function addRepeat(plan: ReadPlan, voucher: Planned): void {
  const list = plan.repeats.get(voucher.reference) ?? [];
  list.push(voucher);
  plan.repeats.set(voucher.reference, list);
}

/**
 * The profile's point of sale for the vouchers that name none. A derived reference takes it too:
 * a voucher that left it out may now be the same voucher as one that named it, and is then a
 * repeat, sent once.
 */
function fillPointOfSale(plan: ReadPlan, puntoVenta: number | undefined): void {
  if (puntoVenta === undefined) return; // refused next, naming the voucher
  const completed = new Map<string, string>();
  for (const v of [...plan.planned, ...[...plan.repeats.values()].flat()]) {
    if (v.punto_venta !== undefined) continue;
    v.punto_venta = puntoVenta;
    if (!v.pointPending) continue;
    const stem = v.reference;
    v.reference = withPointOfSale(stem, puntoVenta);
    completed.set(stem, v.reference);
  }
  if (completed.size === 0) return;
  for (const [stem, reference] of completed) {
    const list = plan.repeats.get(stem);
    if (!list) continue;
    plan.repeats.delete(stem);
    plan.repeats.set(reference, [...(plan.repeats.get(reference) ?? []), ...list]);
  }
  const firsts = new Set<string>();
  plan.planned = plan.planned.filter((v) => {
    if (firsts.has(v.reference)) {
      addRepeat(plan, v);
      return false;
    }
    firsts.add(v.reference);
    return true;
  });
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
    /** A voucher's result with its own warnings (a repeat's are its own, not the first's). */
    const noted = async (result: VoucherResult, v: Planned): Promise<VoucherResult> => {
      if (v.notes >= 0) result.warning_details = await plan.notes.get(v.notes);
      else delete result.warning_details;
      return result;
    };
    fillPointOfSale(plan, puntoVenta);
    // The service refuses a voucher without one (TFC-8002): say so before anything leaves.
    const noPoint = plan.planned.find((v) => v.punto_venta === undefined);
    if (noPoint)
      throw new UsageError(
        t("{source}: no point of sale: the voucher names none and profile {profile} has no punto_venta", {
          source: noPoint.source,
          profile: profile.name,
        }),
        t("set punto_venta in the profile (or FACTURAR_PUNTO_VENTA), or comprobante.punto_venta in the voucher"),
      );
    const conflicts: VoucherResult[] = [];
    for (const { first, other } of plan.suspects) {
      const [a, b] = await Promise.all([load(first), load(other)]);
      if (a.digest === b.digest) addRepeat(plan, other);
      else conflicts.push(await noted(conflictResult(b, first.source), other));
    }
    if (conflicts.length > 0) {
      for (const result of conflicts) await emit(result);
      summary.invalid += conflicts.length;
      // The first under each reference stays planned; the others are only reported.
      if (!req.skipInvalid) return summary;
      summary.skippedInvalid = true;
    }
    /** The vouchers still to send, repeats included (not those already reported). */
    const live = (): Set<Planned> => {
      const set = new Set<Planned>(plan.planned);
      for (const list of plan.repeats.values()) for (const v of list) set.add(v);
      return set;
    };
    /**
     * Vouchers the service's own figures make invalid: each reported, repeats included; true
     * when the run stops there (without --skip-invalid).
     */
    const refuse = async (refused: { voucher: Planned; result: VoucherResult }[]): Promise<boolean> => {
      for (const r of refused) await emit(await noted(r.result, r.voucher));
      summary.invalid += refused.length;
      if (!req.skipInvalid) return true;
      summary.skippedInvalid = true;
      const out = new Set<VoucherHeading>(refused.map((r) => r.voucher));
      plan.planned = plan.planned.filter((v) => !out.has(v));
      for (const v of out) plan.repeats.delete(v.reference);
      return false;
    };
    // Unidentified consumers are checked again against the service's current ceiling.
    if (plan.unidentified.length > 0) {
      const ceiling = await currentCeiling(
        connection.service,
        stateDir(req.env),
        accountId(connection.account),
        req.warn,
      );
      const still = live();
      const refused = req.validate
        ? plan.unidentified.filter((u) => still.has(u.voucher) && u.amount.cmp(ceiling) >= 0)
        : [];
      const results = refused.map((u) => ({
        voucher: u.voucher,
        result: ceilingResult(u.voucher, u.place, ceilingMessage(u.amount, ceiling)),
      }));
      if (results.length > 0 && (await refuse(results))) return summary;
    }
    // Foreign currencies: the cotizacion within 2-400 % of the authority's rate (one call per currency and day).
    if (req.validate && plan.foreign.length > 0) {
      const still = live();
      const refused = await checkRates(
        connection.service,
        plan.foreign.filter((f) => still.has(f.voucher)),
        req.warn,
        argentinaToday(clockFrom(req.env)()),
      );
      const results = refused.map((r) => ({
        voucher: r.voucher,
        result: rateResult(r.voucher, r.moneda, r.place, r.message),
      }));
      if (results.length > 0 && (await refuse(results))) return summary;
    }
    const fullAtBytes = testJournalLimit(req.env);
    const journal = await Journal.open(stateDir(req.env), connection.account, {
      lock: true,
      profile: profile.name,
      ...(fullAtBytes !== undefined ? { fullAtBytes } : {}),
    });
    try {
      // Dated before what an earlier run issued in its lane: the authority would refuse it (10016).
      const early = req.validate ? plan.planned.filter((v) => beforeLane(journal, v)) : [];
      if (early.length > 0) {
        for (const v of early) await emit(laneOrderResult(v, journal.lastIssuedDay(v.punto_venta as number, v.tipo)));
        summary.invalid += early.length;
        if (!req.skipInvalid) return summary;
        summary.skippedInvalid = true;
        const out = new Set<VoucherHeading>(early);
        plan.planned = plan.planned.filter((v) => !out.has(v));
        for (const v of out) plan.repeats.delete(v.reference);
      }
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
        await noted(result, voucher);
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
              ? t("{ref}: the documents an earlier run could not save are saved now: {pdf}", {
                  ref: r.external_reference,
                  pdf: r.pdf,
                })
              : t("{ref}: its documents are still missing: {why}", {
                  ref: r.external_reference,
                  why: (r.warnings ?? []).join("; "),
                }),
          );
      if (ended.stoppedBy) summary.stoppedBy = ended.stoppedBy;
      const unfollowed = issuer.unfollowed();
      if (unfollowed) summary.unfollowed = unfollowed;
      if (issuer.halted()) {
        const left = await issuer.flushUnwritten();
        if (left > 0)
          req.warn(t("{n} outcomes are not in the journal; the next run asks the service about them", { n: left }));
      }
    } finally {
      await journal.close();
    }
  } finally {
    await connection.close();
  }
  return summary;
}

/** The result of a voucher known by its heading, before the service has said anything of it. */
function headingResult(status: "invalid" | "held", v: VoucherHeading): VoucherResult {
  return blankResult(status, {
    source: v.source,
    reference: v.reference,
    tipo: v.tipo,
    punto_venta: v.punto_venta ?? null,
    total: v.total ?? null,
  });
}

/**
 * References are unique within a run: the same voucher twice (two files, or twice in an array)
 * is sent once and the repeat told with the first's outcome; two different vouchers under one
 * reference are invalid input, and nothing is sent.
 */
function conflictResult(v: PreparedVoucher, firstSource: string): VoucherResult {
  const result = headingResult("invalid", v);
  const message = t("external_reference {ref} is also used by {source}, with other content", {
    ref: v.reference,
    source: firstSource,
  });
  // Placed as validation errors are: the voucher's own source first.
  result.errors = [`${v.source}: ${message}`];
  result.error_details = [
    { code: "reference.conflict", text: message, field: "comprobante.external_reference", place: v.source },
  ];
  result.hint = t("give each voucher its own external_reference");
  return result;
}

/** Invalid by a check made once the service could be asked: placed and coded as validation says it. */
function checkedResult(v: VoucherHeading, code: string, field: string, place: string, message: string): VoucherResult {
  const result = headingResult("invalid", v);
  result.errors = [`${place}: ${message} [${code}]`];
  result.error_details = [{ code, text: message, field, place }];
  return result;
}

/** A sale to an unidentified consumer at or above the service's live ceiling. */
function ceilingResult(v: VoucherHeading, place: string, message: string): VoucherResult {
  return checkedResult(v, "anonymous.ceiling", "cliente.documento_tipo", place, message);
}

/** A foreign-currency voucher whose cotizacion is outside 2-400 % of the authority's rate (tax-rules §4.9). */
function rateResult(v: VoucherHeading, moneda: string, place: string, message: string): VoucherResult {
  const result = checkedResult(v, "currency.rate-range", "comprobante.cotizacion", place, message);
  result.hint = t(
    "give the rate in pesos per unit; `facturar exchange-rate --currency {moneda}` shows the authority's",
    {
      moneda,
    },
  );
  return result;
}

/** Dated before the latest voucher the journal saw issued in its lane, and not itself sent before. */
function beforeLane(journal: Journal, v: VoucherHeading): boolean {
  // A purchase is the supplier's voucher: the authority's lane order is the supplier's concern.
  if (v.operacion === "C") return false;
  const last = v.punto_venta === undefined ? undefined : journal.lastIssuedDay(v.punto_venta, v.tipo);
  return last !== undefined && dayNumber(v.fecha) < last && journal.get(v.reference) === undefined;
}

function laneOrderResult(v: VoucherHeading, last: number | undefined): VoucherResult {
  const message = t(
    "dated {fecha}, before {last}, the date of the latest {tipo} issued at point of sale {pv}: the authority refuses a date earlier than its lane's last voucher",
    { fecha: v.fecha, last: formatDay(last ?? 0), tipo: v.tipo, pv: v.punto_venta ?? "" },
  );
  const result = checkedResult(v, "date.order", "comprobante.fecha", `${v.source} comprobante.fecha`, message);
  result.hint = t("date it on or after {last}, or issue it from another point of sale", { last: formatDay(last ?? 0) });
  return result;
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
  told.hint = t("the same voucher as {source} (same external_reference): sent once", { source: result.source });
  return told;
}

/**
 * Lanes: vouchers of one point of sale and type, in date order (input order for equal dates),
 * since numbering and dates run in sequence there. Queued vouchers get their numbers later, in
 * the service's queue, so in queued mode each point of sale is one lane. Purchases have lanes of
 * their own.
 */
export function lanes<V extends VoucherHeading>(vouchers: V[], mode: "instant" | "queued"): V[][] {
  const byLane = new Map<string, V[]>();
  for (const v of vouchers) {
    // A purchase's point of sale is its supplier's: purchases never share a lane with sales.
    const key = `${v.operacion === "C" ? "C|" : ""}${mode === "queued" ? `${v.punto_venta}` : `${v.punto_venta}|${v.tipo}`}`;
    const lane = byLane.get(key) ?? [];
    lane.push(v);
    byLane.set(key, lane);
  }
  // Array.prototype.sort is stable: equal dates keep their input order.
  return [...byLane.values()].map((lane) => lane.sort((a, b) => dayNumber(a.fecha) - dayNumber(b.fecha)));
}

export function heldResult(voucher: VoucherHeading, why: string): VoucherResult {
  return { ...headingResult("held", voucher), vencimiento_pago: voucher.vencimiento, errors: [why] };
}

interface LaneRunner<V extends VoucherHeading> {
  concurrency: number;
  batchSize: number;
  /** A stop was asked (a signal): finish what is in flight, send nothing new. */
  stopped: () => boolean;
  /** Why nothing more may be sent, found on the way (the journal failed), if so. */
  halted?: () => FacturarError | undefined;
  begin: (v: V) => Promise<Begun>;
  finish: (b: Begun) => Promise<VoucherResult>;
  abandon: (b: Begun, why: string) => Promise<void>;
  issueMany: (vs: V[]) => Promise<VoucherResult[]>;
  /** The documents still downloading for a result, if its lane went on without them. */
  takeDownload?: (reference: string) => Promise<VoucherResult> | undefined;
  /** A voucher's result; `voucher` is the one the lane was given (its reference as in the input). */
  emit: (r: VoucherResult, voucher: V) => Promise<void>;
}

/**
 * Whether a lane of this type may go in batches: the lotes page refuses export (E) and MiPyME
 * (FCE) vouchers, which the authority takes one by one (and neither can be queued).
 */
function batchable(tipo: string | undefined): boolean {
  const info = voucherTypeInfo(tipo ?? "");
  return info !== undefined && info.class !== "E" && !info.fce;
}

/** Documents downloading at once across lanes, before a lane waits for one to land. */
const DOWNLOADS_IN_FLIGHT = 8;

/**
 * Lanes in parallel, each in order, one voucher (or one batch) at a time. When the service stops
 * the run (ServiceStop), every lane stops sending and every voucher still gets a result.
 */
export async function runLanes<V extends VoucherHeading>(
  all: V[][],
  run: LaneRunner<V>,
): Promise<{ stoppedBy?: FacturarError }> {
  const queue = [...all];
  let stoppedBy: FacturarError | undefined;
  const serviceStop = (reason: FacturarError) => {
    stoppedBy ??= reason;
  };
  const stopped = () => {
    const halted = run.halted?.();
    if (halted) serviceStop(halted);
    return stoppedBy !== undefined || run.stopped();
  };
  // A lane needs only the outcome to go on; the result is told once its PDF and ticket have
  // landed, which happens meanwhile, a bounded number at a time.
  const downloading = new Set<Promise<void>>();
  const landed: Promise<void>[] = [];
  const settle = async (result: VoucherResult, voucher: V) => {
    const download = run.takeDownload?.(result.external_reference);
    if (!download) return run.emit(result, voucher);
    const told = download.then((r) => run.emit(r, voucher));
    landed.push(told);
    downloading.add(told);
    told.then(
      () => downloading.delete(told),
      () => downloading.delete(told),
    );
    if (downloading.size >= DOWNLOADS_IN_FLIGHT) await Promise.race(downloading);
  };
  const stopWhy = (): string => {
    const reason = stoppedBy as FacturarError | undefined;
    return reason
      ? t("not sent: the service stopped the run: {message}", { message: reason.message })
      : t("not sent: interrupted");
  };
  const worker = async () => {
    for (let lane = queue.shift(); lane; lane = queue.shift()) {
      let heldBy: { ref: string; why: LaneBreak } | undefined;
      let ahead: Promise<Begun> | undefined;
      const batchSize = batchable(lane[0]?.tipo) ? run.batchSize : 1;
      for (let i = 0; i < lane.length; ) {
        const group = lane.slice(i, i + batchSize);
        i += group.length;
        if (heldBy !== undefined || stopped()) {
          const why = heldBy === undefined ? stopWhy() : heldBehindWhy(heldBy.ref, heldBy.why);
          // The voucher begun ahead was settled without sending (told as such) or is abandoned.
          let told = 0;
          if (ahead) {
            const begun = await ahead.catch((error) => {
              if (!(error instanceof ServiceStop)) throw error;
              serviceStop(error.reason);
              return undefined;
            });
            ahead = undefined;
            if (begun && "result" in begun) {
              await settle(begun.result, group[0] as V);
              told = 1;
            } else if (begun) await run.abandon(begun, why);
          }
          for (const v of group.slice(told)) await run.emit(heldResult(v, why), v);
          continue;
        }
        try {
          if (group.length > 1) {
            for (const [k, r] of (await run.issueMany(group)).entries()) {
              await settle(r, group[k] as V);
              const broken: LaneBreak | undefined = heldBy === undefined ? laneBreak(r) : undefined;
              if (broken) heldBy = { ref: r.external_reference, why: broken };
            }
            continue;
          }
          const begun = await (ahead ?? run.begin(group[0] as V));
          ahead = undefined;
          // Journal the lane's next voucher while this one is in flight; it is sent only after.
          const following = lane[i];
          if (following && !stopped()) {
            ahead = run.begin(following);
            // A failure of the voucher begun ahead must not go unheard while this one settles.
            ahead.catch(() => {});
          }
          const result = await run.finish(begun);
          await settle(result, group[0] as V);
          const broken = laneBreak(result);
          if (broken) heldBy = { ref: result.external_reference, why: broken };
        } catch (error) {
          if (!(error instanceof ServiceStop)) throw error;
          serviceStop(error.reason);
          // The vouchers of this step settled before the stop are told so; the rest were not
          // sent (the journal says held).
          for (const [k, v] of group.entries()) {
            const settled = error.settled?.[k];
            if (settled) await settle(settled, v);
            else await run.emit(heldResult(v, stopWhy()), v);
          }
        }
      }
    }
  };
  const workers = Array.from({ length: Math.max(1, Math.min(run.concurrency, all.length)) }, worker);
  // Every lane ends (each voucher told) before a bug in one is reported; a bug while a result's
  // documents landed too, or that voucher would go untold without a word.
  const ended = [...(await Promise.allSettled(workers)), ...(await Promise.allSettled(landed))];
  const failed = ended.find((e): e is PromiseRejectedResult => e.status === "rejected");
  if (failed) throw failed.reason;
  // The journal failed on the run's last outcomes: nothing was left to stop, but the run says so.
  const halted = run.halted?.();
  if (halted) serviceStop(halted);
  return stoppedBy ? { stoppedBy } : {};
}
