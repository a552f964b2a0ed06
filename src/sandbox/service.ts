/**
 * The methods of the hosted service's development plan (reference/api-v2.md §4, §6, §8), answered
 * with the real response shapes and their quirks: trailing spaces, `errores: [""]`, `afip_`-named
 * fields, numbers where requests sent text. The plan is not connected to the authority (spec §1):
 * `cae` comes back empty and the authority's checks are not applied, only the service's own. The
 * `authority-checks` fault (part of --like-production) applies the authority's too, as production
 * does, with its codes and texts where the references give them (productionRefusals,
 * authorityDateRefusal): a batch rehearsed there fails where production would.
 */
import {
  DOCUMENT_TYPE_CODES,
  type DocumentType,
  isNote,
  PAYMENT_CONDITIONS,
  TRIBUTO_REGIMES,
  TRIBUTO_TYPES,
  VAT_CONDITIONS_BY_CLASS,
  type VatCondition,
  type VoucherTypeInfo,
  voucherNumber,
  voucherTypeInfo,
} from "../voucher/codes.js";
import { argentinaToday, dayNumber, formatDay, toIsoDate } from "../voucher/dates.js";
import { Dec } from "../voucher/decimal.js";
import { inRateBand } from "../voucher/exchange.js";
import { isValidCuit } from "../voucher/ids.js";
import { qrUrl } from "../voucher/qr.js";
import { envelopeSchema } from "../voucher/schema.js";
import { unescapeText } from "../voucher/text.js";
import { computeTotals, itemNet, type Totals } from "../voucher/totals.js";
import { dropEmptyStrings } from "../voucher/validate.js";
import {
  afipInfo,
  comprobanteEliminar,
  consumo,
  cuentaCorriente,
  ledgerStatus,
  pagar,
  planEndDay,
  productosConsultar,
  productosListar,
  REFERENCE_TABLES,
  reenviar,
  referenceTable,
} from "./account.js";
import type { DocumentView } from "./documents.js";
import type { Faults } from "./faults.js";
import { DEFAULT_RATES } from "./rates.js";
import { fail, type Json, type Reply } from "./reply.js";
import { type PointOfSale, type Store, type StoredVoucher, VOUCHERS } from "./store.js";
import { NO_WEBHOOKS, type Webhooks, webhookOf } from "./webhooks.js";

export interface ServiceOptions {
  faults: Faults;
  /** The sandbox's own base URL, for the PDF links it hands out. */
  baseUrl: () => string;
  now: () => Date;
  random: () => number;
  /** Final-consumer ceiling `topecf` answers. */
  ceiling: number;
  /** The authority's exchange rates, pesos per unit by currency code (default: rates.ts). */
  rates?: Readonly<Record<string, string>>;
  /** The points of sale's webhook URLs (none by default). */
  webhooks?: Webhooks;
}

const FCE_THRESHOLD = 5_549_862;
const NOT_FOUND = "No se han encontrado comprobantes.";
const QUEUEABLE_MAX = 100;
const BATCH_MAX = 20;
const ITEMS_MAX = 130;
const EXTERNAL_REFERENCE = /^[A-Za-z0-9_-]{1,255}$/;
const DATE = /^(\d{2})\/(\d{2})\/(\d{4})$/;
/** The authority's tributo ids (tax-rules §2.5); the service's tipo (reference §10.6) is one of them. */
const AUTHORITY_TRIBUTO_IDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 99];
/** Days a note's associated voucher may be older than the note (reference §11: "about 15 days"). */
const NOTE_AGE_DAYS = 15;

/** `errores: [""]` is how several successes say "no error" (reference §6.3). */
const NO_ERRORS = [""];

/**
 * The observation of the `observe` fault: one the authority attaches to a FACTURA A whose buyer
 * may not compute its VAT (a text as ARCA's web service gives it, with its code).
 */
const OBSERVATION =
  "10217: El credito fiscal discriminado en el presente comprobante solo podra ser computado a efectos del Procedimiento permanente de transicion al Regimen General.";

/** An authority rejection as the service embeds it in `errores` (reference §6.4). */
const arcaError = (code: number, text: string) => `Cod. Error: #6661145.${code} - ${text}`;

/** The associations of an export voucher: only inside `fex`, as the vendor's export page documents. */
function exportAssociations(c: Json): Json[] {
  return Array.isArray(c.fex?.comprobantes_asociados) ? c.fex.comprobantes_asociados : [];
}

/**
 * The service's own check of an export note: every note names what it adjusts (spec §2.8), a
 * goods note too; an export note cannot name a period instead (reference §5.2.4). A services note
 * the authority's 2047 asks of (exportAuthorityProblems).
 */
function exportServiceProblems(c: Json, note: boolean): string[] {
  return note && exportAssociations(c).length === 0 && Number(c.fex?.tipo_exportacion) !== 2
    ? ["Las notas de credito y debito deben informar comprobantes asociados (fex.comprobantes_asociados)."]
    : [];
}

/**
 * What the authority (WSFEX) says of an export voucher's associations, which reach it from
 * `fex.comprobantes_asociados` only: none on an invoice (1755), one on a services note (2047), at
 * most one (1754), of an export type (1680), under a valid issuer CUIT.
 */
function exportAuthorityProblems(c: Json, note: boolean): string[] {
  const list = exportAssociations(c);
  if (!note) {
    return list.length > 0
      ? [
          arcaError(
            1755,
            "No se pueden informar comprobantes asociados cuando el tipo de comprobante a autorizar es 19.",
          ),
        ]
      : [];
  }
  const problems: string[] = [];
  if (list.length === 0 && Number(c.fex?.tipo_exportacion) === 2) {
    problems.push(
      arcaError(
        2047,
        "Si esta autorizando una N.D. o N.C. comprobante de Servicio (Tipo=2), el campo Cmp.Cmps_asoc es de caracter obligatorio.",
      ),
    );
  }
  if (list.length > 1) problems.push(arcaError(1754, "No se puede informar mas de 1 comprobante asociado."));
  for (const a of list) {
    if (voucherTypeInfo(String(a?.tipo_comprobante ?? ""))?.class !== "E")
      problems.push(arcaError(1680, "Los posibles tipo de comprobantes asociados son: 19, 20, 21."));
    if (!isValidCuit(String(a?.cuit ?? ""))) problems.push("El CUIT del comprobante asociado es invalido.");
  }
  return problems;
}

function issueError(errores: string[], details: { code: string; text: string }[], reference: unknown): Reply {
  return {
    status: 200,
    body: {
      error: "S",
      errores,
      external_reference: reference ?? "",
      error_cod: [],
      error_details: details,
      requiere_fec: "NO ",
      rta: "",
    },
  };
}

/** The `numero` a request sends, undefined where it leaves the number to the service (absent or 0). */
function sentNumber(c: Json): number | undefined {
  if (c?.numero === undefined || c.numero === null || c.numero === "" || Number(c.numero) === 0) return undefined;
  return Number(c.numero);
}

/** The development plan has no registry: legal entities (30, 33, 34) are treated as large companies. */
function obligedToFce(cuit: string): boolean {
  return isValidCuit(cuit.trim()) && ["30", "33", "34"].includes(cuit.trim().slice(0, 2));
}

/** Whether the voucher was e-mailed, and to whom: asked by `envia_por_mail: "S"`, to the party's addresses. */
function mailing(party: Json): { envio_x_mail: "S" | "N"; envio_x_mail_direcciones: string } {
  const addresses = typeof party?.email === "string" ? party.email.trim() : "";
  const asked = String(party?.envia_por_mail ?? "").toUpperCase() === "S" && addresses !== "";
  return { envio_x_mail: asked ? "S" : "N", envio_x_mail_direcciones: asked ? addresses : "" };
}

function isDate(value: unknown): boolean {
  if (typeof value !== "string") return false;
  const m = DATE.exec(value);
  if (!m) return false;
  const probe = new Date(Date.UTC(Number(m[3]), Number(m[2]) - 1, Number(m[1])));
  return probe.getUTCDate() === Number(m[1]) && probe.getUTCMonth() === Number(m[2]) - 1;
}

function isNumeric(value: unknown): boolean {
  return (
    (typeof value === "number" && Number.isFinite(value)) ||
    (typeof value === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(value))
  );
}

const pad = (n: number, width: number) => String(n).padStart(width, "0");

/** The same day two months before (the month's last day where it has fewer), as a day number. */
function twoMonthsBefore(day: number): number {
  const date = new Date(day * 86_400_000);
  const [y, m, d] = [date.getUTCFullYear(), date.getUTCMonth() - 2, date.getUTCDate()];
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return Date.UTC(y, m, Math.min(d, last)) / 86_400_000;
}

interface MethodEntry {
  handle: (service: SandboxService, body: Json, pv: PointOfSale) => Promise<Reply> | Reply;
  /** Whether it changes state (drop-after-commit applies to these). */
  changes: boolean;
  /**
   * What it uses of the plan (spec §8: quotas per method): nothing; one request of its own quota;
   * or, issuing, one of the vouchers' per voucher (`micuenta/consumo` reports that one).
   */
  quota: "free" | "one" | "per-voucher";
}

/**
 * What still answers once the plan has lapsed: the service's status (not the account's use: the
 * account's every call errors, reference §12).
 */
const PLAN_INDEPENDENT = new Set(["estado_servicios/alertas"]);

/** Every method the development plan answers, in one place. */
const METHOD_TABLE: Record<string, MethodEntry> = {
  "facturacion/nuevo": { handle: (s, b, pv) => s.nuevo(b, pv), changes: true, quota: "per-voucher" },
  "facturacion/nuevo_encola": { handle: (s, b, pv) => s.nuevoEncola(b, pv), changes: true, quota: "per-voucher" },
  "facturacion/lotes": { handle: (s, b, pv) => s.lotes(b, pv), changes: true, quota: "per-voucher" },
  "facturacion/lotes_encola": { handle: (s, b, pv) => s.lotesEncola(b, pv), changes: true, quota: "per-voucher" },
  "facturacion/consulta": { handle: (s, b, pv) => s.consulta(b, pv), changes: false, quota: "free" },
  "facturacion/consulta_avanzada": { handle: (s, b, pv) => s.consultaAvanzada(b, pv), changes: false, quota: "free" },
  "facturacion/numeracion": { handle: (s, b, pv) => s.numeracion(b, pv), changes: false, quota: "free" },
  "facturacion/requiere_fec": { handle: (s, b) => s.requiereFec(b), changes: false, quota: "one" },
  "facturacion/topecf": { handle: (s) => s.topecf(), changes: false, quota: "one" },
  "facturacion/regenerar_pdf": { handle: (s, b, pv) => s.regenerarPdf(b, pv), changes: true, quota: "one" },
  "facturacion/eliminar_encolado": { handle: (s, b, pv) => s.eliminarEncolado(b, pv), changes: true, quota: "one" },
  "facturacion/cambiar_fecha_encolado": {
    handle: (s, b, pv) => s.cambiarFechaEncolado(b, pv),
    changes: true,
    quota: "one",
  },
  "facturacion/reenviar_encolado": { handle: (s, b, pv) => s.reenviarEncolado(b, pv), changes: true, quota: "one" },
  "estado_servicios/alertas": { handle: (s) => s.alertas(), changes: false, quota: "free" },
  "tablas_referencia/cotizacion": { handle: (s, b) => s.cotizacion(b), changes: false, quota: "one" },
  "facturacion/reenviar": { handle: (s, b, pv) => reenviar(s, b, pv), changes: false, quota: "one" },
  "facturacion/pagar": { handle: (s, b, pv) => pagar(s, b, pv), changes: true, quota: "one" },
  "facturacion/comprobante_eliminar": {
    handle: (s, b, pv) => comprobanteEliminar(s, b, pv),
    changes: true,
    quota: "one",
  },
  "clientes/afip-info": { handle: (s, b) => afipInfo(s, b), changes: false, quota: "one" },
  "clientes/cuenta-corriente": { handle: (s, b) => cuentaCorriente(s, b), changes: false, quota: "one" },
  "productos/listar": { handle: (s, b) => productosListar(s, b), changes: false, quota: "one" },
  "productos/consultar": { handle: (s, b) => productosConsultar(s, b), changes: false, quota: "one" },
  "micuenta/consumo": { handle: (s) => consumo(s), changes: false, quota: "one" },
  ...Object.fromEntries(
    Object.keys(REFERENCE_TABLES).map((name): [string, MethodEntry] => [
      `tablas_referencia/${name}`,
      { handle: () => referenceTable(name), changes: false, quota: "one" },
    ]),
  ),
};

export class SandboxService {
  private readonly amountsCache = new Map<number, Totals | undefined>();

  constructor(
    readonly store: Store,
    readonly options: ServiceOptions,
  ) {}

  private today(): number {
    return argentinaToday(this.options.now());
  }

  /** Today in Argentina, as a day number. */
  todayNumber(): number {
    return this.today();
  }

  /** The point of sale whose three credentials the body carries; a reply when they do not match. */
  authenticate(body: Json): PointOfSale | Reply {
    const { usertoken, apikey, apitoken } = body ?? {};
    if (!usertoken || apikey === undefined || apikey === "" || !apitoken) {
      return {
        status: 401,
        body: { error: "S", errores: ["Faltan las credenciales de acceso (usertoken, apikey y apitoken)."], rta: "" },
      };
    }
    const pv = this.store.account.points_of_sale.find(
      (p) => p.usertoken === String(usertoken) && p.apikey === String(apikey) && p.apitoken === String(apitoken),
    );
    return pv ?? { status: 403, body: { error: "S", errores: ["Las credenciales enviadas no son validas."], rta: "" } };
  }

  maintenanceReply(): Reply {
    const until = new Date(this.options.now().getTime() - 3 * 3_600_000 + 3_600_000);
    const hhmm = `${pad(until.getUTCHours(), 2)}:${pad(until.getUTCMinutes(), 2)}`;
    return {
      status: 200,
      body: {
        error: "S",
        mantenimiento: 1,
        mantenimiento_hasta: `${formatDay(Math.floor(until.getTime() / 86_400_000))} ${hhmm}`,
        errores: [`Estaremos realizando tareas de mantenimiento hasta las ${hhmm}`],
      },
    };
  }

  async call(method: string, body: Json, pv: PointOfSale): Promise<Reply> {
    const entry = METHOD_TABLE[method];
    if (!entry) return { status: 404, body: { error: "S", errores: [`El metodo ${method} no existe.`] } };
    // A lapsed plan: nothing is issued or retrieved any more (reference §12, PDF expiry); the
    // service's status and the account's use still answer, so that status can say why.
    if (!PLAN_INDEPENDENT.has(method) && this.today() > planEndDay(this)) {
      return fail([`Su plan API DEV vencio el ${formatDay(planEndDay(this))}: renuevelo para seguir operando.`]);
    }
    const limit = this.store.account.quota;
    if (this.store.quotaUsed(VOUCHERS) >= limit) {
      // When the vouchers' quota is exhausted, every call errors (reference §12).
      return fail([`Ha superado el cupo de ${limit} comprobantes de su plan API DEV.`]);
    }
    // Quotas are per method (spec §8): issuing counts one voucher each (a batch n) in the
    // vouchers' quota, errors included; other methods one request each in their own; queries none.
    let counted: Promise<void> = Promise.resolve();
    if (entry.quota === "per-voucher") {
      const n = Array.isArray(body?.requests) ? Math.max(1, body.requests.length) : 1;
      counted = this.store.useQuota(VOUCHERS, n).durable;
    } else if (entry.quota === "one") {
      const use = this.store.useQuota(method, 1);
      if (!use.ok) return fail([`Ha superado el cupo de ${limit} requests de ${method} de su plan API DEV.`]);
      counted = use.durable;
    }
    const reply = await entry.handle(this, body ?? {}, pv);
    await counted;
    return reply;
  }

  /** Methods that change state: the ones whose answer can be lost after the change is committed. */
  static readonly CHANGING = new Set(Object.keys(METHOD_TABLE).filter((m) => METHOD_TABLE[m]?.changes));

  static readonly METHODS = Object.keys(METHOD_TABLE);

  topecf(): Reply {
    return { status: 200, body: { error: "N", errores: [], monto: this.options.ceiling } };
  }

  /** The authority's rate of a currency (`moneda`, dollars by default), today's or a day's up to 2 months back. */
  cotizacion(body: Json): Reply {
    const moneda = body?.moneda === undefined || body.moneda === "" ? "DOL" : String(body.moneda).trim().toUpperCase();
    if (body?.fecha !== undefined && body.fecha !== "") {
      if (!isDate(body.fecha)) return fail(["El campo fecha debe tener el formato dd/mm/aaaa."], { cotizacion: "" });
      const day = dayNumber(body.fecha);
      const today = this.today();
      if (day > today) return fail(["No es posible consultar la cotizacion de una fecha futura."], { cotizacion: "" });
      if (day < twoMonthsBefore(today))
        return fail(["No es posible consultar cotizaciones de mas de 2 meses de antiguedad."], { cotizacion: "" });
    }
    if (moneda === "PES") return { status: 200, body: { error: "N", errores: NO_ERRORS, cotizacion: "1.00" } };
    const rate = this.rateOf(moneda);
    if (!rate) return fail([`La moneda ${moneda} no es valida o no tiene cotizacion en AFIP.`], { cotizacion: "" });
    return {
      status: 200,
      body: { error: "N", errores: NO_ERRORS, cotizacion: rate.toFixed(Math.max(2, rate.significantScale())) },
    };
  }

  private rateOf(moneda: string): Dec | undefined {
    const rate = (this.options.rates ?? DEFAULT_RATES)[moneda];
    return rate === undefined ? undefined : Dec.tryParse(rate);
  }

  /**
   * What the authority says of a voucher's exchange rate (error 10119, tax-rules §4.9): it must lie
   * within 2 % to 400 % of its own. Undefined when it does, or the currency has no rate here.
   * One of productionRefusals: the development plan does not ask it.
   */
  private rateProblem(c: Json): string | undefined {
    const moneda = String(c?.moneda ?? "PES")
      .trim()
      .toUpperCase();
    if (moneda === "PES" || !isNumeric(c?.cotizacion)) return undefined;
    const rate = this.rateOf(moneda);
    const cotizacion = Dec.tryParse(String(c.cotizacion).trim());
    if (!rate || !cotizacion || inRateBand(cotizacion, rate)) return undefined;
    return `El campo MonCotiz (${cotizacion.toString()}) debe estar comprendido entre el 2% y el 400% de la cotizacion de la moneda ${moneda} informada por AFIP (${rate.toFixed(2)}).`;
  }

  // --- the service's own checks on an issuing request ---

  private check(body: Json, pv: PointOfSale, queued: boolean): { code: string; text: string }[] {
    const problems: { code: string; text: string }[] = [];
    const add = (text: string, code = "TFC-8002") => problems.push({ code, text });
    const c = body?.comprobante;
    if (!c || typeof c !== "object") {
      add("Debe enviar el bloque comprobante.");
      return problems;
    }
    const info = voucherTypeInfo(c.tipo);
    if (!info) add(`El tipo de comprobante ${JSON.stringify(c.tipo ?? "")} no es valido.`);
    const operacion = c.operacion;
    if (operacion !== "V" && operacion !== "C") add('El campo operacion debe ser "V" o "C".');
    const party = operacion === "C" ? body.proveedor : body.cliente;
    if (!party || typeof party !== "object")
      add(`Debe enviar el bloque ${operacion === "C" ? "proveedor" : "cliente"}.`);
    for (const field of ["fecha", "vencimiento"])
      if (!isDate(c[field])) add(`El campo ${field} debe tener el formato dd/mm/aaaa.`);
    for (const field of ["rubro", "rubro_grupo_contable"]) {
      if (typeof c[field] !== "string" || c[field].trim() === "") add(`El campo ${field} es obligatorio.`);
    }
    // The field table marks moneda, cotizacion and idioma required, yet most of the vendor's own
    // examples leave them out: the service takes pesos, 1 and Spanish (queryItem and qr read them so).
    if (c.moneda !== undefined && (typeof c.moneda !== "string" || !/^[A-Za-z0-9]{3}$/.test(c.moneda.trim())))
      add("El campo moneda debe ser un codigo de 3 caracteres.");
    for (const field of ["cotizacion", "idioma"])
      if (c[field] !== undefined && !isNumeric(c[field])) add(`El campo ${field} debe ser numerico.`);
    if (c.idioma !== undefined && isNumeric(c.idioma) && ![1, 2].includes(Number(c.idioma)))
      add("El campo idioma debe ser 1 (espanol) o 2 (ingles).");
    if (!isNumeric(c.total)) add("El campo total es obligatorio y numerico.");
    if (!isNumeric(c.punto_venta)) add("El campo punto_venta es obligatorio.");
    else if (operacion === "C") {
      // A purchase carries the supplier's point of sale and number, not the credentials' (the
      // vendor's purchase example: 15 and 24); only their form is checked (reference §5.2, §9).
      const supplierPv = Number(c.punto_venta);
      if (!Number.isInteger(supplierPv) || supplierPv < 1 || supplierPv > 99_999)
        add("El campo punto_venta debe ser un entero de hasta 5 digitos.");
      const numero = Number(c.numero);
      if (!queued && !(Number.isInteger(numero) && numero >= 1 && numero <= 99_999_999))
        add("En los comprobantes de compra el campo numero es obligatorio: el numero del comprobante del proveedor.");
      if (queued) add("Los comprobantes de compra no se pueden encolar; utilice el metodo nuevo.");
    } else if (Number(c.punto_venta) !== pv.punto_venta) {
      add(
        `El punto de venta ${Number(c.punto_venta)} no corresponde a las credenciales enviadas (punto de venta ${pv.punto_venta}).`,
      );
    }
    if (!Array.isArray(c.detalle) || c.detalle.length === 0) add("Debe enviar al menos un item en detalle.");
    else {
      if (c.detalle.length > ITEMS_MAX)
        add(`El comprobante tiene ${c.detalle.length} items; el maximo es ${ITEMS_MAX}.`);
      c.detalle.forEach((d: Json, i: number) => {
        if (!isNumeric(d?.cantidad)) add(`Item ${i + 1}: la cantidad es obligatoria y numerica.`);
        if (typeof d?.producto?.descripcion !== "string" || d.producto.descripcion.trim() === "")
          add(`Item ${i + 1}: falta la descripcion del producto.`);
        else if (d.producto.descripcion.trim().length < 4)
          add(`Item ${i + 1}: la descripcion del producto debe tener entre 4 y 255 caracteres.`);
        if (!isNumeric(d?.producto?.precio_unitario_sin_iva))
          add(`Item ${i + 1}: el precio unitario es obligatorio y numerico.`);
        if (!isNumeric(d?.producto?.alicuota)) add(`Item ${i + 1}: la alicuota es obligatoria y numerica.`);
        else if (typeof d?.producto?.descripcion === "string" && d.producto.descripcion.includes("%"))
          add(`Item ${i + 1}: la descripcion no puede contener el caracter %; envie #&#.`);
      });
    }
    const reference = c.external_reference;
    if (queued && (reference === undefined || reference === null || reference === ""))
      add("El campo external_reference es obligatorio en los metodos encolados.");
    if (
      reference !== undefined &&
      reference !== null &&
      reference !== "" &&
      !EXTERNAL_REFERENCE.test(String(reference))
    ) {
      add("El campo external_reference contiene caracteres no permitidos (solo letras, numeros, guion y guion bajo).");
    }
    if (queued) {
      if (c.numero !== undefined && Number(c.numero) !== 0)
        add("En los metodos encolados el numero de comprobante debe ser 0.");
      if (info?.instantOnly) add(`El tipo de comprobante ${c.tipo} no se puede encolar; utilice el metodo nuevo.`);
    }
    if (Array.isArray(c.tags) && c.tags.length > 50) add("Se permiten como maximo 50 tags.");
    if (c.pagos && Array.isArray(c.pagos.formas_pago)) {
      const sum = c.pagos.formas_pago.reduce((acc: number, p: Json) => acc + Math.round(Number(p?.importe) * 100), 0);
      if (sum !== Math.round(Number(c.pagos.total) * 100))
        add("El total de pagos no coincide con la suma de las formas de pago.");
      else if (Number(c.pagos.total) > Number(c.total)) add("El total de pagos supera el total del comprobante.");
    }
    if (party && typeof party === "object" && info?.class) {
      const docType = String(party.documento_tipo ?? "").toUpperCase();
      if (!(docType in DOCUMENT_TYPE_CODES)) add("El tipo de documento enviado no es valido.");
      if (!/^\d+$/.test(String(party.documento_nro ?? "").trim())) add("El numero de documento solo admite digitos.");
      const condition = String(party.condicion_iva_operacion ?? party.condicion_iva ?? "") as VatCondition;
      if (operacion === "V") {
        const allowed = VAT_CONDITIONS_BY_CLASS[info.class];
        if (!allowed.includes(condition)) {
          problems.push({
            code: "TFC-8004",
            text: `La condicion frente al IVA del cliente (${condition || "vacia"}) no permite emitir un comprobante ${info.class === "B" ? "tipo B" : c.tipo}.`,
          });
        }
        const needsCuit =
          info.fce ||
          info.class === "A" ||
          info.class === "M" ||
          (info.class === "B" && condition === "E") ||
          (info.class === "C" && ["RI", "M", "E"].includes(condition));
        if (needsCuit && docType !== "CUIT") {
          problems.push({
            code: "TFC-8004",
            text: `El tipo de documento enviado (${docType}) no es valido para ${c.tipo}: debe ser CUIT.`,
          });
        }
      }
      if (docType === "CUIT" && !isValidCuit(String(party.documento_nro ?? ""))) add("El CUIT enviado es invalido.");
      // A supplier's 0 is "none": the service's own purchase example sends it.
      const noCondition = operacion === "C" && Number(party.condicion_pago) === 0;
      if (party.condicion_pago !== undefined && !noCondition && !(Number(party.condicion_pago) in PAYMENT_CONDITIONS))
        add("La condicion de pago enviada no es valida.");
    }
    if (info?.class === "E") {
      for (const text of exportServiceProblems(c, isNote(info))) add(text);
    } else if (
      info &&
      isNote(info) &&
      !(Array.isArray(c.comprobantes_asociados) && c.comprobantes_asociados.length > 0) &&
      !c.comprobantes_asociados_periodo
    ) {
      add("Las notas de credito y debito deben informar comprobantes asociados o un periodo.");
    }
    // An associated voucher's CUIT is the authority's to check (10151, productionRefusals): the
    // vendor's own note examples send 1111111111111, and the development plan takes them.
    return problems;
  }

  // --- issuing ---

  private storeVoucher(body: Json, pv: PointOfSale, queued: boolean, numero: number) {
    const c = body.comprobante;
    const partyKey = c.operacion === "C" ? "proveedor" : "cliente";
    const { voucher, durable } = this.store.addVoucher({
      punto_venta: pv.punto_venta,
      tipo: c.tipo,
      numero,
      external_reference: c.external_reference === undefined ? "" : String(c.external_reference),
      fecha: c.fecha,
      vencimiento: c.vencimiento,
      status: queued ? "EN COLA, ESPERANDO APROBACION" : "EMITIDO",
      queued,
      deleted: false,
      attempts: 0,
      errors: [],
      // The authority observes what it authorises: a sale issued at once, not a purchase recorded.
      ...(!queued && c.operacion !== "C" && this.options.random() < this.options.faults.observe
        ? { observations: OBSERVATION }
        : {}),
      party: { kind: partyKey, ...body[partyKey] },
      comprobante: c,
      created: this.options.now().toISOString(),
      ...(c.operacion === "C" ? { operacion: "C" as const } : {}),
    });
    // Clients are the sales' (§5.3); a supplier is no client.
    const customer = c.operacion === "C" ? Promise.resolve() : this.saveCustomer(body[partyKey]);
    return { voucher, durable: Promise.all([durable, customer, this.saveProducts(c)]) };
  }

  /** Spec 2.2 rule 2: an existing customer is updated, except its document and VAT condition. */
  private saveCustomer(party: Json): Promise<void> {
    if (!party) return Promise.resolve();
    const key = party.codigo
      ? `codigo:${party.codigo}`
      : `doc:${String(party.documento_tipo).toUpperCase()}:${party.documento_nro}`;
    const existing = this.store.customers.get(key);
    const updated = existing
      ? {
          ...existing,
          ...party,
          documento_tipo: existing.documento_tipo,
          documento_nro: existing.documento_nro,
          condicion_iva: existing.condicion_iva,
        }
      : { ...party };
    return this.store.saveCustomer(key, updated);
  }

  /** Spec 2.4 rule 5: a product is replaced in its price list only when `actualiza_precio` is S. */
  private saveProducts(c: Json): Promise<unknown> {
    const writes: Promise<void>[] = [];
    for (const d of Array.isArray(c?.detalle) ? c.detalle : []) {
      const p = d?.producto;
      if (!p) continue;
      const key = `${p.lista_precios ?? ""}|${p.codigo ?? p.descripcion}`;
      const update = (p.actualiza_precio ?? d.actualiza_precio) === "S";
      // Its price is in the voucher's currency: a product of a dollar invoice is priced in dollars.
      const moneda = p.moneda ?? (c?.moneda === "DOL" ? "DOL" : "PES");
      if (!this.store.products.has(key) || update) writes.push(this.store.saveProduct(key, { ...p, moneda }));
    }
    return Promise.all(writes);
  }

  /** The reply fields of an issued voucher; `durable` settles when its links are on disk. */
  private issued(v: StoredVoucher): { fields: Record<string, unknown>; durable: Promise<unknown> } {
    const links = this.freshLinks(v);
    const fields = {
      cae: "",
      requiere_fec: "NO ",
      vencimiento_cae: "",
      vencimiento_pago: v.vencimiento,
      comprobante_pdf_url: links.pdf,
      comprobante_ticket_url: links.ticket,
      afip_qr: `${this.qr(v)} `,
      afip_codigo_barras: `${this.store.account.cuit}${pad(voucherTypeInfo(v.tipo)?.code ?? 0, 3)}${pad(v.punto_venta, 5)} `,
      ...mailing(v.party),
      external_reference: v.external_reference,
      comprobante_tipo: v.tipo,
      micrositios: { cliente: "", descarga: "" },
      // Only when there is one: the documented answer (reference §6.1) does not list the field.
      ...(v.observations ? { afip_observaciones: v.observations } : {}),
    };
    return { fields, durable: links.durable };
  }

  /** Links valid today only, registered in the store (reference §12 "PDF expiry"). */
  freshLinks(v: StoredVoucher): { pdf: string; ticket: string; durable: Promise<unknown> } {
    const day = this.today();
    const pdf = this.store.addLink(v.id, "pdf", day);
    const ticket = this.store.addLink(v.id, "ticket", day);
    const base = this.options.baseUrl();
    return {
      pdf: `${base}/comprobantes/pdf/${pdf.link.token}.pdf`,
      ticket: `${base}/comprobantes/ticket/${ticket.link.token}.pdf`,
      durable: Promise.all([pdf.durable, ticket.durable]),
    };
  }

  qr(v: StoredVoucher): string {
    const c = v.comprobante as Json;
    const party = v.party as Json;
    const docType = String(party.documento_tipo ?? "").toUpperCase() as DocumentType;
    const docNumber = String(party.documento_nro ?? "0").trim();
    const moneda = String(c.moneda ?? "PES")
      .trim()
      .toUpperCase();
    return qrUrl({
      ver: 1,
      fecha: toIsoDate(v.fecha),
      cuit: Number(this.store.account.cuit),
      ptoVta: v.punto_venta,
      tipoCmp: voucherTypeInfo(v.tipo)?.code ?? 0,
      nroCmp: v.numero,
      importe: Number(c.total),
      moneda,
      // A peso voucher's rate is 1, whatever cotizacion the request carried.
      ctz: moneda === "PES" ? 1 : Number(c.cotizacion ?? 1),
      ...(docType in DOCUMENT_TYPE_CODES ? { tipoDocRec: DOCUMENT_TYPE_CODES[docType] } : {}),
      nroDocRec: docNumber.length > 15 ? docNumber : Number(docNumber),
      tipoCodAut: "E",
      // The development plan has no CAE.
      codAut: 0,
    });
  }

  private blockedByQueue(pv: PointOfSale, reference: unknown): Reply | undefined {
    if (!this.store.hasQueued(pv.punto_venta)) return undefined;
    return issueError(
      [
        `El punto de venta ${pv.punto_venta} tiene comprobantes encolados: no es posible emitir en modo instantaneo. Utilice el metodo nuevo_encola.`,
      ],
      [{ code: "TFC-8002", text: "Punto de venta con comprobantes encolados." }],
      reference,
    );
  }

  /**
   * The authority's date checks (tax-rules §4.3, §4.5), which the service passes on as its 10016
   * text: the window around the day it is sent, and no date before the lane's latest voucher.
   * Production's (authority-checks) only: the development plan skips them (spec §1). Apart from
   * productionRefusals because a batch meets them voucher by voucher (lotes: the first that fails
   * and every later one are rejected).
   */
  private authorityDateRefusal(c: Json, puntoVenta: number): string | undefined {
    if (!this.options.faults.authorityChecks) return undefined;
    const info = voucherTypeInfo(c.tipo);
    const day = dayNumber(c.fecha);
    const today = this.today();
    const offset = day - today;
    const refuse = (text: string) => `Error en AFIP/ARCA. Cod. Error: #6661145.10016 - ${text}`;
    if (info?.fce) {
      if (offset < -5 || offset > 1)
        return refuse(
          "Para comprobantes MiPyMEs (FCE) el campo CbteFch debe estar comprendido en el rango N-5 y N+1 siendo N la fecha de envio del pedido de autorizacion.",
        );
    } else if (info?.class === "E") {
      if (Math.abs(offset) > 5)
        return refuse("Campo Fecha_cbte debe estar comprendido en el rango N-5 y N+5 siendo N la fecha de envio.");
    } else if (c.periodo_facturado_desde) {
      if (Math.abs(offset) > 10)
        return refuse(
          "Campo CbteFch debe estar comprendido en el rango N-10 y N+10 siendo N la fecha de envio del pedido de autorizacion.",
        );
    } else if (Math.abs(offset) > 5 || (offset > 0 && formatDay(day).slice(3) !== formatDay(today).slice(3))) {
      return refuse(
        "Campo CbteFch debe estar comprendido en el rango N-5 y N+5 siendo N la fecha de envio del pedido de autorizacion. La misma no podra exceder el mes de presentacion.",
      );
    }
    const last = this.store.lastDay(puntoVenta, c.tipo);
    if (last !== undefined && day < last)
      return refuse(
        `El numero o fecha del comprobante no se corresponde con el proximo a autorizar. Consultar metodo FECompUltimoAutorizado. (Ultimo comprobante autorizado con fecha ${formatDay(last)})`,
      );
    return undefined;
  }

  /**
   * What production refuses and the development plan lets through (spec §1: the authority's
   * validations are not applied there), checked only like production (the `authority-checks`
   * fault, part of --like-production): every refusal found, in the authority's words and codes
   * where the references give them (tax-rules §4, the WSFEv1 manual's table they cite). The dates
   * are authorityDateRefusal's. A supplier's fiscal voucher from a supplier without a CUIT is
   * refused in the service's words (a purchase never reaches the authority).
   */
  private productionRefusals(body: Json): { code: string; text: string }[] {
    if (!this.options.faults.authorityChecks) return [];
    const c = body?.comprobante;
    const info = voucherTypeInfo(c?.tipo);
    if (!c || !info?.class) return [];
    const out: { code: string; text: string }[] = [];
    const authority = (text: string, code?: number) =>
      out.push({
        code: "TFC-6661",
        text: `Error en AFIP/ARCA. ${code === undefined ? text : `Cod. Error: #6661145.${code} - ${text}`}`,
      });
    if (c.operacion === "C") {
      const document = String(body.proveedor?.documento_tipo ?? "").toUpperCase();
      if (info.class !== "E" && document !== "CUIT")
        out.push({ code: "TFC-8002", text: "El proveedor de un comprobante fiscal debe identificarse con su CUIT." });
      return out;
    }
    // An FCE invoice due on or after its date and the day it is sent (tax-rules §4.11).
    if (info.fce && !isNote(info) && typeof c.vencimiento === "string" && DATE.test(c.vencimiento)) {
      const floor = Math.max(DATE.test(String(c.fecha)) ? dayNumber(c.fecha) : 0, this.today());
      if (dayNumber(c.vencimiento) < floor)
        authority(
          "El campo FchVtoPago debe ser igual o posterior a la fecha del comprobante y a la fecha de envio del pedido de autorizacion.",
        );
    }
    const rate = this.rateProblem(c);
    if (rate) authority(rate, 10119);
    this.tributoRefusals(body, info, authority);
    this.classRefusals(c, info, authority);
    this.buyerRefusals(body, info, authority);
    this.associationRefusals(c, info, authority);
    const fceIds = [2101, 2102, 22, 27];
    const datos: Json[] = Array.isArray(c.rg_especiales?.datos) ? c.rg_especiales.datos : [];
    if (!info.fce && datos.some((d) => fceIds.includes(Number(d?.id))))
      authority(
        "Si el tipo de comprobante que esta autorizando NO es MiPyMEs (FCE), no informar los codigos 2101, 2102, 22, 27",
        10169,
      );
    const total = this.totalRefusal(body, info);
    if (total) authority(total, 10048);
    return out;
  }

  /**
   * Tributos (tax-rules §4.1, §4.12, §2.5): none that add up to 0 (10024) nor one of 0; ids the
   * authority has (10025: the service's tipo is the authority's id, 1, 6 and 7 alike); an RG 5329
   * VAT perception only to a registered buyer on class A or M.
   */
  private tributoRefusals(body: Json, info: VoucherTypeInfo, authority: (text: string, code?: number) => void): void {
    const tributos: Json[] = Array.isArray(body.comprobante.tributos) ? body.comprobante.tributos : [];
    const sum = tributos.reduce((x, y) => x + Number(y?.total ?? 0), 0);
    if (tributos.length > 0 && sum === 0)
      authority("Si ImpTrib es igual a 0 el objeto Tributos no debe informarse.", 10024);
    else if (tributos.some((x) => Number(x?.total) === 0))
      authority("El importe de cada tributo informado debe ser mayor a 0.");
    for (const tipo of new Set(tributos.map((x) => Number(x?.tipo))))
      if (!AUTHORITY_TRIBUTO_IDS.includes(tipo))
        authority(
          `El campo Id en Tributo es obligatorio y debe ser alguno de los devueltos por el metodo FEParamGetTiposTributos (tipo ${tipo}).`,
          10025,
        );
    const buyer = String(body.cliente?.condicion_iva_operacion ?? body.cliente?.condicion_iva ?? "").toUpperCase();
    const rg5329 = tributos.some((x) => Number(x?.tipo) === 6 && Number(x?.regimen) === 3);
    if (rg5329 && (buyer !== "RI" || (info.class !== "A" && info.class !== "M")))
      authority("La percepcion de IVA de la RG 5329 corresponde solo a compradores responsables inscriptos.");
  }

  /**
   * What a class carries (tax-rules §4.1; spec §2.4 rule 3): a class C voucher no VAT array
   * (10071), exempt (10044) or non-taxed (10043) amounts; an export voucher (WSFEX: items and a
   * total, nothing else) no VAT and no tributos, and its associations as WSFEX takes them.
   */
  private classRefusals(c: Json, info: VoucherTypeInfo, authority: (text: string, code?: number) => void): void {
    const rates = new Set<number>(
      (Array.isArray(c.detalle) ? c.detalle : []).map((d: Json) => Number(d?.producto?.alicuota ?? 0)),
    );
    if (info.class === "C") {
      if ([...rates].some((r) => r > 0))
        authority("Si el tipo de comprobante es C, el array de IVA no debe informarse.", 10071);
      if (rates.has(-1))
        authority('El campo "importe exento" ImpOpEx para comprobantes tipo C debe ser igual a cero (0).', 10044);
      if (rates.has(-2))
        authority(
          'El campo "Importe neto no gravado" ImpTotConc para comprobantes tipo C debe ser igual a cero (0).',
          10043,
        );
    }
    if (info.class === "E") {
      if ([...rates].some((r) => r > 0))
        authority("Los comprobantes de exportacion no llevan IVA: los items se informan sin alicuota.");
      if (Array.isArray(c.tributos) && c.tributos.length > 0)
        authority("Los comprobantes de exportacion no informan tributos: el importe total es la suma de los items.");
      for (const text of exportAuthorityProblems(c, isNote(info))) authority(text);
    }
  }

  /**
   * The buyer (tax-rules §4.7): an unidentified final consumer (OTRO, not a customer abroad) on a
   * class B voucher only below the ceiling, the total in pesos (10015).
   */
  private buyerRefusals(body: Json, info: VoucherTypeInfo, authority: (text: string, code?: number) => void): void {
    const party = body.cliente ?? {};
    const condition = String(party.condicion_iva_operacion ?? party.condicion_iva ?? "").toUpperCase();
    if (info.class !== "B" || String(party.documento_tipo ?? "").toUpperCase() !== "OTRO" || condition === "CDEX")
      return;
    const c = body.comprobante;
    const moneda = String(c.moneda ?? "PES")
      .trim()
      .toUpperCase();
    const rate = moneda === "PES" ? 1 : Number(c.cotizacion ?? 1);
    if (Number(c.total) * rate < this.options.ceiling) return;
    authority(
      `Para comprobantes tipo B individuales con montos iguales o superiores al monto en pesos resultante segun RG 4444 (${this.options.ceiling}), el campo DocTipo debera ser distinto de 99 y debera informar el campo DocNro.`,
      10015,
    );
  }

  /**
   * A note's associated vouchers (tax-rules §2.1; reference §11): the issuer's CUIT of 11 digits
   * when given (10151); a type its class may adjust (10040: A notes A vouchers, B B, C C, M M, an
   * FCE note the FCE vouchers of its class); none older than 15 days before the note (the
   * vendor's notes page: "no se permiten notas de crédito a comprobantes con +15 días"; no code
   * given).
   */
  private associationRefusals(c: Json, info: VoucherTypeInfo, authority: (text: string, code?: number) => void): void {
    if (info.class === "E" || !Array.isArray(c.comprobantes_asociados)) return;
    const fecha = isDate(c.fecha) ? dayNumber(c.fecha) : undefined;
    for (const a of c.comprobantes_asociados) {
      if (a?.cuit !== undefined && a?.cuit !== null && !/^\d{11}$/.test(String(a.cuit).trim()))
        authority(
          "Si informa Cuit en comprobantes asociados, no informar en blanco, el mismo debe ser un valor de 11 caracteres numericos.",
          10151,
        );
      const target = voucherTypeInfo(String(a?.tipo_comprobante ?? ""));
      if (!isNote(info) || !target) continue;
      if (target.class !== info.class || target.fce !== info.fce)
        authority(
          `El tipo de comprobante asociado (${pad(target.code ?? 0, 3)}) no puede asociarse a un comprobante tipo ${pad(info.code ?? 0, 3)}.`,
          10040,
        );
      if (fecha === undefined || !isDate(a?.comprobante_fecha)) continue;
      const age = fecha - dayNumber(a.comprobante_fecha);
      if (age > NOTE_AGE_DAYS)
        authority(
          `No se permiten notas de credito o debito a comprobantes con +${NOTE_AGE_DAYS} dias: el comprobante asociado ${String(a.tipo_comprobante)} ${voucherNumber(Number(a.punto_venta), Number(a.numero))} es del ${a.comprobante_fecha} (${age} dias antes).`,
        );
    }
  }

  /**
   * The total against its parts (10048, tax-rules §4.1), as the authority adds them, within its
   * tolerance (§4.2); undefined when it holds, or the voucher is not one this sandbox can read.
   */
  private totalRefusal(body: Json, info: VoucherTypeInfo): string | undefined {
    const parsed = envelopeSchema.safeParse(
      dropEmptyStrings({ cliente: body.cliente, comprobante: { ...body.comprobante, punto_venta: 1 } }),
    );
    if (!parsed.success) return undefined;
    const totals = computeTotals(parsed.data.comprobante);
    const declared = Dec.tryParse(String(body.comprobante.total).trim());
    if (!declared || declared.sub(totals.total).abs().cmp(totals.tolerance) <= 0) return undefined;
    const parts = info.class === "C" ? "ImpNeto + ImpTrib" : "ImpTotConc + ImpNeto + ImpOpEx + ImpTrib + ImpIVA";
    return `El campo Importe Total ImpTotal, debe ser igual a la suma de ${parts} (ImpTotal ${declared.toFixed(2)}, suma ${totals.total.toFixed(2)}).`;
  }

  private authorityDown(reference: unknown): Reply {
    return issueError(
      ["AFIP No devolvio el CAE asociado. (Cod. Error #6661141.S1254)"],
      [{ code: "TFC-6661", text: "Servicio de la autoridad fiscal no disponible." }],
      reference,
    );
  }

  /**
   * A purchase: recorded, not authorised (the supplier's voucher already is). It keeps the
   * supplier's point of sale and number, out of the sales numbering; the same supplier's voucher
   * is refused a second time.
   */
  private recordPurchase(
    body: Json,
    pv: PointOfSale,
  ): { refused: string } | { voucher: StoredVoucher; fields: Record<string, unknown>; durable: Promise<unknown> } {
    const c = body.comprobante;
    const supplierPv = Number(c.punto_venta);
    const numero = Number(c.numero);
    const supplier = String(body.proveedor?.documento_nro ?? "").trim();
    const number = voucherNumber(supplierPv, numero);
    const twice = this.store
      .findPurchases(pv.punto_venta, c.tipo, supplierPv, numero)
      .some((v) => String((v.party as Json).documento_nro ?? "").trim() === supplier);
    if (twice)
      return { refused: `El comprobante de compra ${c.tipo} ${number} del proveedor ${supplier} ya fue ingresado.` };
    const { voucher, durable } = this.storeVoucher(body, pv, false, numero);
    const issued = this.issued(voucher);
    // A supplier's voucher, recorded: no QR or bar code of ours, and nothing e-mailed.
    const fields = {
      ...issued.fields,
      afip_qr: "",
      afip_codigo_barras: "",
      envio_x_mail: "N",
      envio_x_mail_direcciones: "",
      comprobante_nro: number,
    };
    return { voucher, fields, durable: Promise.all([durable, issued.durable]) };
  }

  async nuevo(body: Json, pv: PointOfSale): Promise<Reply> {
    const c = body?.comprobante;
    const problems = this.check(body, pv, false);
    if (problems.length > 0)
      return issueError(
        problems.map((p) => p.text),
        problems,
        c?.external_reference,
      );
    if (c.operacion === "C") {
      const production = this.productionRefusals(body);
      if (production.length > 0)
        return issueError(
          production.map((p) => p.text),
          production,
          c.external_reference,
        );
      const purchase = this.recordPurchase(body, pv);
      if ("refused" in purchase)
        return issueError([purchase.refused], [{ code: "TFC-8002", text: purchase.refused }], c.external_reference);
      await purchase.durable;
      const partyName = (purchase.voucher.party as Json).razon_social ?? "";
      return {
        status: 200,
        body: {
          error: "N",
          errores: NO_ERRORS,
          rta: `El comprobante ${purchase.voucher.tipo} ${purchase.fields.comprobante_nro} (${partyName}) se ha guardado correctamente`,
          ...purchase.fields,
        },
      };
    }
    const blocked = this.blockedByQueue(pv, c.external_reference);
    if (blocked) return blocked;
    const fce = this.fceRefusal(body);
    if (fce)
      return {
        status: 200,
        body: {
          ...issueError([fce], [{ code: "TFC-8004", text: fce }], c.external_reference).body,
          requiere_fec: "SI",
        },
      };
    if (this.options.faults.authorityDown) return this.authorityDown(c.external_reference);
    // The authority's checks, like production only: its dates, then everything else it refuses.
    const dated = this.authorityDateRefusal(c, pv.punto_venta);
    const refusals = [...(dated ? [{ code: "TFC-6661", text: dated }] : []), ...this.productionRefusals(body)];
    if (refusals.length > 0)
      return issueError(
        refusals.map((p) => p.text),
        refusals,
        c.external_reference,
      );
    const next = this.store.nextNumber(pv.punto_venta, c.tipo);
    if (
      c.numero !== undefined &&
      c.numero !== null &&
      c.numero !== "" &&
      Number(c.numero) !== 0 &&
      Number(c.numero) !== next
    ) {
      const text = `El numero de comprobante ${Number(c.numero)} no es el proximo a emitir: el proximo es ${next}.`;
      return issueError([text], [{ code: "TFC-8002", text }], c.external_reference);
    }
    const numero = this.store.takeNumber(pv.punto_venta, c.tipo);
    const { voucher, durable } = this.storeVoucher(body, pv, false, numero);
    const { fields, durable: linksDurable } = this.issued(voucher);
    await Promise.all([durable, linksDurable]);
    const partyName = (voucher.party as Json).razon_social ?? "";
    return {
      status: 200,
      body: {
        error: "N",
        errores: NO_ERRORS,
        rta: `El comprobante ${voucher.tipo} ${voucherNumber(voucher.punto_venta, numero).replace(/^0/, "")} (${partyName}) se ha guardado correctamente`,
        ...fields,
        // The instant reply shows the bare number (reference §9.3).
        comprobante_nro: pad(numero, 7),
      },
    };
  }

  async lotes(body: Json, pv: PointOfSale): Promise<Reply> {
    const requests = body?.requests;
    if (!Array.isArray(requests) || requests.length === 0)
      return fail(["Debe enviar requests: un array de comprobantes."], { response: [] });
    if (requests.length > BATCH_MAX) {
      return fail([`Esta enviando ${requests.length} requests, cuando el limite permitido es ${BATCH_MAX}.`], {
        response: [],
      });
    }
    const tipo = requests[0]?.comprobante?.tipo;
    const info = voucherTypeInfo(tipo);
    // The lotes page: export and MiPyME vouchers go one by one (the authority's FCE and WSFEX rules).
    if (info && (info.class === "E" || info.fce))
      return fail([`No es posible enviar comprobantes de tipo ${tipo} por lotes; utilice el metodo nuevo.`], {
        response: [],
      });
    // The numbers the lane will give, checked like nuevo's before anything reaches the authority.
    const first = info ? this.store.nextNumber(pv.punto_venta, tipo) : 0;
    for (let i = 0; i < requests.length; i++) {
      const r = requests[i];
      if (r?.comprobante?.tipo !== tipo) {
        return fail(
          [`El comprobante enviado en la fila ${i} (comenzando en 0) tiene un tipo de comprobante diferente.`],
          { response: [] },
        );
      }
      const problems = this.check(r, pv, false);
      // A request that is no voucher has its refusal from check: nothing more to look at in it.
      const c = typeof r?.comprobante === "object" && r.comprobante !== null ? r.comprobante : undefined;
      if (c && problems.length === 0) problems.push(...this.productionRefusals(r));
      // A purchase is checked as nuevo checks it: its number and date are its supplier's, not this lane's.
      const purchase = c?.operacion === "C";
      const sale = c !== undefined && !purchase;
      const fce = sale ? this.fceRefusal(r) : undefined;
      if (fce) problems.push({ code: "TFC-8004", text: fce });
      if (problems.length > 0)
        return fail(
          problems.map((p) => `Fila ${i} (comenzando en 0): ${p.text}`),
          { response: [], ...(fce ? { requiere_fec: "SI" } : {}) },
        );
      if (purchase) continue;
      const numero = sentNumber(r.comprobante);
      if (numero !== undefined && numero !== first + i) {
        return fail(
          [
            `Fila ${i} (comenzando en 0): El numero de comprobante ${numero} no es el proximo a emitir: el proximo es ${first + i}.`,
          ],
          { response: [] },
        );
      }
      if (i > 0) {
        const previous = requests[i - 1].comprobante;
        const byDate = dayNumber(r.comprobante.fecha) - dayNumber(previous.fecha);
        const before = sentNumber(previous);
        if (byDate < 0 || (byDate === 0 && numero !== undefined && before !== undefined && numero <= before)) {
          return fail(
            [`El comprobante enviado en la fila ${i} (comenzando en 0) no esta ordenado por fecha y numero.`],
            { response: [] },
          );
        }
      }
    }
    const blocked = this.blockedByQueue(pv, undefined);
    if (blocked) return { status: 200, body: { ...blocked.body, response: [] } };
    if (this.options.faults.authorityDown)
      return { status: 200, body: { ...this.authorityDown(undefined).body, response: [] } };
    const response: Record<string, unknown>[] = [];
    const durables: Promise<unknown>[] = [];
    // The authority's batch (§6.8): no rollback; once one fails, it and every later one are rejected.
    let failed: string | undefined;
    for (const r of requests) {
      const c = r.comprobante;
      if (c.operacion === "C" && !failed) {
        const purchase = this.recordPurchase(r, pv);
        if ("refused" in purchase) {
          failed = purchase.refused;
          response.push(issueError([failed], [{ code: "TFC-8002", text: failed }], c.external_reference).body);
        } else {
          durables.push(purchase.durable);
          response.push({
            error: "N",
            errores: [],
            ...purchase.fields,
            cae_vencimiento: "",
            observaciones: "",
            rta: `El comprobante ${c.tipo} ${purchase.fields.comprobante_nro} se ha guardado correctamente`,
          });
        }
        continue;
      }
      let text = failed ? "No procesado: fallo un comprobante anterior del lote." : undefined;
      let code = "TFC-8002";
      // The authority's date rules: the window, and no date before the lane's latest.
      const refused = text ? undefined : this.authorityDateRefusal(c, pv.punto_venta);
      if (refused) {
        text = failed = refused;
        code = "TFC-6661";
      }
      if (text) {
        response.push(issueError([text], [{ code, text }], c.external_reference).body);
        continue;
      }
      const numero = this.store.takeNumber(pv.punto_venta, r.comprobante.tipo);
      const { voucher, durable } = this.storeVoucher(r, pv, false, numero);
      const { fields, durable: linksDurable } = this.issued(voucher);
      durables.push(durable, linksDurable);
      response.push({
        error: "N",
        errores: [],
        ...fields,
        cae_vencimiento: "",
        observaciones: voucher.observations ?? "",
        rta: `El comprobante ${voucher.tipo} ${voucherNumber(voucher.punto_venta, numero)} se ha guardado correctamente`,
        comprobante_nro: voucherNumber(voucher.punto_venta, numero),
      });
    }
    await Promise.all(durables);
    if (failed) return fail([failed], { response });
    return { status: 200, body: { error: "N", errores: [], response } };
  }

  private queuedReply(v: StoredVoucher): Record<string, unknown> {
    return {
      error: "N",
      errores: [],
      error_cod: [],
      error_details: [],
      external_reference: v.external_reference,
      requiere_fec: "NO",
      observaciones: "",
      tfc_generacion_tipo: 6,
      rta: "El comprobante  se ha guardado correctamente ",
      cae: " ",
      vencimiento_cae: "01/01/2000",
      vencimiento_pago: v.vencimiento,
      comprobante_nro: voucherNumber(v.punto_venta, 0),
      comprobante_tipo: v.tipo,
      afip_codigo_barras: "",
      afip_qr: "",
      // The e-mail goes when the queue issues the voucher; until then nothing is sent.
      envio_x_mail: "N",
      envio_x_mail_direcciones: "",
      comprobante_pdf_url: "",
      micrositios: { cliente: "", descarga: "" },
    };
  }

  /**
   * Queued calls at a point of sale without a webhook URL, under the `webhook-required` fault: the
   * real service refuses them at once and queues nothing (reference §6.7 "Prerequisites"; its
   * lotes_encola page lists "Tu CUIT+PDV no posee una dirección de webhook válida" among the
   * reasons a batch is not processed). The exact wording of the refusal is not documented: this is ours.
   */
  private withoutWebhook(pv: PointOfSale, what: "comprobante" | "lote"): string | undefined {
    if (!this.options.faults.webhookRequired) return undefined;
    if (webhookOf(this.options.webhooks ?? NO_WEBHOOKS, pv.punto_venta) !== undefined) return undefined;
    // The sandbox's own way to give one, said where its user reads the refusal.
    return `Tu CUIT+PDV no posee una direccion de webhook valida. ${what === "lote" ? "El lote" : "El comprobante"} no se procesara. (Sandbox: iniciala con --webhook URL, o FACTURAR_SANDBOX_WEBHOOK.)`;
  }

  async nuevoEncola(body: Json, pv: PointOfSale): Promise<Reply> {
    const problems = this.check(body, pv, true);
    // Told with the voucher's own problems, as the page's refusal for a missing reference is.
    const noWebhook = this.withoutWebhook(pv, "comprobante");
    if (noWebhook) problems.unshift({ code: "TFC-8002", text: noWebhook });
    if (problems.length > 0)
      return issueError(
        problems.map((p) => p.text),
        problems,
        body?.comprobante?.external_reference,
      );
    const { voucher, durable } = this.storeVoucher(body, pv, true, 0);
    await durable;
    return { status: 200, body: this.queuedReply(voucher) };
  }

  async lotesEncola(body: Json, pv: PointOfSale): Promise<Reply> {
    const noWebhook = this.withoutWebhook(pv, "lote");
    if (noWebhook) return fail([noWebhook], { error_cod: [], error_details: [], response: [] });
    const requests = body?.requests;
    if (!Array.isArray(requests) || requests.length === 0)
      return fail(["Debe enviar requests: un array de comprobantes."], { response: [] });
    if (requests.length > QUEUEABLE_MAX) {
      return fail(
        [
          `Esta enviando ${requests.length} requests, cuando el limite permitido es ${QUEUEABLE_MAX}. El lote no se procesara.`,
        ],
        { error_cod: [], error_details: [], response: [] },
      );
    }
    // Checked first: where every request fails, nothing is queued and the list comes back empty.
    const problemsOf = requests.map((r: Json) => this.check(r, pv, true));
    const accepted = problemsOf.filter((p: unknown[]) => p.length === 0).length;
    if (accepted === 0) {
      return fail(
        [
          `El lote no se procesara ya que contiene errores en todos sus requests. Se enviaron a procesar: ${requests.length} requests y se aceptaron procesar: 0. `,
        ],
        { error_cod: [], error_details: [], response: [] },
      );
    }
    const response: Record<string, unknown>[] = [];
    const durables: Promise<unknown>[] = [];
    requests.forEach((r: Json, i: number) => {
      const problems: { code: string; text: string }[] = problemsOf[i] ?? [];
      if (problems.length > 0) {
        response.push({
          ...issueError(
            problems.map(
              (p) => `El request enviado en el orden ${i} (comenzando en 0): ${p.text} Este request no se procesara.`,
            ),
            problems,
            r?.comprobante?.external_reference,
          ).body,
          rta: "Eror. No se procesara",
        });
        return;
      }
      const { voucher, durable } = this.storeVoucher(r, pv, true, 0);
      durables.push(durable);
      // The batch items carry cae_vencimiento (null until the queue issues them), as the page shows.
      response.push({ ...this.queuedReply(voucher), cae_vencimiento: null, tfc_generacion_tipo: 3 });
    });
    await Promise.all(durables);
    if (accepted < requests.length) {
      return fail(
        [
          `El lote se procesara parcialmente ya que contiene errores en alguno de sus requests. Se enviaron a procesar: ${requests.length} requests y se aceptaron procesar: ${accepted}. `,
        ],
        { error_cod: [], error_details: [], response },
      );
    }
    return { status: 200, body: { error: "N", errores: [], error_cod: [], error_details: [], response } };
  }

  // --- queries ---

  /** A voucher as `consulta` and `consulta_avanzada` show it (reference §6.9). */
  private queryItem(v: StoredVoucher): Record<string, unknown> {
    const c = v.comprobante as Json;
    const party = v.party as Json;
    const links = this.latestLinks(v);
    const issued = v.status === "EMITIDO";
    const reference = /^\d{1,15}$/.test(v.external_reference) ? Number(v.external_reference) : v.external_reference;
    const purchase = v.operacion === "C";
    const detalle: Json[] = Array.isArray(c.detalle) ? c.detalle : [];
    const tributos: Json[] = Array.isArray(c.tributos) ? c.tributos : [];
    const amounts = this.amounts(v);
    return {
      [purchase ? "proveedor" : "cliente"]: {
        documento_tipo: party.documento_tipo ?? "",
        documento_nro: `${party.documento_nro ?? ""} `,
        razon_social: party.razon_social ?? "",
        email: party.email ?? "",
        domicilio: party.domicilio ?? "",
      },
      comprobante: {
        fecha: v.fecha,
        tipo: v.tipo,
        moneda: c.moneda ?? "PES",
        idioma: Number(c.idioma ?? 1),
        cotizacion: Number(c.cotizacion ?? 1),
        operacion: c.operacion ?? "V",
        punto_venta: shownPointOfSale(v),
        numero: v.numero,
        periodo_facturado_desde: c.periodo_facturado_desde ?? "",
        periodo_facturado_hasta: c.periodo_facturado_hasta ?? "",
        rubro: c.rubro ?? "",
        rubro_grupo_contable: c.rubro_grupo_contable ?? "",
        detalle: detalle.map((d: Json, i: number) => {
          const net =
            amounts?.itemNets[i] ??
            itemNet(
              String(d.cantidad),
              String(d.producto?.precio_unitario_sin_iva ?? 0),
              d.bonificacion_porcentaje === undefined ? undefined : String(d.bonificacion_porcentaje),
            );
          const gross = Dec.tryParse(String(d.cantidad))
            ?.mul(Dec.tryParse(String(d.producto?.precio_unitario_sin_iva ?? 0)) ?? Dec.ZERO)
            .roundHalfEven(2);
          return {
            cantidad: Number(d.cantidad),
            producto: {
              descripcion: d.producto?.descripcion ?? "",
              precio_unitario: Number(d.producto?.precio_unitario_sin_iva ?? 0),
              alicuota: Number(d.producto?.alicuota ?? 0),
              // An amount, the item's discount (its percentage is `bonificacion_porcentaje`).
              bonificacion: gross ? Number(gross.sub(net).toFixed(2)) : 0,
              impuestos_internos_alicuota: Number(d.producto?.impuestos_internos_alicuota ?? 0),
              // The item's net after its own discount, before the voucher's.
              precio_total: Number(net.toFixed(2)),
            },
            bonificacion_porcentaje: Number(d.bonificacion_porcentaje ?? 0),
            leyenda: d.leyenda ?? "",
          };
        }),
        bonificacion: Number(c.bonificacion ?? 0),
        leyenda_gral: c.leyenda_gral ?? "",
        percepciones_iibb: tributoSum(tributos, 7),
        percepciones_iva: tributoSum(tributos, 6),
        // Items at -1 and -2 (after their share of the voucher's discount), and the `exentos` sent.
        exentos: Number((amounts?.exempt ?? Dec.ZERO).toFixed(2)),
        nogravados: Number((amounts?.nonTaxed ?? Dec.ZERO).toFixed(2)),
        impuestos_internos: Number((amounts?.internalTaxes ?? Dec.ZERO).toFixed(2)),
        impuestos_internos_base: Number(c.impuestos_internos_base ?? 0),
        impuestos_internos_alicuota: Number(c.impuestos_internos_alicuota ?? 0),
        total: Number(c.total),
        tributos: tributos.map((t: Json) => ({
          ...t,
          tipo_descripcion: TRIBUTO_TYPES[Number(t.tipo)] ?? "",
          regimen_descripcion: TRIBUTO_REGIMES[Number(t.regimen)]?.name ?? "",
        })),
        cae: issued ? "" : " ",
        vencimiento_cae: issued ? "" : "01/01/2000",
        vencimiento_pago: v.vencimiento,
        afip_codigo_barras: "",
        afip_observaciones: v.observations ?? "",
        afip_qr: issued && !purchase ? `${this.qr(v)} ` : "",
        status: v.status === "APROBADO Y EN COLA" ? `APROBADO Y EN COLA. SE EMITE EL ${v.fecha}` : v.status,
        ctacte_status: ledgerStatus(this, v),
        // No `errores` here: the documented items have none (reference §6.9); why a queued
        // voucher failed reaches the real service's users by webhook (`error`, its msg; §7).
        external_reference: reference,
        micrositios: { cliente: "", descarga: "" },
        tags: Array.isArray(c.tags) ? c.tags : [],
        comprobante_pdf_url: issued ? links.pdf : "",
        comprobante_ticket_url: issued ? links.ticket : "",
        abono: c.abono ?? "N",
        comprobantes_asociados_periodos: c.comprobantes_asociados_periodo ?? { fecha_desde: "", fecha_hasta: "" },
        // Not in reference §6.9's table, which shows only the periods: the vouchers a note names,
        // as it was issued with them, so that what the service stored can be read back.
        ...(Array.isArray(c.comprobantes_asociados) ? { comprobantes_asociados: c.comprobantes_asociados } : {}),
      },
    };
  }

  /**
   * The voucher's amounts as the authority computes them, worked out once per voucher (a listing
   * shows thousands, and a stored voucher does not change); undefined if it does not parse.
   */
  private amounts(v: StoredVoucher): Totals | undefined {
    if (this.amountsCache.has(v.id)) return this.amountsCache.get(v.id);
    const party = v.party as Json;
    const parsed = envelopeSchema.safeParse({
      [party.kind === "proveedor" ? "proveedor" : "cliente"]: stripKind(party),
      comprobante: v.comprobante,
    });
    const totals = parsed.success ? computeTotals(parsed.data.comprobante) : undefined;
    this.amountsCache.set(v.id, totals);
    return totals;
  }

  /** The links handed out when the voucher was issued or last regenerated (they may have expired). */
  private latestLinks(v: StoredVoucher): { pdf: string; ticket: string } {
    const base = this.options.baseUrl();
    const found = this.store.linksOf(v.id);
    return {
      pdf: found.pdf ? `${base}/comprobantes/pdf/${found.pdf}.pdf` : "",
      ticket: found.ticket ? `${base}/comprobantes/ticket/${found.ticket}.pdf` : "",
    };
  }

  /** The voucher `{tipo, operacion, punto_venta, numero}` names: a sale of this point of sale, or a purchase recorded at it. */
  findVoucher(c: Json, pv: PointOfSale): StoredVoucher | undefined {
    if (c?.operacion === "C")
      return this.store
        .findPurchases(pv.punto_venta, String(c.tipo ?? ""), Number(c.punto_venta), Number(c.numero))
        .at(-1);
    if (!c || Number(c.punto_venta) !== pv.punto_venta) return undefined;
    return this.store.findByNumber(pv.punto_venta, String(c.tipo ?? ""), Number(c.numero));
  }

  consulta(body: Json, pv: PointOfSale): Reply {
    const v = this.findVoucher(body?.comprobante, pv);
    if (!v) return fail(["No se encontro el comprobante solicitado."]);
    return { status: 200, body: { error: "N", errores: NO_ERRORS, rta: "OK", ...this.queryItem(v) } };
  }

  consultaAvanzada(body: Json, pv: PointOfSale): Reply {
    const kind = body?.busqueda_tipo;
    const c = body?.comprobante ?? {};
    const page = Number(body?.pagina ?? 0);
    const limit = Number(body?.limite ?? 100);
    if (!Number.isInteger(page) || page < 0) return fail(["El campo pagina debe ser un entero desde 0."]);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
      return fail(["El campo limite debe estar entre 1 y 1000."]);
    let filter: (v: StoredVoucher) => boolean;
    let candidates: Iterable<StoredVoucher> | undefined;
    // Sales and purchases are listed apart; a body without operacion gets both.
    const operacion = c.operacion === "C" || c.operacion === "V" ? c.operacion : undefined;
    const ofOperacion = (v: StoredVoucher) => operacion === undefined || (v.operacion ?? "V") === operacion;
    if (kind === "EXT_REF") {
      const reference = String(c.external_reference ?? "");
      if (reference === "") return fail(["Debe enviar el external_reference a buscar."]);
      candidates = this.store.findByReference(pv.punto_venta, reference).reverse().filter(ofOperacion);
      filter = () => true;
    } else if (kind === "F") {
      if (!isDate(c.fecha)) return fail(["El campo fecha debe tener el formato dd/mm/aaaa."]);
      filter = (v) => v.fecha === c.fecha && ofOperacion(v);
    } else if (kind === "TN" && operacion === "C") {
      const from = Number(c.numero_desde);
      const to = Number(c.numero_hasta);
      if (!voucherTypeInfo(c.tipo) || !Number.isInteger(from) || !Number.isInteger(to)) {
        return fail(["La busqueda TN necesita tipo, numero_desde y numero_hasta."]);
      }
      candidates = [
        ...this.store.newestFirst(
          pv.punto_venta,
          (v) =>
            v.operacion === "C" &&
            v.tipo === c.tipo &&
            (c.punto_venta === undefined || shownPointOfSale(v) === Number(c.punto_venta)) &&
            v.numero >= from &&
            v.numero <= to,
        ),
      ].sort((a, b) => b.numero - a.numero);
      filter = () => true;
    } else if (kind === "TN") {
      const from = Number(c.numero_desde);
      const to = Number(c.numero_hasta);
      if (!voucherTypeInfo(c.tipo) || !Number.isInteger(from) || !Number.isInteger(to)) {
        return fail(["La busqueda TN necesita tipo, numero_desde y numero_hasta."]);
      }
      if (Number(c.punto_venta) !== pv.punto_venta)
        return { status: 200, body: { rta: "OK", error: "N", total: 0, errores: [], comprobantes: [] } };
      const found: StoredVoucher[] = [];
      for (let n = Math.min(to, from + 100_000); n >= from; n--) {
        const v = this.store.findByNumber(pv.punto_venta, c.tipo, n);
        if (v) found.push(v);
      }
      candidates = found;
      filter = () => true;
    } else {
      return fail(['El campo busqueda_tipo debe ser "F", "TN" o "EXT_REF".']);
    }
    const all = [...(candidates ?? this.store.newestFirst(pv.punto_venta, filter))];
    const size = this.options.faults.pageSize > 0 ? Math.min(limit, this.options.faults.pageSize) : limit;
    const items = all.slice(page * size, page * size + size).map((v) => this.queryItem(v));
    return { status: 200, body: { rta: "OK", error: "N", total: all.length, errores: [], comprobantes: items } };
  }

  numeracion(body: Json, pv: PointOfSale): Reply {
    const c = body?.comprobante;
    if (!c || !voucherTypeInfo(c.tipo)) return fail(["Debe enviar un tipo de comprobante valido."]);
    if (Number(c.punto_venta) !== pv.punto_venta)
      return fail(["El punto de venta no corresponde a las credenciales enviadas."]);
    return {
      status: 200,
      body: {
        error: "N",
        errores: NO_ERRORS,
        rta: "OK",
        comprobante: {
          tipo: c.tipo,
          operacion: c.operacion ?? "V",
          punto_venta: pv.punto_venta,
          numero: this.store.nextNumber(pv.punto_venta, c.tipo),
        },
      },
    };
  }

  /**
   * A MiPyME's ordinary invoice to a buyer obliged to receive FCE, at or above the threshold
   * (tax-rules §4.11): the service refuses it with `requiere_fec: "SI"` (reference §6.4), and the
   * sale must be sent again as the matching FCE type. Undefined when the voucher may go as it is.
   */
  private fceRefusal(body: Json): string | undefined {
    const c = body?.comprobante;
    const info = voucherTypeInfo(c?.tipo);
    if (
      c?.operacion !== "V" ||
      !info ||
      info.fce ||
      info.kind !== "invoice" ||
      (info.class !== "A" && info.class !== "B")
    )
      return undefined;
    const party = body.cliente ?? {};
    if (String(party.documento_tipo ?? "").toUpperCase() !== "CUIT" || !obligedToFce(String(party.documento_nro)))
      return undefined;
    const moneda = String(c.moneda ?? "PES")
      .trim()
      .toUpperCase();
    const rate = moneda === "PES" ? 1 : Number(c.cotizacion ?? 1);
    if (Number(c.total) * rate < FCE_THRESHOLD) return undefined;
    return `El receptor ${String(party.documento_nro).trim()} esta obligado a recibir Factura de Credito Electronica MiPyME por importes desde ${FCE_THRESHOLD}: emita el comprobante como FACTURA DE CREDITO ELECTRONICA MiPyME (FCE) ${info.class}.`;
  }

  requiereFec(body: Json): Reply {
    const cuit = String(body?.cuit ?? "").trim();
    if (!isValidCuit(cuit)) return fail([`El CUIT enviado ${cuit} es invalido.`]);
    if (body?.fecha !== undefined && !isDate(body.fecha))
      return fail(["El campo fecha debe tener el formato dd/mm/aaaa."]);
    const obligated = obligedToFce(cuit);
    return {
      status: 200,
      body: { error: "N", errores: [], rta: "", esta_obligado: obligated ? "S" : "N", importe_desde: FCE_THRESHOLD },
    };
  }

  async regenerarPdf(body: Json, pv: PointOfSale): Promise<Reply> {
    const v = this.findVoucher(body?.comprobante, pv);
    if (v?.status !== "EMITIDO") return fail(["No se encontro el comprobante solicitado."]);
    const links = this.freshLinks(v);
    await links.durable;
    return {
      status: 200,
      body: { error: "N", errores: [], comprobante_pdf_url: links.pdf, comprobante_ticket_url: links.ticket },
    };
  }

  // --- queue management ---

  async eliminarEncolado(body: Json, pv: PointOfSale): Promise<Reply> {
    const reference = String(body?.external_reference ?? "");
    const matches = this.store
      .findByReference(pv.punto_venta, reference)
      .filter((v) => body?.fecha === undefined || v.fecha === body.fecha);
    if (matches.length === 0) return fail([NOT_FOUND], { procesados_cant: 0, procesados: [] });
    const deletable = matches.filter((v) => v.queued);
    await Promise.all(deletable.map((v) => this.store.update(v, { deleted: true, queued: false })));
    const procesados = deletable.map(
      (v) => `El comprobante ${v.tipo} ${voucherNumber(v.punto_venta, 0)} se ha eliminado correctamente. `,
    );
    const error = deletable.length === matches.length ? "N" : deletable.length === 0 ? "S" : "PARCIAL";
    const errores = error === "N" ? [] : ["Los comprobantes ya emitidos no se pueden eliminar."];
    return { status: 200, body: { error, errores, procesados_cant: deletable.length, procesados } };
  }

  private firstQueued(body: Json, pv: PointOfSale, accept: (v: StoredVoucher) => boolean): StoredVoucher | undefined {
    // Several vouchers may share a reference: the service acts on the first match.
    return this.store.findByReference(pv.punto_venta, String(body?.external_reference ?? "")).find(accept);
  }

  async cambiarFechaEncolado(body: Json, pv: PointOfSale): Promise<Reply> {
    const v = this.firstQueued(body, pv, (x) => x.queued);
    if (!v) return fail([NOT_FOUND]);
    if (!isDate(body?.fecha)) return fail(["El campo fecha debe tener el formato dd/mm/aaaa."]);
    // The method's body lists both dates (reference §4.2): the due date moves with the voucher.
    if (!isDate(body?.vencimiento)) return fail(["El campo vencimiento debe tener el formato dd/mm/aaaa."]);
    const vencimiento = body.vencimiento;
    const comprobante = { ...v.comprobante, fecha: body.fecha, vencimiento };
    // Changing the date also puts an errored voucher back in the queue.
    await this.store.update(v, {
      fecha: body.fecha,
      vencimiento,
      comprobante,
      status: "EN COLA, ESPERANDO APROBACION",
      errors: [],
      attempts: 0,
    });
    return { status: 200, body: { error: "N", errores: [] } };
  }

  async reenviarEncolado(body: Json, pv: PointOfSale): Promise<Reply> {
    const v = this.firstQueued(body, pv, (x) => x.queued && x.status === "ENVIADO A PROCESAR - CON ERROR");
    if (!v) return fail([NOT_FOUND]);
    await this.store.update(v, { status: "EN COLA, ESPERANDO APROBACION", errors: [], attempts: 0 });
    return { status: 200, body: { error: "N", errores: [] } };
  }

  alertas(): Reply {
    if (this.options.faults.authorityDown) {
      return {
        status: 200,
        body: {
          error: "S",
          errores: [],
          facturacion:
            "Los servicios de facturacion de AFIP/ARCA no estan respondiendo. La emision instantanea esta bloqueada; los comprobantes encolados se procesaran cuando se restablezcan.",
          novedades: "",
          rta: "ERROR",
        },
      };
    }
    return {
      status: 200,
      body: {
        error: "N",
        errores: NO_ERRORS,
        rta: "OK",
        facturacion: "OK",
        prox_mantenimientos_programados: [],
        novedades: "Entorno de desarrollo local de facturar.",
      },
    };
  }

  // --- the queue worker ---

  /** One pass of the worker: issues the queued vouchers whose date has come (reference §8.1). */
  async processQueue(): Promise<number> {
    const today = this.today();
    let issued = 0;
    const waiting = this.store
      .queuedVouchers()
      .filter((v) => v.status !== "ENVIADO A PROCESAR - CON ERROR" && v.attempts < 100)
      .sort((a, b) => dayNumber(a.fecha) - dayNumber(b.fecha) || a.id - b.id);
    const writes: Promise<void>[] = [];
    for (const v of waiting) {
      if (dayNumber(v.fecha) > today) {
        if (v.status !== "APROBADO Y EN COLA") writes.push(this.store.update(v, { status: "APROBADO Y EN COLA" }));
        continue;
      }
      if (this.options.faults.authorityDown) {
        // An outage is retried automatically on the next pass.
        writes.push(this.store.update(v, { attempts: v.attempts + 1 }));
        continue;
      }
      if (this.options.random() < this.options.faults.queueError || v.attempts + 1 >= 100) {
        writes.push(
          this.store.update(v, {
            status: "ENVIADO A PROCESAR - CON ERROR",
            attempts: v.attempts + 1,
            errors: ["AFIP No devolvio el CAE asociado. (Cod. Error #6661141.S1254)"],
          }),
        );
        continue;
      }
      const dated = this.authorityDateRefusal(v.comprobante, v.punto_venta);
      const refused = [
        ...(dated ? [dated] : []),
        ...this.productionRefusals({ cliente: stripKind(v.party), comprobante: v.comprobante }).map((p) => p.text),
      ];
      if (refused.length > 0) {
        writes.push(
          this.store.update(v, {
            status: "ENVIADO A PROCESAR - CON ERROR",
            attempts: v.attempts + 1,
            errors: refused,
          }),
        );
        continue;
      }
      const numero = this.store.takeNumber(v.punto_venta, v.tipo);
      const comprobante = { ...v.comprobante, numero };
      writes.push(
        this.store.update(v, { numero, comprobante, status: "EMITIDO", queued: false, attempts: v.attempts + 1 }),
      );
      writes.push(this.freshLinks(v).durable.then(() => undefined));
      issued++;
    }
    await Promise.all(writes);
    return issued;
  }

  // --- documents ---

  documentView(v: StoredVoucher): DocumentView {
    const c = v.comprobante as Json;
    const party = v.party as Json;
    const parsed = envelopeSchema.safeParse({
      [party.kind === "proveedor" ? "proveedor" : "cliente"]: stripKind(party),
      comprobante: c,
    });
    const totals = parsed.success ? computeTotals(parsed.data.comprobante) : undefined;
    const text = (value: unknown) => (typeof value === "string" ? unescapeText(value) : "");
    const detalle: Json[] = Array.isArray(c.detalle) ? c.detalle : [];
    return {
      issuer: { razon_social: this.store.account.razon_social, cuit: this.store.account.cuit },
      tipo: v.tipo,
      punto_venta: shownPointOfSale(v),
      numero: v.numero,
      fecha: v.fecha,
      vencimiento: v.vencimiento,
      ...(c.periodo_facturado_desde
        ? { periodo: { desde: c.periodo_facturado_desde, hasta: c.periodo_facturado_hasta ?? "" } }
        : {}),
      party: {
        label: party.kind === "proveedor" ? "Proveedor" : "Cliente",
        razon_social: text(party.razon_social) || "Consumidor final",
        documento_tipo: String(party.documento_tipo ?? ""),
        documento_nro: String(party.documento_nro ?? ""),
        condicion_iva: String(party.condicion_iva_operacion ?? party.condicion_iva ?? ""),
        domicilio: text(party.domicilio),
        condicion_pago: party.condicion_pago
          ? (PAYMENT_CONDITIONS[Number(party.condicion_pago)] ?? String(party.condicion_pago))
          : "",
      },
      moneda: String(c.moneda ?? "PES"),
      cotizacion: String(c.cotizacion ?? "1"),
      lines: detalle.map((d, i) => ({
        codigo: String(d.producto?.codigo ?? ""),
        descripcion: text(d.producto?.descripcion),
        leyenda: text(d.leyenda),
        cantidad: String(d.cantidad),
        precio: String(d.producto?.precio_unitario_sin_iva ?? 0),
        bonificacion: d.bonificacion_porcentaje ? String(d.bonificacion_porcentaje) : "",
        alicuota:
          ({ "-1": "Exento", "-2": "No grav." } as Record<string, string>)[String(d.producto?.alicuota)] ??
          `${d.producto?.alicuota}%`,
        subtotal:
          totals?.itemNets[i]?.toFixed(2) ??
          String(Number(d.cantidad) * Number(d.producto?.precio_unitario_sin_iva ?? 0)),
      })),
      ...(totals ? { totals } : {}),
      declaredTotal: String(c.total),
      leyenda_gral: text(c.leyenda_gral),
      cae: "",
      vencimiento_cae: "",
      qr: this.qr(v),
    };
  }
}

/** The point of sale a voucher shows: a purchase's is the supplier's. */
function shownPointOfSale(v: StoredVoucher): number {
  return v.operacion === "C" ? Number((v.comprobante as Json).punto_venta) : v.punto_venta;
}

/** The sum of a voucher's tributos of one type (6 IVA, 7 IIBB), as `consulta` reports it. */
function tributoSum(tributos: Json[], tipo: number): number {
  const totals = tributos
    .filter((t) => Number(t?.tipo) === tipo)
    .map((t) => Dec.tryParse(String(t?.total ?? 0)) ?? Dec.ZERO);
  return Number(Dec.sum(totals).toFixed(2));
}

function stripKind(party: Json): Json {
  const { kind: _kind, ...rest } = party;
  return rest;
}
