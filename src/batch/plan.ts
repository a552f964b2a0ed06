/**
 * A run's plan: every voucher read and validated before anything is sent. Only a heading of each
 * stays in memory (its envelope waits in an EnvelopeStore); the same voucher twice is one voucher
 * and its repeats, one reference with two contents a suspect (checks.ts decides), and the
 * vouchers to check against the service's live figures are set aside.
 */

import { concat, msg, msgn, revived, type Text } from "../i18n/message.js";
import { checkSource, type PlacedFinding, type VoucherCheck } from "../input/check.js";
import { readVouchers } from "../input/read.js";
import type { ReadOptions, SourceVoucher } from "../input/source.js";
import { clockFrom } from "../voucher/dates.js";
import type { Dec } from "../voucher/decimal.js";
import { anonymousAmount, unidentifiedConsumer } from "../voucher/rules.js";
import { ruleOptions } from "../voucher/validate.js";
import type { ForeignVoucher } from "./exchange.js";
import { headingOf, Issuer, type VoucherHeading } from "./issue.js";
import { withPointOfSale } from "./journal.js";
import { blankResult, type Problem, type VoucherResult } from "./result.js";
import type { EnvelopeStore } from "./spill.js";

/** What reading needs of a run's request (run.ts IssueRequest). */
export interface ReadRequest {
  files: string[];
  /** Vouchers from memory (the guided issue), before the files. */
  sources?: SourceVoucher[];
  read: ReadOptions;
  validate: boolean;
  mode: "instant" | "queued";
  /** Issue the valid vouchers and report the invalid ones, instead of sending nothing. */
  skipInvalid?: boolean;
  env: NodeJS.ProcessEnv;
  warn: (line: Text) => void;
}

function problem(f: PlacedFinding): Problem {
  return { code: f.code, field: f.field, place: f.place, message: f.message };
}

function invalidResult(check: VoucherCheck): VoucherResult {
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
    errors: check.errors.map((e) => concat(e.place, ": ", e.message, " [", e.code, "]")),
    error_details: check.errors.map((e) => ({ code: e.code, text: e.message, field: e.field, place: e.place })),
  };
  if (check.warnings.length > 0) result.warning_details = check.warnings.map(problem);
  return result;
}

/** A voucher as a run keeps it between reading and sending: its heading; its envelope waits in the store. */
export interface Planned extends VoucherHeading {
  slot: number;
  /** Its reference is derived, and waits for the profile's point of sale (see derivedReference). */
  pointPending: boolean;
  /** Its warnings' slot in the plan's `notes`, or -1 for none. */
  notes: number;
}

/** What reading every input leaves: the vouchers to send, in input order, and how each reference was used. */
export interface ReadPlan {
  planned: Planned[];
  /** The same voucher again under its reference: sent once, each repeat told the first's outcome. */
  repeats: Map<string, Planned[]>;
  /** One reference, two contents as written: a conflict, unless filling in the point of sale makes them one. */
  suspects: { first: Planned; other: Planned }[];
  /** Sales to unidentified consumers, in pesos: checked again against the service's live ceiling. */
  unidentified: { voucher: Planned; amount: Dec; place: Text }[];
  /** Vouchers in a foreign currency: their cotizacion is checked against the authority's rate. */
  foreign: ForeignVoucher<Planned>[];
  invalid: number;
  /**
   * Every voucher that passed its checks, in input order, repeats and suspects too: a run refused
   * before sending tells each of them (heldByRefusal). After the first invalid one (without
   * --skip-invalid) only their headings are kept (slot -1), nothing to send.
   */
  valids: Planned[];
  /** The vouchers' warnings (Planned.notes), told in their results. */
  notes: EnvelopeStore<Problem[]>;
}

/**
 * Reads and validates every voucher before anything is sent. Only headings stay in memory; the
 * envelopes go to the store. An invalid voucher is told as soon as it is read; after one, the
 * rest are only checked, not kept.
 */
export async function readPlan(
  req: ReadRequest,
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
    valids: [],
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
    // Told as the voucher is read, an invalid one's too (a file read as Windows-1252 says so on its first).
    for (const w of check.warnings) {
      // A batch repeats its warnings voucher after voucher: the first is told, the rest counted
      // (each voucher's own are in its result: --json, --report).
      const key = `${source.file}\u0000${w.code}\u0000${w.field.replace(/\[\d+\]/g, "[]")}`;
      const again = repeated.get(key);
      if (again === undefined) {
        repeated.set(key, { file: source.file, code: w.code, field: w.field, more: 0 });
        req.warn(concat(w.place, ": ", w.message, " [", w.code, "]"));
      } else again.more++;
    }
    if (!envelope || (req.validate && !check.ok)) {
      plan.invalid++;
      await emit(invalidResult(check));
      return;
    }
    // Once one is invalid nothing is sent, unless the invalid ones are skipped: only its heading
    // is kept, for its result (not sent), and its envelope is not.
    const kept = plan.invalid === 0 || req.skipInvalid === true;
    const prepared = headingOf(envelope, source.label, undefined);
    // One literal, always the same fields in the same order: a run keeps hundreds of thousands.
    const voucher: Planned = {
      slot: kept ? await store.add(envelope) : -1,
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
    plan.valids.push(voucher);
    if (!kept) return;
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
        msg("{file}: the same warning [{code}] on {field} for {n} more vouchers (each result lists its own)", {
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

export function addRepeat(plan: ReadPlan, voucher: Planned): void {
  const list = plan.repeats.get(voucher.reference) ?? [];
  list.push(voucher);
  plan.repeats.set(voucher.reference, list);
}

/**
 * The profile's point of sale for the vouchers that name none. A derived reference takes it too:
 * a voucher that left it out may now be the same voucher as one that named it, and is then a
 * repeat, sent once.
 */
export function fillPointOfSale(plan: ReadPlan, puntoVenta: number | undefined): void {
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

/** The vouchers still to send, repeats included (not those already reported). */
export function stillPlanned(plan: ReadPlan): Set<Planned> {
  const set = new Set<Planned>(plan.planned);
  for (const list of plan.repeats.values()) for (const v of list) set.add(v);
  return set;
}

/** A voucher's result with its own warnings (a repeat's are its own, not the first's). */
export async function withNotes(plan: ReadPlan, result: VoucherResult, v: Planned): Promise<VoucherResult> {
  // Past the first few thousand they were kept on disk as JSON: their messages are ours again.
  if (v.notes >= 0) result.warning_details = revived(await plan.notes.get(v.notes));
  else delete result.warning_details;
  return result;
}

/**
 * Takes refused vouchers out of the plan: a first with its repeats (the same voucher), a repeat
 * alone; a voucher never planned (a conflicting one) leaves nothing behind.
 */
export function dropFromPlan(plan: ReadPlan, refused: Set<Planned>): void {
  for (const v of plan.planned) if (refused.has(v)) plan.repeats.delete(v.reference);
  plan.planned = plan.planned.filter((v) => !refused.has(v));
  for (const [reference, list] of plan.repeats) {
    const kept = list.filter((v) => !refused.has(v));
    if (kept.length === 0) plan.repeats.delete(reference);
    else if (kept.length < list.length) plan.repeats.set(reference, kept);
  }
}

/** The result of a voucher known by its heading, before the service has said anything of it. */
export function headingResult(status: "invalid" | "held", v: VoucherHeading): VoucherResult {
  return blankResult(status, {
    source: v.source,
    reference: v.reference,
    tipo: v.tipo,
    punto_venta: v.punto_venta ?? null,
    total: v.total ?? null,
  });
}

/**
 * A run refused before sending (all or nothing: `invalid` vouchers, told already) tells every
 * other valid voucher of its input, in input order, repeats too: `held`, not sent, nothing
 * journaled, so the next run sends it. A reference still waiting for the profile's point of sale
 * (none given, none named) is told empty, as an invalid voucher without one is: the run never got
 * that far. Returns how many were told.
 */
export async function holdRefused(
  plan: ReadPlan,
  refused: ReadonlySet<Planned>,
  invalid: number,
  emit: (result: VoucherResult) => Promise<void>,
): Promise<number> {
  const why = msgn(
    invalid,
    "not sent: {n} voucher of this run is invalid; --skip-invalid sends the valid ones",
    "not sent: {n} vouchers of this run are invalid; --skip-invalid sends the valid ones",
  );
  let told = 0;
  for (const v of plan.valids) {
    if (refused.has(v)) continue;
    const result = headingResult("held", v);
    if (v.pointPending && v.punto_venta === undefined) result.external_reference = "";
    result.vencimiento_pago = v.vencimiento;
    result.errors = [why];
    await emit(await withNotes(plan, result, v));
    told++;
  }
  return told;
}
