/**
 * Code tables exactly as the hosted API spells them (reference/api-v2.md §10), with the
 * authority's numeric codes (tax-rules.md §2) that the QR and the PDF need.
 */

export type VoucherClass = "A" | "B" | "C" | "E" | "M";
export type VoucherKind = "invoice" | "debit" | "credit" | "receipt" | "settlement" | "other";

export interface VoucherTypeInfo {
  /** Fiscal class; null for documents that are not fiscal vouchers (quotes, delivery notes). */
  readonly class: VoucherClass | null;
  readonly kind: VoucherKind;
  readonly fce: boolean;
  /** The authority's voucher type code (QR `tipoCmp`); null where none exists. */
  readonly code: number | null;
  /** Issued only in instant mode (types E and FCE, quotes, delivery notes). */
  readonly instantOnly: boolean;
}

function typeInfo(
  cls: VoucherClass | null,
  kind: VoucherKind,
  code: number | null,
  extra: { fce?: boolean; instantOnly?: boolean } = {},
): VoucherTypeInfo {
  const fce = extra.fce ?? false;
  return { class: cls, kind, fce, code, instantOnly: extra.instantOnly ?? (fce || cls === "E") };
}

const FCE = "ELECTRONICA MiPyME (FCE)";

export const VOUCHER_TYPES = {
  "FACTURA A": typeInfo("A", "invoice", 1),
  "NOTA DE DEBITO A": typeInfo("A", "debit", 2),
  "NOTA DE CREDITO A": typeInfo("A", "credit", 3),
  "FACTURA B": typeInfo("B", "invoice", 6),
  "NOTA DE DEBITO B": typeInfo("B", "debit", 7),
  "NOTA DE CREDITO B": typeInfo("B", "credit", 8),
  "FACTURA C": typeInfo("C", "invoice", 11),
  "NOTA DE DEBITO C": typeInfo("C", "debit", 12),
  "NOTA DE CREDITO C": typeInfo("C", "credit", 13),
  "RECIBO C": typeInfo("C", "receipt", 15),
  "FACTURA E": typeInfo("E", "invoice", 19),
  "NOTA DE DEBITO E": typeInfo("E", "debit", 20),
  "NOTA DE CREDITO E": typeInfo("E", "credit", 21),
  // Class M is "A con leyenda" since 01/12/2025 but keeps its codes and its type names.
  "FACTURA M": typeInfo("M", "invoice", 51),
  "NOTA DE DEBITO M": typeInfo("M", "debit", 52),
  "NOTA DE CREDITO M": typeInfo("M", "credit", 53),
  [`FACTURA DE CREDITO ${FCE} A`]: typeInfo("A", "invoice", 201, { fce: true }),
  [`NOTA DE DEBITO ${FCE} A`]: typeInfo("A", "debit", 202, { fce: true }),
  [`NOTA DE CREDITO ${FCE} A`]: typeInfo("A", "credit", 203, { fce: true }),
  [`FACTURA DE CREDITO ${FCE} B`]: typeInfo("B", "invoice", 206, { fce: true }),
  [`NOTA DE DEBITO ${FCE} B`]: typeInfo("B", "debit", 207, { fce: true }),
  [`NOTA DE CREDITO ${FCE} B`]: typeInfo("B", "credit", 208, { fce: true }),
  [`FACTURA DE CREDITO ${FCE} C`]: typeInfo("C", "invoice", 211, { fce: true }),
  [`NOTA DE DEBITO ${FCE} C`]: typeInfo("C", "debit", 212, { fce: true }),
  [`NOTA DE CREDITO ${FCE} C`]: typeInfo("C", "credit", 213, { fce: true }),
  "LIQUIDACIONES A": typeInfo("A", "settlement", 63),
  "LIQUIDACIONES B": typeInfo("B", "settlement", 64),
  "FACTURA NO VALIDA EN AFIP": typeInfo(null, "invoice", null, { instantOnly: true }),
  "NOTA DE CREDITO NO VALIDA EN AFIP": typeInfo(null, "credit", null, { instantOnly: true }),
  PRESUPUESTO: typeInfo(null, "other", null, { instantOnly: true }),
  REMITO: typeInfo(null, "other", null, { instantOnly: true }),
} as const satisfies Record<string, VoucherTypeInfo>;

export type VoucherType = keyof typeof VOUCHER_TYPES;
export const VOUCHER_TYPE_NAMES = Object.keys(VOUCHER_TYPES) as [VoucherType, ...VoucherType[]];

export function voucherTypeInfo(tipo: string): VoucherTypeInfo | undefined {
  return (VOUCHER_TYPES as Record<string, VoucherTypeInfo>)[tipo];
}

/** Upper case, no accents, single spaces: how two spellings of a type name are compared. */
function typeKey(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toUpperCase().replace(/\s+/g, " ").trim();
}

const TYPES_BY_KEY = new Map<string, VoucherType>(VOUCHER_TYPE_NAMES.map((name) => [typeKey(name), name]));

/** The names as the service writes them, looked up first: most files do, and typeKey's normalising is dear per voucher. */
const TYPE_NAMES = new Set<string>(VOUCHER_TYPE_NAMES);

/** The service's name for a type written in any case, with or without accents (`factura b`, `Nota de Crédito A`). */
export function canonicalVoucherType(text: string): VoucherType | undefined {
  if (TYPE_NAMES.has(text)) return text as VoucherType;
  return TYPES_BY_KEY.get(typeKey(text));
}

/** The type name closest to a misspelt one (a few letters off), for a "did you mean". */
export function closestVoucherType(text: string): VoucherType | undefined {
  const key = typeKey(text);
  let best: { name: VoucherType; distance: number } | undefined;
  for (const [candidate, name] of TYPES_BY_KEY) {
    const distance = editDistance(key, candidate);
    if (distance <= Math.max(2, Math.floor(candidate.length / 5)) && (!best || distance < best.distance))
      best = { name, distance };
  }
  return best?.name;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    previous = current;
  }
  return previous[b.length] as number;
}

/**
 * A type's name short enough for a table column: the FCE names differ only in their last letter,
 * which a cut would take off (`FCE A`, `NOTA DE CREDITO FCE B`).
 */
export function shortTypeName(tipo: string): string {
  return tipo.replace(`FACTURA DE CREDITO ${FCE} `, "FCE ").replace(` ${FCE} `, " FCE ");
}

export function isNote(info: VoucherTypeInfo): boolean {
  return info.kind === "credit" || info.kind === "debit";
}

/** Document types: the official table plus LE and LC, which the spec shows in use. */
export const DOCUMENT_TYPES = ["DNI", "CUIT", "CUIL", "CDI", "PASAPORTE", "OTRO", "LE", "LC"] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];
/** The authority's document codes (QR `tipoDocRec`). */
export const DOCUMENT_TYPE_CODES: Record<DocumentType, number> = {
  CUIT: 80,
  CUIL: 86,
  CDI: 87,
  LE: 89,
  LC: 90,
  PASAPORTE: 94,
  DNI: 96,
  OTRO: 99,
};

export const VAT_CONDITIONS = ["CF", "RI", "M", "E", "CDEX", "IVNA"] as const;
export type VatCondition = (typeof VAT_CONDITIONS)[number];
export const VAT_CONDITION_NAMES: Record<VatCondition, string> = {
  CF: "Consumidor final",
  RI: "Responsable inscripto",
  M: "Monotributo",
  E: "Exento",
  CDEX: "Cliente del exterior",
  IVNA: "IVA no alcanzado",
};

/**
 * Receiver VAT condition allowed per class (RG 5616 matrix, tax-rules.md §2.6, mapped onto the
 * API's codes). A and M go to registered or small taxpayers; B to everyone else; C to anyone.
 */
export const VAT_CONDITIONS_BY_CLASS: Record<VoucherClass, readonly VatCondition[]> = {
  A: ["RI", "M"],
  M: ["RI", "M"],
  B: ["CF", "E", "CDEX", "IVNA"],
  C: VAT_CONDITIONS,
  // Exports go abroad (CDEX) or to the special customs territory with the customer's real condition.
  E: VAT_CONDITIONS,
};

export const PAYMENT_CONDITIONS: Record<number, string> = {
  201: "Contado",
  202: "30 días",
  203: "60 días",
  204: "90 días",
  205: "Cuenta corriente",
  206: "10 días",
  207: "15 días",
  208: "45 días",
  209: "20 días",
  210: "Transferencia bancaria",
  211: "Tarjeta de crédito",
  212: "Tarjeta de débito",
  213: "5 días",
  214: "Otra",
  215: "Otros medios electrónicos",
  216: "MercadoPago",
  217: "Payway",
};
export const PAYMENT_CONDITION_OTHER = 214;
/** Cash, what a sale at the counter is. */
export const PAYMENT_CONDITION_CASH = 201;

export const PROVINCES: Record<number, string> = {
  1: "CABA",
  2: "Buenos Aires",
  3: "Catamarca",
  4: "Chaco",
  5: "Chubut",
  6: "Córdoba",
  7: "Corrientes",
  8: "Entre Ríos",
  9: "Formosa",
  10: "Jujuy",
  11: "La Pampa",
  12: "La Rioja",
  13: "Mendoza",
  14: "Misiones",
  15: "Neuquén",
  16: "Río Negro",
  17: "Salta",
  18: "San Juan",
  19: "San Luis",
  20: "Santa Cruz",
  21: "Santa Fe",
  22: "Santiago del Estero",
  23: "Tierra del Fuego",
  24: "Tucumán",
  25: "Otro",
  26: "-",
};

/** VAT rates as the API takes them; -1 exempt, -2 non-taxed. 5 and 2.5 exist at the authority. */
export const VAT_RATES = ["27", "21", "10.5", "5", "2.5", "0", "-1", "-2"] as const;
export const VAT_EXEMPT = "-1";
export const VAT_NON_TAXED = "-2";

export const CURRENCIES: Record<string, string> = {
  PES: "Peso argentino",
  DOL: "Dólar estadounidense",
  "002": "Dólar libre",
  "003": "Francos",
  "004": "Liras",
  "009": "Franco suizo",
  "010": "Peso mexicano",
  "011": "Peso uruguayo",
  "012": "Real",
  "019": "Yen",
  "021": "Libra esterlina",
  "023": "Bolívar",
  "031": "Peso boliviano",
  "032": "Peso colombiano",
  "033": "Peso chileno",
  "035": "Sol peruano",
  "036": "Sucre",
  "060": "Euro",
  "064": "Yuan",
};

export const LANGUAGES: Record<number, string> = { 1: "Español", 2: "English" };

export const UNITS: Record<number, string> = {
  1: "kg",
  2: "m",
  3: "m²",
  4: "m³",
  5: "l",
  6: "1000 kWh",
  7: "unidades",
  8: "pares",
  9: "docenas",
  10: "quilates",
  11: "millares",
  14: "g",
  15: "mm",
  16: "mm³",
  17: "km",
  18: "hl",
  20: "cm",
  25: "jgo/pqt mazo naipes",
  27: "cm³",
  29: "t",
  30: "dam³",
  31: "hm³",
  32: "km³",
  33: "µg",
  34: "ng",
  35: "pg",
  41: "mg",
  47: "ml",
  48: "curie",
  49: "milicurie",
  50: "microcurie",
  51: "uiacthor",
  52: "muiacthor",
  53: "kg base",
  54: "gruesa",
  61: "kg bruto",
  62: "uiactant",
  63: "muiactant",
  64: "uiactig",
  65: "muiactig",
  66: "kg activo",
  67: "g activo",
  68: "g base",
  95: "anulación/devolución",
  96: "packs",
  97: "seña/anticipo",
  98: "otras",
};

export const TRIBUTO_TYPES: Record<number, string> = {
  1: "Percepciones impuestos nacionales",
  6: "Percepción IVA",
  7: "Percepción IIBB",
};

/** Regimes per tributo type; the IIBB regime numbers are not the province codes. */
export const TRIBUTO_REGIMES: Record<number, { tipo: number; name: string }> = {
  1: { tipo: 6, name: "IVA no especificado" },
  2: { tipo: 6, name: "RG 2408 general" },
  3: { tipo: 6, name: "RG 5329" },
  ...Object.fromEntries(
    [
      "Capital Federal",
      "Buenos Aires",
      "Catamarca",
      "Chaco",
      "Chubut",
      "Córdoba",
      "Corrientes",
      "Entre Ríos",
      "Formosa",
      "Jujuy",
      "La Pampa",
      "La Rioja",
      "Mendoza",
      "Misiones",
      "Neuquén",
      "Río Negro",
      "Salta",
      "San Juan",
      "San Luis",
      "Santa Cruz",
      "Santa Fe",
      "Santiago del Estero",
      "Tierra del Fuego",
      "Tucumán",
      "Otro",
    ].map((name, i) => [i + 4, { tipo: 7, name: `IIBB ${name}` }]),
  ),
  31: { tipo: 1, name: "Percepción impuesto PAIS" },
  32: { tipo: 1, name: "Impuesto PAIS" },
  33: { tipo: 1, name: "Percepción Ganancias" },
  34: { tipo: 1, name: "Percepción Bienes Personales" },
};

export const FCE_REGIME = "Factura de Crédito Electrónica MiPyMEs (FCE)";
/** Special regimes and their allowed data ids (reference §10.11). */
export const SPECIAL_REGIMES: Record<string, readonly number[]> = {
  "Empresas Promovidas": [2],
  "Bienes Usados 3411": [91, 92, 93],
  "Excepción cómputo IVA CF": [5],
  "RG 3668": [61, 62, 63],
  "RG 3.368 educación": [10, 1011, 1012],
  "RG 2.820": [11],
  "RG 3.687": [12],
  "RG 2.863": [13, 14, 15],
  "RG 4004-E": [17, 1801, 1802],
  [FCE_REGIME]: [2101, 2102, 22, 23, 27],
};
export const FCE_DATA = { CBU: 2101, ALIAS: 2102, ANNULMENT: 22, REFERENCE: 23, TRANSFER: 27 } as const;

/** Offline default for the anonymous final-consumer ceiling: RG 5700/2025, $10,000,000. */
export const DEFAULT_FINAL_CONSUMER_CEILING = "10000000";

/** `00679-00000074`: a voucher's point of sale and number as the service and the PDFs write them. */
export function voucherNumber(puntoVenta: number | string, numero: number | string): string {
  return `${String(puntoVenta).padStart(5, "0")}-${String(numero).padStart(8, "0")}`;
}

/** `FACTURA_B-00003-00000074.pdf`: letters, digits, `_` and `-` only. */
export function documentName(tipo: string, puntoVenta: number, numero: number, suffix = ""): string {
  const type = tipo
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
  return `${type}-${voucherNumber(puntoVenta, numero)}${suffix}`;
}
