/**
 * The voucher QR of RG 4892/2020 (tax-rules.md §1): a URL whose `p` parameter is the Base64 of a
 * JSON object with the spec's fields, in the spec's order, numbers as JSON numbers.
 */
export const QR_BASE_URL = "https://www.afip.gob.ar/fe/qr/";

export interface QrData {
  ver: 1;
  /** yyyy-mm-dd */
  fecha: string;
  cuit: number;
  ptoVta: number;
  tipoCmp: number;
  nroCmp: number;
  importe: number;
  moneda: string;
  ctz: number;
  tipoDocRec?: number;
  /** Kept as text when it does not fit a safe integer (documents may have 20 digits). */
  nroDocRec?: number | string;
  tipoCodAut: "E" | "A";
  codAut: number;
}

/** Builds the QR text; amounts are rounded first so no float artefact reaches the JSON. */
export function qrUrl(data: QrData): string {
  const ordered: QrData = {
    ver: 1,
    fecha: data.fecha,
    cuit: data.cuit,
    ptoVta: data.ptoVta,
    tipoCmp: data.tipoCmp,
    nroCmp: data.nroCmp,
    importe: Math.round(data.importe * 100) / 100,
    moneda: data.moneda,
    ctz: Math.round(data.ctz * 1_000_000) / 1_000_000,
    ...(data.tipoDocRec !== undefined ? { tipoDocRec: data.tipoDocRec } : {}),
    ...(data.nroDocRec !== undefined ? { nroDocRec: data.nroDocRec } : {}),
    tipoCodAut: data.tipoCodAut,
    codAut: data.codAut,
  };
  let json = JSON.stringify(ordered);
  // A 20-digit document number must be a JSON number without losing digits.
  if (typeof ordered.nroDocRec === "string")
    json = json.replace(`"nroDocRec":"${ordered.nroDocRec}"`, `"nroDocRec":${ordered.nroDocRec}`);
  return `${QR_BASE_URL}?p=${Buffer.from(json, "utf8").toString("base64")}`;
}

/** Reads a QR URL back; undefined when it is not one. */
export function decodeQr(url: string): QrData | undefined {
  const trimmed = url.trim();
  const at = trimmed.indexOf("?p=");
  if (at < 0) return undefined;
  try {
    const json = Buffer.from(decodeURIComponent(trimmed.slice(at + 3)), "base64").toString("utf8");
    const data = JSON.parse(json) as QrData;
    return typeof data === "object" && data !== null && data.ver === 1 ? data : undefined;
  } catch {
    return undefined;
  }
}
