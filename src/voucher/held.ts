/**
 * A voucher as the service holds it, in the client's own terms: what the protocol
 * (api/protocol.ts) maps the service's answers to, and what the core, the journal and the books
 * read. Types only: the reading of the service's shapes stays in the protocol.
 */

export type Operacion = "V" | "C";

/** What the service says about a voucher it holds: the only three states (reference §8.2). */
export type HeldState = "issued" | "queued" | "queue-error";

/** What the authority gave an issued voucher, and where its documents are (placeholders read as null). */
export interface Authorization {
  punto_venta: number | null;
  numero: number | null;
  cae: string | null;
  vencimiento_cae: string | null;
  vencimiento_pago: string | null;
  qr: string | null;
  pdf_url: string | null;
  ticket_url: string | null;
  /** The authority approved it with observations (reference §6.9). */
  observations: string[];
  /**
   * Whether the service e-mailed it to the customer (`envio_x_mail` S or N, reference §6.1); null
   * where the answer does not say (a blank, an odd value, a listing, which does not carry it, §6.9).
   * The protocol always sets these three; a fake service may leave them out (read as not said).
   */
  envio_x_mail?: boolean | null;
  /** To whom (`envio_x_mail_direcciones`, comma-separated on the wire). */
  envio_x_mail_direcciones?: string[];
  /** The customer's and the download page (`micrositios`), where the account has them (§6.1). */
  micrositios?: Micrositios;
}

/** The voucher's pages on the service (`micrositios`): http(s) URLs, or null (the field's "" when not enabled). */
export interface Micrositios {
  cliente: string | null;
  descarga: string | null;
}

/** A voucher as `consulta` / `consulta_avanzada` report it, normalised. */
export interface ServiceVoucher extends Authorization {
  external_reference: string;
  state: HeldState;
  /** The service's own text (`EMITIDO`, `ENVIADO A PROCESAR - CON ERROR`…). */
  status: string;
  tipo: string;
  /** null while queued (the service shows 0). */
  numero: number | null;
  fecha: string | null;
  total: string | null;
  /**
   * Why a queued voucher failed: the item's `afip_observaciones` (documented), or an `errores`
   * list (undocumented, read where a service sends one); else only its status text.
   */
  errors: string[];
  /** A voucher that failed in the queue, whose item says no more than its status (reference §6.9). */
  reasonMissing?: boolean;
  /** A purchase's party is its supplier (`proveedor`). */
  operacion: Operacion;
  /** The item as the service sent it (strings trimmed), for display: `proveedor` instead of `cliente` on a purchase. */
  raw: { cliente?: Record<string, unknown>; proveedor?: Record<string, unknown>; comprobante: Record<string, unknown> };
}
