/**
 * The development plan's methods beyond issuing and queries (reference §4.4 to §4.8, §6.10): the
 * registry lookup, the plan's consumption, e-mailing a voucher again, payments and the client
 * ledger, the products the vouchers carried, the reference tables, and deleting a purchase.
 * Each answers with the shape the vendor's pages show.
 */
import {
  CURRENCIES,
  DOCUMENT_TYPES,
  isNote,
  LANGUAGES,
  PAYMENT_CONDITIONS,
  PROVINCES,
  SPECIAL_REGIMES,
  TRIBUTO_REGIMES,
  TRIBUTO_TYPES,
  UNITS,
  VAT_CONDITION_NAMES,
  VAT_RATES,
  VOUCHER_TYPE_NAMES,
  voucherNumber,
  voucherTypeInfo,
} from "../voucher/codes.js";
import { dayNumber, formatDay } from "../voucher/dates.js";
import { EXPORT_TABLES } from "../voucher/export-codes.js";
import { isValidCuit } from "../voucher/ids.js";
import type { Faults } from "./faults.js";
import { fail, type Json, ok, type Reply } from "./reply.js";
import { type PointOfSale, type Store, type StoredVoucher, VOUCHERS } from "./store.js";

/** What these methods need of the sandbox (service.ts): its store, its day and faults, a voucher found. */
export interface AccountHost {
  readonly store: Store;
  readonly options: { readonly faults: Faults };
  todayNumber(): number;
  findVoucher(c: Json, pv: PointOfSale): StoredVoucher | undefined;
}

const NOT_FOUND = "No se encontro el comprobante solicitado.";
const cents = (value: unknown) => Math.round(Number(value) * 100);
const isAmount = (value: unknown) =>
  (typeof value === "number" && Number.isFinite(value)) ||
  (typeof value === "string" && /^\s*\d+(\.\d{1,2})?\s*$/.test(value));

// --- the registry (clientes/afip-info) ---

const SURNAMES = [
  "GONZALEZ",
  "RODRIGUEZ",
  "FERNANDEZ",
  "LOPEZ",
  "MARTINEZ",
  "PEREZ",
  "GOMEZ",
  "DIAZ",
  "SOSA",
  "ROMERO",
];
const GIVEN_NAMES = ["MARIA LAURA", "JUAN CARLOS", "ANA", "DIEGO MARTIN", "LUCIA", "PABLO", "SOFIA", "JORGE LUIS"];
const COMPANY_WORDS = ["ANDINA", "PAMPA", "DEL SUR", "RIOPLATENSE", "PATAGONICA", "LITORAL", "CUYANA", "NORTE"];
const COMPANY_TRADES = ["SERVICIOS", "DISTRIBUIDORA", "CONSTRUCCIONES", "ALIMENTOS", "TECNOLOGIA", "LOGISTICA"];
const STREETS = [
  "AV RIVADAVIA",
  "SAN MARTIN",
  "BELGRANO",
  "MITRE",
  "SARMIENTO",
  "AV CORRIENTES",
  "ITALIA",
  "25 DE MAYO",
];
const PLACES: { localidad: string; codigopostal: string; provincia: string }[] = [
  { localidad: "CIUDAD AUTONOMA BUENOS AIRES", codigopostal: "1406", provincia: "CIUDAD AUTONOMA BUENOS AIRES" },
  { localidad: "CASTELAR", codigopostal: "1712", provincia: "BUENOS AIRES" },
  { localidad: "CORDOBA", codigopostal: "5000", provincia: "CORDOBA" },
  { localidad: "ROSARIO", codigopostal: "2000", provincia: "SANTA FE" },
  { localidad: "MENDOZA", codigopostal: "5500", provincia: "MENDOZA" },
  { localidad: "SAN MIGUEL DE TUCUMAN", codigopostal: "4000", provincia: "TUCUMAN" },
];
const ACTIVITIES = [
  { descripcion: "SERVICIOS DE CONSULTORES EN INFORMATICA Y SUMINISTROS DE PROGRAMAS DE INFORMATICA", id: "620100" },
  { descripcion: "SERVICIOS EMPRESARIALES N.C.P.", id: "829900" },
  { descripcion: "VENTA AL POR MAYOR DE MERCANCIAS N.C.P.", id: "469090" },
  { descripcion: "CONSTRUCCION, REFORMA Y REPARACION DE EDIFICIOS NO RESIDENCIALES", id: "410021" },
  { descripcion: "SERVICIOS DE TRANSPORTE AUTOMOTOR DE CARGAS N.C.P.", id: "492299" },
];

/** The same CUIT always gives the same record: a small hash of its digits picks each part. */
function pick<T>(list: readonly T[], cuit: string, salt: number): T {
  let h = salt;
  for (const ch of cuit) h = (h * 31 + ch.charCodeAt(0)) % 1_000_003;
  return list[h % list.length] as T;
}

/** A registry record for a CUIT, or undefined where the registry has no such person. */
function registryRecord(cuit: string): Record<string, unknown> | undefined {
  const prefix = cuit.slice(0, 2);
  const person = ["20", "23", "24", "27"].includes(prefix);
  const company = ["30", "33", "34"].includes(prefix);
  if (!person && !company) return undefined;
  const place = pick(PLACES, cuit, 3);
  const condicion = company
    ? pick(["RESPONSABLE INSCRIPTO", "RESPONSABLE INSCRIPTO", "RESPONSABLE INSCRIPTO", "EXENTO"], cuit, 5)
    : // One person in seven is registered in neither VAT nor the monotributo (reference §6.10 notes).
      pick(
        ["MONOTRIBUTO", "MONOTRIBUTO", "RESPONSABLE INSCRIPTO", "MONOTRIBUTO", "EXENTO", "MONOTRIBUTO", ""],
        cuit,
        5,
      );
  const razon_social = company
    ? condicion === "EXENTO"
      ? `ASOCIACION CIVIL ${pick(COMPANY_WORDS, cuit, 7)}`
      : `${pick(COMPANY_TRADES, cuit, 11)} ${pick(COMPANY_WORDS, cuit, 7)} S.A.`
    : `${pick(SURNAMES, cuit, 7)} ${pick(GIVEN_NAMES, cuit, 11)}`;
  const first = pick(ACTIVITIES, cuit, 13);
  return {
    razon_social,
    condicion_impositiva: condicion,
    direccion: `${pick(STREETS, cuit, 17)} ${100 + (Number(cuit.slice(2, 6)) % 4900)}`,
    localidad: place.localidad,
    codigopostal: place.codigopostal,
    estado: "ACTIVO",
    provincia: place.provincia,
    actividad: [{ ...first, nomenclador: "883", periodo: `20${10 + (Number(cuit.slice(8, 10)) % 15)}06` }],
  };
}

export function afipInfo(service: AccountHost, body: Json): Reply {
  const cliente = body?.cliente;
  if (String(cliente?.documento_tipo ?? "").toUpperCase() !== "CUIT")
    return fail(["El campo documento_tipo debe ser CUIT."]);
  const cuit = String(cliente?.documento_nro ?? "").trim();
  if (!isValidCuit(cuit)) return fail([`El CUIT enviado ${cuit} es invalido.`]);
  const account = service.store.account;
  const record =
    cuit === account.cuit
      ? {
          ...registryRecord(`30${cuit.slice(2)}`),
          razon_social: account.razon_social,
          condicion_impositiva: "RESPONSABLE INSCRIPTO",
        }
      : registryRecord(cuit);
  if (!record) return fail([`No existe persona con ese Id (CUIT ${cuit}).`]);
  if (record.condicion_impositiva === "")
    // Not registered in VAT nor the monotributo: the data come with error "S" (reference §6.10).
    return {
      status: 200,
      body: {
        error: "S",
        ...record,
        errores: ["El contribuyente no se encuentra inscripto en el IVA ni en el Monotributo."],
      },
    };
  return { status: 200, body: { error: "N", ...record, errores: [""] } };
}

// --- the plan (micuenta/consumo) ---

/** The development plan lasts one month from the account's creation (reference §2). */
const PLAN_DAYS = 30;

/**
 * The day (a day number) the account's API DEV plan ends: 30 days after it was created, and every
 * 30 days after that. The hosted plan lapses and must be renewed; this one renews itself, as
 * the development service on the user's machine must keep working (tests and `status` see a
 * lapsed plan with the `plan-ended` fault: it ended the day before).
 */
export function planEndDay(service: AccountHost): number {
  const created = Math.floor(new Date(service.store.account.created).getTime() / 86_400_000);
  const today = service.todayNumber();
  if (service.options.faults.planEnded) return today - 1;
  const periods = Math.max(1, Math.ceil((today - created + 1) / PLAN_DAYS));
  return created + periods * PLAN_DAYS;
}

/**
 * The documented answer (reference §6.10), no more: the vouchers of the subscription, issued,
 * scheduled as recurring (the sandbox schedules none) and left. Not the other methods' quotas
 * (each its own, spec §8), nor when the plan ends: the page shows neither.
 */
export function consumo(service: AccountHost): Reply {
  const { account } = service.store;
  const used = service.store.quotaUsed(VOUCHERS);
  return {
    status: 200,
    body: {
      error: "N",
      errores: [],
      abonos_pendientes: 0,
      comprobantes_generados: used,
      comprobantes_cupo: account.quota,
      comprobantes_disponibles: Math.max(0, account.quota - used),
    },
  };
}

// --- actions on an issued voucher ---

function issuedVoucher(service: AccountHost, body: Json, pv: PointOfSale): StoredVoucher | undefined {
  const v = service.findVoucher(body?.comprobante, pv);
  return v?.status === "EMITIDO" ? v : undefined;
}

/** `reenviar` works only where the voucher was e-mailed when it was issued (its client's profile said so). */
export function reenviar(service: AccountHost, body: Json, pv: PointOfSale): Reply {
  const v = issuedVoucher(service, body, pv);
  if (!v) return fail([NOT_FOUND]);
  const party = v.party as Json;
  const mailed = String(party.envia_por_mail ?? "").toUpperCase() === "S" && String(party.email ?? "").trim() !== "";
  if (!mailed)
    return fail([
      "El comprobante no fue enviado por e-mail al momento de su emision: solo es posible reenviar comprobantes que se enviaron por e-mail.",
    ]);
  return { status: 200, body: { error: "N" } };
}

function paidCents(service: AccountHost, v: StoredVoucher): number {
  const atIssue = (v.comprobante as Json).pagos?.total;
  return (
    (isAmount(atIssue) ? cents(atIssue) : 0) + service.store.paymentsOf(v.id).reduce((s, p) => s + cents(p.total), 0)
  );
}

/** `ctacte_status` of a voucher: what its payments leave to pay. */
export function ledgerStatus(service: AccountHost, v: StoredVoucher): string {
  const paid = paidCents(service, v);
  if (paid <= 0) return "IMPAGA";
  return paid >= cents((v.comprobante as Json).total) ? "PAGADA" : "PAGO PARCIAL";
}

export async function pagar(service: AccountHost, body: Json, pv: PointOfSale): Promise<Reply> {
  const c = body?.comprobante;
  if (c?.operacion !== "V") return fail(['El campo operacion debe ser "V": solo se registran pagos de ventas.']);
  const v = issuedVoucher(service, body, pv);
  if (!v) return fail([NOT_FOUND]);
  const pagos = c.pagos;
  const formas: Json[] = Array.isArray(pagos?.formas_pago) ? pagos.formas_pago : [];
  if (formas.length === 0) return fail(["Debe enviar al menos una forma de pago en pagos.formas_pago."]);
  const errores: string[] = [];
  formas.forEach((f, i) => {
    const descripcion = typeof f?.descripcion === "string" ? f.descripcion.trim() : "";
    if (descripcion === "" || descripcion.length > 255)
      errores.push(`Forma de pago ${i + 1}: la descripcion es obligatoria (hasta 255 caracteres).`);
    else if (/cheque|retenci/i.test(descripcion))
      errores.push(`Forma de pago ${i + 1}: no se pueden informar cheques ni retenciones.`);
    if (!isAmount(f?.importe) || cents(f.importe) <= 0)
      errores.push(`Forma de pago ${i + 1}: el importe debe ser numerico, positivo y con hasta 2 decimales.`);
  });
  if (!isAmount(pagos?.total)) errores.push("El campo pagos.total es obligatorio y numerico.");
  if (errores.length > 0) return fail(errores);
  const sum = formas.reduce((s, f) => s + cents(f.importe), 0);
  if (sum !== cents(pagos.total)) return fail(["El total de pagos no coincide con la suma de las formas de pago."]);
  if (paidCents(service, v) + sum > cents((v.comprobante as Json).total))
    return fail(["El total de los pagos supera el importe total del comprobante."]);
  await service.store.addPayment({
    voucherId: v.id,
    fecha: formatDay(service.todayNumber()),
    formas_pago: formas.map((f) => ({ descripcion: String(f.descripcion).trim(), importe: cents(f.importe) / 100 })),
    total: sum / 100,
  });
  return { status: 200, body: { error: "N", errores: [""] } };
}

/** Purchases only, and none with payments (the vendor's page). */
export async function comprobanteEliminar(service: AccountHost, body: Json, pv: PointOfSale): Promise<Reply> {
  const c = body?.comprobante;
  if (c?.operacion !== "C")
    return fail(['Solo se pueden eliminar comprobantes de compra: el campo operacion debe ser "C".']);
  if (!voucherTypeInfo(String(c.tipo ?? ""))) return fail(["Debe enviar un tipo de comprobante valido."]);
  const found = service.findVoucher(c, pv);
  if (!found) return fail([NOT_FOUND]);
  if (service.store.paymentsOf(found.id).length > 0 || paidCents(service, found) > 0)
    return fail(["El comprobante tiene pagos relacionados: no es posible eliminarlo."]);
  await service.store.update(found, { deleted: true });
  return { status: 200, body: { error: "N", errores: [], rta: "El comprobante se ha eliminado." } };
}

// --- the client ledger (clientes/cuenta-corriente) ---

export function cuentaCorriente(service: AccountHost, body: Json): Reply {
  const cliente = body?.cliente;
  if (String(cliente?.documento_tipo ?? "").toUpperCase() !== "CUIT")
    return fail(["El campo documento_tipo debe ser CUIT."]);
  const cuit = String(cliente?.documento_nro ?? "").trim();
  if (!isValidCuit(cuit)) return fail([`El CUIT enviado ${cuit} es invalido.`]);
  // The ledger is the account's: every point of sale's sales to the client, oldest first.
  const vouchers: StoredVoucher[] = [];
  for (const p of service.store.account.points_of_sale)
    for (const v of service.store.newestFirst(
      p.punto_venta,
      (x) =>
        x.status === "EMITIDO" && x.operacion !== "C" && String((x.party as Json).documento_nro ?? "").trim() === cuit,
    ))
      vouchers.push(v);
  if (vouchers.length === 0) return fail(["No existe un cliente con el documento enviado, o no tiene movimientos."]);
  vouchers.sort((a, b) => dayNumber(a.fecha) - dayNumber(b.fecha) || a.id - b.id);
  type Row = {
    day: number;
    order: number;
    fecha: string;
    concepto: string;
    debe: number;
    haber: number;
    resta: number;
  };
  const rows: Row[] = [];
  for (const v of vouchers) {
    const c = v.comprobante as Json;
    const info = voucherTypeInfo(v.tipo);
    const credit = info !== undefined && isNote(info) && info.kind === "credit";
    // The ledger is in pesos: a voucher in another currency counts at its own cotizacion, and
    // its concept says so.
    const moneda = String(c.moneda ?? "PES").trim() || "PES";
    const rate = moneda === "PES" ? 1 : Number(c.cotizacion) > 0 ? Number(c.cotizacion) : 1;
    const pesos = (amountCents: number) => Math.round(amountCents * rate);
    const total = pesos(cents(c.total));
    const name = String((v.party as Json).razon_social ?? "").trim();
    // "FACTURA A 0002-00000001 (CUIT DE PRUEBA)": 4 + 8 digits, as the vendor's example prints.
    const concepto = `${v.tipo} ${voucherNumber(v.punto_venta, v.numero).slice(1)}${name ? ` (${name})` : ""}${
      moneda === "PES" ? "" : ` ${moneda} ${(cents(c.total) / 100).toFixed(2)} x ${rate}`
    }`;
    const paid = credit ? 0 : pesos(paidCents(service, v));
    rows.push({
      day: dayNumber(v.fecha),
      order: v.id * 1000,
      fecha: v.fecha,
      concepto,
      debe: credit ? 0 : total,
      haber: credit ? total : 0,
      resta: credit ? 0 : Math.max(0, total - paid),
    });
    const atIssue = c.pagos?.total;
    if (isAmount(atIssue) && cents(atIssue) > 0)
      rows.push({
        day: dayNumber(v.fecha),
        order: v.id * 1000 + 1,
        fecha: v.fecha,
        concepto: `COBRO ${concepto}`,
        debe: 0,
        haber: pesos(cents(atIssue)),
        resta: 0,
      });
    for (const [i, p] of service.store.paymentsOf(v.id).entries())
      rows.push({
        day: dayNumber(p.fecha),
        order: v.id * 1000 + 2 + i,
        fecha: p.fecha,
        concepto: `COBRO ${concepto} - ${p.formas_pago.map((f) => f.descripcion).join(", ")}`,
        debe: 0,
        haber: pesos(cents(p.total)),
        resta: 0,
      });
  }
  rows.sort((a, b) => a.day - b.day || a.order - b.order);
  let saldo = 0;
  const resultados = rows.map((r) => {
    saldo += r.debe - r.haber;
    return {
      fecha: r.fecha,
      concepto: r.concepto,
      debe: r.debe / 100,
      haber: r.haber / 100,
      resta_abonar_de_este_comprobante: r.resta / 100,
      saldo: saldo / 100,
    };
  });
  return ok({ resultados });
}

// --- products (productos/listar, productos/consultar) ---

/** A product as the vendor's `consultar` page shows one, from what an issued voucher carried. */
function productView(p: Json): Record<string, unknown> {
  return {
    descripcion: String(p.descripcion ?? ""),
    unidad_bulto: String(p.unidad_bulto ?? "1"),
    lista_precios: String(p.lista_precios ?? ""),
    codigo: String(p.codigo ?? ""),
    precio_unitario_sin_iva: Number(p.precio_unitario_sin_iva ?? 0),
    alicuota: Number(p.alicuota ?? 0),
    impuestos_internos_alicuota: Number(p.impuestos_internos_alicuota ?? 0),
    moneda: p.moneda === "DOL" ? "DOL" : "PES",
    codbar: String(p.codbar ?? ""),
    rg5329: p.rg5329 === "S" ? "S" : "N",
    unidad_medida: String(p.unidad_medida ?? "7"),
    afecta_stock: p.afecta_stock === "S" ? "S" : "N",
    stock_actual: 0,
    stock_minimo: 0,
  };
}

/** Products with a code: the ones a price list can hold (an item without `codigo` is free text). */
function coded(service: AccountHost): { key: string; order: number; product: Json }[] {
  return [...service.store.products.entries()]
    .map(([key, product], order) => ({ key, order, product }))
    .filter((p) => String(p.product.codigo ?? "").trim() !== "");
}

export function productosListar(service: AccountHost, body: Json): Reply {
  const criterio = body?.orden_criterio ?? "fecha_creacion";
  if (!["fecha_creacion", "descripcion", "codigo"].includes(criterio))
    return fail(['El campo orden_criterio debe ser "fecha_creacion", "descripcion" o "codigo".']);
  const orden = String(body?.orden ?? "ASC").toUpperCase();
  if (orden !== "ASC" && orden !== "DESC") return fail(['El campo orden debe ser "ASC" o "DESC".']);
  const page = Number(body?.pagina ?? 0);
  const limit = Number(body?.limite ?? 100);
  if (!Number.isInteger(page) || page < 0) return fail(["El campo pagina debe ser un entero desde 0."]);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
    return fail(["El campo limite debe estar entre 1 y 1000."]);
  const all = coded(service).sort((a, b) =>
    criterio === "fecha_creacion"
      ? a.order - b.order
      : String(a.product[criterio] ?? "").localeCompare(String(b.product[criterio] ?? "")),
  );
  if (orden === "DESC") all.reverse();
  const productos = all.slice(page * limit, page * limit + limit).map((p) => productView(p.product));
  return { status: 200, body: { error: "N", errores: [], total: all.length, productos } };
}

export function productosConsultar(service: AccountHost, body: Json): Reply {
  const asked: Json[] = Array.isArray(body?.productos) ? body.productos : [];
  if (asked.length === 0) return fail(["Debe enviar productos: una lista de {lista_precios, codigo}."]);
  if (asked.length > 50) return fail([`Esta enviando ${asked.length} productos, cuando el limite permitido es 50.`]);
  const all = coded(service);
  const productos = asked.map((q) => {
    const codigo = String(q?.codigo ?? "").trim();
    const lista = String(q?.lista_precios ?? "").trim();
    const found = all.find(
      (p) => String(p.product.codigo).trim() === codigo && String(p.product.lista_precios ?? "").trim() === lista,
    );
    if (!found)
      return {
        error: "S",
        errores: [`No existe el producto ${codigo} en la lista de precios ${lista || "(sin lista)"}.`],
        lista_precios: lista,
        codigo,
      };
    return { error: "N", errores: [], ...productView(found.product) };
  });
  const error = productos.every((p) => p.error === "N") ? "N" : "S";
  return { status: 200, body: { error, errores: [], productos } };
}

// --- reference tables (tablas_referencia/*) ---

type Item = { id: string; descripcion: string };
const items = (record: Record<string | number, string>): Item[] =>
  Object.entries(record).map(([id, descripcion]) => ({ id, descripcion }));

/** The lists of reference §4.5, from the code tables the client itself validates with. */
export const REFERENCE_TABLES: Record<string, () => Item[]> = {
  documentos_tipos: () => DOCUMENT_TYPES.map((d) => ({ id: d, descripcion: d })),
  alicuotas_iva: () =>
    VAT_RATES.map((r) => ({ id: r, descripcion: r === "-1" ? "IVA Exento" : r === "-2" ? "IVA No gravado" : `${r}%` })),
  provincias: () => items(PROVINCES),
  condiciones_venta: () => items(PAYMENT_CONDITIONS),
  condiciones_iva: () => items(VAT_CONDITION_NAMES),
  comprobantes_tipos: () => VOUCHER_TYPE_NAMES.map((t) => ({ id: t, descripcion: t })),
  rg_especiales_regimenes: () =>
    Object.entries(SPECIAL_REGIMES).flatMap(([name, ids]) => ids.map((id) => ({ id: String(id), descripcion: name }))),
  monedas: () => items(CURRENCIES),
  idiomas: () => items(LANGUAGES),
  unidades_medida: () => items(UNITS),
  tributos_percepciones_tipos: () => items(TRIBUTO_TYPES),
  tributos_percepciones_regimenes: () =>
    Object.entries(TRIBUTO_REGIMES).map(([id, r]) => ({ id, descripcion: `${r.name} (tipo ${r.tipo})` })),
  // The export parameters: the entries their pages show, in the shape they show (items of id and descripcion).
  ...Object.fromEntries(Object.entries(EXPORT_TABLES).map(([name, list]) => [name, () => [...list]])),
};

/** The sibling parameter pages (paises, cuit_pais) show `items: [{id, descripcion}]`; these answer the same. */
export function referenceTable(name: string): Reply {
  const table = REFERENCE_TABLES[name];
  if (!table) return { status: 404, body: { error: "S", errores: [`El metodo tablas_referencia/${name} no existe.`] } };
  return { status: 200, body: { error: "N", errores: [""], items: table() } };
}
