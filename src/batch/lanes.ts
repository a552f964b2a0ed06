/**
 * The lane scheduler: vouchers of one point of sale and type go in order (numbering and dates run
 * in sequence there), lanes in parallel; a lane whose voucher may still be issued, or broke the
 * numbering, holds the rest of it; a service stop ends every lane with each voucher told.
 */

import type { FacturarError } from "../errors.js";
import { textOf } from "../errors.js";
import { type Message, msg, type Text } from "../i18n/message.js";
import { voucherTypeInfo } from "../voucher/codes.js";
import { dayNumber } from "../voucher/dates.js";
import { type Begun, ServiceStop, type VoucherHeading } from "./issue.js";
import { heldBehindWhy, type LaneBreak, laneBreak } from "./outcome.js";
import { headingResult } from "./plan.js";
import type { VoucherResult } from "./result.js";

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

export function heldResult(voucher: VoucherHeading, why: Text): VoucherResult {
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
  abandon: (b: Begun, why: Text) => Promise<void>;
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

/**
 * Results waiting for their documents across lanes before a lane waits for one to land. The
 * downloads themselves go a few at a time (DOWNLOADS_AT_ONCE, in issue.ts); this bounds what a
 * run holds meanwhile (a result and its links each, never a document's bytes) and how many
 * documents a crash can leave for the next run to fetch (journaled missing until saved).
 * Two lanes' batches of 20 fit, with room for the next: a lane does not wait for its documents.
 */
export const RESULTS_AWAITING_DOCUMENTS = 64;

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
  // landed, which happens meanwhile, a few downloads at a time, while the lanes' calls wait their turn.
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
    if (downloading.size >= RESULTS_AWAITING_DOCUMENTS) await Promise.race(downloading);
  };
  const stopWhy = (): Message => {
    const reason = stoppedBy as FacturarError | undefined;
    return reason
      ? msg("not sent: the service stopped the run: {message}", { message: textOf(reason) })
      : msg("not sent: interrupted");
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
