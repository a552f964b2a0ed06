/**
 * One voucher, checked end to end: schema, then the rules, then the totals. Returns data only;
 * the caller decides how to show it.
 */

import * as z from "zod";
import { type Message, msg } from "../i18n/message.js";
import { DEFAULT_FINAL_CONSUMER_CEILING, isNote, PAYMENT_CONDITIONS, voucherTypeInfo } from "./codes.js";
import { addDays, argentinaToday, formatDay } from "./dates.js";
import { Dec } from "./decimal.js";
import { readableFindings } from "./readable.js";
import { checkRules, type Finding, type Path, type RuleOptions } from "./rules.js";
import { type Envelope, envelopeSchema, issueWords, type ParsedEnvelope } from "./schema.js";
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
  const dropped = dropUnsent(raw);
  const cleaned = hasNoEmptyStrings ? dropped.value : dropEmptyStrings(dropped.value);
  const parsed = parseEnvelope(cleaned);
  if (!parsed.success) {
    const issues = parsed.error.issues;
    const rules = readableFindings(cleaned, issues, (envelope) => judge(envelope, options).findings);
    return {
      ok: false,
      findings: [...dropped.findings, ...[...zodFindings(issues, cleaned), ...rules].map(dropped.place)],
    };
  }
  const envelope = parsed.data as Envelope;
  const { findings, totals } = judge(envelope, options);
  const ok = !findings.some((f) => f.severity === "error");
  return { ok, envelope, totals, findings: [...dropped.findings, ...findings.map(dropped.place)] };
}

/** An amount the file writes as zero (`0`, "0.00", "0,00"); anything unreadable is not. */
function zeroAmount(value: unknown): boolean {
  if (typeof value === "number") return value === 0;
  if (typeof value !== "string") return false;
  const text = value.trim().replace(",", ".");
  return /^[+-]?\d+(\.\d+)?$/.test(text) && Number(text) === 0;
}

/**
 * What is not sent, taken out before anything is checked, each told with a warning at its place
 * in the file: a tributo of 0 (the authority refuses it, 10024, tax-rules §4.1) and an opcional
 * (`rg_especiales.datos[]`) with no value, which the service drops (spec §2.6, api-v2 §5.2.5). The
 * findings of what stays are placed back where the file has them (`place`).
 */
function dropUnsent(raw: unknown): { value: unknown; findings: Finding[]; place: (f: Finding) => Finding } {
  const findings: Finding[] = [];
  const same = (f: Finding) => f;
  const envelope = raw as { comprobante?: Record<string, unknown> } | null;
  const c = envelope?.comprobante;
  if (c === null || typeof c !== "object") return { value: raw, findings, place: same };
  const kept = <T>(list: T[], drop: (x: T, i: number) => boolean) => {
    const index: number[] = [];
    const rest = list.filter((x, i) => {
      if (drop(x, i)) return false;
      index.push(i);
      return true;
    });
    return { rest, index };
  };
  const out: Record<string, unknown> = { ...c };
  let tributoIndex: number[] | undefined;
  let datosIndex: number[] | undefined;
  if (Array.isArray(c.tributos)) {
    const { rest, index } = kept(c.tributos as unknown[], (x, i) => {
      const zero = x !== null && typeof x === "object" && zeroAmount((x as { total?: unknown }).total);
      if (zero)
        findings.push({
          severity: "warning",
          code: "tributo.zero",
          path: ["comprobante", "tributos", i],
          message: msg("a tributo of 0 is not sent: the authority refuses it (10024)"),
        });
      return zero;
    });
    if (rest.length < c.tributos.length) {
      tributoIndex = index;
      if (rest.length > 0) out.tributos = rest;
      else delete out.tributos;
    }
  }
  const rg = c.rg_especiales as { datos?: unknown } | undefined;
  if (rg !== null && typeof rg === "object" && Array.isArray(rg.datos)) {
    const { rest, index } = kept(rg.datos as unknown[], (d, i) => {
      if (d === null || typeof d !== "object") return false;
      const valor = (d as { valor?: unknown }).valor;
      // No value: "" or blanks in JSON, an empty cell (no field at all) in a CSV.
      const empty = valor === undefined || (typeof valor === "string" && valor.trim() === "");
      if (empty)
        findings.push({
          severity: "warning",
          code: "rg_especiales.empty",
          path: ["comprobante", "rg_especiales", "datos", i, "valor"],
          message: msg("opcional {id} has no value: dropped, as the service drops it", {
            id: String((d as { id?: unknown }).id ?? "?"),
          }),
        });
      return empty;
    });
    if (rest.length < rg.datos.length) {
      datosIndex = index;
      out.rg_especiales = { ...rg, datos: rest };
    }
  }
  if (!tributoIndex && !datosIndex) return { value: raw, findings, place: same };
  const place = (f: Finding): Finding => {
    const [top, key, n] = f.path;
    if (top !== "comprobante") return f;
    if (key === "tributos" && tributoIndex && typeof n === "number")
      return { ...f, path: ["comprobante", "tributos", tributoIndex[n] ?? n, ...f.path.slice(3)] };
    const m = f.path[3];
    if (key === "rg_especiales" && n === "datos" && datosIndex && typeof m === "number")
      return { ...f, path: ["comprobante", "rg_especiales", "datos", datosIndex[m] ?? m, ...f.path.slice(4)] };
    return f;
  };
  return { value: { ...envelope, comprobante: out }, findings, place };
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
      message: msg("a voucher in pesos goes with cotizacion 1, as the authority requires; {cotizacion} is not sent", {
        cotizacion: String(given),
      }),
    });
  if (c.total === undefined) {
    c.total = totals.total.toFixed(2);
    findings.push({
      severity: "warning",
      code: "total.missing",
      path: ["comprobante", "total"],
      message: msg("no total given: filled in with the computed {total}", { total: c.total }),
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
 * The payment due date a voucher gets when none is given, the one rule for files and the guided
 * issue: the term its sale condition names (`202` "30 días": 30 days after its date); else an FCE
 * invoice's usual 30 days; else its own date (cash, a card, a transfer).
 */
export function dueDateByDefault(
  tipo: string,
  fecha: string,
  condicionPago: unknown,
): { vencimiento: string; days: number; why: "condition" | "fce" | "same-day" } {
  const term = /^(\d+) días$/.exec(PAYMENT_CONDITIONS[Number(condicionPago)] ?? "");
  if (term) {
    const days = Number(term[1]);
    return { vencimiento: addDays(fecha, days), days, why: "condition" };
  }
  const info = voucherTypeInfo(tipo);
  if (info?.fce === true && !isNote(info))
    return { vencimiento: addDays(fecha, FCE_TERM_DAYS), days: FCE_TERM_DAYS, why: "fce" };
  return { vencimiento: fecha, days: 0, why: "same-day" };
}

/**
 * A file may leave the dates out: the voucher is dated today in Argentina, due that day (an FCE
 * invoice in 30 days), and a subscription or a service export bills the month so far. Each
 * default is told as a warning.
 */
function fillDates(envelope: ParsedEnvelope, today: number): Finding[] {
  const c = envelope.comprobante;
  const findings: Finding[] = [];
  const filled: string[] = [];
  const tell = (field: string, message: Message) => {
    filled.push(field);
    findings.push({ severity: "warning", code: "date.default", path: ["comprobante", field], message });
  };
  if (c.fecha === undefined) {
    c.fecha = formatDay(today);
    tell("fecha", msg("no fecha given: dated today in Argentina, {fecha}", { fecha: c.fecha }));
  }
  const fecha = c.fecha;
  if (c.vencimiento === undefined) {
    const due = dueDateByDefault(c.tipo, fecha, envelope.cliente?.condicion_pago);
    c.vencimiento = due.vencimiento;
    const figures = { days: due.days, vencimiento: due.vencimiento };
    tell(
      "vencimiento",
      due.why === "condition"
        ? msg(
            "no vencimiento given: due {days} days after its date, as its sale condition says, {vencimiento}",
            figures,
          )
        : due.why === "fce"
          ? msg("no vencimiento given: an FCE invoice is due {days} days after its date, {vencimiento}", figures)
          : msg("no vencimiento given: due on the voucher's date, {vencimiento}", figures),
    );
  }
  const billsPeriod = c.abono === "S" || c.fex?.tipo_exportacion === 2 || c.fex?.tipo_exportacion === 4;
  if (billsPeriod && c.periodo_facturado_desde === undefined && c.periodo_facturado_hasta === undefined) {
    c.periodo_facturado_desde = `01/${fecha.slice(3)}`;
    c.periodo_facturado_hasta = fecha;
    filled.push("periodo_facturado_desde");
    tell(
      "periodo_facturado_hasta",
      msg("no billed period given: the month up to the voucher's date, {desde} to {hasta}", {
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
          message: msg("unknown field {key}; check its spelling (see `facturar schema`)", { key: JSON.stringify(key) }),
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
        message: msg("must have at most {max} characters; it has {length}", {
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
      message: missing ? msg("required field is missing") : issueWords(issue, value),
    });
  }
  return findings;
}
