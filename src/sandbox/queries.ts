/**
 * The query methods (reference §6.9, §4.2): `consulta` by reference, `consulta_avanzada` by date,
 * type and number or range (paged), `numeracion` (the next number); each voucher shown as the
 * service shows it.
 */

import { TRIBUTO_REGIMES, TRIBUTO_TYPES, voucherTypeInfo } from "../voucher/codes.js";
import { Dec } from "../voucher/decimal.js";
import { envelopeSchema } from "../voucher/schema.js";
import { computeTotals, itemNet, type Totals } from "../voucher/totals.js";
import { type AccountHost, ledgerStatus } from "./account.js";
import type { Faults } from "./faults.js";
import { fail, type Json, ok, type Reply } from "./reply.js";
import { type PointOfSale, type Store, type StoredVoucher, shownPointOfSale, stripKind } from "./store.js";
import { isDate } from "./validation.js";

/** What the queries need of the sandbox (service.ts). */
export interface QueryHost extends AccountHost {
  readonly store: Store;
  readonly options: { readonly faults: Faults; readonly baseUrl: () => string };
  /** Each voucher's amounts, worked out once (they never change). */
  readonly amountsCache: Map<number, Totals | undefined>;
  qr(v: StoredVoucher): string;
  findVoucher(c: Json, pv: PointOfSale): StoredVoucher | undefined;
}

/** A voucher as `consulta` and `consulta_avanzada` show it (reference §6.9). */
function queryItem(host: QueryHost, v: StoredVoucher): Record<string, unknown> {
  const c = v.comprobante as Json;
  const party = v.party as Json;
  const links = latestLinks(host, v);
  const issued = v.status === "EMITIDO";
  const reference = /^\d{1,15}$/.test(v.external_reference) ? Number(v.external_reference) : v.external_reference;
  const purchase = v.operacion === "C";
  const detalle: Json[] = Array.isArray(c.detalle) ? c.detalle : [];
  const tributos: Json[] = Array.isArray(c.tributos) ? c.tributos : [];
  const amounts = amountsOf(host, v);
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
      afip_qr: issued && !purchase ? `${host.qr(v)} ` : "",
      status: v.status === "APROBADO Y EN COLA" ? `APROBADO Y EN COLA. SE EMITE EL ${v.fecha}` : v.status,
      ctacte_status: ledgerStatus(host, v),
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
function amountsOf(host: QueryHost, v: StoredVoucher): Totals | undefined {
  if (host.amountsCache.has(v.id)) return host.amountsCache.get(v.id);
  const party = v.party as Json;
  const parsed = envelopeSchema.safeParse({
    [party.kind === "proveedor" ? "proveedor" : "cliente"]: stripKind(party),
    comprobante: v.comprobante,
  });
  const totals = parsed.success ? computeTotals(parsed.data.comprobante) : undefined;
  host.amountsCache.set(v.id, totals);
  return totals;
}

/** The links handed out when the voucher was issued or last regenerated (they may have expired). */
function latestLinks(host: QueryHost, v: StoredVoucher): { pdf: string; ticket: string } {
  const base = host.options.baseUrl();
  const found = host.store.linksOf(v.id);
  return {
    pdf: found.pdf ? `${base}/comprobantes/pdf/${found.pdf}.pdf` : "",
    ticket: found.ticket ? `${base}/comprobantes/ticket/${found.ticket}.pdf` : "",
  };
}

export function consulta(host: QueryHost, body: Json, pv: PointOfSale): Reply {
  const v = host.findVoucher(body?.comprobante, pv);
  if (!v) return fail(["No se encontro el comprobante solicitado."]);
  return ok(queryItem(host, v));
}

export function consultaAvanzada(host: QueryHost, body: Json, pv: PointOfSale): Reply {
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
    candidates = host.store.findByReference(pv.punto_venta, reference).reverse().filter(ofOperacion);
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
      ...host.store.newestFirst(
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
    if (Number(c.punto_venta) !== pv.punto_venta) return ok({ total: 0, comprobantes: [] }, []);
    const found: StoredVoucher[] = [];
    for (let n = Math.min(to, from + 100_000); n >= from; n--) {
      const v = host.store.findByNumber(pv.punto_venta, c.tipo, n);
      if (v) found.push(v);
    }
    candidates = found;
    filter = () => true;
  } else {
    return fail(['El campo busqueda_tipo debe ser "F", "TN" o "EXT_REF".']);
  }
  const all = [...(candidates ?? host.store.newestFirst(pv.punto_venta, filter))];
  const size = host.options.faults.pageSize > 0 ? Math.min(limit, host.options.faults.pageSize) : limit;
  const items = all.slice(page * size, page * size + size).map((v) => queryItem(host, v));
  return ok({ total: all.length, comprobantes: items }, []);
}

export function numeracion(host: QueryHost, body: Json, pv: PointOfSale): Reply {
  const c = body?.comprobante;
  if (!c || !voucherTypeInfo(c.tipo)) return fail(["Debe enviar un tipo de comprobante valido."]);
  if (Number(c.punto_venta) !== pv.punto_venta)
    return fail(["El punto de venta no corresponde a las credenciales enviadas."]);
  return ok({
    comprobante: {
      tipo: c.tipo,
      operacion: c.operacion ?? "V",
      punto_venta: pv.punto_venta,
      numero: host.store.nextNumber(pv.punto_venta, c.tipo),
    },
  });
}

/** The sum of a voucher's tributos of one type (6 IVA, 7 IIBB), as `consulta` reports it. */
function tributoSum(tributos: Json[], tipo: number): number {
  const totals = tributos
    .filter((t) => Number(t?.tipo) === tipo)
    .map((t) => Dec.tryParse(String(t?.total ?? 0)) ?? Dec.ZERO);
  return Number(Dec.sum(totals).toFixed(2));
}
