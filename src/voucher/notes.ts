/**
 * A credit or debit note from a voucher the service issued, as its query answers it (reference
 * §6.9): the note of the voucher's class, to the same customer, with the same items, and the
 * association the authority needs (tipo, point of sale, number, date, issuer CUIT). Pure: the
 * service's answer in, an envelope out; fetching it is the caller's (`issue --from-ref`).
 */
import { createHash } from "node:crypto";
import { FacturarError } from "../errors.js";
import { msg, rateIn, type Text } from "../i18n/message.js";
import { amount as readableAmount } from "./amount.js";
import {
  FCE_DATA,
  FCE_REGIME,
  VAT_CONDITIONS,
  VAT_CONDITIONS_BY_CLASS,
  VAT_EXEMPT,
  VAT_NON_TAXED,
  type VatCondition,
  VOUCHER_TYPE_NAMES,
  VOUCHER_TYPES,
  type VoucherTypeInfo,
  voucherTypeInfo,
} from "./codes.js";
import { Dec } from "./decimal.js";
import { decodeQr } from "./qr.js";
import { LIMITS } from "./rules.js";
import { comprobanteSchema, envelopeSchema } from "./schema.js";
import { allocate, computeTotals } from "./totals.js";

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
  /** A partial note; by default the note adjusts the whole voucher. */
  part?: NotePart;
  /**
   * E-mail the note to the voucher's addresses (`envia_por_mail: "S"`). The query answer gives
   * the addresses but not whether the voucher was mailed (reference §6.9), so it is asked.
   */
  mail?: boolean;
}

/**
 * What a partial note adjusts: some of the voucher's items (counted from 1), whole; or an amount,
 * the note's total with VAT, split over the voucher's VAT rates in the proportion it had them.
 */
export type NotePart = { items: number[] } | { amount: string };

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

/** The part asked for does not fit the voucher (an item it lacks, more than it was worth). */
export class NotePartError extends FacturarError {
  constructor(message: Text, hint?: Text) {
    super(message, "invalid", "notes.part", hint);
  }
}

/** The voucher cannot be adjusted by a note built from it. */
export class NoteSourceError extends FacturarError {
  constructor(message: Text, hint?: Text) {
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
    throw new NoteSourceError(msg("{tipo} is not a voucher a credit or debit note adjusts", { tipo: tipo || "?" }));
  if (info.class === "E")
    throw new NoteSourceError(
      msg("export notes (class E) from a voucher are not built yet: their association goes in fex"),
    );
  // An FCE note adjusts exactly one FCE invoice (tax-rules §2.1).
  if (info.fce && info.kind !== "invoice")
    throw new NoteSourceError(msg("an FCE note adjusts an FCE invoice, not {tipo}", { tipo }));
  // A note is undone by the opposite note: a credit note of a credit note credits the invoice twice.
  if (info.kind === kind)
    throw new NoteSourceError(
      kind === "credit"
        ? msg("{tipo} is a credit note: a debit note undoes it, not another credit note", { tipo })
        : msg("{tipo} is a debit note: a credit note undoes it, not another debit note", { tipo }),
    );
  const wanted = (i: VoucherTypeInfo) => i.class === info.class && i.kind === kind && i.fce === info.fce;
  const name = VOUCHER_TYPE_NAMES.find((n) => wanted(voucherTypeInfo(n) as VoucherTypeInfo));
  if (!name) throw new NoteSourceError(msg("{tipo} is not a voucher a credit or debit note adjusts", { tipo }));
  return name;
}

/**
 * The note's reference, derived from the voucher's so that a second run finds the first note
 * at the service and does not issue another: `R-NC1`, `R-ND1`.
 */
/** The authority's voucher codes, the first part of an unreferenced voucher's stem. */
const STEM_CODES = new Set(
  Object.values(VOUCHER_TYPES)
    .map((info) => info.code)
    .filter((code): code is number => code !== null),
);

export function noteReference(source: NoteSource, kind: NoteKind = "credit", sequence = 1): string {
  const suffix = `-${kind === "credit" ? "NC" : "ND"}${sequence}`;
  const original = source.external_reference;
  if (original === "")
    return `${voucherTypeInfo(source.tipo)?.code ?? "X"}-${source.punto_venta}-${source.numero}${suffix}`;
  const base = original.replace(/[^A-Za-z0-9_-]/g, "_");
  const room = LIMITS.externalReference - suffix.length;
  // A reference that reads as an unreferenced voucher's stem (`6-3-7`: a voucher code, a point of
  // sale, a number, no leading zeros) would share its notes; a date (`2026-11-27`) does not read so.
  const stem = /^([1-9]\d{0,2})-([1-9]\d{0,4})-([1-9]\d{0,7})$/.exec(original);
  const stemLike = stem !== null && STEM_CODES.has(Number(stem[1]));
  if (base === original && base.length <= room && !stemLike) return `${base}${suffix}`;
  // Cut to fit, with characters replaced, or shaped like a stem, two vouchers' references could
  // become one: a digest of the whole original keeps their notes apart.
  const tag = `-H${createHash("sha256").update(original).digest("hex").slice(0, 16)}`;
  return `${base.slice(0, room - tag.length)}${tag}${suffix}`;
}

/**
 * What the customer's VAT condition most likely is, when the answer does not say; always one the
 * class takes. A and M go to a registered taxpayer; an FCE B invoice to a company (a CUIT), which
 * in class B is an exempt one, not a final consumer; any other B or C, to a final consumer.
 */
function defaultCondition(info: VoucherTypeInfo, documentType: string, allowed: readonly VatCondition[]): VatCondition {
  const likely: VatCondition =
    info.class === "A" || info.class === "M" ? "RI" : info.fce && documentType === "CUIT" ? "E" : "CF";
  return allowed.includes(likely) ? likely : (allowed[0] as VatCondition);
}

function issuerCuit(c: Json, given: string | undefined): string {
  const qr = decodeQr(text(c.afip_qr) || text(c.tax_qr));
  const cuit = qr?.cuit ? String(qr.cuit) : given?.replace(/[-\s.]/g, "");
  if (!cuit)
    throw new NoteSourceError(
      msg(
        "the service's answer does not say the issuer's CUIT (its QR is missing), which the note's association needs",
      ),
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
      msg("{tipo} has no number or date yet (is it still queued?): a note names an issued voucher", { tipo }),
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
  const allowed = info.class ? VAT_CONDITIONS_BY_CLASS[info.class] : VAT_CONDITIONS;
  // Told, it is the user's word: one the class does not take is refused, never swapped for another.
  if (opts.condicionIva && !allowed.includes(opts.condicionIva))
    throw new NoteSourceError(
      msg("a class {class} voucher goes to a customer whose VAT condition is {allowed}, not {condition}", {
        class: info.class ?? "?",
        allowed: allowed.join(", "),
        condition: opts.condicionIva,
      }),
    );
  // The voucher's own condition, where the answer carries it, before any default.
  const given = opts.condicionIva ?? VAT_CONDITIONS.find((x) => x === answered && allowed.includes(x));
  const condicion_iva = given ?? defaultCondition(info, documento_tipo, allowed);
  const cliente: Json = {
    documento_tipo,
    documento_nro: text(cl.documento_nro),
    razon_social: text(cl.razon_social),
    condicion_iva,
  };
  for (const key of ["email", "domicilio"] as const) if (text(cl[key])) cliente[key] = text(cl[key]);
  if (opts.mail) {
    if (!cliente.email)
      throw new NoteSourceError(
        msg("{tipo} {numero} has no e-mail address at the service: its note cannot be e-mailed", {
          tipo,
          numero: `${String(punto_venta).padStart(5, "0")}-${String(numero).padStart(8, "0")}`,
        }),
      );
    cliente.envia_por_mail = "S";
  }

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
  if (opts.part) partOf(envelope, source, kind, opts.part);
  return { envelope, source, assumed: given ? [] : ["condicion_iva"] };
}

/** The printed number of the voucher a note adjusts: `00679-00000012`. */
function printedNumber(source: NoteSource): string {
  return `${String(source.punto_venta).padStart(5, "0")}-${String(source.numero).padStart(8, "0")}`;
}

/** Narrows the whole note to the part asked for, in place; its total computed anew. */
function partOf(envelope: BuiltNote["envelope"], source: NoteSource, kind: NoteKind, part: NotePart): void {
  const c = envelope.comprobante;
  const whole = c.detalle as Json[];
  if ("items" in part) {
    const outside = part.items.filter((n) => !Number.isInteger(n) || n < 1 || n > whole.length);
    if (outside.length > 0)
      throw new NotePartError(
        msg("{tipo} {numero} has items 1 to {count}, not {items}", {
          tipo: source.tipo,
          numero: printedNumber(source),
          count: whole.length,
          items: outside.join(", "),
        }),
      );
    // A voucher-wide discount or perception belongs to no item: which share of it a few items
    // carry is the issuer's decision, not a guess of this builder.
    if (c.bonificacion !== undefined || c.tributos !== undefined)
      throw new NotePartError(
        msg(
          "{tipo} {numero} has a discount or perceptions over all its items: a note of some items cannot say its share",
          {
            tipo: source.tipo,
            numero: printedNumber(source),
          },
        ),
        msg("give the amount to adjust instead (--amount)"),
      );
    c.detalle = [...new Set(part.items)].sort((a, b) => a - b).map((n) => whole[n - 1]);
  } else {
    const wanted = Dec.tryParse(part.amount);
    if (!wanted || wanted.sign() <= 0 || wanted.roundHalfEven(2).cmp(wanted) !== 0)
      throw new NotePartError(
        msg("the amount must be positive, in cents at most, not {amount}", { amount: part.amount }),
      );
    const groups = rateGroups(envelope, source);
    // What a note of an amount can credit: the voucher's items with their VAT. Its perceptions
    // and internal taxes are not adjusted (the note carries none: whose share of a perception a
    // part is, the agent decides), so they are not creditable through it either.
    const creditable = Dec.sum(groups.map((g) => g.gross));
    if (kind === "credit" && wanted.cmp(creditable) > 0) {
      const voucherTotal = Dec.parse(String(c.total ?? source.total ?? "0"));
      // Amounts as the reader writes them (es 2.076.425,68): these are messages, not data.
      const figures = {
        amount: readableAmount(wanted),
        tipo: source.tipo,
        numero: printedNumber(source),
        total: readableAmount(voucherTotal),
        creditable: readableAmount(creditable),
        other: readableAmount(voucherTotal.sub(creditable)),
      };
      throw new NotePartError(
        voucherTotal.cmp(creditable) > 0
          ? msg(
              "a credit note of {amount} is more than {tipo} {numero} can credit: {creditable} of items and VAT; the other {other} of its total {total} are perceptions or internal taxes, which a note of an amount does not adjust",
              figures,
            )
          : msg(
              "a credit note of {amount} is more than {tipo} {numero} was worth ({creditable}), before what its earlier notes credited",
              figures,
            ),
        voucherTotal.cmp(creditable) > 0
          ? msg("a whole note (no --amount) adjusts its perceptions too; or issue the note from a JSON file")
          : undefined,
      );
    }
    c.detalle = amountLines(groups, source, wanted);
    delete c.bonificacion;
    delete c.tributos;
  }
  const totals = totalsOf(envelope);
  if (totals) c.total = totals.total.toFixed(2);
}

type RateGroup = { rate: string; gross: Dec; taxed: boolean };

/**
 * What the voucher charged at each of its VAT rates, VAT included (exempt and non-taxed count as
 * rates): what a note of an amount splits over. Perceptions and internal taxes are not in it.
 */
function rateGroups(envelope: BuiltNote["envelope"], source: NoteSource): RateGroup[] {
  const totals = totalsOf(envelope);
  const detalle = envelope.comprobante.detalle as { producto: { alicuota: string } }[];
  if (!totals) throw new NoteSourceError(msg("the items of {tipo} cannot be read back", { tipo: source.tipo }));
  return totals.vatApplies
    ? [
        ...totals.rates.map((r) => ({ rate: r.rate, gross: r.net.add(r.vat), taxed: true })),
        { rate: VAT_EXEMPT, gross: totals.exempt, taxed: false },
        { rate: VAT_NON_TAXED, gross: totals.nonTaxed, taxed: false },
      ].filter((g) => g.gross.sign() > 0)
    : // Without VAT (class C) every item is plain net: one line, at the rate its items carry.
      [
        {
          rate: detalle[0]?.producto.alicuota ?? "0",
          gross: totals.net.add(totals.exempt).add(totals.nonTaxed),
          taxed: false,
        },
      ];
}

/**
 * One line per VAT rate of the voucher, its share of `amount` in proportion to what the voucher
 * charged at that rate, VAT included; each line's price is the net that, with its VAT, makes the
 * share, to the cent where the rate allows it. Where it does not, the cent left over goes to the
 * next line, and an exempt or non-taxed line (last) takes what is left exactly; only a voucher
 * without one may end a cent below. A share of nothing makes no line.
 */
function amountLines(groups: RateGroup[], source: NoteSource, amount: Dec): Json[] {
  const ordered = [...groups.filter((g) => g.taxed), ...groups.filter((g) => !g.taxed)];
  const shares = allocate(
    amount,
    ordered.map((g) => g.gross),
  );
  const label = `Ajuste s/ ${source.tipo} ${printedNumber(source)}`;
  let carried = Dec.ZERO;
  const lines: { group: RateGroup; price: Dec }[] = [];
  ordered.forEach((g, i) => {
    const share = (shares[i] ?? Dec.ZERO).add(carried);
    const price = g.taxed ? netFor(share, g.rate) : share;
    carried = share.sub(g.taxed ? price.add(vatAt(price, g.rate)) : price);
    if (price.sign() > 0) lines.push({ group: g, price });
  });
  if (lines.length === 0)
    throw new NotePartError(
      msg("{amount} is too small to make a note line at the voucher's VAT rates", { amount: readableAmount(amount) }),
    );
  return lines.map(({ group, price }) => ({
    cantidad: "1",
    producto: {
      descripcion: lines.length > 1 ? `${label} (${rateLabel(group.rate)})` : label,
      precio_unitario_sin_iva: price.toFixed(2),
      alicuota: group.rate,
    },
  }));
}

/** The VAT on `net` at `rate`, rounded as the authority does. */
function vatAt(net: Dec, rate: string): Dec {
  return net.mul(Dec.parse(rate)).shift(2).roundHalfEven(2);
}

/** A line's rate in its description; no `%`, which the service takes as an escape. */
function rateLabel(rate: string): string {
  // The voucher is Spanish, whatever the reader's language: 10,5 as es-AR writes it.
  return rate === VAT_EXEMPT ? "exento" : rate === VAT_NON_TAXED ? "no gravado" : `IVA ${rateIn("es", rate)}`;
}

/** The net that, with its VAT at `rate` rounded as the authority does, adds up to `gross`. */
function netFor(gross: Dec, rate: string): Dec {
  const vatOf = (net: Dec) => vatAt(net, rate);
  const estimate = Dec.parse(((gross.toNumber() * 100) / (100 + Number(rate))).toFixed(2));
  const cent = Dec.parse("0.01");
  const candidates = [estimate, estimate.sub(cent), estimate.add(cent)];
  const exact = candidates.find((net) => net.add(vatOf(net)).eq(gross));
  // No net makes it to the cent (at 21 % none gives 100.00): the nearest below, so a credit note
  // never gives back more than was asked.
  return (
    exact ?? candidates.filter((net) => net.add(vatOf(net)).cmp(gross) < 0).sort((a, b) => b.cmp(a))[0] ?? estimate
  );
}

/** The note's totals from its comprobante alone: a customer the schema questions is validation's to tell. */
function totalsOf(envelope: BuiltNote["envelope"]) {
  const parsed = comprobanteSchema.safeParse(envelope.comprobante);
  return parsed.success ? computeTotals(parsed.data) : undefined;
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
      msg("the items of {tipo} {numero} add up to {amount}, but the service says its total is {total}", {
        tipo: source.tipo,
        numero: source.numero,
        amount: readableAmount(totals.total),
        total: readableAmount(source.total),
      }),
      msg("issue the note from a JSON file with the items it adjusts"),
    );
  return totals.total.toFixed(2);
}
