/**
 * One voucher, checked end to end: schema, then the rules, then the totals. Returns data only;
 * the caller decides how to show it.
 */

import * as z from "zod";
import { t } from "../i18n/index.js";
import { DEFAULT_FINAL_CONSUMER_CEILING, isNote, voucherTypeInfo } from "./codes.js";
import { addDays, argentinaToday, formatDay } from "./dates.js";
import { Dec } from "./decimal.js";
import { readableFindings } from "./readable.js";
import { checkRules, type Finding, type Path, type RuleOptions } from "./rules.js";
import { type Envelope, envelopeSchema, type ParsedEnvelope } from "./schema.js";
import { computeTotals, type Totals } from "./totals.js";

export interface ValidationResult {
  ok: boolean;
  /** The normalised envelope (defaults applied, total filled in) when the schema accepted it. */
  envelope?: Envelope;
  totals?: Totals;
  findings: Finding[];
}

export interface ValidateOptions {
  now?: Date;
  ceiling?: Dec | string;
  issuerCuit?: string;
}

export function ruleOptions(opts: ValidateOptions = {}): RuleOptions {
  const ceiling = opts.ceiling ?? DEFAULT_FINAL_CONSUMER_CEILING;
  return {
    today: argentinaToday(opts.now),
    ceiling: typeof ceiling === "string" ? Dec.parse(ceiling) : ceiling,
    ...(opts.issuerCuit ? { issuerCuit: opts.issuerCuit } : {}),
  };
}

/**
 * The service's own examples send "" for fields they leave out (`"leyenda_gral": ""`); read an
 * empty or blank string as an absent field so that such files validate as the service takes them.
 */
export function dropEmptyStrings(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropEmptyStrings);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      if (typeof v === "string" && v.trim() === "") continue;
      out[key] = dropEmptyStrings(v);
    }
    return out;
  }
  return value;
}

/**
 * zod compiles an object schema's parser (`new Function`) on its first parse: milliseconds that
 * pay off only over a few hundred vouchers, while a run of one voucher pays them at start-up
 * (bench/startup.mjs). The first vouchers of a process are parsed without it.
 */
const INTERPRETED_PARSES = 200;
let parses = 0;

/**
 * Past those, the whole envelope schema compiled into one function (`z.compile`, about 70 ms
 * once): half the time of zod's per-object parsers on the million-row benchmark. What it cannot
 * take, every voucher with a problem among them, it hands to the schema itself, so the issues
 * are the same.
 */
let compiledSchema: typeof envelopeSchema | undefined;

function parseEnvelope(input: unknown) {
  if (parses < INTERPRETED_PARSES) {
    parses++;
    return envelopeSchema.safeParse(input, { jitless: true });
  }
  compiledSchema ??= z.compile(envelopeSchema);
  return compiledSchema.safeParse(input);
}

/**
 * Validates one raw envelope. `hasNoEmptyStrings` skips the clean-up pass for readers that
 * never produce "" (the CSV reader leaves empty cells out).
 */
export function validateEnvelope(
  raw: unknown,
  opts: RuleOptions | ValidateOptions = {},
  hasNoEmptyStrings = false,
): ValidationResult {
  const options = "today" in opts ? (opts as RuleOptions) : ruleOptions(opts);
  const dropped = dropEmptyOptionals(raw);
  const cleaned = hasNoEmptyStrings ? dropped.value : dropEmptyStrings(dropped.value);
  const parsed = parseEnvelope(cleaned);
  if (!parsed.success) {
    const issues = parsed.error.issues;
    const rules = readableFindings(cleaned, issues, (envelope) => judge(envelope, options).findings);
    return { ok: false, findings: [...dropped.findings, ...zodFindings(issues, cleaned), ...rules] };
  }
  const envelope = parsed.data as Envelope;
  const { findings, totals } = judge(envelope, options);
  const ok = !findings.some((f) => f.severity === "error");
  return { ok, envelope, totals, findings: [...dropped.findings, ...findings] };
}

/**
 * An opcional (`rg_especiales.datos[]`) whose `valor` is empty is dropped by the service, not
 * refused (spec §2.6, api-v2 §5.2.5): so it is here, with a warning, and it is not sent.
 */
function dropEmptyOptionals(raw: unknown): { value: unknown; findings: Finding[] } {
  const c = (raw as { comprobante?: { rg_especiales?: { datos?: unknown } } } | null)?.comprobante;
  const datos = c?.rg_especiales?.datos;
  if (!Array.isArray(datos)) return { value: raw, findings: [] };
  const findings: Finding[] = [];
  const kept = datos.filter((d, i) => {
    const valor = (d as { valor?: unknown } | null)?.valor;
    const empty = typeof valor === "string" && valor.trim() === "";
    if (empty)
      findings.push({
        severity: "warning",
        code: "rg_especiales.empty",
        path: ["comprobante", "rg_especiales", "datos", i, "valor"],
        message: t("opcional {id} has no value: dropped, as the service drops it", {
          id: String((d as { id?: unknown }).id ?? "?"),
        }),
      });
    return !empty;
  });
  if (findings.length === 0) return { value: raw, findings };
  const envelope = raw as { comprobante: { rg_especiales: Record<string, unknown> } };
  return {
    value: {
      ...envelope,
      comprobante: { ...envelope.comprobante, rg_especiales: { ...envelope.comprobante.rg_especiales, datos: kept } },
    },
    findings,
  };
}

/**
 * The rules and what follows them on an envelope the schema took: dates left out filled in,
 * pesos at 1, the total filled in. Normalises it in place.
 */
function judge(parsed: ParsedEnvelope, options: RuleOptions): { findings: Finding[]; totals: Totals } {
  const filled = fillDates(parsed, options.today);
  const envelope = parsed as Envelope;
  const c = envelope.comprobante;
  // The authority takes pesos at 1; the service's own discount examples send pesos with a rate.
  const pesosRate = c.moneda === "PES" && c.cotizacion !== undefined && !Dec.parse(c.cotizacion).eq(Dec.ONE);
  const given = c.cotizacion;
  if (c.moneda === "PES") c.cotizacion = "1";
  const totals = computeTotals(c);
  const findings = [...filled, ...checkRules(envelope, totals, options)];
  if (pesosRate)
    findings.push({
      severity: "warning",
      code: "currency.rate",
      path: ["comprobante", "cotizacion"],
      message: t("a voucher in pesos goes with cotizacion 1, as the authority requires; {cotizacion} is not sent", {
        cotizacion: String(given),
      }),
    });
  // A tributo of zero must not reach the authority (10024, tax-rules §4.1): dropped, told.
  if (c.tributos?.some((x) => Dec.parse(x.total).isZero())) {
    c.tributos.forEach((x, i) => {
      if (Dec.parse(x.total).isZero())
        findings.push({
          severity: "warning",
          code: "tributo.zero",
          path: ["comprobante", "tributos", i],
          message: t("a tributo of 0 is not sent: the authority refuses it (10024)"),
        });
    });
    const kept = c.tributos.filter((x) => !Dec.parse(x.total).isZero());
    if (kept.length > 0) c.tributos = kept;
    else delete c.tributos;
  }
  if (c.total === undefined) {
    c.total = totals.total.toFixed(2);
    findings.push({
      severity: "warning",
      code: "total.missing",
      path: ["comprobante", "total"],
      message: t("no total given: filled in with the computed {total}", { total: c.total }),
    });
  }
  return { findings, totals };
}

/**
 * The comprobante fields filled in from today rather than read from the file. They are not part
 * of what the voucher says (journal.ts contentDigest): the same file sent again another day is
 * the same voucher. Kept on the envelope, never sent.
 */
export const DEFAULTED = "_defaulted";

/** Fields of `comprobante` that `fillDates` filled in, if any. */
export function defaultedFields(envelope: object): string[] {
  const list = (envelope as Record<string, unknown>)[DEFAULTED];
  return Array.isArray(list) ? (list as string[]) : [];
}

/** FCE invoices are due in 30 days unless the file says otherwise: the usual term. */
const FCE_TERM_DAYS = 30;

/**
 * A file may leave the dates out: the voucher is dated today in Argentina, due that day (an FCE
 * invoice in 30 days), and a subscription or a service export bills the month so far. Each
 * default is told as a warning.
 */
function fillDates(envelope: ParsedEnvelope, today: number): Finding[] {
  const c = envelope.comprobante;
  const findings: Finding[] = [];
  const filled: string[] = [];
  const tell = (field: string, message: string) => {
    filled.push(field);
    findings.push({ severity: "warning", code: "date.default", path: ["comprobante", field], message });
  };
  if (c.fecha === undefined) {
    c.fecha = formatDay(today);
    tell("fecha", t("no fecha given: dated today in Argentina, {fecha}", { fecha: c.fecha }));
  }
  const fecha = c.fecha;
  if (c.vencimiento === undefined) {
    const info = voucherTypeInfo(c.tipo);
    const fceInvoice = info?.fce === true && !isNote(info);
    c.vencimiento = fceInvoice ? addDays(fecha, FCE_TERM_DAYS) : fecha;
    tell(
      "vencimiento",
      fceInvoice
        ? t("no vencimiento given: an FCE invoice is due {days} days after its date, {vencimiento}", {
            days: FCE_TERM_DAYS,
            vencimiento: c.vencimiento,
          })
        : t("no vencimiento given: due on the voucher's date, {vencimiento}", { vencimiento: c.vencimiento }),
    );
  }
  const billsPeriod = c.abono === "S" || c.fex?.tipo_exportacion === 2 || c.fex?.tipo_exportacion === 4;
  if (billsPeriod && c.periodo_facturado_desde === undefined && c.periodo_facturado_hasta === undefined) {
    c.periodo_facturado_desde = `01/${fecha.slice(3)}`;
    c.periodo_facturado_hasta = fecha;
    filled.push("periodo_facturado_desde");
    tell(
      "periodo_facturado_hasta",
      t("no billed period given: the month up to the voucher's date, {desde} to {hasta}", {
        desde: c.periodo_facturado_desde,
        hasta: c.periodo_facturado_hasta,
      }),
    );
  }
  if (filled.length > 0) (envelope as Record<string, unknown>)[DEFAULTED] = filled;
  return findings;
}

function valueAt(root: unknown, path: Path): unknown {
  let node = root;
  for (const key of path) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<string | number, unknown>)[key];
  }
  return node;
}

function zodFindings(issues: z.core.$ZodIssue[], input: unknown): Finding[] {
  const findings: Finding[] = [];
  for (const issue of issues) {
    const path = issue.path as Path;
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        findings.push({
          severity: "error",
          code: "schema.unknown-field",
          path: [...path, key],
          message: t("unknown field {key}; check its spelling (see `facturar schema`)", { key: JSON.stringify(key) }),
        });
      }
      continue;
    }
    if (issue.code === "invalid_union") {
      // "Invalid input" says nothing. Where all but one branch are literals the value is not (0
      // of "0 or a code"), that branch says what is wrong: a supplier's payment condition 999 is
      // an unknown code. (Where one branch got past its type, zod itself tells that branch.)
      const notLiteral = issue.errors.filter(
        (branch) => branch.length > 0 && !branch.every((i) => i.code === "invalid_value"),
      );
      const telling = notLiteral.length === 1 ? notLiteral[0] : undefined;
      if (telling) {
        findings.push(
          ...zodFindings(
            telling.map((i) => ({ ...i, path: [...path, ...i.path] })),
            input,
          ),
        );
        continue;
      }
    }
    const value = valueAt(input, path);
    if (issue.code === "too_big" && issue.origin === "string" && typeof value === "string") {
      // A text longer than the reference allows (schema.ts TEXT_MAX): its own code, its length.
      findings.push({
        severity: "error",
        code: "text.max",
        path,
        message: t("must have at most {max} characters; it has {length}", {
          max: Number(issue.maximum),
          length: value.length,
        }),
      });
      continue;
    }
    const missing = value === undefined;
    findings.push({
      severity: "error",
      code: missing ? "schema.required" : "schema.invalid",
      path,
      message: missing ? t("required field is missing") : issue.message,
    });
  }
  return findings;
}
