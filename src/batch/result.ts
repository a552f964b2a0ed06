/**
 * One voucher's outcome, as every renderer, the report and the journal command read it. Its words
 * are messages (src/i18n/message.ts): the renderers say them in the reader's language.
 */
import { concat, english, type Message, type Text } from "../i18n/message.js";

/**
 * `held`: not sent, because an earlier voucher of its lane broke the sequence or a stop was asked.
 * `conflict`: not sent, because its reference was used before for a voucher with other content.
 */
export type VoucherStatus =
  | "issued"
  | "queued"
  | "skipped-duplicate"
  | "rejected"
  | "invalid"
  | "unknown"
  | "held"
  | "conflict";

/**
 * A problem of a voucher as `validate --json` shapes its findings: `code`, the `field` (a dotted
 * path, null for the service's own errors), its `place` in the input (null where none), `message`.
 */
export interface Problem {
  code: string;
  field: string | null;
  place: Text | null;
  message: Text;
}

/** An error: `{code, text}` as the service's `error_details` come; a check's also says where. */
export interface ErrorDetail {
  code: string;
  text: Text;
  field?: string | null;
  place?: Text | null;
}

/** One voucher's outcome, with at least the fields design.md lists for JSON output. */
export interface VoucherResult {
  ok: boolean;
  status: VoucherStatus;
  source: string;
  external_reference: string;
  comprobante_tipo: string | null;
  punto_venta: number | null;
  numero: number | null;
  comprobante_nro: string | null;
  cae: string | null;
  vencimiento_cae: string | null;
  vencimiento_pago: string | null;
  total: string | null;
  qr: string | null;
  pdf: string | null;
  ticket: string | null;
  errors: Text[];
  error_details: ErrorDetail[];
  /** Settled by asking the service (after a lost answer, or before sending), not by this run's own call. */
  reconciled?: boolean;
  /** The authority approved the voucher with observations. */
  observations?: string[];
  /** The service e-mailed it to the customer (true), did not (false); absent where it did not say. */
  envio_x_mail?: boolean;
  /** To whom it was e-mailed. */
  envio_x_mail_direcciones?: string[];
  /** Its pages on the service (`micrositios`), where the account has them. */
  micrositios?: { cliente: string | null; descarga: string | null };
  /** The same reference was sent before with other content (status `conflict`): what the service holds is not this file's voucher. */
  content_changed?: boolean;
  /** Issued, but its PDF or ticket could not be saved: the next run fetches it. */
  documents_missing?: boolean;
  hint?: Text;
  /** What happened on the way (documents not saved, still queued…). */
  warnings?: Text[];
  /** The checks' warnings (total filled in, cotizacion…), told on stderr as the voucher was read. */
  warning_details?: Problem[];
}

/** A result with nothing known yet but who the voucher is. */
export function blankResult(
  status: VoucherStatus,
  voucher: { source: string; reference: string; tipo: string | null; punto_venta: number | null; total: string | null },
): VoucherResult {
  return {
    ok: status === "issued" || status === "queued" || status === "skipped-duplicate",
    status,
    source: voucher.source,
    external_reference: voucher.reference,
    comprobante_tipo: voucher.tipo,
    punto_venta: voucher.punto_venta,
    numero: null,
    comprobante_nro: null,
    cae: null,
    vencimiento_cae: null,
    vencimiento_pago: null,
    total: voucher.total,
    qr: null,
    pdf: null,
    ticket: null,
    errors: [],
    error_details: [],
  };
}

/** `place: message [code]`, or `message [code]` where there is no place: one readable line. */
export function problemText(p: { code: string; place?: Text | null; message: Text }): Message {
  return concat(p.place ? concat(p.place, ": ") : "", p.message, ` [${p.code}]`);
}

/** The code of an error told only as text: what kind of result it is. */
export const TEXT_ERROR_CODE: Record<VoucherStatus, string> = {
  issued: "voucher.error",
  queued: "voucher.error",
  "skipped-duplicate": "voucher.error",
  rejected: "service.rejected",
  invalid: "voucher.invalid",
  unknown: "outcome.unknown",
  held: "voucher.held",
  conflict: "reference.reused",
};

/**
 * Every error of a result as an object, the shape of `validate --json`'s (and `text`, as
 * `error_details` always had): the details, then each error told only as text.
 */
export function errorObjects(r: VoucherResult): (Problem & { text: Text })[] {
  const objects = r.error_details.map((d) => ({
    code: d.code,
    field: d.field ?? null,
    place: d.place ?? null,
    message: d.text,
    text: d.text,
  }));
  for (const e of r.errors)
    if (!r.error_details.some((d) => d.text !== "" && english(e).includes(english(d.text))))
      objects.push({ code: TEXT_ERROR_CODE[r.status], field: null, place: null, message: e, text: e });
  return objects;
}

/** Every warning as an object: the checks' first, then the others (`voucher.warning`). */
export function warningObjects(r: VoucherResult): Problem[] {
  return [
    ...(r.warning_details ?? []),
    ...(r.warnings ?? []).map((w) => ({ code: "voucher.warning", field: null, place: null, message: w })),
  ];
}

/** Every warning as one readable line. */
export function warningTexts(r: VoucherResult): Text[] {
  return [...(r.warning_details ?? []).map(problemText), ...(r.warnings ?? [])];
}
