/**
 * The request envelope of the service (spec part 2, reference §5) as zod schemas. This one schema
 * feeds validation, the JSON Schema editors use for voucher files, and the CSV column list.
 *
 * Parsing normalises what people write: numbers come as JSON numbers or numeric text and leave
 * as exact decimal text; dates may drop leading zeros and leave zero-padded; S/N flags accept
 * booleans; document types accept any case.
 */

import * as z from "zod";
import { type Message, msg, revived, zodIssue } from "../i18n/message.js";
import {
  canonicalVoucherType,
  closestVoucherType,
  DOCUMENT_TYPES,
  LANGUAGES,
  PAYMENT_CONDITIONS,
  PROVINCES,
  UNITS,
  VAT_CONDITIONS,
  VAT_RATES,
  VOUCHER_TYPE_NAMES,
  type VoucherType,
} from "./codes.js";

/** Marks our message inside the string zod carries (see `words` and `issueWords`). */
const WORDS = "\u0000facturar-words:";

/** Our message where zod takes a string: issueWords reads it back as the message it was. */
function words(message: Message): string {
  return WORDS + JSON.stringify(message);
}

/**
 * What a zod issue says, as a message: ours as we wrote it; zod's own (a wrong JSON type, a
 * missing block) with the issue's data, so that a renderer can say it in the reader's language
 * (src/i18n/index.ts asks zod's locale), and in zod's English otherwise.
 */
export function issueWords(issue: z.core.$ZodIssue, input?: unknown): Message {
  if (issue.message.startsWith(WORDS)) return revived(JSON.parse(issue.message.slice(WORDS.length)) as Message);
  // zod's issues keep no input (`reportInput`): the caller gives the value at the issue's path.
  return zodIssue(issue, input);
}

const NUMBER_TEXT = /^\s*[+-]?\d+(\.\d+)?\s*$/;
const NUMBER_MESSAGE = msg("expected a number such as 1234.56 (a decimal point, no thousands separators)");

interface DecimalOptions {
  /** Most decimals the service takes for this field. */
  decimals: number;
  min?: string;
  /** Strictly greater than `min`. */
  exclusiveMin?: boolean;
  max?: string;
  /** Most digits before the point (amounts are 13 + 2). */
  integerDigits?: number;
}

const DECIMAL_PARTS = /^\s*([+-]?)0*(\d*?)(?:\.(\d*?)0*)?\s*$/;

interface DecimalParts {
  canonical: string;
  integerLength: number;
  decimals: number;
}

/**
 * decimalParts of text written plainly (`[+-]digits[.digits]`, no blanks), as CSV cells and most
 * JSON strings are, a character at a time and with no copy when the text is canonical already:
 * the two regular expressions took a third of the time of a million-row batch's schema.
 * Undefined for anything else, which the regular expressions read.
 */
function plainDecimalParts(text: string): DecimalParts | undefined {
  const length = text.length;
  let at = 0;
  const sign = text.charCodeAt(0);
  if (sign === 45 || sign === 43) at = 1; // - +
  const intStart = at;
  while (at < length && text.charCodeAt(at) === 48) at++; // leading zeros
  const digitsStart = at;
  let code = 0;
  for (; at < length; at++) {
    code = text.charCodeAt(at);
    if (code < 48 || code > 57) break;
  }
  const intEnd = at;
  if (intEnd === intStart) return undefined;
  let fractionEnd = at;
  if (at < length) {
    if (code !== 46) return undefined; // .
    const fractionStart = ++at;
    let lastSignificant = at;
    for (; at < length; at++) {
      code = text.charCodeAt(at);
      if (code < 48 || code > 57) return undefined;
      if (code !== 48) lastSignificant = at + 1;
    }
    if (at === fractionStart) return undefined;
    fractionEnd = lastSignificant;
  }
  const fractionStart = intEnd + 1;
  const decimals = fractionEnd > fractionStart ? fractionEnd - fractionStart : 0;
  const intPart = digitsStart === intEnd ? "0" : text.slice(digitsStart, intEnd);
  const negative = sign === 45 && (intPart !== "0" || decimals > 0);
  const canonical =
    !negative && sign !== 43 && digitsStart === 0 && (decimals > 0 ? fractionEnd === length : intEnd === length)
      ? text
      : `${negative ? "-" : ""}${intPart}${decimals > 0 ? `.${text.slice(fractionStart, fractionEnd)}` : ""}`;
  return { canonical, integerLength: intPart.length, decimals };
}

/** "0010.50" → "10.5", with the digit counts the limits need; undefined for non-decimals. */
function decimalParts(value: number | string): DecimalParts | undefined {
  if (typeof value === "string") {
    const plain = plainDecimalParts(value);
    if (plain) return plain;
  }
  const m = DECIMAL_PARTS.exec(typeof value === "number" ? String(value) : value);
  if (!m) return undefined;
  const intPart = m[2] || "0";
  const fraction = m[3] ?? "";
  const negative = m[1] === "-" && (intPart !== "0" || fraction !== "");
  return {
    canonical: `${negative ? "-" : ""}${intPart}${fraction ? `.${fraction}` : ""}`,
    integerLength: intPart.length,
    decimals: fraction.length,
  };
}

type Converted<T> = { value: T } | { error: Message };

/**
 * One zod node per scalar field: type check, normalisation and limits in a single step. A union
 * of types piped into a transform costs about three times as much, and a million-row batch runs
 * this for every field. `jsonSchema` describes what the field takes, for `facturar schema`.
 */
function scalar<T>(jsonSchema: Record<string, unknown>, convert: (value: unknown) => Converted<T>) {
  return z
    .unknown()
    .transform((input, ctx) => {
      const result = convert(input);
      if ("error" in result) {
        ctx.issues.push({ code: "custom", message: words(result.error), input });
        return z.NEVER;
      }
      return result.value;
    })
    .meta(jsonSchema);
}

const NUMBER_SCHEMA = { anyOf: [{ type: "number" }, { type: "string", pattern: NUMBER_TEXT.source }] };
const INTEGER_TEXT = /^\s*\d+\s*$/;
const INTEGER_SCHEMA = { anyOf: [{ type: "integer" }, { type: "string", pattern: INTEGER_TEXT.source }] };

/**
 * A decimal number field: JSON number or numeric text in, canonical decimal text out
 * ("0010.50" → "10.5"). Pure string work, no bigints.
 */
function decimal(opts: DecimalOptions) {
  const integerDigits = opts.integerDigits ?? 13;
  const min = opts.min === undefined ? undefined : Number(opts.min);
  const max = opts.max === undefined ? undefined : Number(opts.max);
  return scalar<string>(NUMBER_SCHEMA, (value) => {
    const plain = typeof value === "string" ? plainDecimalParts(value) : undefined;
    if (
      !plain &&
      (typeof value === "number" ? !Number.isFinite(value) : typeof value !== "string" || !NUMBER_TEXT.test(value))
    ) {
      return { error: typeof value === "number" ? msg("expected a finite number") : NUMBER_MESSAGE };
    }
    const parts = plain ?? decimalParts(value as number | string);
    if (!parts) return { error: msg("expected a plain decimal number, not exponent notation") };
    const { canonical, integerLength, decimals } = parts;
    if (decimals > opts.decimals)
      return {
        error: msg("at most {decimals} decimals allowed, got {canonical}", { decimals: opts.decimals, canonical }),
      };
    if (integerLength > integerDigits)
      return { error: msg("at most {integerDigits} digits before the decimal point", { integerDigits }) };
    // Bounds are round numbers and values have at most 19 significant digits: a double compares them exactly.
    const n = Number(canonical);
    if (min !== undefined && (n < min || (opts.exclusiveMin && n === min))) {
      return {
        error: opts.exclusiveMin
          ? msg("must be greater than {min}, got {canonical}", { min: opts.min, canonical })
          : msg("must be at least {min}, got {canonical}", { min: opts.min, canonical }),
      };
    }
    if (max !== undefined && n > max)
      return { error: msg("must be at most {max}, got {canonical}", { max: opts.max, canonical }) };
    return { value: canonical };
  });
}

const amount = () => decimal({ decimals: 2, min: "0" });

/** Whole number from a JSON integer or digit text ("0010" is 10); undefined otherwise. */
function wholeNumber(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isInteger(value) ? value : undefined;
  return typeof value === "string" && INTEGER_TEXT.test(value) ? Number(value) : undefined;
}

/** A whole number field within bounds. */
function integer(min: number, max: number, what: Message = msg("a whole number")) {
  return scalar<number>(INTEGER_SCHEMA, (value) => {
    const n = wholeNumber(value);
    if (n === undefined) return { error: msg("expected {what}", { what }) };
    if (n < min || n > max) return { error: msg("must be between {min} and {max}, got {n}", { min, max, n }) };
    return { value: n };
  });
}

/** A code from a table, sent as a number or as text. */
function code(table: Record<number, string>, what: Message) {
  const codes = Object.keys(table).map(Number);
  const schema = {
    anyOf: [
      { type: "integer", enum: codes },
      { type: "string", pattern: INTEGER_TEXT.source },
    ],
  };
  return scalar<number>(schema, (value) => {
    const n = wholeNumber(value);
    if (n === undefined) return { error: msg("expected a {what} code", { what }) };
    if (!(n in table)) return { error: msg("unknown {what} code {code}", { what, code: n }) };
    return { value: n };
  });
}

/** Digits only (documents, CUITs); numbers are accepted for convenience. */
function digits(maxLength: number, what: Message) {
  const pattern = `^\\d{1,${maxLength}}$`;
  return scalar<string>(
    {
      anyOf: [
        { type: "integer", minimum: 0 },
        { type: "string", pattern },
      ],
    },
    (value) => {
      if (typeof value !== "string" && typeof value !== "number")
        return { error: msg("expected {what} (digits only)", { what }) };
      const text = typeof value === "number" ? String(value) : value.trim();
      if (!/^\d+$/.test(text) || text.length > maxLength) {
        return {
          error: msg("{what} must be 1 to {maxLength} digits, with no dashes or dots; got {text}", {
            what,
            maxLength,
            text: JSON.stringify(text),
          }),
        };
      }
      return { value: text };
    },
  );
}

const DATE = /^\s*(\d{1,2})\/(\d{1,2})\/(\d{4})\s*$/;
const validDates = new Map<string, string>();

/** dd/mm/yyyy that exists in the calendar; d/m/yyyy is accepted and padded. */
export function date() {
  return scalar<string>({ type: "string", pattern: DATE.source, description: "dd/mm/yyyy" }, (value) => {
    if (typeof value !== "string") return { error: msg("expected a date dd/mm/yyyy") };
    const known = validDates.get(value);
    if (known) return { value: known };
    const m = DATE.exec(value);
    const day = Number(m?.[1]);
    const month = Number(m?.[2]);
    const year = Number(m?.[3]);
    const probe = new Date(Date.UTC(year, month - 1, day));
    if (!m || probe.getUTCFullYear() !== year || probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) {
      return {
        error: m
          ? msg("{trim} is not a date in the calendar", { trim: value.trim() })
          : msg("expected a date dd/mm/yyyy, got {value}", { value: JSON.stringify(value) }),
      };
    }
    const normalised = `${String(day).padStart(2, "0")}/${String(month).padStart(2, "0")}/${year}`;
    // A batch repeats a few dates many times; the cache is bounded.
    if (validDates.size > 10_000) validDates.clear();
    validDates.set(value, normalised);
    return { value: normalised };
  });
}

/** mm/yyyy (subscription end). */
const monthYear = () =>
  z.string().transform((value, ctx) => {
    const m = /^\s*(\d{1,2})\/(\d{4})\s*$/.exec(value);
    const month = Number(m?.[1]);
    if (!m || month < 1 || month > 12) {
      ctx.issues.push({
        code: "custom",
        message: words(msg("expected mm/yyyy, got {value}", { value: JSON.stringify(value) })),
        input: value,
      });
      return z.NEVER;
    }
    return `${String(month).padStart(2, "0")}/${m[2]}`;
  });

/** `S`/`N` flag; booleans and lower case accepted. */
const flag = () =>
  scalar<"S" | "N">({ anyOf: [{ type: "boolean" }, { type: "string", enum: ["S", "N", "s", "n"] }] }, (value) => {
    if (value === true || value === "S" || value === "s") return { value: "S" };
    if (value === false || value === "N" || value === "n") return { value: "N" };
    return { error: msg('expected "S" or "N"') };
  });

/** Control characters but tab and line breaks: printed on the voucher, they are never meant. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/**
 * Unicode's bidirectional controls (marks, embeddings, overrides, isolates): invisible, they show
 * a text's characters in another order than they are, on the voucher and in every listing.
 * Arabic or Hebrew letters themselves are fine: they need none of these.
 */
const DIRECTION_CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/**
 * The longest text the references allow, by field: the service's (api-v2 §5) and, for the export
 * block, the authority's (WSFEX: Forma_pago C50, Incoterms C3, Incoterms_Ds C20, Id_permiso C16).
 * `cliente.email` and `external_reference` are judged by the rules (email.max, external_reference.format).
 */
export const TEXT_MAX = {
  "cliente.razon_social": 255,
  "cliente.codigo": 50,
  "cliente.condicion_pago_otra": 100,
  "comprobante.rubro_grupo_contable": 255,
  "comprobante.leyenda_gral": 500,
  "comprobante.comentario": 255,
  // 100 in the older documentation (D24), 1000 in the newer (D25).
  "comprobante.detalle.leyenda": 1000,
  "comprobante.detalle.producto.descripcion": 255,
  "comprobante.detalle.producto.lista_precios": 255,
  "comprobante.detalle.producto.codigo": 50,
  "comprobante.fex.forma_pago_leyenda": 50,
  "comprobante.fex.incoterms_tipo_id": 3,
  "comprobante.fex.incoterms_nro": 20,
  "comprobante.fex.permisos.codigo_despacho": 16,
} as const;

const text = (max: number, min = 1) =>
  z
    .string()
    .min(min, words(min > 1 ? msg("must have at least {min} characters", { min }) : msg("must not be empty")))
    .max(max, words(msg("must have at most {max} characters", { max })))
    .refine((value) => !CONTROL_CHARACTER.test(value), words(msg("must not contain control characters (NUL, escape…)")))
    .refine(
      (value) => !DIRECTION_CONTROL.test(value),
      words(msg("must not contain Unicode direction controls (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C)")),
    );

/**
 * A code (a product's, a customer's): text, or a whole number as the service's own examples
 * write it (`"codigo": 37`), sent as text.
 */
const codeText = (max: number) =>
  z
    .unknown()
    .transform((v, ctx) => {
      if (typeof v !== "number") return v;
      if (Number.isSafeInteger(v) && v >= 0) return String(v);
      ctx.issues.push({ code: "custom", message: words(msg("a code is text, or a whole number")), input: v });
      return z.NEVER;
    })
    .pipe(text(max))
    .meta({
      anyOf: [
        { type: "string", minLength: 1, maxLength: max },
        { type: "integer", minimum: 0 },
      ],
    });

const documentType = z
  .string({ error: words(msg("expected one of {value}", { value: DOCUMENT_TYPES.join(", ") })) })
  .transform((v) => v.trim().toUpperCase())
  .pipe(z.enum(DOCUMENT_TYPES, { error: words(msg("expected one of {value}", { value: DOCUMENT_TYPES.join(", ") })) }));

const vatCondition = z.enum(VAT_CONDITIONS, {
  error: words(msg("expected one of {value}", { value: VAT_CONDITIONS.join(", ") })),
});

const partyFields = {
  documento_tipo: documentType,
  documento_nro: digits(20, msg("the document number")),
  razon_social: text(TEXT_MAX["cliente.razon_social"]).optional(),
  nombre_fantasia: text(255).optional(),
  email: text(255 * 15).optional(),
  domicilio: text(255).optional(),
  provincia: code(PROVINCES, msg("province")).optional(),
  codigo: text(TEXT_MAX["cliente.codigo"]).optional(),
  envia_por_mail: flag().optional(),
  condicion_pago: code(PAYMENT_CONDITIONS, msg("payment condition")).optional(),
  condicion_pago_otra: text(TEXT_MAX["cliente.condicion_pago_otra"]).optional(),
  condicion_iva: vatCondition,
  condicion_iva_operacion: vatCondition.optional(),
};

export const clienteSchema = z.strictObject({
  ...partyFields,
  reclama_deuda: flag().optional(),
  reclama_deuda_dias: integer(0, 3650).optional(),
  reclama_deuda_repite_dias: integer(0, 3650).optional(),
  rg5329: flag().optional(),
});

/**
 * The service's only purchase example sends 0 for "no payment condition", and 0 for its text:
 * taken, and sent on as the example sends it.
 */
const zeroIsNone = <T extends z.ZodType>(schema: T) => z.union([z.literal(0), schema]).optional();

export const proveedorSchema = z.strictObject({
  ...partyFields,
  condicion_pago: zeroIsNone(code(PAYMENT_CONDITIONS, msg("payment condition"))),
  condicion_pago_otra: zeroIsNone(text(TEXT_MAX["cliente.condicion_pago_otra"])),
});

const vatRate = scalar<(typeof VAT_RATES)[number]>(
  {
    anyOf: [
      { type: "number", enum: VAT_RATES.map(Number) },
      { type: "string", enum: [...VAT_RATES] },
    ],
  },
  (value) => {
    // Numeric text only, as in the other number fields: the parts pattern alone reads "", "-" or "." as 0.
    const numeric = typeof value === "number" || (typeof value === "string" && NUMBER_TEXT.test(value));
    const canonical = numeric ? decimalParts(value as number | string)?.canonical : undefined;
    if (!canonical || !(VAT_RATES as readonly string[]).includes(canonical)) {
      return {
        error: msg("VAT rate must be one of {value} (-1 exempt, -2 non-taxed); got {value2}", {
          value: VAT_RATES.join(", "),
          value2: JSON.stringify(value),
        }),
      };
    }
    return { value: canonical as (typeof VAT_RATES)[number] };
  },
);

export const productoSchema = z.strictObject({
  descripcion: text(TEXT_MAX["comprobante.detalle.producto.descripcion"], 4),
  codigo: codeText(TEXT_MAX["comprobante.detalle.producto.codigo"]).optional(),
  lista_precios: text(TEXT_MAX["comprobante.detalle.producto.lista_precios"], 4).optional(),
  unidad_bulto: integer(1, 1_000_000).optional(),
  // Negative for a discount line, as the service's discount page shows (checked against the totals in the rules).
  precio_unitario_sin_iva: decimal({ decimals: 3 }),
  alicuota: vatRate,
  impuestos_internos_alicuota: decimal({ decimals: 2, min: "0", max: "100" }).optional(),
  unidad_medida: code(UNITS, msg("unit of measure")).optional(),
  actualiza_precio: flag().optional(),
  rg5329: flag().optional(),
  precio_total: amount().optional(),
});

export const detalleSchema = z.strictObject({
  cantidad: decimal({ decimals: 2, min: "0", exclusiveMin: true }),
  afecta_stock: flag().optional(),
  bonificacion_porcentaje: decimal({ decimals: 2, min: "0", max: "100" }).optional(),
  incluir_lista_precios_venta: flag().optional(),
  actualiza_precio: flag().optional(),
  leyenda: text(TEXT_MAX["comprobante.detalle.leyenda"]).optional(),
  producto: productoSchema,
});

export const tributoSchema = z.strictObject({
  tipo: integer(1, 99, msg("a tributo type code")),
  regimen: integer(1, 99, msg("a tributo regime code")),
  base_imponible: amount(),
  alicuota: decimal({ decimals: 2, min: "0", max: "100", integerDigits: 3 }),
  total: amount(),
});

export const rgEspecialesSchema = z.strictObject({
  regimen: text(255),
  datos: z.array(
    z.strictObject({
      id: integer(1, 99999, msg("a regime data id")),
      valor: z.union([z.string(), z.number()]).transform(String),
    }),
  ),
});

export const pagosSchema = z.strictObject({
  formas_pago: z
    .array(z.strictObject({ descripcion: text(255), importe: amount() }))
    .min(1, words(msg("list at least one payment"))),
  total: amount(),
});

/** The service's name of a voucher type; written in any case, or with accents, it is taken as that name. */
const voucherTypeName = scalar<VoucherType>({ type: "string", enum: VOUCHER_TYPE_NAMES }, (value) => {
  const tipo = typeof value === "string" ? canonicalVoucherType(value) : undefined;
  if (tipo) return { value: tipo };
  const near = typeof value === "string" ? closestVoucherType(value) : undefined;
  return {
    error: near
      ? msg("unknown voucher type {input}; did you mean {tipo}?", {
          input: JSON.stringify(value),
          tipo: JSON.stringify(near),
        })
      : msg('unknown voucher type {input}; expected a name such as "FACTURA B" (see `facturar schema`)', {
          input: JSON.stringify(value),
        }),
  };
});

export const asociadoSchema = z.strictObject({
  tipo_comprobante: voucherTypeName,
  punto_venta: integer(1, 99999, msg("a point of sale number")),
  numero: integer(1, 99_999_999, msg("a voucher number")),
  comprobante_fecha: date(),
  cuit: digits(11, msg("the issuer's CUIT")),
});

/**
 * An export note's associated voucher, inside `fex`: the vendor's export page gives no date, unlike
 * the top-level association (the authority's Cmp_asoc has none either).
 */
export const fexAsociadoSchema = z.strictObject({
  tipo_comprobante: voucherTypeName,
  punto_venta: integer(1, 99999, msg("a point of sale number")),
  numero: integer(1, 99_999_999, msg("a voucher number")),
  cuit: digits(11, msg("the issuer's CUIT")),
});

const periodoSchema = z.strictObject({ fecha_desde: date(), fecha_hasta: date() });

const fexSchema = z.strictObject({
  tipo_exportacion: integer(1, 4, msg("an export type (1 goods, 2 services, 4 other)")),
  permisos_tiene: flag().optional(),
  fecha_pago: date().optional(),
  pais_comprobante_id: integer(1, 9999, msg("a country id")).optional(),
  forma_pago_leyenda: text(TEXT_MAX["comprobante.fex.forma_pago_leyenda"]).optional(),
  cliente_pais_cuit: digits(11, msg("the country CUIT")).optional(),
  incoterms_tipo_id: text(TEXT_MAX["comprobante.fex.incoterms_tipo_id"]).optional(),
  incoterms_nro: text(TEXT_MAX["comprobante.fex.incoterms_nro"]).optional(),
  permisos: z
    .array(
      z.strictObject({
        codigo_despacho: text(TEXT_MAX["comprobante.fex.permisos.codigo_despacho"]),
        pais_destino_id: integer(1, 9999, msg("a country id")),
      }),
    )
    .optional(),
  comprobantes_asociados: z.array(fexAsociadoSchema).optional(),
});

export const comprobanteSchema = z.strictObject({
  tipo: voucherTypeName,
  operacion: z.enum(["V", "C"], { error: words(msg('expected "V" (sale) or "C" (purchase)')) }).default("V"),
  // Left out: today in Argentina, and a due date from it (src/voucher/validate.ts fillDates).
  fecha: date().optional(),
  vencimiento: date().optional(),
  punto_venta: integer(1, 99999, msg("a point of sale number")).optional(),
  numero: integer(0, 99_999_999, msg("a voucher number of at most 8 digits")).optional(),
  moneda: z
    .string()
    .regex(/^[A-Z0-9]{3}$/, words(msg("expected a 3-character currency code such as PES, DOL or 060")))
    .default("PES"),
  cotizacion: decimal({ decimals: 6, min: "0", exclusiveMin: true, integerDigits: 4 }).optional(),
  idioma: code(LANGUAGES, msg("language")).default(1),
  periodo_facturado_desde: date().optional(),
  periodo_facturado_hasta: date().optional(),
  rubro: text(255),
  rubro_grupo_contable: text(TEXT_MAX["comprobante.rubro_grupo_contable"]),
  external_reference: z.union([z.string(), z.number().int().nonnegative()]).transform(String).optional(),
  tags: z.array(z.string()).optional(),
  datos_informativos: z.strictObject({ paga_misma_moneda: flag() }).optional(),
  abono: flag().optional(),
  abono_frecuencia: integer(1, 120, msg("a frequency in months")).optional(),
  abono_hasta: monthYear().optional(),
  abono_actualiza_precios: flag().optional(),
  detalle: z.array(detalleSchema).min(1, words(msg("a voucher needs at least one item"))),
  bonificacion: amount().optional(),
  leyenda_gral: text(TEXT_MAX["comprobante.leyenda_gral"]).optional(),
  comentario: text(TEXT_MAX["comprobante.comentario"]).optional(),
  exentos: amount().optional(),
  nogravados: amount().optional(),
  impuestos_internos: amount().optional(),
  impuestos_internos_base: amount().optional(),
  impuestos_internos_alicuota: decimal({ decimals: 2, min: "0", max: "100", integerDigits: 3 }).optional(),
  percepciones_iva: amount().optional(),
  total: amount().optional(),
  tributos: z.array(tributoSchema).optional(),
  rg_especiales: rgEspecialesSchema.optional(),
  pagos: pagosSchema.optional(),
  comprobantes_asociados: z.array(asociadoSchema).optional(),
  comprobantes_asociados_periodo: periodoSchema.optional(),
  fex: fexSchema.optional(),
});

/** Credentials are allowed in a file (copied from the service's examples) and ignored. */
const ignoredCredential = z.union([z.string(), z.number()]).optional();

export const envelopeSchema = z.strictObject({
  $schema: z.string().optional(),
  usertoken: ignoredCredential,
  apikey: ignoredCredential,
  apitoken: ignoredCredential,
  cliente: clienteSchema.optional(),
  proveedor: proveedorSchema.optional(),
  comprobante: comprobanteSchema,
});

/** As the schema reads it: the dates a file may leave out may be missing. */
export type ParsedEnvelope = z.output<typeof envelopeSchema>;
/** As validation leaves it: the dates left out are filled in (src/voucher/validate.ts). */
export type Comprobante = Omit<ParsedEnvelope["comprobante"], "fecha" | "vencimiento"> & {
  fecha: string;
  vencimiento: string;
};
export type Envelope = Omit<ParsedEnvelope, "comprobante"> & { comprobante: Comprobante };
export type Cliente = z.output<typeof clienteSchema>;
export type Party = z.output<typeof proveedorSchema>;
export type Detalle = Comprobante["detalle"][number];
export type EnvelopeInput = z.input<typeof envelopeSchema>;
