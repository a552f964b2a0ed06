/**
 * The tax authority's and the service's rules that can be checked before a voucher leaves the
 * machine (tax-rules.md §4 and §7, spec part 2, reference §5). Each finding names the JSON path
 * of the field at fault, so that a CSV reader can turn it into a row and a column.
 */
import { concat, type Message, msg, type Text } from "../i18n/message.js";
import { amount } from "./amount.js";
import {
  CURRENCIES,
  type DocumentType,
  FCE_DATA,
  FCE_REGIME,
  isNote,
  PAYMENT_CONDITION_OTHER,
  SPECIAL_REGIMES,
  TRIBUTO_REGIMES,
  TRIBUTO_TYPES,
  VAT_CONDITIONS_BY_CLASS,
  VAT_EXEMPT,
  VAT_NON_TAXED,
  type VatCondition,
  type VoucherTypeInfo,
  voucherNumber,
  voucherTypeInfo,
} from "./codes.js";
import { dayNumber, formatDay, monthNumber } from "./dates.js";
import { Dec } from "./decimal.js";
import { CUIL_PREFIXES, cbuProblem, cuitProblem, describeCuitProblem } from "./ids.js";
import { printsSmallTaxpayerLegend, withoutSmallTaxpayerLegend } from "./legends.js";
import type { Envelope, Party } from "./schema.js";
import { describeTotals, type Totals } from "./totals.js";

export type Severity = "error" | "warning";
export type Path = readonly (string | number)[];

export interface Finding {
  severity: Severity;
  /** Stable rule code, e.g. `items.max`; documented in samples/invalid/README.md. */
  code: string;
  path: Path;
  message: Text;
  /** Where the reader saw it, when that says more than the path (a CSV cell on a later row). */
  at?: Text;
}

export interface RuleOptions {
  /** Today's day number in Argentina (date windows). */
  today: number;
  /** Anonymous final-consumer ceiling, in pesos. */
  ceiling: Dec;
  /** The issuer's CUIT when known (the profile), to refuse invoicing oneself. */
  issuerCuit?: string;
  /** Queued: the service issues a voucher on its date, so a later date is a schedule, not early. */
  scheduled?: boolean;
}

export const LIMITS = {
  items: 130,
  tags: 50,
  tagLength: 255,
  associations: 10,
  /** The docs say 6 in one place and 7 in another: 7 is refused, 7 itself draws a warning. */
  tributos: 7,
  tributosSafe: 6,
  externalReference: 255,
  emails: 15,
  emailLength: 255,
  /** An item legend: 1000 in the newer documentation, 100 in the older, which draws a warning. */
  legendSafe: 100,
  /** The authority's Cliente on export vouchers (WSFEX 1651), below the service's 255. */
  exportCustomerName: 200,
  /**
   * Days a note's associated voucher may be older than the note: the authority refuses notes to
   * vouchers older than about 15 days (reference §11; the vendor's notes page: "no se permiten
   * notas de crédito a comprobantes con +15 días").
   */
  noteAgeDays: 15,
} as const;

/** The authority's country id of the special customs territory (Tierra del Fuego, spec §2.9). */
const SPECIAL_CUSTOMS_TERRITORY = 250;

const EXTERNAL_REFERENCE = /^[A-Za-z0-9_-]+$/;
/** What the service may read as a number and echo back as one (reference §6.8: "may come back as a number"). */
const NUMERIC_REFERENCE = /^-?\d+(?:[eE]-?\d+)?$/;
/** A number that comes back as the same text: no leading zeros, no exponent, within 15 digits (exact in a double). */
const ROUND_TRIP_NUMBER = /^(?:0|-?[1-9]\d{0,14})$/;
const TAG = /^[\p{L}\p{N} _-]+$/u;
const EMAIL = /^[^\s@,]+@[^\s@,]+\.[^\s@,]+$/;
const DAYS = { goods: 5, services: 10, fceBack: 5, fceAhead: 1, export: 5 } as const;

class Findings {
  readonly list: Finding[] = [];
  error(code: string, path: Path, message: Text): void {
    this.list.push({ severity: "error", code, path, message });
  }
  warn(code: string, path: Path, message: Text): void {
    this.list.push({ severity: "warning", code, path, message });
  }
}

const C = ["comprobante"] as const;

export function checkRules(env: Envelope, totals: Totals, opts: RuleOptions): Finding[] {
  const f = new Findings();
  const c = env.comprobante;
  const info = voucherTypeInfo(c.tipo);
  if (!info) return f.list; // the schema already refused the type
  const partyKey = c.operacion === "V" ? "cliente" : "proveedor";
  const party = c.operacion === "V" ? env.cliente : env.proveedor;

  checkParties(f, env);
  checkLimits(f, env);
  if (party) {
    checkDocument(f, party, partyKey, info, totals, c.cotizacion ?? "1", opts);
    checkIdentifiers(f, party, partyKey, opts);
  }
  checkClassRestrictions(f, env, info, totals);
  checkFce(f, env, info, opts);
  checkAssociations(f, env, info);
  checkCurrency(f, env);
  checkPayments(f, env, totals);
  checkDiscount(f, totals);
  checkNegativeLines(f, env, info, totals);
  checkPeriods(f, env, info);
  checkTributos(f, env, info, totals);
  checkSpecialRegimes(f, env, info);
  checkLegends(f, env, info);
  checkDates(f, env, info, opts);
  checkTotal(f, env, totals);
  return f.list;
}

function checkParties(f: Findings, env: Envelope): void {
  const op = env.comprobante.operacion;
  if (env.cliente && env.proveedor) {
    f.error("party.both", ["proveedor"], msg("send either `cliente` (a sale) or `proveedor` (a purchase), not both"));
  }
  if (op === "V" && !env.cliente) {
    f.error(
      "party.missing",
      ["cliente"],
      env.proveedor
        ? msg('a sale (operacion "V") needs `cliente`; `proveedor` is for purchases (operacion "C")')
        : msg('a sale (operacion "V") needs a `cliente` block'),
    );
  }
  // A purchase is the supplier's voucher: its number is the supplier's, and the service refuses a
  // purchase without it (it gives a purchase no number of its own, spec §5.2).
  if (op === "C" && (env.comprobante.numero === undefined || Number(env.comprobante.numero) < 1)) {
    f.error(
      "purchase.numero",
      [...C, "numero"],
      msg('a purchase (operacion "C") needs `numero`: the voucher number the supplier printed on it'),
    );
  }
  if (op === "C" && !env.proveedor) {
    f.error(
      "party.missing",
      ["proveedor"],
      env.cliente
        ? msg('a purchase (operacion "C") needs `proveedor`; `cliente` is for sales (operacion "V")')
        : msg('a purchase (operacion "C") needs a `proveedor` block'),
    );
  }
}

function checkLimits(f: Findings, env: Envelope): void {
  const c = env.comprobante;
  if (c.detalle.length > LIMITS.items) {
    f.error(
      "items.max",
      [...C, "detalle"],
      msg("a voucher takes at most {items} items; this one has {length}: split it", {
        items: LIMITS.items,
        length: c.detalle.length,
      }),
    );
  }
  const tags = c.tags ?? [];
  if (tags.length > LIMITS.tags) {
    f.error(
      "tags.max",
      [...C, "tags"],
      msg("at most {tags} tags per voucher; got {length}", { tags: LIMITS.tags, length: tags.length }),
    );
  }
  tags.forEach((tag, i) => {
    if (tag.length === 0 || tag.length > LIMITS.tagLength || !TAG.test(tag)) {
      f.error(
        "tags.format",
        [...C, "tags", i],
        msg('a tag is 1 to {tagLength} letters, digits, spaces, "_" or "-"; got {value}', {
          tagLength: LIMITS.tagLength,
          value: JSON.stringify(tag.slice(0, 40)),
        }),
      );
    }
  });
  const associations = c.comprobantes_asociados ?? [];
  if (associations.length > LIMITS.associations) {
    f.error(
      "associations.max",
      [...C, "comprobantes_asociados"],
      msg("at most {associations} associated vouchers; got {length}", {
        associations: LIMITS.associations,
        length: associations.length,
      }),
    );
  }
  const tributos = c.tributos ?? [];
  if (tributos.length > LIMITS.tributos) {
    f.error(
      "tributos.max",
      [...C, "tributos"],
      msg("at most {tributos} tributos per voucher; got {length}", {
        tributos: LIMITS.tributos,
        length: tributos.length,
      }),
    );
  } else if (tributos.length > LIMITS.tributosSafe) {
    f.warn(
      "tributos.max",
      [...C, "tributos"],
      msg("{length} tributos: part of the service's documentation allows only {tributosSafe}", {
        length: tributos.length,
        tributosSafe: LIMITS.tributosSafe,
      }),
    );
  }
  c.detalle.forEach((d, i) => {
    if (d.leyenda !== undefined && d.leyenda.length > LIMITS.legendSafe)
      f.warn(
        "text.max",
        [...C, "detalle", i, "leyenda"],
        msg("{length} characters: part of the service's documentation allows only {max} in an item legend", {
          length: d.leyenda.length,
          max: LIMITS.legendSafe,
        }),
      );
  });
  const ref = c.external_reference;
  if (
    ref !== undefined &&
    (ref.length === 0 || ref.length > LIMITS.externalReference || !EXTERNAL_REFERENCE.test(ref))
  ) {
    f.error(
      "external_reference.format",
      [...C, "external_reference"],
      msg('external_reference is 1 to {externalReference} letters, digits, "_" or "-"; got {value}', {
        externalReference: LIMITS.externalReference,
        value: JSON.stringify(ref.slice(0, 60)),
      }),
    );
  }
  if (ref !== undefined && NUMERIC_REFERENCE.test(ref) && !ROUND_TRIP_NUMBER.test(ref)) {
    // Echoed back as a number, 00777 reads 777 and 20 digits lose the last ones: the voucher
    // could not be found by its reference again, and the next run would send it once more.
    f.error(
      "external_reference.numeric",
      [...C, "external_reference"],
      msg(
        "external_reference {value} looks like a number the service may give back changed ({back}), and the voucher could not be found by it again: start it with a letter, as F-{value}",
        { value: ref, back: String(Number(ref)) },
      ),
    );
  }
  if (c.nogravados !== undefined && !Dec.parse(c.nogravados).isZero()) {
    f.error(
      "nogravados.deprecated",
      [...C, "nogravados"],
      msg("nogravados must be 0: send non-taxed amounts as items with alicuota -2"),
    );
  }
  if (c.percepciones_iva !== undefined && !Dec.parse(c.percepciones_iva).isZero()) {
    f.warn(
      "percepciones_iva.deprecated",
      [...C, "percepciones_iva"],
      msg("percepciones_iva is not added to the total: send VAT perceptions in `tributos` (tipo 6)"),
    );
  }
}

function requiredDocument(info: VoucherTypeInfo, condition: VatCondition): Message | undefined {
  if (info.fce) return msg("FCE vouchers go to a CUIT");
  switch (info.class) {
    case "A":
    case "M":
      return msg("class {class} vouchers go to a CUIT", { class: info.class });
    case "B":
      return condition === "E" ? msg("class B vouchers to an exempt customer go to a CUIT") : undefined;
    case "C":
      return condition === "RI" || condition === "M" || condition === "E"
        ? msg("class C vouchers to a registered, small or exempt taxpayer go to a CUIT")
        : undefined;
    default:
      return undefined;
  }
}

/**
 * A customer abroad (CDEX) goes as documento_tipo OTRO with its foreign id, on export vouchers
 * and on B (tax-rules §2.6): identified, so none of the unidentified consumer's rules apply.
 */
function abroad(party: Party, key: "cliente" | "proveedor"): boolean {
  return key === "cliente" && (party.condicion_iva_operacion ?? party.condicion_iva) === "CDEX";
}

/** A sale to an unidentified final consumer (OTRO), the kind the ceiling limits. */
export function unidentifiedConsumer(env: Envelope): boolean {
  return env.cliente?.documento_tipo === "OTRO" && !abroad(env.cliente, "cliente");
}

/** What an unidentified consumer's sale weighs against the ceiling: its total in pesos. */
export function anonymousAmount(totals: Totals, cotizacion: string): Dec {
  return totals.total.mul(Dec.parse(cotizacion));
}

/** Why a sale to an unidentified consumer is refused; `issue` says it again after asking the live ceiling. */
export function ceilingMessage(sale: Dec, ceiling: Dec): Message {
  return msg(
    "a sale of {amount} pesos reaches the ceiling for unidentified consumers ({amount2}): identify the customer by DNI, CUIT, CUIL or passport",
    { amount: amount(sale), amount2: amount(ceiling) },
  );
}

function checkDocument(
  f: Findings,
  party: Party,
  key: "cliente" | "proveedor",
  info: VoucherTypeInfo,
  totals: Totals,
  cotizacion: string,
  opts: RuleOptions,
): void {
  const condition = party.condicion_iva_operacion ?? party.condicion_iva;
  const conditionPath = [key, party.condicion_iva_operacion ? "condicion_iva_operacion" : "condicion_iva"];
  if (key === "cliente" && info.class) {
    const allowed = VAT_CONDITIONS_BY_CLASS[info.class];
    if (!allowed.includes(condition)) {
      f.error(
        "vat-condition.class",
        conditionPath,
        concat(
          msg("a class {class} voucher cannot go to a customer with VAT condition {condition}; allowed: {allowed}", {
            class: info.class,
            condition,
            allowed: allowed.join(", "),
          }),
          info.class === "B" && condition === "RI" ? concat(" ", msg("(a registered taxpayer gets class A)")) : "",
        ),
      );
    }
    const needsCuit = requiredDocument(info, condition);
    if (needsCuit && party.documento_tipo !== "CUIT") {
      f.error(
        "document.class",
        [key, "documento_tipo"],
        msg("{rule}, not {document}", { rule: needsCuit, document: party.documento_tipo }),
      );
    }
  }
  // Whoever issues a fiscal voucher is registered with the authority under a CUIT (spec §2.2
  // rules 1 and 4): a supplier's A, B, C or M voucher names one.
  if (key === "proveedor" && info.class && info.class !== "E" && party.documento_tipo !== "CUIT") {
    f.error(
      "supplier.document",
      [key, "documento_tipo"],
      msg(
        "a supplier that issues class {class} vouchers is registered with the authority under a CUIT: documento_tipo CUIT, not {document}",
        { class: info.class, document: party.documento_tipo },
      ),
    );
  }
  if (party.documento_tipo === "OTRO" && !abroad(party, key)) {
    if (party.documento_nro !== "0") {
      f.error(
        "anonymous.document",
        [key, "documento_nro"],
        msg('an unidentified final consumer is sent as documento_tipo "OTRO" with documento_nro "0"'),
      );
    }
    if (key === "cliente" && condition !== "CF") {
      f.error(
        "anonymous.condition",
        conditionPath,
        msg("an unidentified customer (OTRO) must be a final consumer (CF), not {condition}", { condition }),
      );
    }
    const amount = anonymousAmount(totals, cotizacion);
    if (key === "cliente" && amount.cmp(opts.ceiling) >= 0)
      f.error("anonymous.ceiling", [key, "documento_tipo"], ceilingMessage(amount, opts.ceiling));
  }
  if (party.condicion_pago === PAYMENT_CONDITION_OTHER && !party.condicion_pago_otra) {
    f.error(
      "payment-condition.other",
      [key, "condicion_pago_otra"],
      msg('condicion_pago {PAYMENT_CONDITION_OTHER} ("Otra") needs condicion_pago_otra describing it', {
        PAYMENT_CONDITION_OTHER,
      }),
    );
  }
  if (party.email) {
    const addresses = party.email.split(",").map((a) => a.trim());
    if (addresses.length > LIMITS.emails) {
      f.error(
        "email.max",
        [key, "email"],
        msg("at most {emails} e-mail addresses; got {length}", { emails: LIMITS.emails, length: addresses.length }),
      );
    } else if (party.email.length > LIMITS.emailLength) {
      // The service takes 255 characters for all the addresses together (api-v2 §5.3).
      f.error(
        "email.max",
        [key, "email"],
        msg("the e-mail addresses take at most {max} characters together; these take {length}", {
          max: LIMITS.emailLength,
          length: party.email.length,
        }),
      );
    }
    const bad = addresses.find((a) => !EMAIL.test(a));
    if (bad !== undefined)
      f.warn(
        "email.format",
        [key, "email"],
        msg("{bad} does not look like an e-mail address", { bad: JSON.stringify(bad) }),
      );
  }
}

function checkCuit(f: Findings, value: string, path: Path, what: Message, prefixes?: string[]): boolean {
  const problem = cuitProblem(value, prefixes);
  if (problem) f.error("cuit.check", path, concat(what, ": ", describeCuitProblem(problem, value)));
  return problem === undefined;
}

function checkIdentifiers(f: Findings, party: Party, key: "cliente" | "proveedor", opts: RuleOptions): void {
  const type: DocumentType = party.documento_tipo;
  const path = [key, "documento_nro"];
  if (type === "CUIT") {
    if (
      checkCuit(
        f,
        party.documento_nro,
        path,
        key === "cliente" ? msg("the customer's CUIT") : msg("the supplier's CUIT"),
      ) &&
      opts.issuerCuit === party.documento_nro
    ) {
      f.error("cuit.self", path, msg("the receiver's CUIT is the issuer's own: a voucher cannot be issued to oneself"));
    }
  } else if (type === "CUIL") {
    checkCuit(
      f,
      party.documento_nro,
      path,
      key === "cliente" ? msg("the customer's CUIL") : msg("the supplier's CUIL"),
      CUIL_PREFIXES,
    );
  } else if (type === "DNI" && !/^\d{7,8}$/.test(party.documento_nro)) {
    f.warn("document.dni", path, msg("a DNI has 7 or 8 digits; got {value}", { value: party.documento_nro }));
  }
}

function checkClassRestrictions(f: Findings, env: Envelope, info: VoucherTypeInfo, totals: Totals): void {
  const c = env.comprobante;
  if (info.class === "C") {
    c.detalle.forEach((d, i) => {
      if (d.producto.alicuota !== "0") {
        const what =
          d.producto.alicuota === VAT_EXEMPT
            ? msg("exempt items")
            : d.producto.alicuota === VAT_NON_TAXED
              ? msg("non-taxed items")
              : msg("VAT");
        f.error(
          "class-c.vat",
          [...C, "detalle", i, "producto", "alicuota"],
          msg("class C vouchers carry no {what}: send alicuota 0 and the final price", { what }),
        );
      }
    });
    if (c.exentos !== undefined && !Dec.parse(c.exentos).isZero()) {
      f.error("class-c.exempt", [...C, "exentos"], msg("class C vouchers carry no exempt amount"));
    }
    (c.tributos ?? []).forEach((_, i) => {
      f.error("class-c.perceptions", [...C, "tributos", i], msg("class C vouchers carry no perceptions"));
    });
  }
  if (info.class === "E") {
    if (!c.fex) f.error("class-e.fex", [...C, "fex"], msg("export vouchers (class E) need the `fex` block"));
    c.detalle.forEach((d, i) => {
      if (d.producto.alicuota !== "0" && d.producto.alicuota !== VAT_EXEMPT) {
        f.error(
          "class-e.vat",
          [...C, "detalle", i, "producto", "alicuota"],
          d.producto.alicuota === VAT_NON_TAXED
            ? msg("export vouchers carry no non-taxed items")
            : msg("export vouchers carry no VAT: send alicuota 0"),
        );
      }
      if (d.bonificacion_porcentaje !== undefined && !Dec.parse(d.bonificacion_porcentaje).isZero()) {
        f.error(
          "class-e.discount",
          [...C, "detalle", i, "bonificacion_porcentaje"],
          msg("export vouchers carry no discounts"),
        );
      }
      if (
        d.producto.impuestos_internos_alicuota !== undefined &&
        !Dec.parse(d.producto.impuestos_internos_alicuota).isZero()
      ) {
        f.error(
          "class-e.internal-taxes",
          [...C, "detalle", i, "producto", "impuestos_internos_alicuota"],
          msg("export vouchers carry no internal taxes"),
        );
      }
    });
    if (!totals.discount.isZero())
      f.error("class-e.discount", [...C, "bonificacion"], msg("export vouchers carry no discounts"));
    if (c.impuestos_internos !== undefined && !Dec.parse(c.impuestos_internos).isZero()) {
      f.error("class-e.internal-taxes", [...C, "impuestos_internos"], msg("export vouchers carry no internal taxes"));
    }
    (c.tributos ?? []).forEach((_, i) => {
      f.error("class-e.taxes", [...C, "tributos", i], msg("export vouchers carry no taxes or perceptions"));
    });
    if (c.comprobantes_asociados_periodo) {
      f.error(
        "class-e.period",
        [...C, "comprobantes_asociados_periodo"],
        msg("export notes name the vouchers they adjust in fex.comprobantes_asociados, not a period"),
      );
    }
    const name = env.cliente?.razon_social;
    if (name !== undefined && name.length > LIMITS.exportCustomerName) {
      f.error(
        "text.max",
        ["cliente", "razon_social"],
        msg("an export voucher's customer name takes at most {max} characters at the authority; it has {length}", {
          max: LIMITS.exportCustomerName,
          length: name.length,
        }),
      );
    }
    checkExportBlock(f, env, info);
  } else if (c.fex) {
    f.error("fex.not-export", [...C, "fex"], msg("the `fex` block belongs to export vouchers (class E) only"));
  }
}

function checkExportBlock(f: Findings, env: Envelope, info: VoucherTypeInfo): void {
  const fex = env.comprobante.fex;
  if (!fex) return;
  const path = [...C, "fex"];
  const goods = fex.tipo_exportacion === 1;
  if (fex.tipo_exportacion === 3) {
    f.error("fex.type", [...path, "tipo_exportacion"], msg("tipo_exportacion is 1 (goods), 2 (services) or 4 (other)"));
  }
  if (goods) {
    if (!fex.permisos_tiene) {
      f.error(
        "fex.permits",
        [...path, "permisos_tiene"],
        msg('goods exports say whether they have permits: permisos_tiene "S" or "N"'),
      );
    }
    if (fex.permisos_tiene === "S" && !fex.permisos?.length) {
      f.error("fex.permits", [...path, "permisos"], msg('permisos_tiene is "S" but no permisos are listed'));
    }
    if (fex.permisos_tiene === "N" && fex.permisos?.length) {
      f.error("fex.permits", [...path, "permisos"], msg('permisos are listed but permisos_tiene is "N"'));
    }
    if (!fex.incoterms_tipo_id)
      f.warn("fex.incoterms", [...path, "incoterms_tipo_id"], msg("goods exports usually state the incoterm"));
  } else {
    if (fex.permisos?.length)
      f.error("fex.permits", [...path, "permisos"], msg("customs permits are for goods exports only"));
    if (fex.incoterms_nro)
      f.error("fex.incoterms", [...path, "incoterms_nro"], msg("incoterms are for goods exports only"));
    if (!fex.fecha_pago && !isNote(info)) {
      f.error("fex.payment-date", [...path, "fecha_pago"], msg("service and other exports need fecha_pago"));
    }
  }
  // The vendor asks it of invoices only; the authority refuses it on notes (WSFEX 1673).
  if (fex.fecha_pago && isNote(info)) {
    f.error("fex.payment-date", [...path, "fecha_pago"], msg("export notes carry no fecha_pago: it is for invoices"));
  }
  if (fex.cliente_pais_cuit)
    checkCuit(f, fex.cliente_pais_cuit, [...path, "cliente_pais_cuit"], msg("the country CUIT"));
  if (!fex.pais_comprobante_id)
    f.error("fex.country", [...path, "pais_comprobante_id"], msg("export vouchers name the destination country"));
  if (fex.pais_comprobante_id === SPECIAL_CUSTOMS_TERRITORY) checkTerritory(f, env);
}

/**
 * An export to the special customs territory (spec §2.9): the customer is an Argentine taxpayer,
 * named by its CUIT with its real VAT condition, and that CUIT goes in `fex.cliente_pais_cuit`
 * too, where a customer abroad has its country's.
 */
function checkTerritory(f: Findings, env: Envelope): void {
  const party = env.cliente;
  const fex = env.comprobante.fex;
  if (!party || !fex) return;
  const country = SPECIAL_CUSTOMS_TERRITORY;
  if (party.documento_tipo !== "CUIT") {
    f.error(
      "fex.territory",
      ["cliente", "documento_tipo"],
      msg(
        "an export to the special customs territory (pais_comprobante_id {country}) names the customer by its CUIT: documento_tipo CUIT, not {document}",
        { country, document: party.documento_tipo },
      ),
    );
  }
  const operation = party.condicion_iva_operacion !== undefined;
  if ((party.condicion_iva_operacion ?? party.condicion_iva) === "CDEX") {
    f.error(
      "fex.territory",
      ["cliente", operation ? "condicion_iva_operacion" : "condicion_iva"],
      msg(
        "a customer in the special customs territory (pais_comprobante_id {country}) is no customer abroad: send its real VAT condition (RI, M, E…), not CDEX",
        { country },
      ),
    );
  }
  if (party.documento_tipo !== "CUIT") return;
  const cuitPath = [...C, "fex", "cliente_pais_cuit"];
  if (fex.cliente_pais_cuit === undefined) {
    f.error(
      "fex.territory",
      cuitPath,
      msg(
        "an export to the special customs territory (pais_comprobante_id {country}) carries the customer's CUIT in fex.cliente_pais_cuit too: {cuit}",
        { country, cuit: party.documento_nro },
      ),
    );
  } else if (fex.cliente_pais_cuit !== party.documento_nro) {
    f.error(
      "fex.territory",
      cuitPath,
      msg(
        "fex.cliente_pais_cuit {value} is not the customer's CUIT {cuit}: an export to the special customs territory (pais_comprobante_id {country}) names the customer in both",
        { value: fex.cliente_pais_cuit, cuit: party.documento_nro, country },
      ),
    );
  }
}

/**
 * The small-taxpayer legend the service prints on a class A voucher to a monotributo customer
 * (spec §4 fact 3: it must not be sent in `leyenda_gral`). Sent anyway, the voucher carries it
 * twice, and a voucher cannot be changed once issued (spec §3): refused, with the fix.
 */
function checkLegends(f: Findings, env: Envelope, info: VoucherTypeInfo): void {
  const legend = env.comprobante.leyenda_gral;
  const party = env.cliente;
  if (legend === undefined || !party || env.comprobante.operacion !== "V") return;
  if (!printsSmallTaxpayerLegend(info.class, party.condicion_iva_operacion ?? party.condicion_iva)) return;
  if (!withoutSmallTaxpayerLegend(legend).found) return;
  f.error(
    "legend.small-taxpayer",
    [...C, "leyenda_gral"],
    msg(
      "leyenda_gral holds the small-taxpayer legend (Ley 27.618), which the service prints on a class {class} voucher to a monotributo customer; remove it: the service adds it",
      { class: info.class ?? "A" },
    ),
  );
}

function fceData(env: Envelope): Map<number, { value: string; index: number }> {
  const rg = env.comprobante.rg_especiales;
  if (rg?.regimen !== FCE_REGIME) return new Map();
  return new Map(rg.datos.map((d, index) => [d.id, { value: d.valor.trim(), index }]));
}

function checkFce(f: Findings, env: Envelope, info: VoucherTypeInfo, opts: RuleOptions): void {
  const c = env.comprobante;
  const rg = c.rg_especiales;
  const rgPath = [...C, "rg_especiales"];
  if (!info.fce) {
    if (rg?.regimen === FCE_REGIME) {
      f.error("fce.not-fce", [...rgPath, "regimen"], msg("the FCE regime belongs to FCE MiPyME vouchers only"));
    }
    return;
  }
  // Before anything else can end this check: due-date.order steps aside for an FCE invoice.
  if (info.kind === "invoice") {
    // Due on or after max(date, the day it is sent) (tax-rules §4.11): the authority refuses it
    // otherwise. Told here once, for both (the rule every voucher has, due-date.order, steps aside).
    if (dayNumber(c.vencimiento) < dayNumber(c.fecha)) {
      f.error(
        "fce.due-date",
        [...C, "vencimiento"],
        msg("an FCE invoice is due on or after its date ({fecha})", { fecha: c.fecha }),
      );
    } else if (dayNumber(c.vencimiento) < opts.today) {
      f.error(
        "fce.due-date",
        [...C, "vencimiento"],
        msg("an FCE invoice sent today must be due on or after today ({today}); {vencimiento} has passed", {
          today: formatDay(opts.today),
          vencimiento: c.vencimiento,
        }),
      );
    }
  }
  if (env.cliente && env.cliente.documento_tipo !== "CUIT") return; // reported by document.class
  if (rg?.regimen !== FCE_REGIME) {
    f.error(
      "fce.regime",
      rgPath,
      msg(
        'FCE vouchers carry rg_especiales with regimen "{FCE_REGIME}" and its data (CBU 2101 and 27 on invoices, 22 on notes)',
        { FCE_REGIME },
      ),
    );
    return;
  }
  const data = fceData(env);
  const at = (id: number) => [...rgPath, "datos", data.get(id)?.index ?? 0, "valor"];
  if (info.kind === "invoice") {
    const cbu = data.get(FCE_DATA.CBU);
    if (!cbu) f.error("fce.cbu", [...rgPath, "datos"], msg("FCE invoices carry the issuer's CBU (id 2101)"));
    else {
      const problem = cbuProblem(cbu.value);
      if (problem) f.error("fce.cbu", at(FCE_DATA.CBU), problem);
    }
    const transfer = data.get(FCE_DATA.TRANSFER);
    if (!transfer)
      f.error(
        "fce.transfer",
        [...rgPath, "datos"],
        msg('FCE invoices carry the transfer option (id 27): "SCA" or "ADC"'),
      );
    else if (transfer.value !== "SCA" && transfer.value !== "ADC") {
      f.error(
        "fce.transfer",
        at(FCE_DATA.TRANSFER),
        msg('the transfer option (id 27) is "SCA" or "ADC", not {value}', { value: JSON.stringify(transfer.value) }),
      );
    }
    if (data.has(FCE_DATA.ANNULMENT))
      f.error("fce.annulment", at(FCE_DATA.ANNULMENT), msg("id 22 (annulment) belongs to FCE notes, not invoices"));
  } else {
    const annulment = data.get(FCE_DATA.ANNULMENT);
    if (!annulment)
      f.error("fce.annulment", [...rgPath, "datos"], msg('FCE notes carry id 22 (annulment): "S" or "N"'));
    else if (annulment.value !== "S" && annulment.value !== "N") {
      f.error(
        "fce.annulment",
        at(FCE_DATA.ANNULMENT),
        msg('id 22 (annulment) is "S" or "N", not {value}', { value: JSON.stringify(annulment.value) }),
      );
    }
    for (const id of [FCE_DATA.CBU, FCE_DATA.ALIAS, FCE_DATA.TRANSFER]) {
      if (data.has(id)) f.error("fce.note-data", at(id), msg("id {id} belongs to FCE invoices, not to notes", { id }));
    }
  }
  const alias = data.get(FCE_DATA.ALIAS);
  if (alias && !/^[A-Za-z0-9.-]{6,20}$/.test(alias.value)) {
    f.error("fce.alias", at(FCE_DATA.ALIAS), msg("a CBU alias has 6 to 20 letters, digits, dots or dashes"));
  }
}

function checkAssociations(f: Findings, env: Envelope, info: VoucherTypeInfo): void {
  const c = env.comprobante;
  if (info.class === "E") {
    checkExportAssociations(f, env, info);
    return;
  }
  const list = c.comprobantes_asociados ?? [];
  const fecha = dayNumber(c.fecha);
  if (isNote(info) && list.length === 0 && !c.comprobantes_asociados_periodo) {
    f.error(
      "notes.association",
      [...C, "comprobantes_asociados"],
      msg(
        "credit and debit notes name the vouchers they adjust (comprobantes_asociados) or a period (comprobantes_asociados_periodo)",
      ),
    );
  }
  list.forEach((a, i) => {
    const path = [...C, "comprobantes_asociados", i];
    const target = voucherTypeInfo(a.tipo_comprobante);
    checkCuit(f, a.cuit, [...path, "cuit"], msg("the associated voucher's issuer CUIT"));
    if (dayNumber(a.comprobante_fecha) > fecha) {
      f.error(
        "associations.date",
        [...path, "comprobante_fecha"],
        msg("an associated voucher ({comprobante_fecha}) cannot be dated after this voucher ({fecha})", {
          comprobante_fecha: a.comprobante_fecha,
          fecha: c.fecha,
        }),
      );
    }
    if (!isNote(info)) return;
    const age = fecha - dayNumber(a.comprobante_fecha);
    if (age > LIMITS.noteAgeDays) {
      f.warn(
        "associations.age",
        [...path, "comprobante_fecha"],
        msg(
          "{tipo_comprobante} {numero} is dated {comprobante_fecha}, {days} days before this note ({fecha}): the authority refuses notes to vouchers older than about {max} days",
          {
            tipo_comprobante: a.tipo_comprobante,
            numero: voucherNumber(a.punto_venta, a.numero),
            comprobante_fecha: a.comprobante_fecha,
            days: age,
            fecha: c.fecha,
            max: LIMITS.noteAgeDays,
          },
        ),
      );
    }
    if (!target) return;
    // Class M (since 2025-12 "A con leyenda") is a group of its own at the authority (validation
    // 10007, tax-rules §2.1): M vouchers take M notes, A vouchers A notes.
    if (target.class !== info.class) {
      f.error(
        "associations.class",
        [...path, "tipo_comprobante"],
        msg("a class {class} note adjusts class {class} vouchers, not {tipo_comprobante}", {
          class: info.class,
          tipo_comprobante: a.tipo_comprobante,
        }),
      );
    }
    if (info.fce && !(target.fce && target.kind === "invoice")) {
      f.error(
        "associations.fce",
        [...path, "tipo_comprobante"],
        msg("an FCE note adjusts an FCE invoice of its class"),
      );
    }
  });
  if (info.fce && isNote(info) && list.length > 1) {
    f.error("associations.fce", [...C, "comprobantes_asociados"], msg("an FCE note adjusts exactly one FCE invoice"));
  }
  if (info.fce && isNote(info) && list.length === 0 && c.comprobantes_asociados_periodo) {
    f.error(
      "associations.fce",
      [...C, "comprobantes_asociados"],
      msg("an FCE note names the one FCE invoice it adjusts, not a period"),
    );
  }
  const period = c.comprobantes_asociados_periodo;
  if (period) {
    const path = [...C, "comprobantes_asociados_periodo"];
    if (dayNumber(period.fecha_desde) > dayNumber(period.fecha_hasta)) {
      f.error(
        "period.order",
        [...path, "fecha_hasta"],
        msg("the period ends ({fecha_hasta}) before it starts ({fecha_desde})", {
          fecha_hasta: period.fecha_hasta,
          fecha_desde: period.fecha_desde,
        }),
      );
    }
    if (dayNumber(period.fecha_hasta) > fecha) {
      f.error(
        "associations.date",
        [...path, "fecha_hasta"],
        msg("the associated period cannot end after this voucher's date ({fecha})", { fecha: c.fecha }),
      );
    }
  }
}

/**
 * Export notes name what they adjust inside `fex` (the vendor's export page): no date, E vouchers
 * only, and at most one (WSFEX 1754). The authority requires it on service notes (WSFEX 2047);
 * the vendor calls it optional otherwise.
 */
function checkExportAssociations(f: Findings, env: Envelope, info: VoucherTypeInfo): void {
  const c = env.comprobante;
  const path = [...C, "fex", "comprobantes_asociados"];
  if (c.comprobantes_asociados) {
    f.error(
      "class-e.associations",
      [...C, "comprobantes_asociados"],
      isNote(info)
        ? msg(
            "export notes name the vouchers they adjust in fex.comprobantes_asociados (tipo_comprobante, punto_venta, numero, cuit), not in comprobante.comprobantes_asociados",
          )
        : msg("an export invoice adjusts no voucher: associated vouchers belong to export notes, in fex"),
    );
  }
  const fex = c.fex;
  if (!fex) return; // class-e.fex
  const list = fex.comprobantes_asociados ?? [];
  if (!isNote(info)) {
    if (fex.comprobantes_asociados)
      f.error("fex.associations", path, msg("fex.comprobantes_asociados belongs to export credit and debit notes"));
    return;
  }
  // Listed at the top level or as a period, they are reported there already.
  // Every credit or debit note names what it adjusts (spec §2.8): goods and services alike.
  if (list.length === 0 && !c.comprobantes_asociados && !c.comprobantes_asociados_periodo) {
    f.error(
      "notes.association",
      path,
      msg(
        "an export note names the invoice it adjusts in fex.comprobantes_asociados (tipo_comprobante, punto_venta, numero, cuit)",
      ),
    );
  }
  if (list.length > 1) {
    f.error(
      "associations.max",
      path,
      msg("an export note adjusts one voucher: the authority refuses more; got {length}", { length: list.length }),
    );
  }
  list.forEach((a, i) => {
    checkCuit(f, a.cuit, [...path, i, "cuit"], msg("the associated voucher's issuer CUIT"));
    if (voucherTypeInfo(a.tipo_comprobante)?.class !== "E") {
      f.error(
        "associations.class",
        [...path, i, "tipo_comprobante"],
        msg("a class {class} note adjusts class {class} vouchers, not {tipo_comprobante}", {
          class: "E",
          tipo_comprobante: a.tipo_comprobante,
        }),
      );
    }
  });
}

function checkCurrency(f: Findings, env: Envelope): void {
  const c = env.comprobante;
  const path = [...C, "cotizacion"];
  if (c.moneda === "PES") {
    if (c.datos_informativos?.paga_misma_moneda === "S") {
      f.error(
        "currency.same-currency",
        [...C, "datos_informativos", "paga_misma_moneda"],
        msg('paga_misma_moneda "S" is for vouchers in a foreign currency'),
      );
    }
    return;
  }
  if (!(c.moneda in CURRENCIES)) {
    f.warn(
      "currency.unknown",
      [...C, "moneda"],
      msg("currency {moneda} is not in the tool's table; check the code", { moneda: c.moneda }),
    );
  }
  if (c.cotizacion === undefined) {
    f.error(
      "currency.rate",
      path,
      msg("a voucher in {moneda} needs its exchange rate (cotizacion)", { moneda: c.moneda }),
    );
  } else if (Dec.parse(c.cotizacion).eq(Dec.ONE)) {
    // A dollar is worth far more than 2-400 % of one peso (the authority's band, tax-rules §4.9).
    if (c.moneda === "DOL")
      f.error("currency.rate", path, msg("cotizacion 1 for dollars: give the exchange rate in pesos per dollar"));
    else
      f.warn(
        "currency.rate",
        path,
        msg("cotizacion 1 for {moneda}: is the exchange rate missing?", { moneda: c.moneda }),
      );
  }
  const cotizacion = c.cotizacion ? Dec.parse(c.cotizacion) : undefined;
  if (cotizacion && cotizacion.significantScale() > 3) {
    f.warn("currency.rate", path, msg("the service handles cotizacion with 3 decimals; more may be rounded"));
  }
}

/**
 * A negative-price line is a discount, as the service's discount page shows: the authority gets
 * only totals, so it is taken where no base, VAT or total turns negative. Export vouchers carry
 * no discounts at all.
 */
function checkNegativeLines(f: Findings, env: Envelope, info: VoucherTypeInfo, totals: Totals): void {
  const first = env.comprobante.detalle.findIndex((d) => Dec.parse(d.producto.precio_unitario_sin_iva).sign() < 0);
  if (first < 0) return;
  const path = [...C, "detalle", first, "producto", "precio_unitario_sin_iva"];
  if (info.class === "E") {
    f.error("class-e.discount", path, msg("export vouchers carry no discounts, nor negative prices"));
    return;
  }
  const negative = [...totals.rates.flatMap((r) => [r.net, r.vat]), totals.exempt, totals.nonTaxed, totals.total].some(
    (amount) => amount.sign() < 0,
  );
  if (negative)
    f.error(
      "negative.totals",
      path,
      msg("a negative-price line is a discount on the others: here it leaves a negative base, VAT or total"),
    );
}

/** A voucher discount comes off its items: more than they add up to leaves a negative base. */
function checkDiscount(f: Findings, totals: Totals): void {
  if (!totals.discount.isZero() && totals.discount.cmp(totals.subtotal) > 0)
    f.error(
      "discount.exceeds",
      [...C, "bonificacion"],
      msg("bonificacion {discount} is more than the items it discounts add up to ({subtotal})", {
        discount: amount(totals.discount),
        subtotal: amount(totals.subtotal),
      }),
    );
}

function checkPayments(f: Findings, env: Envelope, totals: Totals): void {
  const pagos = env.comprobante.pagos;
  if (!pagos) return;
  const path = [...C, "pagos", "total"];
  const declared = Dec.parse(pagos.total);
  const sum = Dec.sum(pagos.formas_pago.map((p) => Dec.parse(p.importe)));
  if (!declared.eq(sum)) {
    f.error(
      "payments.sum",
      path,
      msg("pagos.total {amount} differs from the sum of formas_pago {amount2}", {
        amount: amount(declared),
        amount2: amount(sum),
      }),
    );
  }
  const voucherTotal = env.comprobante.total ? Dec.parse(env.comprobante.total) : totals.total;
  if (declared.cmp(voucherTotal) > 0) {
    f.error(
      "payments.exceed",
      path,
      msg("payments ({amount}) exceed the voucher total ({amount2})", {
        amount: amount(declared),
        amount2: amount(voucherTotal),
      }),
    );
  }
}

function checkPeriods(f: Findings, env: Envelope, info: VoucherTypeInfo): void {
  const c = env.comprobante;
  const from = c.periodo_facturado_desde;
  const to = c.periodo_facturado_hasta;
  if ((from === undefined) !== (to === undefined)) {
    f.error(
      "period.incomplete",
      [...C, from === undefined ? "periodo_facturado_desde" : "periodo_facturado_hasta"],
      msg("the billed period needs both periodo_facturado_desde and periodo_facturado_hasta"),
    );
  } else if (from && to && dayNumber(from) > dayNumber(to)) {
    f.error(
      "period.order",
      [...C, "periodo_facturado_hasta"],
      msg("the billed period ends ({to}) before it starts ({from})", { to, from }),
    );
  }
  // An FCE invoice's due date has its own, stricter rule (fce.due-date).
  if (dayNumber(c.vencimiento) < dayNumber(c.fecha) && !(info.fce && !isNote(info))) {
    f.error(
      "due-date.order",
      [...C, "vencimiento"],
      msg("the payment due date ({vencimiento}) is before the voucher date ({fecha})", {
        vencimiento: c.vencimiento,
        fecha: c.fecha,
      }),
    );
  }
  if (c.abono === "S") {
    if (!c.abono_frecuencia)
      f.error(
        "subscription.incomplete",
        [...C, "abono_frecuencia"],
        msg("a subscription (abono S) needs abono_frecuencia in months"),
      );
    if (!c.abono_hasta)
      f.error(
        "subscription.incomplete",
        [...C, "abono_hasta"],
        msg("a subscription (abono S) needs abono_hasta (mm/yyyy)"),
      );
    else if (monthNumber(c.abono_hasta) < monthNumber(c.fecha)) {
      f.error(
        "period.order",
        [...C, "abono_hasta"],
        msg("the subscription ends ({abono_hasta}) before the voucher's month", { abono_hasta: c.abono_hasta }),
      );
    }
  }
}

function checkTributos(f: Findings, env: Envelope, info: VoucherTypeInfo, totals: Totals): void {
  // RG 5329 bases taken so far, by rate: two perceptions may not perceive the same net twice.
  const perceived = new Map<string, Dec>();
  (env.comprobante.tributos ?? []).forEach((tributo, i) => {
    const path = [...C, "tributos", i];
    if (tributo.tipo === 6 && tributo.regimen === RG_5329) checkRg5329(f, env, info, totals, tributo, path, perceived);
    if (!(tributo.tipo in TRIBUTO_TYPES)) {
      f.error(
        "tributo.type",
        [...path, "tipo"],
        msg("unknown tributo type {tipo}; expected 1 (national), 6 (VAT) or 7 (IIBB)", { tipo: tributo.tipo }),
      );
      return;
    }
    const regime = TRIBUTO_REGIMES[tributo.regimen];
    if (!regime)
      f.error(
        "tributo.regime",
        [...path, "regimen"],
        msg("unknown tributo regime {regimen}", { regimen: tributo.regimen }),
      );
    else if (regime.tipo !== tributo.tipo) {
      f.error(
        "tributo.regime",
        [...path, "regimen"],
        msg("regime {regimen} ({name}) belongs to tributo type {tipo}, not {tipo2} ({value})", {
          regimen: tributo.regimen,
          name: regime.name,
          tipo: regime.tipo,
          tipo2: tributo.tipo,
          value: TRIBUTO_TYPES[tributo.tipo],
        }),
      );
    }
    const expected = Dec.parse(tributo.base_imponible).mul(Dec.parse(tributo.alicuota)).shift(2).roundHalfEven(2);
    if (expected.sub(Dec.parse(tributo.total)).abs().cmp(Dec.parse("0.01")) > 0) {
      f.warn(
        "tributo.amount",
        [...path, "total"],
        msg("{base_imponible} × {alicuota}% is {amount}, but total says {total}", {
          base_imponible: tributo.base_imponible,
          alicuota: tributo.alicuota,
          amount: amount(expected),
          total: tributo.total,
        }),
      );
    }
  });
}

/** The hosted API's regime of RG 5329 VAT perceptions (reference api-v2 §10.6). */
const RG_5329 = 3;

/**
 * RG 5329 (tax-rules §4.12): a VAT perception a registered seller charges a registered buyer, 3 %
 * of the net taxed at 21 % and 1.5 % of the net at 10.5 %. A buyer who is not registered never
 * bears it (refused); the rates come from one guide the reference quotes, so a perception whose
 * rate or base does not fit them warns.
 */
function checkRg5329(
  f: Findings,
  env: Envelope,
  info: VoucherTypeInfo,
  totals: Totals,
  tributo: { alicuota: string; base_imponible: string },
  path: Path,
  perceived: Map<string, Dec>,
): void {
  if (env.comprobante.operacion !== "V") return;
  const buyer = env.cliente?.condicion_iva_operacion ?? env.cliente?.condicion_iva;
  if (buyer !== "RI" || (info.class !== "A" && info.class !== "M")) {
    f.error(
      "tributo.rg5329",
      [...path, "regimen"],
      msg(
        "an RG 5329 VAT perception is charged only to a registered buyer (RI) on a class A or M voucher; this one goes to {buyer} on a class {class} voucher",
        { buyer: buyer ?? "?", class: info.class ?? "?" },
      ),
    );
    return;
  }
  const netAt = (rate: string) => totals.rates.find((r) => r.rate === rate)?.net ?? Dec.ZERO;
  const alicuota = Dec.parse(tributo.alicuota);
  const rate = alicuota.eq(Dec.parse("3")) ? "21" : alicuota.eq(Dec.parse("1.5")) ? "10.5" : undefined;
  const base = Dec.parse(tributo.base_imponible).add(rate ? (perceived.get(rate) ?? Dec.ZERO) : Dec.ZERO);
  if (rate) perceived.set(rate, base);
  const fits = rate !== undefined && base.cmp(netAt(rate)) <= 0 && !netAt(rate).isZero();
  if (!fits)
    f.warn(
      "tributo.rg5329",
      path,
      msg(
        "an RG 5329 perception is 3 % of the net taxed at 21 % ({net21}) and 1.5 % of the net at 10.5 % ({net105}): {alicuota} % on {base} does not fit",
        {
          net21: amount(netAt("21")),
          net105: amount(netAt("10.5")),
          alicuota: tributo.alicuota,
          base: tributo.base_imponible,
        },
      ),
    );
}

function checkSpecialRegimes(f: Findings, env: Envelope, info: VoucherTypeInfo): void {
  const rg = env.comprobante.rg_especiales;
  if (!rg) return;
  const path = [...C, "rg_especiales"];
  const ids = SPECIAL_REGIMES[rg.regimen];
  if (!ids) {
    f.warn(
      "rg_especiales.regime",
      [...path, "regimen"],
      msg("regime {regimen} is not in the tool's table; the authority will judge it", {
        regimen: JSON.stringify(rg.regimen),
      }),
    );
  }
  rg.datos.forEach((d, i) => {
    if (ids && !ids.includes(d.id)) {
      f.error(
        "rg_especiales.id",
        [...path, "datos", i, "id"],
        msg("regime {regimen} takes ids {value}, not {id}", { regimen: rg.regimen, value: ids.join(", "), id: d.id }),
      );
    }
  });
  if (!info.fce && rg.regimen !== FCE_REGIME) {
    const fceIds = [FCE_DATA.CBU, FCE_DATA.ALIAS, FCE_DATA.ANNULMENT, FCE_DATA.TRANSFER] as number[];
    rg.datos.forEach((d, i) => {
      if (fceIds.includes(d.id))
        f.error(
          "fce.not-fce",
          [...path, "datos", i, "id"],
          msg("id {id} is FCE data; this is not an FCE voucher", { id: d.id }),
        );
    });
  }
}

/** The authority's window around the day it receives the voucher (tax-rules §4.5); outside it, 10016. */
function checkDates(f: Findings, env: Envelope, info: VoucherTypeInfo, opts: RuleOptions): void {
  const c = env.comprobante;
  const offset = dayNumber(c.fecha) - opts.today;
  if (opts.scheduled && offset > 0) return;
  const path = [...C, "fecha"];
  const hint = { today: formatDay(opts.today), fecha: c.fecha };
  if (info.fce) {
    if (offset < -DAYS.fceBack || offset > DAYS.fceAhead) {
      f.error(
        "date.window",
        path,
        msg(
          "an FCE voucher is dated from {fceBack} days back to {fceAhead} ahead of today ({today}); the authority refuses {fecha}",
          { fceBack: DAYS.fceBack, fceAhead: DAYS.fceAhead, ...hint },
        ),
      );
    }
    return;
  }
  // Exports go through WSFEX, whose window is N ± 5 for goods and services alike (tax-rules §6).
  if (info.class === "E") {
    if (Math.abs(offset) > DAYS.export)
      f.error(
        "date.window",
        path,
        msg("export vouchers are dated within {span} days of today ({today}); the authority refuses {fecha}", {
          span: DAYS.export,
          ...hint,
        }),
      );
    return;
  }
  // The billed period marks services; without it the authority treats the voucher as goods.
  const services = c.periodo_facturado_desde !== undefined;
  const span = services ? DAYS.services : DAYS.goods;
  if (Math.abs(offset) > span) {
    const params = { span, ...hint };
    f.error(
      "date.window",
      path,
      services
        ? msg(
            "vouchers for services are dated within {span} days of today ({today}); the authority refuses {fecha}",
            params,
          )
        : msg(
            "vouchers for goods are dated within {span} days of today ({today}); the authority refuses {fecha}",
            params,
          ),
    );
  } else if (!services && offset > 0 && monthNumber(c.fecha) !== monthNumber(formatDay(opts.today))) {
    f.error(
      "date.window",
      path,
      msg(
        "a goods voucher dated ahead ({fecha}) must stay in the current month ({today}); the authority refuses it",
        hint,
      ),
    );
  }
}

function checkTotal(f: Findings, env: Envelope, totals: Totals): void {
  const declared = env.comprobante.total;
  if (declared === undefined) return; // filled in by the validator, with a warning
  const diff = Dec.parse(declared).sub(totals.total).abs();
  const roundingSlack = Dec.parse("0.01").mul(
    Dec.fromInt(Math.max(1, totals.rates.length + (env.comprobante.tributos?.length ?? 0))),
  );
  if (diff.cmp(totals.tolerance) <= 0 && diff.cmp(roundingSlack) > 0) {
    // Inside the authority's relative tolerance, but more than rounding can explain.
    f.warn(
      "total.drift",
      [...C, "total"],
      msg(
        "total {amount} differs from the computed {amount2} by {amount3}: the authority tolerates it, but the printed items will not add up",
        {
          amount: amount(Dec.parse(declared)),
          amount2: amount(totals.total),
          amount3: amount(diff),
        },
      ),
    );
  }
  if (diff.cmp(totals.tolerance) > 0) {
    f.error(
      "total.mismatch",
      [...C, "total"],
      msg("total {amount} does not match the computed {amount2} ({totals}); the authority tolerates {amount3}", {
        amount: amount(Dec.parse(declared)),
        amount2: amount(totals.total),
        totals: describeTotals(totals),
        amount3: amount(totals.tolerance),
      }),
    );
  }
}
