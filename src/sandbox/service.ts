/**
 * The methods of the hosted service's development plan (reference/api-v2.md §4, §6, §8), answered
 * with the real response shapes and their quirks: trailing spaces, `errores: [""]`, `afip_`-named
 * fields, numbers where requests sent text. The plan is not connected to the authority (spec §1):
 * `cae` comes back empty and the authority's checks are not applied, only the service's own. The
 * `authority-checks` fault (part of --like-production) applies the authority's too, as production
 * does, with its codes and texts where the references give them (productionRefusals,
 * authorityDateRefusal): a batch rehearsed there fails where production would.
 *
 * This file holds the method table (dispatch, quotas, maintenance) and the issuing methods; by
 * family the rest is in validation.ts (the service's own checks), authority.ts (production's),
 * queries.ts (consulta, consulta_avanzada, numeracion), queue.ts (queue management and the
 * worker) and account.ts (the account's methods).
 */
import {
  DOCUMENT_TYPE_CODES,
  type DocumentType,
  PAYMENT_CONDITIONS,
  voucherNumber,
  voucherTypeInfo,
} from "../voucher/codes.js";
import { argentinaToday, dayNumber, formatDay, toIsoDate } from "../voucher/dates.js";
import { Dec } from "../voucher/decimal.js";
import { isValidCuit } from "../voucher/ids.js";
import { qrUrl } from "../voucher/qr.js";
import { envelopeSchema } from "../voucher/schema.js";
import { unescapeText } from "../voucher/text.js";
import { computeTotals, type Totals } from "../voucher/totals.js";
import {
  afipInfo,
  comprobanteEliminar,
  consumo,
  cuentaCorriente,
  pagar,
  planEndDay,
  productosConsultar,
  productosListar,
  REFERENCE_TABLES,
  reenviar,
  referenceTable,
} from "./account.js";
import { authorityDateRefusal, productionRefusals } from "./authority.js";
import type { DocumentView } from "./documents.js";
import type { Faults } from "./faults.js";
import { consulta, consultaAvanzada, numeracion } from "./queries.js";
import { cambiarFechaEncolado, eliminarEncolado, processQueue, reenviarEncolado } from "./queue.js";
import { DEFAULT_RATES } from "./rates.js";
import { fail, type Json, NO_ERRORS, ok, type Reply } from "./reply.js";
import { type PointOfSale, type Store, type StoredVoucher, shownPointOfSale, stripKind, VOUCHERS } from "./store.js";
import { isDate, pad, serviceProblems } from "./validation.js";
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
const QUEUEABLE_MAX = 100;
const BATCH_MAX = 20;

/**
 * The observation of the `observe` fault: one the authority attaches to a FACTURA A whose buyer
 * may not compute its VAT (a text as ARCA's web service gives it, with its code).
 */
const OBSERVATION =
  "10217: El credito fiscal discriminado en el presente comprobante solo podra ser computado a efectos del Procedimiento permanente de transicion al Regimen General.";

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
  "facturacion/consulta": { handle: (s, b, pv) => consulta(s, b, pv), changes: false, quota: "free" },
  "facturacion/consulta_avanzada": { handle: (s, b, pv) => consultaAvanzada(s, b, pv), changes: false, quota: "free" },
  "facturacion/numeracion": { handle: (s, b, pv) => numeracion(s, b, pv), changes: false, quota: "free" },
  "facturacion/requiere_fec": { handle: (s, b) => s.requiereFec(b), changes: false, quota: "one" },
  "facturacion/topecf": { handle: (s) => s.topecf(), changes: false, quota: "one" },
  "facturacion/regenerar_pdf": { handle: (s, b, pv) => s.regenerarPdf(b, pv), changes: true, quota: "one" },
  "facturacion/eliminar_encolado": { handle: (s, b, pv) => eliminarEncolado(s, b, pv), changes: true, quota: "one" },
  "facturacion/cambiar_fecha_encolado": {
    handle: (s, b, pv) => cambiarFechaEncolado(s, b, pv),
    changes: true,
    quota: "one",
  },
  "facturacion/reenviar_encolado": { handle: (s, b, pv) => reenviarEncolado(s, b, pv), changes: true, quota: "one" },
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
  /** Each voucher's amounts, worked out once by the queries (queries.ts). */
  readonly amountsCache = new Map<number, Totals | undefined>();

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

  /** The authority's rate of a currency here (FACTURAR_SANDBOX_RATES, else the defaults). */
  rateOf(moneda: string): Dec | undefined {
    const rate = (this.options.rates ?? DEFAULT_RATES)[moneda];
    return rate === undefined ? undefined : Dec.tryParse(rate);
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
    const problems = serviceProblems(body, pv, false);
    if (problems.length > 0)
      return issueError(
        problems.map((p) => p.text),
        problems,
        c?.external_reference,
      );
    if (c.operacion === "C") {
      const production = productionRefusals(this, body);
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
    const dated = authorityDateRefusal(this, c, pv.punto_venta);
    const refusals = [...(dated ? [{ code: "TFC-6661", text: dated }] : []), ...productionRefusals(this, body)];
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
      const problems = serviceProblems(r, pv, false);
      // A request that is no voucher has its refusal from check: nothing more to look at in it.
      const c = typeof r?.comprobante === "object" && r.comprobante !== null ? r.comprobante : undefined;
      if (c && problems.length === 0) problems.push(...productionRefusals(this, r));
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
      const refused = text ? undefined : authorityDateRefusal(this, c, pv.punto_venta);
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
    const problems = serviceProblems(body, pv, true);
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
    const problemsOf = requests.map((r: Json) => serviceProblems(r, pv, true));
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

  /** The voucher `{tipo, operacion, punto_venta, numero}` names: a sale of this point of sale, or a purchase recorded at it. */
  findVoucher(c: Json, pv: PointOfSale): StoredVoucher | undefined {
    if (c?.operacion === "C")
      return this.store
        .findPurchases(pv.punto_venta, String(c.tipo ?? ""), Number(c.punto_venta), Number(c.numero))
        .at(-1);
    if (!c || Number(c.punto_venta) !== pv.punto_venta) return undefined;
    return this.store.findByNumber(pv.punto_venta, String(c.tipo ?? ""), Number(c.numero));
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
    return ok({
      facturacion: "OK",
      prox_mantenimientos_programados: [],
      novedades: "Entorno de desarrollo local de facturar.",
    });
  }

  // --- the queue worker (queue.ts) ---

  /** Processes what the queue holds (the server calls it every queueIntervalMs). */
  processQueue(): Promise<number> {
    return processQueue(this);
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
