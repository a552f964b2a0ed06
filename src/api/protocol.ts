/**
 * The service's protocol, typed: one function per method the CLI uses, request bodies typed, every
 * answer parsed with zod where the reference's quirks are normalised (padded values, numeric
 * references and numbers, `errores: [""]`, `afip_` names, the queued placeholders), and ONE
 * classifier from what the service reports to the state of a voucher (design.md "The service's
 * protocol"). Commands and the exactly-once core depend on the `Service` interface, so they can
 * be driven in-process by the embedded sandbox or by a scripted fake.
 */

import * as z from "zod";
import { FacturarError } from "../errors.js";
import { concat, msg, type Text } from "../i18n/message.js";
import type { Authorization, HeldState, Micrositios, Operacion, ServiceVoucher } from "../voucher/held.js";
import { unescapeText } from "../voucher/text.js";
import { type ApiClient, errorTexts, parseVoucherNumber, UnavailableError } from "./client.js";
import type { HttpResponse } from "./http.js";
import { TransportError } from "./http.js";
import { repairMojibake } from "./mojibake.js";
import { printable } from "./redact.js";

export type IssueMode = "instant" | "queued";

/** The answer to an issuing call for one voucher (`nuevo`, `nuevo_encola`, an item of a batch). */
export type IssueAnswer =
  | (Authorization & {
      ok: true;
      state: "issued" | "queued";
      comprobante_tipo: string | null;
    })
  | {
      ok: false;
      errors: string[];
      details: { code: string; text: string }[];
      /** The buyer must get a MiPyME credit invoice (reference §6.4). */
      requiresFce: boolean;
      /** A `lotes` item that was not processed because an earlier one failed (§6.8). */
      notProcessed?: boolean;
      /** Refused because the authority is down (AuthorityDownError): the service's failure, not the voucher's. */
      unavailable?: AuthorityDownError;
    };

export interface BatchAnswer {
  /** One per voucher sent, in the order sent (matched by the reference each item names). */
  items: IssueAnswer[];
  /**
   * The batch was refused whole, nothing processed, for this row (counted from 0) alone: its
   * item holds the error; the others were not looked at (reference §6.8).
   */
  refusedRow?: number;
}

export interface Links {
  pdf: string | null;
  ticket: string | null;
}

/**
 * The authority (AFIP/ARCA) is down: the service refuses every instant voucher with the
 * authority's failure (reference §6.4 "AFIP No devolvio el CAE asociado", §6.5 outages). No
 * voucher's fault, so the run stops; queued issuing still takes vouchers.
 */
export class AuthorityDownError extends UnavailableError {
  constructor(readonly errors: string[]) {
    super(
      msg("the tax authority's service is down: {message}", { message: errors.join("; ") }),
      msg(
        "nothing more was sent; run again later, or queue the vouchers meanwhile with `facturar issue-queued` (the service issues them once the authority is back)",
      ),
      "service.authority-down",
    );
  }
}

/**
 * The authority's "not available" text; or "AFIP No devolvio el CAE" with nothing said about the
 * voucher. Not the code: TFC-6661 comes with every error of the authority's (rates, numbering).
 */
const AUTHORITY_UNAVAILABLE = /\b(autoridad\s+fiscal|AFIP|ARCA)\b.{0,40}\bno\s+(est[aá]\s+)?disponible/i;
const NO_CAE_CAME_BACK = /\b(AFIP|ARCA)\s+no\s+devolvi[oó]\s+el\s+CAE\b/i;

/** Whether a refusal is the authority being down rather than anything about the voucher. */
function authorityDown(errors: string[], details: { code: string; text: string }[]): boolean {
  const texts = [...errors, ...details.map((d) => d.text)].filter((e) => e.trim() !== "");
  if (texts.some((e) => AUTHORITY_UNAVAILABLE.test(e))) return true;
  return texts.length > 0 && texts.every((e) => NO_CAE_CAME_BACK.test(e));
}

/**
 * The service refuses queued vouchers at this point of sale: it has no webhook URL, which
 * `nuevo_encola` and `lotes_encola` require (reference §6.7 "Prerequisites", §12). Nothing was
 * queued, and every other queued voucher would be refused alike (each refusal costs a request of
 * the plan's quota), so the run stops. `--wait` polls, but the service asks for the webhook anyway.
 */
export class WebhookRequiredError extends FacturarError {
  constructor(readonly errors: string[]) {
    super(
      msg("the service refuses queued vouchers at this point of sale: {message}", { message: errors.join("; ") }),
      "rejected",
      "service.webhook-required",
      WEBHOOK_HINT(),
    );
  }
}

/** What to do about a point of sale without a webhook URL (said wherever the refusal is told). */
export const WEBHOOK_HINT = () =>
  msg(
    "queued issuing needs a webhook URL on the point of sale: set it in the service's web panel (Mi espacio de trabajo > CUITs / PDV, edit the point of sale: the webhook is at the foot of the page); `issue-queued --wait` polls the service, but does not replace the webhook; `facturar issue` issues at once without one",
  );

/** The answer was not what the protocol promises: its outcome cannot be read from it. */
export class MalformedAnswerError extends UnavailableError {
  constructor(method: string, problem: Text, hint?: Text) {
    super(
      msg("the service's answer to {method} cannot be read: {problem}", { method, problem }),
      hint ?? msg("the base URL may point at something else than the service, or a proxy is in the way"),
      "service.malformed",
    );
  }
}

/** The service answered `error: "S"` to a call that is not issuing. */
export class ServiceRefusedError extends FacturarError {
  constructor(
    what: Text,
    readonly errors: string[],
  ) {
    super(concat(what, ": ", errors.join("; ") || msg("the service said no")), "rejected", "service.error");
  }
}

// --- normalisation -------------------------------------------------------------------------

/** A text the service may pad, send as a number, or leave out. */
function text(value: unknown): string {
  if (typeof value === "string") return printable(value).trim();
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return "";
}

function textOrNull(value: unknown): string | null {
  const s = text(value);
  return s === "" ? null : s;
}

function numberOrNull(value: unknown): number | null {
  const n = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
  return Number.isFinite(n) ? n : null;
}

function details(value: unknown): { code: string; text: string }[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((d): d is Record<string, unknown> => d !== null && typeof d === "object")
    .map((d) => ({ code: text(d.code), text: text(d.text) }))
    .filter((d) => d.code !== "" || d.text !== "");
}

/** Trims every string of a block (for display); nested blocks too. */
function trimmed(value: unknown): Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return {};
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (typeof v === "string") out[key] = shownText(v);
    else if (Array.isArray(v))
      out[key] = v.map((x) =>
        typeof x === "string" ? shownText(x) : x !== null && typeof x === "object" ? trimmed(x) : x,
      );
    else if (v !== null && typeof v === "object") out[key] = trimmed(v);
    else out[key] = v;
  }
  return out;
}

/**
 * A text of the service's answer as people read it: control sequences out first (a server's own
 * line breaks included), then the service's escapes undone (`#&#` is %, `#@#` a line break).
 */
function shownText(value: string): string {
  return unescapeText(printable(value).trim());
}

/** `envio_x_mail`: S or N (any case, padded, or SI/NO, or a JSON boolean); null for anything else. */
function mailFlag(value: unknown): boolean | null {
  if (typeof value === "boolean") return value;
  const s = text(value).toUpperCase();
  if (s === "S" || s === "SI") return true;
  if (s === "N" || s === "NO") return false;
  return null;
}

/** `envio_x_mail_direcciones`: the addresses of a comma (or semicolon) separated text, or a list; what is no address left out. */
function mailAddresses(value: unknown): string[] {
  const parts = Array.isArray(value) ? value.map(text) : text(value).split(/[,;\s]+/);
  return parts.map((p) => p.trim()).filter((p) => /^[^@\s]+@[^@\s]+$/.test(p));
}

/** An http(s) URL the service gives, or null (an empty field, a placeholder, anything else). */
function pageUrl(value: unknown): string | null {
  const s = text(value);
  if (!/^https?:\/\//i.test(s)) return null;
  try {
    new URL(s);
    return s;
  } catch {
    return null;
  }
}

function micrositios(value: unknown): Micrositios {
  const m =
    value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  return { cliente: pageUrl(m.cliente), descarga: pageUrl(m.descarga) };
}

/** What an answer or a listed voucher says of the e-mail and the pages. */
function mailing(
  answer: Record<string, unknown>,
): Required<Pick<Authorization, "envio_x_mail" | "envio_x_mail_direcciones" | "micrositios">> {
  return {
    envio_x_mail: mailFlag(answer.envio_x_mail),
    envio_x_mail_direcciones: mailAddresses(answer.envio_x_mail_direcciones),
    micrositios: micrositios(answer.micrositios),
  };
}

/** The queued placeholders (`cae: " "`, `01/01/2000`, `…-00000000`) mean "not yet". */
function realDate(value: unknown): string | null {
  const s = textOrNull(value);
  return s === null || s === "01/01/2000" ? null : s;
}

/** Every answer has `error`; the rest is read field by field. */
const envelope = z.looseObject({
  error: z.unknown().transform(text).pipe(z.string().min(1)),
});

function parseEnvelope(method: string, answer: unknown): Record<string, unknown> & { error: string } {
  // Small schemas parsed a few times a run: compiling their parsers (zod's JIT) would cost more.
  const parsed = envelope.safeParse(answer, { jitless: true });
  if (!parsed.success) throw new MalformedAnswerError(method, msg("it has no error field"));
  const error = parsed.data.error.toUpperCase();
  if (error !== "N" && error !== "S" && error !== "PARCIAL")
    throw new MalformedAnswerError(method, msg("error is {value}", { value: JSON.stringify(parsed.data.error) }));
  return { ...(parsed.data as Record<string, unknown>), error };
}

/** No voucher matches: the service says so with an error text, not an empty list. */
function isNotFound(errors: string[]): boolean {
  return /no se (han )?encontr/i.test(errors.join(" "));
}

/** `00679-00000074`, for messages. */
function voucherNumberText(puntoVenta: number, numero: number): string {
  return `${String(puntoVenta).padStart(5, "0")}-${String(numero).padStart(8, "0")}`;
}

// --- the one classifier ---------------------------------------------------------------------

/**
 * What a voucher the service holds is, from its `status` text (reference §8.2). A text we do not
 * know is read as queued: the voucher exists, so it is never sent again, and it is not called
 * issued without a number.
 */
export function classifyStatus(status: string, numero: number | null): HeldState {
  const s = status.toUpperCase();
  if (s === "EMITIDO") return "issued";
  if (s.includes("CON ERROR")) return "queue-error";
  if (s === "" && numero !== null && numero > 0) return "issued";
  return "queued";
}

/** What a refusal says follows from it, as the service's words tell (reference §6.4, §8.1, §9.1). */
export type RefusalCause =
  /** Numbering or dates: the voucher after it in its lane would be refused too. */
  | "sequence"
  /** A number was sent that is not the next one. */
  | "next-number"
  /** The point of sale has queued vouchers, which block instant issuing. */
  | "queue-blocked"
  /** The customer's VAT condition does not fit the voucher's class (TFC-8004). */
  | "vat-condition"
  /** The buyer must get a MiPyME credit invoice (`requiere_fec: SI`). */
  | "requires-fce"
  /**
   * The point of sale has no webhook URL, which queued issuing requires (reference §6.7, §12):
   * the reference gives no wording, so any refusal that speaks of the webhook.
   */
  | "webhook-missing";

/**
 * The causes a refusal's texts and codes name: the one place the service's error texts are read
 * for meaning, beside classifyStatus for what it holds.
 */
export function refusalCauses(errors: string[], codes: string[], requiresFce = false): Set<RefusalCause> {
  const text = errors.join(" ");
  const causes = new Set<RefusalCause>();
  if (requiresFce) causes.add("requires-fce");
  if (codes.includes("TFC-8004")) causes.add("vat-condition");
  if (/encolad/i.test(text)) causes.add("queue-blocked");
  if (/\bweb[\s-]?hook/i.test(text)) causes.add("webhook-missing");
  if (/proximo a emitir|next/i.test(text)) causes.add("next-number");
  // The voucher's own number or date against its lane's (not any "numero" or "fecha": a
  // customer's document number says nothing of the lane).
  if (
    /\b1001[56]\b|proximo a (emitir|autorizar)|n[uú]mero (de|del) comprobante|n[uú]mero o fecha|fecha del comprobante|\bfecha\b[^.;]{0,40}\banterior|ordenado por fecha|CbteFch|Fecha_cbte/i.test(
      text,
    )
  )
    causes.add("sequence");
  return causes;
}

/**
 * Does a listed voucher stand under `reference`? The service echoes a reference of digits as a
 * JSON number (reference §6.7): `00777` comes back 777, and past 15 digits rounded. Such an echo
 * stands for every reference that reads as the same number: taking one too many is safe (its
 * content is compared before anything is sent), missing one would send it again.
 */
export function sameReference(listed: ServiceVoucher, reference: string): boolean {
  return namesReference(listed.raw.comprobante.external_reference, reference);
}

/** Does a reference as the service echoed it (text, or a number) name `reference`? */
function namesReference(echoed: unknown, reference: string): boolean {
  if (text(echoed) === reference) return true;
  return typeof echoed === "number" && /^\d+$/.test(reference) && Number(reference) === echoed;
}

/**
 * The voucher to trust among several under one reference (the service does not keep references
 * unique): issued, then queued, then failed in the queue.
 */
export function preferred(list: ServiceVoucher[]): ServiceVoucher | undefined {
  const rank = { issued: 0, queued: 1, "queue-error": 2 } as const;
  return [...list].sort((a, b) => rank[a.state] - rank[b.state])[0];
}

const queryItem = z.looseObject({
  cliente: z.unknown().optional(),
  proveedor: z.unknown().optional(),
  comprobante: z.looseObject({}),
});

export function serviceVoucher(item: unknown): ServiceVoucher | undefined {
  const parsed = queryItem.safeParse(item, { jitless: true });
  if (!parsed.success) return undefined;
  const c = parsed.data.comprobante as Record<string, unknown>;
  const numero = numberOrNull(c.numero);
  const status = text(c.status);
  const state = classifyStatus(status, numero);
  const total = numberOrNull(c.total);
  const observations = errorTexts(c.afip_observaciones ?? c.observaciones);
  const reasons = state === "queue-error" ? [...errorTexts(c.errores), ...observations] : [];
  return {
    external_reference: text(c.external_reference),
    state,
    status,
    tipo: text(c.tipo),
    punto_venta: numberOrNull(c.punto_venta),
    numero: numero === null || numero <= 0 ? null : numero,
    fecha: textOrNull(c.fecha),
    total: total === null ? textOrNull(c.total) : total.toFixed(2),
    cae: textOrNull(c.cae),
    vencimiento_cae: realDate(c.vencimiento_cae),
    vencimiento_pago: textOrNull(c.vencimiento_pago),
    qr: textOrNull(c.afip_qr) ?? textOrNull(c.tax_qr),
    pdf_url: textOrNull(c.comprobante_pdf_url),
    ticket_url: textOrNull(c.comprobante_ticket_url),
    errors: state !== "queue-error" ? [] : reasons.length > 0 ? [...new Set(reasons)] : [status],
    reasonMissing: state === "queue-error" && reasons.length === 0,
    observations,
    ...mailing(c),
    operacion: text(c.operacion).toUpperCase() === "C" ? "C" : "V",
    // Trimmed only when shown: a date's listing reads thousands of vouchers for their references.
    get raw() {
      return parsed.data.proveedor !== undefined && parsed.data.cliente === undefined
        ? { proveedor: trimmed(parsed.data.proveedor), comprobante: trimmed(c) }
        : { cliente: trimmed(parsed.data.cliente), comprobante: trimmed(c) };
    },
  };
}

/** An issuing answer that cannot be read says nothing of what was stored: as lost as a timeout. */
function lostIfUnreadable<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof MalformedAnswerError) throw new TransportError(error.text, "dropped", true);
    throw error;
  }
}

/** The row of a batch an error names (`fila 3 (comenzando en 0)`), if it names one of those sent. */
export function namedRow(errors: string[], count: number): number | undefined {
  const row = /\bfila\s+(\d+)/i.exec(errors.join(" "));
  const n = row ? Number(row[1]) : undefined;
  return n !== undefined && n < count ? n : undefined;
}

const BATCH_ROW = /\b(?:la )?fila\s+\d+\s*\(comenzando en 0\)/gi;

/**
 * A service text about one voucher of a batch with its row (`Fila 6 (comenzando en 0)`, counted
 * in the batch sent, not in the user's file) put as the voucher's own place in the input.
 */
export function placeBatchRow(text: string, place: string): string {
  return text.replace(BATCH_ROW, place);
}

/**
 * A `lotes` or `lotes_encola` answer: one item per voucher sent, each matched to its voucher by
 * the reference it names (never by its place in the list), in the order the vouchers were sent.
 * An answer that does not account for each voucher, one to one, says nothing sure of any of them:
 * MalformedAnswerError (the caller treats it as lost, and asks the service about each).
 */
function batchAnswer(method: string, mode: IssueMode, answer: Record<string, unknown>, sent: string[]): BatchAnswer {
  const count = sent.length;
  const top = text(answer.error).toUpperCase();
  const list: unknown[] = Array.isArray(answer.response) ? answer.response : [];
  if (list.length === 0) {
    // Issued, but no item says which: the outcome of each is to be asked.
    if (top === "N") throw new MalformedAnswerError(method, msg("no item for the vouchers sent"));
    if (top === "PARCIAL")
      throw new MalformedAnswerError(method, msg("no item names the vouchers sent ({errors})", { errors: top }));
    const whole = issueAnswer(method, answer, mode);
    if (!whole.ok && whole.unavailable) throw whole.unavailable;
    // Refused whole for want of a webhook (§6.8 lotes_encola: "el lote no se procesara"): no lost answer.
    if (!whole.ok && mode === "queued" && refusalCauses(whole.errors, []).has("webhook-missing"))
      throw new WebhookRequiredError(whole.errors);
    // "la fila 3 (comenzando en 0)…": that voucher's refusal. The others are not named: the
    // caller asks about each of them.
    const refusedRow = top === "S" && !whole.ok ? namedRow(whole.errors, count) : undefined;
    if (refusedRow !== undefined) return { items: Array.from({ length: count }, () => whole), refusedRow };
    // A partial queueing, PARCIAL, an error that names no row: none of the vouchers is named.
    throw new MalformedAnswerError(
      method,
      msg("no item names the vouchers sent ({errors})", {
        errors: whole.ok ? top : whole.errors.join("; ").slice(0, 300) || top,
      }),
    );
  }
  const byReference = new Map<string, IssueAnswer>();
  for (const [i, raw] of list.entries()) {
    if (raw === null || typeof raw !== "object" || Array.isArray(raw))
      throw new MalformedAnswerError(method, msg("item {n} is not an answer", { n: i }));
    const item = raw as Record<string, unknown>;
    const reference = text(item.external_reference);
    if (reference === "") throw new MalformedAnswerError(method, msg("item {n} names no voucher", { n: i }));
    if (!sent.includes(reference))
      throw new MalformedAnswerError(method, msg("item {n} names {ref}, which was not sent", { n: i, ref: reference }));
    if (byReference.has(reference))
      throw new MalformedAnswerError(method, msg("two items name {ref}", { ref: reference }));
    byReference.set(reference, issueAnswer(method, item, mode));
  }
  if (byReference.size < count)
    throw new MalformedAnswerError(method, msg("{n} items for {count} vouchers sent", { n: byReference.size, count }));
  const items: IssueAnswer[] = [];
  let failedBefore = false;
  for (const reference of sent) {
    const item = byReference.get(reference) as IssueAnswer;
    // §6.8: after the authority fails one voucher of a batch, it processes none of the rest.
    if (!item.ok && failedBefore && mode === "instant") item.notProcessed = true;
    if (!item.ok) failedBefore = true;
    items.push(item);
  }
  return { items };
}

/** One voucher's issuing answer (the top level of `nuevo`, or an item of a batch). */
export function issueAnswer(method: string, answer: Record<string, unknown>, mode: IssueMode): IssueAnswer {
  const error = text(answer.error).toUpperCase();
  if (error !== "N") {
    // PARCIAL is documented for deleting from the queue only: of one voucher, it says nothing sure.
    if (error !== "S")
      throw new MalformedAnswerError(method, msg("error is {value}", { value: JSON.stringify(answer.error) }));
    const errors = errorTexts(answer.errores);
    const list = details(answer.error_details);
    const told = errors.length > 0 ? errors : list.map((d) => d.text).filter((x) => x !== "");
    return {
      ok: false,
      errors: told,
      details: list,
      requiresFce: text(answer.requiere_fec).toUpperCase() === "SI",
      ...(authorityDown(errors, list) ? { unavailable: new AuthorityDownError(told) } : {}),
    };
  }
  const number = parseVoucherNumber(answer.comprobante_nro);
  const numero = number && number.numero > 0 ? number.numero : null;
  return {
    ok: true,
    state: mode === "queued" ? "queued" : "issued",
    comprobante_tipo: textOrNull(answer.comprobante_tipo),
    punto_venta: number?.punto_venta ?? null,
    numero: mode === "queued" ? null : numero,
    cae: textOrNull(answer.cae),
    vencimiento_cae: realDate(answer.vencimiento_cae ?? answer.cae_vencimiento),
    vencimiento_pago: textOrNull(answer.vencimiento_pago),
    qr: textOrNull(answer.afip_qr) ?? textOrNull(answer.tax_qr),
    pdf_url: textOrNull(answer.comprobante_pdf_url),
    ticket_url: textOrNull(answer.comprobante_ticket_url),
    observations: errorTexts(answer.afip_observaciones ?? answer.observaciones),
    ...mailing(answer),
  };
}

/**
 * A reference's vouchers among the sales, else among the purchases: for lookups that do not know
 * which the reference is (the journal keeps no `operacion`; `qr --ref`, `pdf --ref`).
 */
export async function findSaleOrPurchase(service: Service, reference: string): Promise<ServiceVoucher[]> {
  const sales = await service.findByReference(reference, "V");
  return sales.length > 0 ? sales : service.findByReference(reference, "C");
}

// --- reference lists: any list of records ---------------------------------------------------

/** A reference list as the service sent it, and each record's code and description. */
export interface ReferenceTable {
  /** Where the list was: "" when the answer is the list itself, else its path ("items", "resultado.tabla"). */
  at: string;
  /** The records as they came (texts made printable, nothing else changed). */
  records: unknown[];
  items: { id: string; descripcion: string }[];
}

/** A key as people name fields: lower case, no accents, no separators. */
function fieldName(key: string): string {
  return key
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");
}

/** Where a list of records is looked for first (the documented `items`, then likely names). */
const LIST_KEYS = [
  "items",
  "datos",
  "data",
  "resultado",
  "resultados",
  "tabla",
  "tablas",
  "lista",
  "listado",
  "registros",
  "response",
  "respuesta",
  "valores",
  "elementos",
];
/** The envelope's own lists: never a table. */
const NOT_LISTS = new Set(["errores", "errorcod", "errordetails"]);
const CODE_FIELDS = ["id", "codigo", "code", "cod", "valor", "value", "clave", "key", "sigla"];
const TEXT_FIELDS = [
  "descripcion",
  "description",
  "desc",
  "nombre",
  "name",
  "detalle",
  "denominacion",
  "texto",
  "label",
];

/** A record: an object, a pair (array) or a plain code. */
function isRecord(value: unknown): boolean {
  return value !== null && value !== undefined && (typeof value !== "object" || Object.keys(value).length > 0);
}

/**
 * The list of records in an answer: the answer itself when it is a list; else the first list
 * under the names of LIST_KEYS (or the table's own name), looked for at the top, then a level or
 * two down; else the longest other list. Empty lists count only where nothing else is found.
 */
function recordList(answer: unknown, table: string): { list: unknown[]; at: string } | undefined {
  if (Array.isArray(answer)) return { list: answer.filter(isRecord), at: "" };
  const known = new Set([...LIST_KEYS, fieldName(table)]);
  const lists: { list: unknown[]; at: string; known: boolean; depth: number }[] = [];
  const visit = (value: unknown, path: string[], depth: number) => {
    if (value === null || typeof value !== "object" || depth > 3) return;
    for (const [key, inner] of Object.entries(value)) {
      if (NOT_LISTS.has(fieldName(key))) continue;
      if (Array.isArray(inner))
        lists.push({
          list: inner.filter(isRecord),
          at: [...path, key].join("."),
          known: known.has(fieldName(key)),
          depth,
        });
      else visit(inner, [...path, key], depth + 1);
    }
  };
  visit(answer, [], 0);
  const rank = (l: (typeof lists)[number]) => [l.list.length > 0 ? 0 : 1, l.known ? 0 : 1, l.depth, -l.list.length];
  const best = lists.sort((a, b) => {
    const [x, y] = [rank(a), rank(b)];
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
    return 0;
  })[0];
  return best && (best.list.length > 0 || best.known) ? { list: best.list, at: best.at } : undefined;
}

/** A record's code and description, from the fields that name them, else from its first fields. */
function tableItem(record: unknown): { id: string; descripcion: string } {
  if (Array.isArray(record)) {
    const parts = record.map(shownValue).filter((p) => p !== "");
    return { id: parts[0] ?? "", descripcion: parts.slice(1).join(" ") };
  }
  if (record === null || typeof record !== "object") return { id: shownValue(record), descripcion: "" };
  const fields = Object.entries(record)
    .filter(([, v]) => v === null || typeof v !== "object")
    .map(([key, v]) => ({ name: fieldName(key), value: shownValue(v) }))
    .filter((f) => f.value !== "");
  const pick = (names: string[]) => {
    for (const name of names) {
      const found = fields.find((f) => f.name === name);
      if (found) return found;
    }
    return undefined;
  };
  const code = pick(CODE_FIELDS);
  const description = pick(TEXT_FIELDS);
  const rest = fields.filter((f) => f !== code && f !== description);
  const id = code ?? rest.shift();
  return {
    id: id?.value ?? "",
    descripcion: description ? description.value : rest.map((f) => f.value).join(" - "),
  };
}

/** A value of a record as shown: text trimmed and unescaped, numbers as written. */
function shownValue(value: unknown): string {
  return typeof value === "string" ? shownText(value) : text(value);
}

// --- the interface the core depends on ------------------------------------------------------

export interface ServiceStatus {
  /** Invoicing works (`error: "N"` and `facturacion: "OK"`). */
  ok: boolean;
  /** The service answered without an error (it may still report an alert in `facturacion`). */
  answered: boolean;
  facturacion: string | null;
  maintenance: { desde?: unknown; hasta?: unknown; titulo?: unknown; texto?: unknown }[];
  novedades: string;
  errors: string[];
}

export interface QueueActionAnswer {
  partial: boolean;
  processed: string[];
  errors: string[];
}

export interface PaymentMethod {
  descripcion: string;
  /** Two decimals, dot ("1200.50"). */
  importe: string;
}

/** The registry's record of a CUIT (`clientes/afip-info`), its VAT condition also as a voucher's code. */
export interface RegistryRecord {
  cuit: string;
  razon_social: string;
  /** `RESPONSABLE INSCRIPTO`, `MONOTRIBUTO`, `EXENTO`; empty when registered in neither. */
  condicion_impositiva: string;
  /** The same as `condicion_iva` takes it (RI, M, E); null when it has none of them. */
  condicion_iva: "RI" | "M" | "E" | null;
  direccion: string;
  localidad: string;
  codigopostal: string;
  provincia: string;
  estado: string;
  actividad: { id: string; descripcion: string; periodo: string }[];
  /** What the service said beside the data (a CUIT registered in neither VAT nor monotributo). */
  errors: string[];
}

/**
 * `micuenta/consumo` as its page documents it (reference §6.10), no more: the vouchers of the
 * current subscription cycle. The other methods' quotas are their own (spec §8); the answer does
 * not report them, nor when the plan ends.
 */
export interface PlanUsage {
  /** Vouchers scheduled as recurring (`abono`). */
  abonos_pendientes: number;
  /** Vouchers issued this cycle. */
  comprobantes_generados: number;
  /** Vouchers the subscription includes. */
  comprobantes_cupo: number;
  /** Vouchers left. */
  comprobantes_disponibles: number;
}

export interface LedgerRow {
  fecha: string;
  concepto: string;
  debe: string;
  haber: string;
  resta_abonar_de_este_comprobante: string;
  saldo: string;
}

export interface ProductPage {
  pagina: number;
  limite: number;
  orden_criterio?: "fecha_creacion" | "descripcion" | "codigo";
  orden?: "ASC" | "DESC";
}

export interface Product {
  codigo: string;
  lista_precios: string;
  descripcion: string;
  precio_unitario_sin_iva: string;
  alicuota: string;
  moneda: string;
  unidad_medida: string;
  [field: string]: unknown;
}

const REGISTRY_CONDITIONS: Record<string, "RI" | "M" | "E"> = {
  "RESPONSABLE INSCRIPTO": "RI",
  MONOTRIBUTO: "M",
  EXENTO: "E",
};

/** An amount the service sends as a number or text, with two decimals; "0.00" when missing. */
function money(value: unknown): string {
  const n = numberOrNull(value);
  return (n ?? 0).toFixed(2);
}

function product(p: Record<string, unknown>): Product {
  const { error: _error, errores: _errores, ...out } = trimmed(p);
  return {
    ...out,
    codigo: text(p.codigo),
    lista_precios: text(p.lista_precios),
    descripcion: text(p.descripcion),
    precio_unitario_sin_iva: text(p.precio_unitario_sin_iva),
    alicuota: text(p.alicuota),
    moneda: text(p.moneda) || "PES",
    unidad_medida: text(p.unidad_medida),
  };
}

export interface Service {
  readonly baseUrl: URL;
  /**
   * Issues one voucher (`nuevo` or `nuevo_encola`). Throws TransportError when the answer was lost
   * (timeout, dropped, 5xx, unreadable): the voucher may or may not be stored.
   */
  issue(mode: IssueMode, voucher: Record<string, unknown>): Promise<IssueAnswer>;
  /** Several vouchers in one call (`lotes` or `lotes_encola`); TransportError as `issue`. */
  issueBatch(mode: IssueMode, vouchers: Record<string, unknown>[]): Promise<BatchAnswer>;
  /** Every voucher the service holds under a reference, newest first. */
  findByReference(reference: string, operacion?: Operacion): Promise<ServiceVoucher[]>;
  /** Every voucher dated `fecha` (dd/mm/yyyy), page after page, newest first. */
  listByDate(fecha: string, operacion?: Operacion): AsyncGenerator<ServiceVoucher>;
  listByNumbers(
    tipo: string,
    puntoVenta: number | undefined,
    from: number,
    to: number,
    operacion?: Operacion,
  ): AsyncGenerator<ServiceVoucher>;
  /** `consulta`: one voucher by type, point of sale and number (a purchase's: the supplier's). */
  voucher(
    tipo: string,
    puntoVenta: number | undefined,
    numero: number,
    operacion?: Operacion,
  ): Promise<ServiceVoucher | undefined>;
  /** `regenerar_pdf`: fresh document links of an issued voucher. */
  freshLinks(tipo: string, puntoVenta: number, numero: number, operacion?: Operacion): Promise<Links>;
  /** `reenviar`: e-mails an issued voucher again (only one e-mailed when issued). */
  resend(tipo: string, puntoVenta: number, numero: number, operacion?: Operacion): Promise<void>;
  /** `pagar`: records a payment of an issued sale in the client's ledger (amounts with 2 decimals). */
  pay(tipo: string, puntoVenta: number, numero: number, formas: PaymentMethod[], total: string): Promise<void>;
  /** `comprobante_eliminar`: deletes a purchase (the supplier's point of sale and number); the service's text. */
  deletePurchase(tipo: string, puntoVenta: number, numero: number): Promise<string>;
  /** `clientes/afip-info`: the registry's record of a CUIT. */
  registry(cuit: string): Promise<RegistryRecord>;
  /** `micuenta/consumo`: the subscription's vouchers, issued and left. */
  usage(): Promise<PlanUsage>;
  /** `clientes/cuenta-corriente`: a client's ledger, oldest first. */
  customerLedger(cuit: string): Promise<LedgerRow[]>;
  /** `productos/listar`: one page of the price lists' products. */
  products(page: ProductPage): Promise<{ total: number; productos: Product[] }>;
  /** `productos/consultar`: products by price list and code (at most 50), in the order asked; null where unknown. */
  productsByCode(wanted: { lista_precios: string; codigo: string }[]): Promise<(Product | { error: Text })[]>;
  /** `tablas_referencia/<name>`: a reference list, in whatever shape the service sends it. */
  referenceTable(name: string): Promise<ReferenceTable>;
  /** `reenviar_encolado`: an errored queued voucher back in the queue. */
  requeue(reference: string): Promise<QueueActionAnswer>;
  deleteQueued(reference: string, fecha?: string): Promise<QueueActionAnswer>;
  /** `cambiar_fecha_encolado`: its body carries both dates (reference §4.2). */
  reschedule(reference: string, fecha: string, vencimiento: string): Promise<QueueActionAnswer>;
  /**
   * `numeracion`: the number the point of sale's next voucher of this type gets (the last issued
   * plus one). Both versions of the method's page say "next" and show an example of it.
   */
  nextNumber(tipo: string, puntoVenta: number): Promise<number>;
  requiresFce(cuit: string, fecha?: string): Promise<{ obligated: boolean; from: number }>;
  /** `topecf`: the final-consumer identification ceiling, as text with two decimals. */
  ceiling(): Promise<string>;
  /**
   * `tablas_referencia/cotizacion`: the authority's rate of a currency in pesos per unit, as the
   * service writes it ("1015.50"); today's, or the day's (at most 2 months back).
   */
  exchangeRate(moneda: string, fecha?: string): Promise<string>;
  status(): Promise<ServiceStatus>;
  download(url: URL): Promise<HttpResponse>;
}

/** The service over HTTP, through the transport client (retries, deadlines, typed failures). */
export class HttpService implements Service {
  constructor(readonly client: ApiClient) {}

  get baseUrl(): URL {
    return this.client.baseUrl;
  }

  async issue(mode: IssueMode, voucher: Record<string, unknown>): Promise<IssueAnswer> {
    const method = mode === "queued" ? "facturacion/nuevo_encola" : "facturacion/nuevo";
    const answer = await this.issuing(method, voucher);
    const sent = text((voucher.comprobante as Record<string, unknown> | undefined)?.external_reference);
    // An answer that names another voucher (two answers crossed on the way) says nothing of this one.
    if (answer.external_reference !== undefined && text(answer.external_reference) !== "" && sent !== "")
      if (!namesReference(answer.external_reference, sent))
        throw new TransportError(
          msg("the answer names {ref}, not the voucher sent ({sent})", { ref: text(answer.external_reference), sent }),
          "dropped",
          true,
        );
    const parsed = lostIfUnreadable(() => issueAnswer(method, answer, mode));
    if (!parsed.ok && parsed.unavailable) throw parsed.unavailable;
    if (
      !parsed.ok &&
      mode === "queued" &&
      refusalCauses(
        [...parsed.errors, ...parsed.details.map((d) => d.text)],
        parsed.details.map((d) => d.code),
      ).has("webhook-missing")
    )
      throw new WebhookRequiredError(parsed.errors);
    return parsed;
  }

  /**
   * An answer that cannot be read whole (no list where one is due, an item without its outcome,
   * fewer items than vouchers) is a lost answer: the service may have stored any of them, so the
   * caller asks about each, never reports one "not sent" on the strength of it.
   */
  async issueBatch(mode: IssueMode, vouchers: Record<string, unknown>[]): Promise<BatchAnswer> {
    const method = mode === "queued" ? "facturacion/lotes_encola" : "facturacion/lotes";
    const answer = await this.issuing(method, { requests: vouchers });
    const sent = vouchers.map((v) => text((v.comprobante as Record<string, unknown> | undefined)?.external_reference));
    return lostIfUnreadable(() => batchAnswer(method, mode, answer, sent));
  }

  async findByReference(reference: string, operacion: Operacion = "V"): Promise<ServiceVoucher[]> {
    const found: ServiceVoucher[] = [];
    for await (const v of this.advanced({
      busqueda_tipo: "EXT_REF",
      comprobante: { external_reference: reference, operacion },
    }))
      if (sameReference(v, reference)) found.push(v);
    return found;
  }

  listByDate(fecha: string, operacion: Operacion = "V"): AsyncGenerator<ServiceVoucher> {
    return this.advanced({ busqueda_tipo: "F", comprobante: { fecha, operacion } });
  }

  listByNumbers(
    tipo: string,
    puntoVenta: number | undefined,
    from: number,
    to: number,
    operacion: Operacion = "V",
  ): AsyncGenerator<ServiceVoucher> {
    return this.advanced({
      busqueda_tipo: "TN",
      comprobante: { tipo, operacion, punto_venta: puntoVenta, numero_desde: from, numero_hasta: to },
    });
  }

  async voucher(
    tipo: string,
    puntoVenta: number | undefined,
    numero: number,
    operacion: Operacion = "V",
  ): Promise<ServiceVoucher | undefined> {
    const method = "facturacion/consulta";
    const answer = parseEnvelope(
      method,
      await this.client.read(method, { comprobante: { tipo, operacion, punto_venta: puntoVenta, numero } }),
    );
    if (answer.error !== "N") {
      const errors = errorTexts(answer.errores);
      if (isNotFound(errors)) return undefined;
      throw new ServiceRefusedError(msg("consulta failed"), errors);
    }
    const found = serviceVoucher({
      ...(answer.proveedor !== undefined ? { proveedor: answer.proveedor } : { cliente: answer.cliente }),
      comprobante: answer.comprobante,
    });
    if (!found) throw new MalformedAnswerError(method, msg("it has no comprobante"));
    return found;
  }

  async freshLinks(tipo: string, puntoVenta: number, numero: number, operacion: Operacion = "V"): Promise<Links> {
    const method = "facturacion/regenerar_pdf";
    const answer = parseEnvelope(
      method,
      await this.client.read(method, { comprobante: { tipo, operacion, punto_venta: puntoVenta, numero } }),
    );
    if (answer.error !== "N")
      throw new ServiceRefusedError(
        msg("no documents for {tipo} {puntoVenta}-{numero}", { tipo, puntoVenta, numero }),
        errorTexts(answer.errores),
      );
    return { pdf: textOrNull(answer.comprobante_pdf_url), ticket: textOrNull(answer.comprobante_ticket_url) };
  }

  async resend(tipo: string, puntoVenta: number, numero: number, operacion: Operacion = "V"): Promise<void> {
    const method = "facturacion/reenviar";
    // Sends an e-mail: one attempt, as the queue's actions (a lost answer is the caller's to report).
    const answer = parseEnvelope(
      method,
      await this.client.request(
        method,
        { comprobante: { tipo, operacion, punto_venta: puntoVenta, numero } },
        { write: true },
      ),
    );
    if (answer.error !== "N")
      throw new ServiceRefusedError(
        msg("{tipo} {number} was not e-mailed again", { tipo, number: voucherNumberText(puntoVenta, numero) }),
        errorTexts(answer.errores),
      );
  }

  async pay(tipo: string, puntoVenta: number, numero: number, formas: PaymentMethod[], total: string): Promise<void> {
    const method = "facturacion/pagar";
    const answer = parseEnvelope(
      method,
      await this.client.request(
        method,
        {
          comprobante: {
            tipo,
            operacion: "V",
            punto_venta: puntoVenta,
            numero,
            pagos: {
              formas_pago: formas.map((f) => ({ descripcion: f.descripcion, importe: Number(f.importe) })),
              total: Number(total),
            },
          },
        },
        { write: true },
      ),
    );
    if (answer.error !== "N")
      throw new ServiceRefusedError(
        msg("the payment of {tipo} {number} was not recorded", { tipo, number: voucherNumberText(puntoVenta, numero) }),
        errorTexts(answer.errores),
      );
  }

  async deletePurchase(tipo: string, puntoVenta: number, numero: number): Promise<string> {
    const method = "facturacion/comprobante_eliminar";
    const answer = parseEnvelope(
      method,
      await this.client.request(
        method,
        { comprobante: { tipo, operacion: "C", punto_venta: puntoVenta, numero } },
        { write: true },
      ),
    );
    if (answer.error !== "N")
      throw new ServiceRefusedError(
        msg("the purchase {tipo} {number} was not deleted", { tipo, number: voucherNumberText(puntoVenta, numero) }),
        errorTexts(answer.errores),
      );
    return text(answer.rta);
  }

  async registry(cuit: string): Promise<RegistryRecord> {
    const method = "clientes/afip-info";
    const answer = parseEnvelope(
      method,
      await this.client.read(method, { cliente: { documento_tipo: "CUIT", documento_nro: cuit } }),
    );
    const errors = errorTexts(answer.errores);
    // The registry's texts may come double-encoded (§6.3, `MUÃ‘OZ`): repaired where they decode cleanly.
    const said = (value: unknown) => repairMojibake(text(value));
    const razon_social = said(answer.razon_social);
    // A CUIT registered in neither VAT nor monotributo comes with its data and error "S" (§6.10).
    if (answer.error !== "N" && razon_social === "")
      throw new ServiceRefusedError(msg("no registry record for CUIT {cuit}", { cuit }), errors);
    if (razon_social === "") throw new MalformedAnswerError(method, msg("it has no razon_social"));
    const condicion = text(answer.condicion_impositiva).toUpperCase();
    return {
      cuit,
      razon_social,
      condicion_impositiva: condicion,
      condicion_iva: REGISTRY_CONDITIONS[condicion] ?? null,
      direccion: said(answer.direccion),
      localidad: said(answer.localidad),
      codigopostal: text(answer.codigopostal),
      provincia: said(answer.provincia),
      estado: text(answer.estado),
      actividad: (Array.isArray(answer.actividad) ? answer.actividad : [])
        .filter((a): a is Record<string, unknown> => a !== null && typeof a === "object")
        .map((a) => ({ id: text(a.id), descripcion: said(a.descripcion), periodo: text(a.periodo) })),
      errors: answer.error === "N" ? [] : errors.map(repairMojibake),
    };
  }

  async usage(): Promise<PlanUsage> {
    const method = "micuenta/consumo";
    const answer = parseEnvelope(method, await this.client.read(method));
    if (answer.error !== "N") throw new ServiceRefusedError(msg("consumo failed"), errorTexts(answer.errores));
    const count = (field: string) => {
      const n = numberOrNull(answer[field]);
      if (n === null) throw new MalformedAnswerError(method, msg("it has no {field}", { field }));
      return n;
    };
    return {
      abonos_pendientes: numberOrNull(answer.abonos_pendientes) ?? 0,
      comprobantes_generados: count("comprobantes_generados"),
      comprobantes_cupo: count("comprobantes_cupo"),
      comprobantes_disponibles: count("comprobantes_disponibles"),
    };
  }

  async customerLedger(cuit: string): Promise<LedgerRow[]> {
    const method = "clientes/cuenta-corriente";
    const answer = parseEnvelope(
      method,
      await this.client.read(method, { cliente: { documento_tipo: "CUIT", documento_nro: cuit } }),
    );
    if (answer.error !== "N")
      throw new ServiceRefusedError(msg("no ledger for CUIT {cuit}", { cuit }), errorTexts(answer.errores));
    // The page shows `resultados`; it also calls the answer "a list".
    const list = Array.isArray(answer.resultados)
      ? answer.resultados
      : Array.isArray(answer.response)
        ? answer.response
        : [];
    return list
      .filter((r): r is Record<string, unknown> => r !== null && typeof r === "object")
      .map((r) => ({
        fecha: text(r.fecha),
        concepto: text(r.concepto),
        debe: money(r.debe),
        haber: money(r.haber),
        resta_abonar_de_este_comprobante: money(r.resta_abonar_de_este_comprobante),
        saldo: money(r.saldo),
      }));
  }

  async products(page: ProductPage): Promise<{ total: number; productos: Product[] }> {
    const method = "productos/listar";
    const answer = parseEnvelope(method, await this.client.read(method, { ...page }));
    if (answer.error !== "N") throw new ServiceRefusedError(msg("productos/listar failed"), errorTexts(answer.errores));
    const list = (Array.isArray(answer.productos) ? answer.productos : []).filter(
      (p): p is Record<string, unknown> => p !== null && typeof p === "object",
    );
    return { total: numberOrNull(answer.total) ?? list.length, productos: list.map(product) };
  }

  async productsByCode(wanted: { lista_precios: string; codigo: string }[]): Promise<(Product | { error: Text })[]> {
    const method = "productos/consultar";
    const answer = parseEnvelope(method, await this.client.read(method, { productos: wanted }));
    const list = Array.isArray(answer.productos) ? answer.productos : [];
    if (answer.error !== "N" && list.length === 0)
      throw new ServiceRefusedError(msg("productos/consultar failed"), errorTexts(answer.errores));
    return wanted.map((_, i) => {
      const p = list[i];
      if (p === null || typeof p !== "object") return { error: msg("the service returned no item for it") };
      const item = p as Record<string, unknown>;
      if (text(item.error).toUpperCase() === "S")
        return { error: errorTexts(item.errores).join("; ") || msg("the service said no") };
      return product(item);
    });
  }

  async referenceTable(name: string): Promise<ReferenceTable> {
    const method = `tablas_referencia/${name}`;
    // The lists' shape is undocumented but for a few pages (reference §14.4): any list of records.
    const raw: unknown = await this.client.read(method, {}, { list: true });
    // An `error` field is read as everywhere (a refusal is one); a list without one is taken too.
    if (!Array.isArray(raw) && Object.hasOwn(raw as object, "error")) {
      const answer = parseEnvelope(method, raw);
      if (answer.error !== "N")
        throw new ServiceRefusedError(msg("{method} failed", { method }), errorTexts(answer.errores));
    }
    const found = recordList(raw, name);
    if (!found)
      throw new MalformedAnswerError(
        method,
        msg("it holds no list of records (its fields: {fields})", {
          fields: Object.keys(raw as Record<string, unknown>).join(", "),
        }),
        msg("the shape of this method's answer is undocumented; `facturar --verbose table {name}` shows what came", {
          name,
        }),
      );
    return { at: found.at, records: found.list, items: found.list.map(tableItem) };
  }

  requeue(reference: string): Promise<QueueActionAnswer> {
    return this.queueAction("facturacion/reenviar_encolado", { external_reference: reference });
  }

  deleteQueued(reference: string, fecha?: string): Promise<QueueActionAnswer> {
    return this.queueAction("facturacion/eliminar_encolado", {
      external_reference: reference,
      ...(fecha ? { fecha } : {}),
    });
  }

  reschedule(reference: string, fecha: string, vencimiento: string): Promise<QueueActionAnswer> {
    return this.queueAction("facturacion/cambiar_fecha_encolado", {
      external_reference: reference,
      fecha,
      vencimiento,
    });
  }

  async nextNumber(tipo: string, puntoVenta: number): Promise<number> {
    const method = "facturacion/numeracion";
    const answer = parseEnvelope(
      method,
      await this.client.read(method, { comprobante: { tipo, operacion: "V", punto_venta: puntoVenta } }),
    );
    if (answer.error !== "N") throw new ServiceRefusedError(msg("numeracion failed"), errorTexts(answer.errores));
    const numero = numberOrNull((answer.comprobante as Record<string, unknown> | undefined)?.numero);
    if (numero === null) throw new MalformedAnswerError(method, msg("it has no number"));
    return numero;
  }

  async requiresFce(cuit: string, fecha?: string): Promise<{ obligated: boolean; from: number }> {
    const method = "facturacion/requiere_fec";
    const answer = parseEnvelope(
      method,
      await this.client.read(method, { cuit: Number(cuit), ...(fecha ? { fecha } : {}) }),
    );
    if (answer.error !== "N") throw new ServiceRefusedError(msg("requiere_fec failed"), errorTexts(answer.errores));
    return {
      obligated: text(answer.esta_obligado).toUpperCase() === "S",
      from: numberOrNull(answer.importe_desde) ?? 0,
    };
  }

  async ceiling(): Promise<string> {
    const method = "facturacion/topecf";
    const answer = parseEnvelope(method, await this.client.read(method));
    const monto = numberOrNull(answer.monto);
    if (answer.error !== "N" || monto === null || monto <= 0) {
      throw new FacturarError(
        msg("topecf did not answer a ceiling: {answer}", {
          answer: errorTexts(answer.errores).join("; ") || JSON.stringify(answer.monto),
        }),
        "rejected",
        "service.topecf",
      );
    }
    return monto.toFixed(2);
  }

  async exchangeRate(moneda: string, fecha?: string): Promise<string> {
    const method = "tablas_referencia/cotizacion";
    const answer = parseEnvelope(method, await this.client.read(method, { moneda, ...(fecha ? { fecha } : {}) }));
    if (answer.error !== "N")
      throw new ServiceRefusedError(msg("no exchange rate for {moneda}", { moneda }), errorTexts(answer.errores));
    const rate = text(answer.cotizacion).replace(",", ".");
    if (!/^\d+(\.\d+)?$/.test(rate) || Number(rate) <= 0)
      throw new MalformedAnswerError(
        method,
        msg("cotizacion is {value}", { value: JSON.stringify(answer.cotizacion ?? null) }),
      );
    return rate;
  }

  async status(): Promise<ServiceStatus> {
    const method = "estado_servicios/alertas";
    const answer = parseEnvelope(method, await this.client.read(method));
    const facturacion = textOrNull(answer.facturacion);
    return {
      ok: answer.error === "N" && (facturacion ?? "").toUpperCase() === "OK",
      answered: answer.error === "N",
      facturacion,
      maintenance: Array.isArray(answer.prox_mantenimientos_programados)
        ? answer.prox_mantenimientos_programados.filter((m) => m !== null && typeof m === "object")
        : [],
      novedades: text(answer.novedades),
      errors: errorTexts(answer.errores),
    };
  }

  download(url: URL): Promise<HttpResponse> {
    return this.client.download(url);
  }

  /**
   * An issuing call. An answer whose outcome cannot be read (not JSON, no `error`, too large)
   * may still mean the work was done: it is as lost as a timeout, and the caller reconciles.
   */
  private async issuing(method: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
    let answer: Record<string, unknown>;
    try {
      answer = await this.client.request(method, body, { write: true });
      return parseEnvelope(method, answer);
    } catch (error) {
      if (error instanceof MalformedAnswerError) throw new TransportError(error.text, "dropped", true);
      throw error;
    }
  }

  private async queueAction(method: string, body: Record<string, unknown>): Promise<QueueActionAnswer> {
    // These change the queue: one attempt (a lost answer is the caller's to report).
    const answer = parseEnvelope(method, await this.client.request(method, body, { write: true }));
    const errors = errorTexts(answer.errores);
    if (answer.error === "S") throw new ServiceRefusedError(String(body.external_reference), errors);
    return {
      partial: answer.error === "PARCIAL",
      processed: Array.isArray(answer.procesados) ? answer.procesados.map(text).filter((p) => p !== "") : [],
      errors,
    };
  }

  /** `consulta_avanzada`, every page (1000 a page; `total` counts before paging). */
  private async *advanced(body: Record<string, unknown>): AsyncGenerator<ServiceVoucher> {
    const method = "facturacion/consulta_avanzada";
    const limit = 1000;
    let seen = 0;
    for (let page = 0; ; page++) {
      const answer = parseEnvelope(method, await this.client.read(method, { ...body, pagina: page, limite: limit }));
      if (answer.error !== "N") {
        const errors = errorTexts(answer.errores);
        if (isNotFound(errors)) return;
        throw new FacturarError(
          msg("consulta_avanzada failed: {errors}", { errors: errors.join("; ") }),
          "unavailable",
          "service.query-failed",
        );
      }
      const items = Array.isArray(answer.comprobantes) ? answer.comprobantes : [];
      for (const item of items) {
        const v = serviceVoucher(item);
        if (v) yield v;
      }
      seen += items.length;
      // `total` says when the list ends, even if the service serves fewer a page than asked.
      const total = numberOrNull(answer.total);
      if (items.length === 0 || (total === null ? items.length < limit : seen >= total)) return;
    }
  }
}
