/**
 * A voucher's fate, decided in one place.
 *
 * THE RULE: a voucher's outcome is read only from an answer that names it, and its absence is
 * concluded only from asking the service for its reference after the settle window. Every other
 * answer (reordered, partial, unexpected, unreadable) is a lost answer for the vouchers it does
 * not surely name: those are asked about before anything is sent again.
 *
 * Every issuing path (issue, issue-queued, credit and debit notes, purchases, the guided issue)
 * goes through the Issuer (issue.ts), which finds each voucher's Outcome by that rule. settle()
 * is the only place that turns an outcome into what the journal records, the result every
 * renderer reads, and whether the rest of the voucher's lane must wait (laneBreak). What the
 * service's error texts mean is the protocol's classifier's (refusalCauses), not this module's.
 */

import { refusalCauses, WEBHOOK_HINT } from "../api/protocol.js";
import { FacturarError, textOf } from "../errors.js";
import { concat, english, joined, type Message, msg, type Text } from "../i18n/message.js";
import { amount } from "../voucher/amount.js";
import { voucherNumber, voucherTypeInfo } from "../voucher/codes.js";
import { Dec } from "../voucher/decimal.js";
import type { Micrositios, ServiceVoucher } from "../voucher/held.js";
import type { PreparedVoucher } from "./issue.js";
import type { JournalEntry } from "./journal.js";
import { blankResult, type ErrorDetail, type VoucherResult } from "./result.js";

/** The error code of a voucher sent several times without an answer, which the service lacks. */
export const NO_ANSWER = "no-answer";
/** The error code of a batch item the service did not process because an earlier one failed. */
export const NOT_PROCESSED = "not-processed";

/** What the service says of an issued voucher, from this run's answer or from its own record. */
export interface Issued {
  tipo: string | null;
  punto_venta: number | null;
  numero: number | null;
  cae: string | null;
  vencimiento_cae: string | null;
  vencimiento_pago: string | null;
  total: string | null;
  qr: string | null;
  observations: string[];
  /** Whether the service e-mailed it, to whom, and its pages: where the answer says (not a listing). */
  envio_x_mail?: boolean | null;
  envio_x_mail_direcciones?: string[];
  micrositios?: Micrositios;
}

/**
 * How a voucher's fate became known. `by` says who told it:
 * - `answer`: this run's own issuing call, in an answer that names the voucher;
 * - `lookup`: this run sent it, the answer was lost, and the service holds the reference;
 * - `found`: the service held the reference before this run sent anything;
 * - `superseded`: the service holds the reference and a duplicate is wanted (journaled only);
 * - `followed`: queued by this run, followed with --wait until the service held it issued;
 * - `requeued`: it had failed in the service's queue and was put back;
 * - `still`: followed with --wait, and still queued (`found` is absent when it could not be asked).
 */
export type Outcome =
  | {
      kind: "issued";
      by: "answer" | "lookup" | "followed" | "found" | "superseded";
      issued: Issued;
      warnings?: Text[];
    }
  /** The journal holds it as issued by an earlier run: nothing asked, nothing sent. */
  | { kind: "journaled"; entry: JournalEntry }
  | { kind: "queued"; by: "answer"; vencimiento_pago: string | null }
  | { kind: "queued"; by: "lookup" | "found" | "requeued"; found: ServiceVoucher }
  | { kind: "queued"; by: "still"; found?: ServiceVoucher; warning: Text }
  /** The service's queue holds it with an error. */
  | { kind: "queue-error"; by: "lookup" | "found"; found: ServiceVoucher }
  /** The service's answer refused this voucher. */
  | { kind: "refused"; errors: string[]; details: ErrorDetail[]; requiresFce: boolean }
  /** The service refused the call as a bad request (HTTP 400…) for this voucher: nothing was done. */
  | { kind: "bad-request"; error: Error }
  /** Sent `attempts` times without an answer; asked each time past the settle window: not held. */
  | { kind: "no-answer"; attempts: number; message: Text }
  /** Sent, no answer, and the service could not be asked. */
  | { kind: "unknown"; cause: Error }
  /** Not sent (its lane broke, the run stopped); `notProcessed`: sent in a batch the service stopped before it. */
  | { kind: "held"; why: Text; notProcessed?: boolean }
  /** Followed in the queue, and gone from it. */
  | { kind: "deleted" };

/**
 * Why the rest of a lane must wait. `sequence`: a numbering or date error, which the rest would
 * get too. `unsettled`: a voucher that may still be issued later (its outcome not known, sent
 * without ever an answer, not processed); the authority numbers a lane in order and refuses a
 * date earlier than the last voucher's, so nothing after it may go first.
 */
export type LaneBreak = "sequence" | "unsettled";

/** Its lane break is read from the result (laneBreak), which only settle() makes. */
export interface Settled {
  result: VoucherResult;
  /** What the journal records; none when it knows already. */
  entry?: Omit<JournalEntry, "at">;
}

export interface SettleContext {
  mode: "instant" | "queued";
  /** What the journal held of the reference before this outcome. */
  journaled: JournalEntry | undefined;
}

/** The one place an outcome becomes a journal entry, a result and (through it) a lane break. */
export function settle(
  voucher: PreparedVoucher,
  reference: string,
  outcome: Outcome,
  { mode, journaled }: SettleContext,
): Settled {
  const c = voucher.envelope.comprobante;
  switch (outcome.kind) {
    case "issued": {
      // Issued by this run's own send, or by an earlier one (then not sent again).
      const fresh = outcome.by === "answer" || outcome.by === "lookup" || outcome.by === "followed";
      const result = withService(base(voucher, reference, fresh ? "issued" : "skipped-duplicate"), outcome.issued);
      if (outcome.by === "lookup" || outcome.by === "found") result.reconciled = true;
      if (outcome.warnings?.length) result.warnings = [...(result.warnings ?? []), ...outcome.warnings];
      if (outcome.by === "found") {
        result.hint = msg("already issued (the service holds {ref}): not sent again", { ref: reference });
        conflictIfReused(result, voucher, journaled, outcome.issued);
      }
      // What was sent is the digest's to remember, not a file that says something else now.
      const ours = fresh || (outcome.by === "found" && result.status !== "conflict");
      return { result, entry: issuedEntry(result, mode, ours ? voucher : undefined, journaled) };
    }
    case "journaled": {
      const { entry } = outcome;
      const result = base(voucher, reference, "skipped-duplicate");
      Object.assign(result, {
        comprobante_tipo: entry.tipo ?? result.comprobante_tipo,
        punto_venta: entry.punto_venta ?? result.punto_venta,
        numero: entry.numero ?? null,
        cae: entry.cae ?? null,
        vencimiento_cae: entry.vencimiento_cae ?? null,
        vencimiento_pago: entry.vencimiento_pago ?? result.vencimiento_pago,
        total: entry.total ?? result.total,
        pdf: entry.pdf ?? null,
        ticket: entry.ticket ?? null,
      });
      if (entry.observations?.length) result.observations = entry.observations;
      finishNumber(result);
      result.hint = msg("already issued (journal): not sent again; --allow-duplicate issues another on purpose");
      conflictIfReused(result, voucher, entry, undefined);
      return { result };
    }
    case "queued": {
      if (outcome.by === "answer") {
        const result = base(voucher, reference, "queued");
        if (outcome.vencimiento_pago) result.vencimiento_pago = outcome.vencimiento_pago;
        return { result, entry: { ref: reference, state: "queued", mode: "queued" } };
      }
      if (outcome.by === "still") {
        const result = outcome.found
          ? withService(base(voucher, reference, "queued"), outcome.found)
          : base(voucher, reference, "queued");
        result.warnings = [outcome.warning];
        // Followed with --wait, which asked for it issued: not done.
        result.ok = false;
        return { result };
      }
      const result = withService(base(voucher, reference, "queued"), outcome.found);
      result.reconciled = true;
      if (outcome.by === "requeued") {
        result.hint = msg("re-queued {ref} (reenviar_encolado): it had failed in the queue", { ref: reference });
        return { result, entry: { ref: reference, state: "queued", mode: "queued" } };
      }
      if (outcome.by === "found") {
        result.hint = msg("already in the service's queue under {ref}: not sent again", { ref: reference });
        // Another voucher waits under this reference: told, never followed as if it were this one.
        conflictIfReused(result, voucher, journaled, outcome.found);
      }
      return {
        result,
        entry: { ref: reference, state: "queued", mode: "queued", tipo: outcome.found.tipo || c.tipo },
      };
    }
    case "queue-error": {
      const { found } = outcome;
      const result = withService(base(voucher, reference, "rejected"), found);
      result.reconciled = true;
      const entry = { ref: reference, state: "queue-error" as const, mode: "queued" as const, errors: found.errors };
      // Failed in the queue with other content than this file's: re-queued, it would issue that.
      if (outcome.by === "found" && conflictIfReused(result, voucher, journaled, found)) return { result, entry };
      result.errors = found.errors;
      result.error_details = [{ code: "queue-error", text: found.errors.join("; ") }];
      result.hint = msg(
        "the service's queue holds {ref} with an error; once its cause is fixed, `facturar issue-queued --requeue` (or `facturar queue retry --ref {ref}`) puts it back in the queue; to send a corrected voucher instead, `facturar queue delete --ref {ref}` first",
        { ref: reference },
      );
      if (found.reasonMissing)
        result.hint = concat(
          msg(
            "the service's answer gives no reason, only its status; the reason went to the point of sale's webhook (event error, its msg), and the service's web panel shows the webhooks of the last 3 days",
          ),
          ". ",
          result.hint,
        );
      return { result, entry };
    }
    case "refused": {
      const result = base(voucher, reference, "rejected");
      result.errors = outcome.errors;
      result.error_details = outcome.details;
      result.hint = hintFor(result, outcome.requiresFce);
      return { result, entry: { ref: reference, state: "rejected", mode, errors: result.errors } };
    }
    case "bad-request": {
      const { error } = outcome;
      const result = base(voucher, reference, "rejected");
      result.errors = [textOf(error)];
      result.error_details = [{ code: error instanceof FacturarError ? error.code : "error", text: textOf(error) }];
      if (error instanceof FacturarError && error.hint) result.hint = error.hint;
      return { result, entry: { ref: reference, state: "rejected", mode, errors: [textOf(error)] } };
    }
    case "no-answer": {
      const result = base(voucher, reference, "rejected");
      result.errors = [outcome.message];
      result.error_details = [{ code: NO_ANSWER, text: outcome.message }];
      result.hint = msg(
        "sent {n} times without an answer, and the service holds nothing under {ref}: not issued; run again later",
        { n: outcome.attempts, ref: reference },
      );
      return { result, entry: { ref: reference, state: "rejected", mode, errors: [outcome.message] } };
    }
    case "unknown": {
      const message = msg("could not ask the service about {ref}: {message}", {
        ref: reference,
        message: textOf(outcome.cause),
      });
      const result = base(voucher, reference, "unknown");
      result.errors = [message];
      result.hint = msg(
        "sent, but no answer came back and the service could not be asked; `facturar journal --reconcile` settles it later",
      );
      return { result, entry: { ref: reference, state: "unknown", mode, errors: [message] } };
    }
    case "held": {
      const result = base(voucher, reference, "held");
      result.errors = [outcome.why];
      if (outcome.notProcessed) result.error_details = [{ code: NOT_PROCESSED, text: outcome.why }];
      return { result, entry: { ref: reference, state: "held", mode, errors: [outcome.why] } };
    }
    case "deleted": {
      const result = base(voucher, reference, "rejected");
      result.errors = [msg("{ref} is no longer in the service's queue (deleted?)", { ref: reference })];
      result.hint = msg("run again to send it anew");
      return { result, entry: { ref: reference, state: "deleted", mode: "queued" } };
    }
  }
}

/** Why a voucher behind `ref` in its lane was not sent (see LaneBreak). */
export function heldBehindWhy(ref: string, cause: LaneBreak): Message {
  return cause === "sequence"
    ? msg("not sent: {ref} failed in this lane with a numbering or date error, and this one would too", { ref })
    : msg(
        "not sent: {ref}, earlier in this lane, is not settled; sending this one first would break the lane's order",
        {
          ref,
        },
      );
}

/** Why the rest of a lane must wait behind this result, if it must (see LaneBreak). */
export function laneBreak(result: VoucherResult): LaneBreak | undefined {
  if (result.status === "unknown" || result.status === "held") return "unsettled";
  if (result.status !== "rejected") return undefined;
  if (result.error_details.some((d) => d.code === NO_ANSWER)) return "unsettled";
  const codes = result.error_details.map((d) => d.code);
  return refusalCauses(result.errors.map(english), codes).has("sequence") ? "sequence" : undefined;
}

/** `00679-00000012` once issued with a number. */
export function finishNumber(result: VoucherResult): void {
  const issued = result.status === "issued" || result.status === "skipped-duplicate";
  result.comprobante_nro =
    issued && result.punto_venta !== null && result.numero !== null
      ? voucherNumber(result.punto_venta, result.numero)
      : null;
}

function base(voucher: PreparedVoucher, reference: string, status: VoucherResult["status"]): VoucherResult {
  const c = voucher.envelope.comprobante;
  const result = blankResult(status, {
    source: voucher.source,
    reference,
    tipo: c.tipo ?? null,
    punto_venta: c.punto_venta ?? null,
    total: c.total ?? null,
  });
  result.vencimiento_pago = c.vencimiento ?? null;
  return result;
}

/** The result with what the service says, the voucher's own figures where it says nothing. */
function withService(result: VoucherResult, said: Issued): VoucherResult {
  Object.assign(result, {
    comprobante_tipo: said.tipo || result.comprobante_tipo,
    punto_venta: said.punto_venta ?? result.punto_venta,
    numero: said.numero,
    cae: said.cae,
    vencimiento_cae: said.vencimiento_cae,
    vencimiento_pago: said.vencimiento_pago ?? result.vencimiento_pago,
    total: said.total ?? result.total,
    qr: said.qr,
  });
  if (said.observations.length > 0) result.observations = said.observations;
  if (said.envio_x_mail !== undefined && said.envio_x_mail !== null) result.envio_x_mail = said.envio_x_mail;
  if (said.envio_x_mail_direcciones?.length) result.envio_x_mail_direcciones = said.envio_x_mail_direcciones;
  if (said.micrositios && (said.micrositios.cliente || said.micrositios.descarga))
    result.micrositios = said.micrositios;
  finishNumber(result);
  return result;
}

function issuedEntry(
  result: VoucherResult,
  mode: "instant" | "queued",
  sent: PreparedVoucher | undefined,
  journaled: JournalEntry | undefined,
): Omit<JournalEntry, "at"> {
  return {
    ref: result.external_reference,
    state: "issued",
    mode,
    ...(result.comprobante_tipo ? { tipo: result.comprobante_tipo } : {}),
    ...(result.punto_venta !== null ? { punto_venta: result.punto_venta } : {}),
    ...(result.numero !== null ? { numero: result.numero } : {}),
    ...(result.comprobante_nro ? { comprobante_nro: result.comprobante_nro } : {}),
    // The lane's latest date: a later run refuses an earlier one before sending (date.order).
    ...(sent ? { fecha: sent.envelope.comprobante.fecha } : {}),
    ...(sent?.operacion === "C" ? { operacion: "C" as const } : {}),
    ...(result.cae ? { cae: result.cae } : {}),
    ...(result.vencimiento_cae ? { vencimiento_cae: result.vencimiento_cae } : {}),
    ...(result.vencimiento_pago ? { vencimiento_pago: result.vencimiento_pago } : {}),
    ...(result.total ? { total: result.total } : {}),
    ...(result.observations ? { observations: result.observations } : {}),
    // E-mailed when issued: the service's listings do not say it (reference §6.9), so query --ref reads it here.
    ...(result.envio_x_mail ? { envio_x_mail_direcciones: result.envio_x_mail_direcciones ?? [] } : {}),
    ...(sent && !journaled?.digest ? { digest: sent.digest } : {}),
  };
}

/**
 * Is what the service (or the journal) holds under the voucher's reference another voucher? With
 * the digest of what was sent, that decides; without it (found at the service, journal lost),
 * the service's own figures are what can be compared: type and total.
 */
export function reusedReference(
  voucher: PreparedVoucher,
  journaled: JournalEntry | undefined,
  found: { tipo: string | null; total: string | null } | undefined,
): boolean {
  const c = voucher.envelope.comprobante;
  if (journaled?.digest) return journaled.digest !== voucher.digest;
  const held = found ?? { tipo: journaled?.tipo, total: journaled?.total };
  return (
    (!!held.tipo && held.tipo !== c.tipo) ||
    (!!held.total && c.total !== undefined && Number(held.total) !== Number(c.total))
  );
}

/**
 * Same reference, other content: as a reused idempotency key with other parameters is (Stripe),
 * a conflict: not ok, nothing sent, and the result shows what the reference stands for.
 */
function conflictIfReused(
  result: VoucherResult,
  voucher: PreparedVoucher,
  journaled: JournalEntry | undefined,
  found: { tipo: string | null; total: string | null } | undefined,
): boolean {
  if (!reusedReference(voucher, journaled, found)) return false;
  const held = found ?? { tipo: journaled?.tipo, total: journaled?.total };
  const said = {
    ref: result.external_reference,
    held: joined(
      [held.tipo, result.comprobante_nro, held.total && Dec.tryParse(held.total) && amount(held.total)].filter(
        (part): part is string | Message => Boolean(part),
      ),
      " ",
    ),
  };
  // What is left undone, in the words of what the voucher is.
  const message =
    voucher.operacion === "C"
      ? msg("{ref} was used before for another voucher ({held}); nothing sent: this purchase is not recorded", said)
      : voucherTypeInfo(voucher.envelope.comprobante.tipo)?.kind === "invoice"
        ? msg("{ref} was used before for another voucher ({held}); nothing sent: this sale is not invoiced", said)
        : msg("{ref} was used before for another voucher ({held}); nothing sent: this voucher is not issued", said);
  result.status = "conflict";
  result.ok = false;
  result.content_changed = true;
  // Placed as validation errors are: the voucher's own source first.
  result.errors = [concat(voucher.source, ": ", message)];
  result.error_details = [
    { code: "reference.reused", text: message, field: "comprobante.external_reference", place: voucher.source },
  ];
  // A purchase is the supplier's voucher: only its reference is ours to change.
  result.hint =
    voucher.operacion === "C"
      ? msg("give each voucher its own external_reference")
      : msg(
          "give the new voucher its own external_reference; if it is the same sale corrected, issue a credit note for the old one first (`facturar credit-note --ref {ref}`)",
          { ref: result.external_reference },
        );
  return true;
}

function hintFor(result: VoucherResult, requiresFce: boolean): Message | undefined {
  const causes = refusalCauses(
    result.errors.map(english),
    result.error_details.map((d) => d.code),
    requiresFce,
  );
  if (causes.has("requires-fce"))
    return msg(
      "this buyer must receive a MiPyME credit invoice: issue it as FACTURA DE CREDITO ELECTRONICA MiPyME (FCE)",
    );
  if (causes.has("vat-condition"))
    return msg(
      "the customer's condicion_iva does not fit this voucher type (a registered taxpayer gets class A; consumers and exempt customers class B)",
    );
  if (causes.has("webhook-missing")) return WEBHOOK_HINT();
  if (causes.has("queue-blocked"))
    return msg("this point of sale has queued vouchers: use `facturar issue-queued` until they are processed");
  if (causes.has("next-number")) return msg("leave numero out: the service assigns the next number itself");
  return undefined;
}
