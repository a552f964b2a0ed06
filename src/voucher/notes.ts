/**
 * A credit or debit note from a voucher the service issued, as its query answers it (reference
 * §6.9): the note of the voucher's class, to the same customer, with the same items, and the
 * association the authority needs (tipo, point of sale, number, date, issuer CUIT). Pure: the
 * service's answer in, an envelope out; fetching it is the caller's (`issue --from-ref`).
 */
import { FacturarError } from "../errors.js";
import { t } from "../i18n/index.js";
import {
  FCE_DATA,
  FCE_REGIME,
  VAT_CONDITIONS,
  VAT_CONDITIONS_BY_CLASS,
  type VatCondition,
  VOUCHER_TYPE_NAMES,
  type VoucherTypeInfo,
  voucherTypeInfo,
} from "./codes.js";
import { Dec } from "./decimal.js";
import { decodeQr } from "./qr.js";
import { LIMITS } from "./rules.js";
import { envelopeSchema } from "./schema.js";
import { computeTotals } from "./totals.js";

export type NoteKind = "credit" | "debit";

export interface NoteOptions {
  kind?: NoteKind;
  /** The note's date, dd/mm/yyyy. */
  fecha: string;
  /** The issuer's CUIT, when the answer's QR does not carry it. */
  issuerCuit?: string;
  /** The query answer does not give the customer's VAT condition: this one, else a class default. */
  condicionIva?: VatCondition;
  /** FCE notes: id 22, whether the note annuls the invoice ("S") or not ("N", the default). */
  annulment?: "S" | "N";
  /** The n-th note of this kind for the voucher: part of its reference (`R-NC1`, `R-NC2`). */
  sequence?: number;
}

/** The voucher a note adjusts, as its association names it. */
export interface NoteSource {
  tipo: string;
  punto_venta: number;
  numero: number;
  fecha: string;
  total: string | null;
  external_reference: string;
}

export interface BuiltNote {
  envelope: { cliente: Record<string, unknown>; comprobante: Record<string, unknown> };
  source: NoteSource;
  /** Fields the answer did not give and the builder chose (the caller may ask for them). */
  assumed: "condicion_iva"[];
}

/** The voucher cannot be adjusted by a note built from it. */
export class NoteSourceError extends FacturarError {
  constructor(message: string, hint?: string) {
    super(message, "invalid", "notes.source", hint);
  }
}

type Json = Record<string, unknown>;

function text(value: unknown): string {
  if (typeof value === "string") return value.trim();
  if (typeof value === "number") return String(value);
  return "";
}

/** A number the service answered (a JSON number, or its text), as the schema reads it. */
function amount(value: unknown): string | undefined {
  const s = text(value);
  return s !== "" && Number.isFinite(Number(s)) ? String(Number(s)) : undefined;
}

function positive(value: unknown): string | undefined {
  const s = amount(value);
  return s !== undefined && Number(s) > 0 ? s : undefined;
}

/** The note of `kind` that adjusts a voucher of type `info`, by the type table. */
export function noteType(tipo: string, kind: NoteKind = "credit"): string {
  const info = voucherTypeInfo(tipo);
  if (!info?.class || !["invoice", "debit", "credit"].includes(info.kind))
    throw new NoteSourceError(t("{tipo} is not a voucher a credit or debit note adjusts", { tipo: tipo || "?" }));
  if (info.class === "E")
    throw new NoteSourceError(
      t("export notes (class E) from a voucher are not built yet: their association goes in fex"),
    );
  // An FCE note adjusts exactly one FCE invoice (tax-rules §2.1).
  if (info.fce && info.kind !== "invoice")
    throw new NoteSourceError(t("an FCE note adjusts an FCE invoice, not {tipo}", { tipo }));
  // A note is undone by the opposite note: a credit note of a credit note credits the invoice twice.
  if (info.kind === kind)
    throw new NoteSourceError(
      kind === "credit"
        ? t("{tipo} is a credit note: a debit note undoes it, not another credit note", { tipo })
        : t("{tipo} is a debit note: a credit note undoes it, not another debit note", { tipo }),
    );
  const wanted = (i: VoucherTypeInfo) => i.class === info.class && i.kind === kind && i.fce === info.fce;
  const name = VOUCHER_TYPE_NAMES.find((n) => wanted(voucherTypeInfo(n) as VoucherTypeInfo));
  if (!name) throw new NoteSourceError(t("{tipo} is not a voucher a credit or debit note adjusts", { tipo }));
  return name;
}

/**
 * The note's reference, derived from the voucher's so that a second run finds the first note
 * at the service and does not issue another: `R-NC1`, `R-ND1`.
 */
export function noteReference(source: NoteSource, kind: NoteKind = "credit", sequence = 1): string {
  const suffix = `-${kind === "credit" ? "NC" : "ND"}${sequence}`;
  const base =
    source.external_reference.replace(/[^A-Za-z0-9_-]/g, "_") ||
    `${voucherTypeInfo(source.tipo)?.code ?? "X"}-${source.punto_venta}-${source.numero}`;
  return `${base.slice(0, LIMITS.externalReference - suffix.length)}${suffix}`;
}

/** What the customer's VAT condition most likely is, when the answer does not say. */
function defaultCondition(info: VoucherTypeInfo, documentType: string): VatCondition {
  return info.class === "A" || info.class === "M" || (info.fce && documentType === "CUIT") ? "RI" : "CF";
}

function issuerCuit(c: Json, given: string | undefined): string {
  const qr = decodeQr(text(c.afip_qr) || text(c.tax_qr));
  const cuit = qr?.cuit ? String(qr.cuit) : given?.replace(/[-\s.]/g, "");
  if (!cuit)
    throw new NoteSourceError(
      t("the service's answer does not say the issuer's CUIT (its QR is missing), which the note's association needs"),
    );
  return cuit;
}

/** The note that adjusts the voucher `answer` (`{cliente, comprobante}` as `consulta` returns it). */
export function noteFromVoucher(answer: { cliente?: unknown; comprobante?: unknown }, opts: NoteOptions): BuiltNote {
  const kind = opts.kind ?? "credit";
  const c = (answer.comprobante ?? {}) as Json;
  const cl = (answer.cliente ?? {}) as Json;
  const tipo = text(c.tipo);
  const info = voucherTypeInfo(tipo);
  const type = noteType(tipo, kind);
  const punto_venta = Number(c.punto_venta);
  const numero = Number(c.numero);
  const fecha = text(c.fecha);
  if (!info || !(punto_venta > 0) || !(numero > 0) || !/^\d\d\/\d\d\/\d{4}$/.test(fecha))
    throw new NoteSourceError(
      t("{tipo} has no number or date yet (is it still queued?): a note names an issued voucher", { tipo }),
    );
  const source: NoteSource = {
    tipo,
    punto_venta,
    numero,
    fecha,
    total: amount(c.total) ?? null,
    external_reference: text(c.external_reference),
  };

  const documento_tipo = text(cl.documento_tipo).toUpperCase();
  const answered = text(cl.condicion_iva_operacion) || text(cl.condicion_iva);
  const given = opts.condicionIva ?? VAT_CONDITIONS.find((x) => x === answered);
  const allowed = info.class ? VAT_CONDITIONS_BY_CLASS[info.class] : VAT_CONDITIONS;
  const condicion_iva = given ?? defaultCondition(info, documento_tipo);
  const cliente: Json = {
    documento_tipo,
    documento_nro: text(cl.documento_nro),
    razon_social: text(cl.razon_social),
    condicion_iva: allowed.includes(condicion_iva) ? condicion_iva : allowed[0],
  };
  for (const key of ["email", "domicilio"] as const) if (text(cl[key])) cliente[key] = text(cl[key]);

  const detalle = (Array.isArray(c.detalle) ? (c.detalle as Json[]) : []).map((d) => {
    const p = (d.producto ?? {}) as Json;
    const internal = positive(p.impuestos_internos_alicuota);
    const discount = positive(d.bonificacion_porcentaje);
    return {
      cantidad: amount(d.cantidad) ?? "",
      ...(discount ? { bonificacion_porcentaje: discount } : {}),
      ...(text(d.leyenda) ? { leyenda: text(d.leyenda) } : {}),
      producto: {
        descripcion: text(p.descripcion),
        // The answer names it precio_unitario; a request, precio_unitario_sin_iva (reference §6.9).
        precio_unitario_sin_iva: amount(p.precio_unitario ?? p.precio_unitario_sin_iva) ?? "",
        alicuota: amount(p.alicuota) ?? "",
        ...(internal ? { impuestos_internos_alicuota: internal } : {}),
      },
    };
  });
  const moneda = text(c.moneda) || "PES";
  const desde = text(c.periodo_facturado_desde);
  const hasta = text(c.periodo_facturado_hasta);
  const bonificacion = positive(c.bonificacion);
  const tributos = (Array.isArray(c.tributos) ? (c.tributos as Json[]) : []).map((x) => ({
    tipo: Number(x.tipo),
    regimen: Number(x.regimen),
    base_imponible: amount(x.base_imponible) ?? "",
    alicuota: amount(x.alicuota) ?? "",
    total: amount(x.total) ?? "",
  }));
  const rubro = text(c.rubro) || "Ventas";
  const comprobante: Json = {
    tipo: type,
    operacion: "V",
    fecha: opts.fecha,
    vencimiento: opts.fecha,
    moneda,
    ...(moneda !== "PES" && amount(c.cotizacion) ? { cotizacion: amount(c.cotizacion) } : {}),
    ...(Number.isInteger(Number(c.idioma)) && Number(c.idioma) > 0 ? { idioma: Number(c.idioma) } : {}),
    ...(desde && hasta ? { periodo_facturado_desde: desde, periodo_facturado_hasta: hasta } : {}),
    rubro,
    rubro_grupo_contable: text(c.rubro_grupo_contable) || rubro,
    external_reference: noteReference(source, kind, opts.sequence ?? 1),
    detalle,
    ...(bonificacion ? { bonificacion } : {}),
    ...(tributos.length > 0 ? { tributos } : {}),
    comprobantes_asociados: [
      { tipo_comprobante: tipo, punto_venta, numero, comprobante_fecha: fecha, cuit: issuerCuit(c, opts.issuerCuit) },
    ],
    ...(info.fce
      ? { rg_especiales: { regimen: FCE_REGIME, datos: [{ id: FCE_DATA.ANNULMENT, valor: opts.annulment ?? "N" }] } }
      : {}),
  };
  const envelope = { cliente, comprobante };
  const total = noteTotal(envelope, source);
  if (total) comprobante.total = total;
  return { envelope, source, assumed: given ? [] : ["condicion_iva"] };
}

/**
 * The note's total from its items; refused when they do not add up to the voucher's own total,
 * for then they were not read as the voucher carried them (a price with VAT, a lost item).
 */
function noteTotal(envelope: BuiltNote["envelope"], source: NoteSource): string | undefined {
  const parsed = envelopeSchema.safeParse(envelope);
  if (!parsed.success) return undefined; // validation names the field
  const totals = computeTotals(parsed.data.comprobante);
  if (source.total !== null && totals.total.sub(Dec.parse(source.total)).abs().cmp(totals.tolerance) > 0)
    throw new NoteSourceError(
      t("the items of {tipo} {numero} add up to {amount}, but the service says its total is {total}", {
        tipo: source.tipo,
        numero: source.numero,
        amount: totals.total.toFixed(2),
        total: source.total,
      }),
      t("issue the note from a JSON file with the items it adjusts"),
    );
  return totals.total.toFixed(2);
}
