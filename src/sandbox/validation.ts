/**
 * The service's own checks on an issuing request (spec §1: what the development plan refuses,
 * with the service's codes and texts): the sandbox's second validator, apart from the client's
 * (voucher/rules.ts) on purpose, since it plays the service the client cannot trust.
 */

import {
  DOCUMENT_TYPE_CODES,
  isNote,
  PAYMENT_CONDITIONS,
  VAT_CONDITIONS_BY_CLASS,
  type VatCondition,
  voucherTypeInfo,
} from "../voucher/codes.js";
import { isValidCuit } from "../voucher/ids.js";
import type { Json } from "./reply.js";
import type { PointOfSale } from "./store.js";

const ITEMS_MAX = 130;
const EXTERNAL_REFERENCE = /^[A-Za-z0-9_-]{1,255}$/;
export const DATE = /^(\d{2})\/(\d{2})\/(\d{4})$/;

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
export function exportAuthorityProblems(c: Json, note: boolean): string[] {
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

export function isDate(value: unknown): boolean {
  if (typeof value !== "string") return false;
  const m = DATE.exec(value);
  if (!m) return false;
  const probe = new Date(Date.UTC(Number(m[3]), Number(m[2]) - 1, Number(m[1])));
  return probe.getUTCDate() === Number(m[1]) && probe.getUTCMonth() === Number(m[2]) - 1;
}

export function isNumeric(value: unknown): boolean {
  return (
    (typeof value === "number" && Number.isFinite(value)) ||
    (typeof value === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(value))
  );
}

export const pad = (n: number, width: number) => String(n).padStart(width, "0");

export function serviceProblems(body: Json, pv: PointOfSale, queued: boolean): { code: string; text: string }[] {
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
  if (!party || typeof party !== "object") add(`Debe enviar el bloque ${operacion === "C" ? "proveedor" : "cliente"}.`);
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
    if (c.detalle.length > ITEMS_MAX) add(`El comprobante tiene ${c.detalle.length} items; el maximo es ${ITEMS_MAX}.`);
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
