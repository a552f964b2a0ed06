/**
 * The checks a plan passes once the service can be asked, before anything is sent: one
 * reference with two contents (a conflict), the live ceiling for unidentified consumers, the
 * authority's exchange rate, and the date order of each lane against the journal. Each returns
 * its refusals; run.ts tells them and decides whether the run goes on (refuse()).
 */

import type { Service } from "../api/protocol.js";
import { concat, msg, type Text } from "../i18n/message.js";
import { argentinaToday, clockFrom, dayNumber, formatDay } from "../voucher/dates.js";
import { ceilingMessage } from "../voucher/rules.js";
import { currentCeiling } from "./ceiling.js";
import { checkRates } from "./exchange.js";
import type { PreparedVoucher, VoucherHeading } from "./issue.js";
import type { Journal } from "./journal.js";
import { addRepeat, headingResult, type Planned, type ReadPlan, stillPlanned } from "./plan.js";
import type { VoucherResult } from "./result.js";

/** A voucher refused before sending, and its result (invalid, placed as validation places it). */
export interface Refusal {
  voucher: Planned;
  result: VoucherResult;
}

/**
 * One reference, two contents as read: the same voucher once the point of sale is filled in is
 * a repeat; otherwise the later one is refused (the first stays planned).
 */
export async function conflicts(plan: ReadPlan, load: (v: Planned) => Promise<PreparedVoucher>): Promise<Refusal[]> {
  const refused: Refusal[] = [];
  for (const { first, other } of plan.suspects) {
    const [a, b] = await Promise.all([load(first), load(other)]);
    if (a.digest === b.digest) addRepeat(plan, other);
    else refused.push({ voucher: other, result: conflictResult(b, first.source) });
  }
  return refused;
}

/**
 * Unidentified consumers at or above the service's current ceiling. The ceiling is asked (and
 * cached) whenever the plan has any; only `validate` refuses.
 */
export async function overCeiling(
  plan: ReadPlan,
  service: Service,
  at: { stateDir: string; account: string; validate: boolean },
  warn: (line: Text) => void,
): Promise<Refusal[]> {
  if (plan.unidentified.length === 0) return [];
  const ceiling = await currentCeiling(service, at.stateDir, at.account, warn);
  const still = stillPlanned(plan);
  const refused = at.validate
    ? plan.unidentified.filter((u) => still.has(u.voucher) && u.amount.cmp(ceiling) >= 0)
    : [];
  return refused.map((u) => ({
    voucher: u.voucher,
    result: ceilingResult(u.voucher, u.place, ceilingMessage(u.amount, ceiling)),
  }));
}

/** Foreign currencies: the cotizacion within 2-400 % of the authority's rate (one call per currency and day). */
export async function offRate(
  plan: ReadPlan,
  service: Service,
  env: NodeJS.ProcessEnv,
  warn: (line: Text) => void,
): Promise<Refusal[]> {
  if (plan.foreign.length === 0) return [];
  const still = stillPlanned(plan);
  const refused = await checkRates(
    service,
    plan.foreign.filter((f) => still.has(f.voucher)),
    warn,
    argentinaToday(clockFrom(env)()),
  );
  return refused.map((r) => ({ voucher: r.voucher, result: rateResult(r.voucher, r.moneda, r.place, r.message) }));
}

/** Dated before what an earlier run issued in its lane: the authority would refuse it (10016). */
export function outOfLaneOrder(plan: ReadPlan, journal: Journal): Refusal[] {
  return plan.planned
    .filter((v) => beforeLane(journal, v))
    .map((v) => ({ voucher: v, result: laneOrderResult(v, journal.lastIssuedDay(v.punto_venta as number, v.tipo)) }));
}

/**
 * References are unique within a run: the same voucher twice (two files, or twice in an array)
 * is sent once and the repeat told with the first's outcome; two different vouchers under one
 * reference are invalid input, and nothing is sent.
 */
function conflictResult(v: PreparedVoucher, firstSource: string): VoucherResult {
  const result = headingResult("invalid", v);
  const message = msg("external_reference {ref} is also used by {source}, with other content", {
    ref: v.reference,
    source: firstSource,
  });
  // Placed as validation errors are: the voucher's own source first.
  result.errors = [concat(v.source, ": ", message)];
  result.error_details = [
    { code: "reference.conflict", text: message, field: "comprobante.external_reference", place: v.source },
  ];
  result.hint = msg("give each voucher its own external_reference");
  return result;
}

/** Invalid by a check made once the service could be asked: placed and coded as validation says it. */
function checkedResult(v: VoucherHeading, code: string, field: string, place: Text, message: Text): VoucherResult {
  const result = headingResult("invalid", v);
  result.errors = [concat(place, ": ", message, ` [${code}]`)];
  result.error_details = [{ code, text: message, field, place }];
  return result;
}

/** A sale to an unidentified consumer at or above the service's live ceiling. */
function ceilingResult(v: VoucherHeading, place: Text, message: Text): VoucherResult {
  return checkedResult(v, "anonymous.ceiling", "cliente.documento_tipo", place, message);
}

/** A foreign-currency voucher whose cotizacion is outside 2-400 % of the authority's rate (tax-rules §4.9). */
function rateResult(v: VoucherHeading, moneda: string, place: Text, message: Text): VoucherResult {
  const result = checkedResult(v, "currency.rate-range", "comprobante.cotizacion", place, message);
  result.hint = msg(
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
  const message = msg(
    "dated {fecha}, before {last}, the date of the latest {tipo} issued at point of sale {pv}: the authority refuses a date earlier than its lane's last voucher",
    { fecha: v.fecha, last: formatDay(last ?? 0), tipo: v.tipo, pv: v.punto_venta ?? "" },
  );
  const result = checkedResult(v, "date.order", "comprobante.fecha", `${v.source} comprobante.fecha`, message);
  result.hint = msg("date it on or after {last}, or issue it from another point of sale", {
    last: formatDay(last ?? 0),
  });
  return result;
}
