/**
 * What production's authority refuses beyond the development plan's checks (`--like-production`,
 * the authority-checks fault): dates, the exchange-rate band, the classes' rules, the buyer, the
 * associated vouchers, the total against its parts; the service's codes and texts.
 */

import { isNote, type VoucherTypeInfo, voucherNumber, voucherTypeInfo } from "../voucher/codes.js";
import { dayNumber, formatDay } from "../voucher/dates.js";
import { Dec } from "../voucher/decimal.js";
import { inRateBand } from "../voucher/exchange.js";
import { envelopeSchema } from "../voucher/schema.js";
import { computeTotals } from "../voucher/totals.js";
import { dropEmptyStrings } from "../voucher/validate.js";
import type { Faults } from "./faults.js";
import type { Json } from "./reply.js";
import type { Store } from "./store.js";
import { DATE, exportAuthorityProblems, isDate, isNumeric, pad } from "./validation.js";

/** The authority's tributo ids (tax-rules §2.5); the service's tipo (reference §10.6) is one of them. */
const AUTHORITY_TRIBUTO_IDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 99];
/** Days a note's associated voucher may be older than the note (reference §11: "about 15 days"). */
const NOTE_AGE_DAYS = 15;

/** What these checks need of the sandbox (service.ts): its faults and ceiling, its day, the lane's last day, its rates. */
export interface AuthorityHost {
  readonly options: { readonly faults: Faults; readonly ceiling: number };
  readonly store: Pick<Store, "lastDay">;
  todayNumber(): number;
  rateOf(moneda: string): Dec | undefined;
}

/**
 * What the authority says of a voucher's exchange rate (error 10119, tax-rules §4.9): it must lie
 * within 2 % to 400 % of its own. Undefined when it does, or the currency has no rate here.
 * One of productionRefusals: the development plan does not ask it.
 */
function rateProblem(host: AuthorityHost, c: Json): string | undefined {
  const moneda = String(c?.moneda ?? "PES")
    .trim()
    .toUpperCase();
  if (moneda === "PES" || !isNumeric(c?.cotizacion)) return undefined;
  const rate = host.rateOf(moneda);
  const cotizacion = Dec.tryParse(String(c.cotizacion).trim());
  if (!rate || !cotizacion || inRateBand(cotizacion, rate)) return undefined;
  return `El campo MonCotiz (${cotizacion.toString()}) debe estar comprendido entre el 2% y el 400% de la cotizacion de la moneda ${moneda} informada por AFIP (${rate.toFixed(2)}).`;
}

/**
 * The authority's date checks (tax-rules §4.3, §4.5), which the service passes on as its 10016
 * text: the window around the day it is sent, and no date before the lane's latest voucher.
 * Production's (authority-checks) only: the development plan skips them (spec §1). Apart from
 * productionRefusals because a batch meets them voucher by voucher (lotes: the first that fails
 * and every later one are rejected).
 */
export function authorityDateRefusal(host: AuthorityHost, c: Json, puntoVenta: number): string | undefined {
  if (!host.options.faults.authorityChecks) return undefined;
  const info = voucherTypeInfo(c.tipo);
  const day = dayNumber(c.fecha);
  const today = host.todayNumber();
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
  const last = host.store.lastDay(puntoVenta, c.tipo);
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
export function productionRefusals(host: AuthorityHost, body: Json): { code: string; text: string }[] {
  if (!host.options.faults.authorityChecks) return [];
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
    const floor = Math.max(DATE.test(String(c.fecha)) ? dayNumber(c.fecha) : 0, host.todayNumber());
    if (dayNumber(c.vencimiento) < floor)
      authority(
        "El campo FchVtoPago debe ser igual o posterior a la fecha del comprobante y a la fecha de envio del pedido de autorizacion.",
      );
  }
  const rate = rateProblem(host, c);
  if (rate) authority(rate, 10119);
  tributoRefusals(host, body, info, authority);
  classRefusals(host, c, info, authority);
  buyerRefusals(host, body, info, authority);
  associationRefusals(host, c, info, authority);
  const fceIds = [2101, 2102, 22, 27];
  const datos: Json[] = Array.isArray(c.rg_especiales?.datos) ? c.rg_especiales.datos : [];
  if (!info.fce && datos.some((d) => fceIds.includes(Number(d?.id))))
    authority(
      "Si el tipo de comprobante que esta autorizando NO es MiPyMEs (FCE), no informar los codigos 2101, 2102, 22, 27",
      10169,
    );
  const total = totalRefusal(host, body, info);
  if (total) authority(total, 10048);
  return out;
}

/**
 * Tributos (tax-rules §4.1, §4.12, §2.5): none that add up to 0 (10024) nor one of 0; ids the
 * authority has (10025: the service's tipo is the authority's id, 1, 6 and 7 alike); an RG 5329
 * VAT perception only to a registered buyer on class A or M.
 */
function tributoRefusals(
  _host: AuthorityHost,
  body: Json,
  info: VoucherTypeInfo,
  authority: (text: string, code?: number) => void,
): void {
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
function classRefusals(
  _host: AuthorityHost,
  c: Json,
  info: VoucherTypeInfo,
  authority: (text: string, code?: number) => void,
): void {
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
function buyerRefusals(
  host: AuthorityHost,
  body: Json,
  info: VoucherTypeInfo,
  authority: (text: string, code?: number) => void,
): void {
  const party = body.cliente ?? {};
  const condition = String(party.condicion_iva_operacion ?? party.condicion_iva ?? "").toUpperCase();
  if (info.class !== "B" || String(party.documento_tipo ?? "").toUpperCase() !== "OTRO" || condition === "CDEX") return;
  const c = body.comprobante;
  const moneda = String(c.moneda ?? "PES")
    .trim()
    .toUpperCase();
  const rate = moneda === "PES" ? 1 : Number(c.cotizacion ?? 1);
  if (Number(c.total) * rate < host.options.ceiling) return;
  authority(
    `Para comprobantes tipo B individuales con montos iguales o superiores al monto en pesos resultante segun RG 4444 (${host.options.ceiling}), el campo DocTipo debera ser distinto de 99 y debera informar el campo DocNro.`,
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
function associationRefusals(
  _host: AuthorityHost,
  c: Json,
  info: VoucherTypeInfo,
  authority: (text: string, code?: number) => void,
): void {
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
function totalRefusal(_host: AuthorityHost, body: Json, info: VoucherTypeInfo): string | undefined {
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
