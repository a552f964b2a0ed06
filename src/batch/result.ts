/** One voucher's outcome, as every renderer, the report and the journal command read it. */

/** `held`: not sent, because an earlier voucher of its lane broke the sequence or a stop was asked. */
export type VoucherStatus = "issued" | "queued" | "skipped-duplicate" | "rejected" | "invalid" | "unknown" | "held";

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
  errors: string[];
  error_details: { code: string; text: string }[];
  /** Settled by asking the service (after a lost answer, or before sending), not by this run's own call. */
  reconciled?: boolean;
  /** The authority approved the voucher with observations. */
  observations?: string[];
  /** The same reference was sent before with other content: what the service holds is not this file's voucher. */
  content_changed?: boolean;
  /** Issued, but its PDF or ticket could not be saved: the next run fetches it. */
  documents_missing?: boolean;
  hint?: string;
  warnings?: string[];
}

/** A result with nothing known yet but who the voucher is. */
export function blankResult(
  status: VoucherStatus,
  voucher: { source: string; reference: string; tipo: string | null; punto_venta: number | null; total: string | null },
): VoucherResult {
  return {
    ok: status !== "rejected" && status !== "unknown" && status !== "invalid" && status !== "held",
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
