/**
 * Each command's flags read once, with zod, before its action runs (#27; design.md "Layout":
 * "shadcn validates options with zod at the top of each command"). A command's definition
 * (`X.command.ts`) builds its schema from the readers here, beside its flags; src/cli.ts parses
 * commander's raw `opts()` through it, and the action receives the typed object.
 *
 * One shape for a bad flag: `--flag takes WHAT, not "VALUE"` (the flag as the user typed it,
 * the value as given, what it takes), a usage error (exit 2), the same JSON error under --json.
 * A flag that must be there and is not: `--flag is required: WHAT`. A rule between flags
 * (`--timeout goes with --wait`) is told as written.
 *
 * Loaded only when a command runs, so that `--help` and `--version` never load zod.
 */
import type { Command } from "commander";
import * as z from "zod";
import { UsageError } from "../errors.js";
import { say, t } from "../i18n/index.js";
import { FaultSpecError, parseFaults } from "../sandbox/faults.js";
import { parseWebhooks, WebhookSpecError } from "../sandbox/webhooks.js";
import { canonicalVoucherType, closestVoucherType, VAT_CONDITIONS, type VoucherType } from "../voucher/codes.js";
import { dayNumber } from "../voucher/dates.js";
import { Dec } from "../voucher/decimal.js";
import type { HeldState } from "../voucher/held.js";
import { cuitProblem, describeCuitProblem } from "../voucher/ids.js";
import { date as dateSchema, issueWords } from "../voucher/schema.js";
import { badFlag, decimalMark, decimalWords, either, missingFlag } from "./define.js";

export { dayNumber, z };

/** The typed options a schema builder gives (what the action receives). */
export type Output<B extends (kit: never) => z.ZodType> = z.output<ReturnType<B>>;

/** Thrown by a reader: the value is not one the flag takes. */
class Refused extends Error {
  constructor(
    readonly hint?: string,
    /** What the flag takes, where it depends on what was given (a date, or a number). */
    readonly expected?: string,
  ) {
    super("refused");
  }
}

/** Refuses the value being read; `hint` says what may have been meant. */
export function refuse(hint?: string, expected?: string): never {
  throw new Refused(hint, expected);
}

/** A flag's text read by `read`, which refuses what the flag does not take; `expected` says what it takes. */
export function flag<T>(expected: string, read: (text: string) => T) {
  return z.string({ error: expected }).transform((text, ctx): T => {
    try {
      return read(text);
    } catch (error) {
      if (!(error instanceof Refused)) throw error;
      ctx.issues.push({
        code: "custom",
        message: error.expected ?? expected,
        input: text,
        ...(error.hint ? { params: { hint: error.hint } } : {}),
      });
      return z.NEVER;
    }
  });
}

/** A flag that must be there, missing: `--flag is required: WHAT` (for rules between flags). */
export function missing(ctx: z.RefinementCtx, key: string, what: string, hint?: string): void {
  ctx.addIssue({ code: "custom", path: [key], message: what, params: { missing: true, ...(hint ? { hint } : {}) } });
}

/** A rule between flags broken: told as written. */
export function rule(ctx: z.RefinementCtx, message: string, hint?: string): void {
  ctx.addIssue({ code: "custom", path: [], message, ...(hint ? { params: { hint } } : {}) });
}

/** A whole number from `min` to `max`. */
export function int(min: number, max: number) {
  return flag(t("a whole number from {min} to {max}", { min, max }), (text) => {
    const n = Number(text);
    if (text.trim() === "" || !Number.isInteger(n) || n < min || n > max) refuse();
    return n;
  });
}

/** A point of sale: 1 to 99999. */
export const pointOfSale = () => int(1, 99999);

/** A number of seconds above 0 (decimals allowed). */
export function seconds() {
  return flag(t("a number of seconds above 0"), (text) => {
    const n = Number(text);
    if (text.trim() === "" || !Number.isFinite(n) || n <= 0) refuse();
    return n;
  });
}

/** A date dd/mm/yyyy that exists (`1/2/2026` padded: `01/02/2026`). */
export function date() {
  return flag(t("a date dd/mm/yyyy"), (text) => {
    const parsed = dateSchema().safeParse(text);
    return parsed.success ? parsed.data : refuse(notADay(text, parsed.error));
  });
}

/** Why a date written dd/mm/yyyy is refused (`31/02/2026 is not a date in the calendar`); nothing for one written otherwise. */
function notADay(text: string, error: z.ZodError): string | undefined {
  const issue = error.issues[0];
  return issue && LOOKS_LIKE_DATE.test(text) ? say(issueWords(issue)) : undefined;
}

/** What a voucher type flag takes. */
export const expectedType = () => t('a voucher type as the service writes it, such as "FACTURA B"');

function voucherTypeOf(text: string): VoucherType {
  const tipo = canonicalVoucherType(text);
  if (tipo) return tipo;
  const near = closestVoucherType(text);
  return refuse(near ? t("did you mean {tipo}?", { tipo: JSON.stringify(near) }) : undefined);
}

/** A voucher type as people type it (`factura b`, `Nota de Crédito A`): the service's name for it. */
export function voucherType() {
  return flag(expectedType(), voucherTypeOf);
}

/** `--type A --type "B,C"`: the service's names, each once. */
export function voucherTypes() {
  return z
    .array(flag(expectedType(), (text) => text.split(",").map((part) => voucherTypeOf(part.trim()))))
    .transform((lists) => [...new Set(lists.flat())]);
}

/** A voucher number: `2`, or as printed on the voucher, point of sale and number: `00679-00000002`. */
export interface VoucherNumberArg {
  numero: number;
  puntoVenta?: number;
}

const PRINTED = /^\s*(\d{1,5})\s*-\s*(\d{1,8})\s*$/;
const WHOLE = /^\s*\d{1,8}\s*$/;

function voucherNumberOf(text: string): VoucherNumberArg {
  const printed = PRINTED.exec(text);
  const numero = Number(printed ? printed[2] : WHOLE.test(text) ? text : Number.NaN);
  const puntoVenta = printed ? Number(printed[1]) : undefined;
  if (!(numero >= 1) || (puntoVenta !== undefined && puntoVenta < 1)) refuse();
  return puntoVenta === undefined ? { numero } : { numero, puntoVenta };
}

/** What a voucher number flag takes. */
export const expectedNumber = () => t("a voucher number (N, or as printed: 00679-00000002)");

export function voucherNumber() {
  return flag(expectedNumber(), voucherNumberOf);
}

/** The points of sale the flags name, each once: --pv, and those printed in voucher numbers. */
export function pointsOfSale(pv: number | undefined, ...numbers: (VoucherNumberArg | undefined)[]): number[] {
  const named = numbers.flatMap((n) => (n?.puntoVenta === undefined ? [] : [n.puntoVenta]));
  return [...new Set([...(pv === undefined ? [] : [pv]), ...named])];
}

/** Two points of sale named (--pv 3 --number 00004-00000001): a rule broken. */
export function onePointOfSale(
  ctx: z.RefinementCtx,
  pv: number | undefined,
  ...numbers: (VoucherNumberArg | undefined)[]
) {
  const [first, second] = pointsOfSale(pv, ...numbers);
  if (second !== undefined) rule(ctx, t("two points of sale given: {first} and {second}", { first, second }));
}

const LOOKS_LIKE_DATE = /^\s*\d{1,2}\/\d{1,2}\/\d{4}\s*$/;

/** `--from`/`--to` of query: a date (a date range), or a voucher number (a number range). */
export type DateOrNumber = { date: string } | { number: VoucherNumberArg };

export function dateOrNumber() {
  return flag(t("a date dd/mm/yyyy, or a voucher number"), (text): DateOrNumber => {
    if (!LOOKS_LIKE_DATE.test(text)) return { number: voucherNumberOf(text) };
    const parsed = dateSchema().safeParse(text);
    return parsed.success ? { date: parsed.data } : refuse(notADay(text, parsed.error), t("a date dd/mm/yyyy"));
  });
}

/** `--decimal`: comma or point, in English or Spanish. */
export function decimal() {
  return flag(either(decimalWords()), (text) => decimalMark(text) ?? refuse());
}

/** `--delimiter` of a CSV: `,` or `;`. */
export function delimiter() {
  return flag(either(['","', '";"']), (text) => (text === "," || text === ";" ? text : refuse()));
}

/** `--encoding`: utf8 or latin1 (Windows-1252, by its other names too: latin1 reads it). */
export function encoding() {
  return flag(either(["utf8", "latin1"]), (text): "utf8" | "latin1" => {
    const named = text.toLowerCase().replace("-", "");
    if (named === "utf8") return "utf8";
    if (named === "latin1" || named === "windows1252" || named === "cp1252") return "latin1";
    return refuse();
  });
}

/** A word of `words` (any case). */
export function oneOf<const W extends string>(words: readonly W[]) {
  return flag(either(words), (text): W => {
    const word = words.find((w) => w === text.trim().toLowerCase());
    return word ?? refuse();
  });
}

/** Text that is not blank, trimmed, of at most `max` characters: `expected` names what. */
export function text(expected: string, max = Number.POSITIVE_INFINITY) {
  return flag(expected, (value) => {
    const trimmed = value.trim();
    return trimmed === "" || trimmed.length > max ? refuse() : trimmed;
  });
}

/** A voucher's external_reference, trimmed. */
export const reference = () => text(t("a reference"));

/** A folder, as given (not blank). */
export function folder() {
  return flag(t("a folder"), (value) => (value.trim() === "" ? refuse() : value));
}

/** A CUIT as people type it (dashes, dots, spaces), checked: its 11 digits. */
export function cuit() {
  return flag(t("a CUIT of 11 digits (dashes and dots are ignored)"), (text) => {
    const digits = text.replace(/[-\s.]/g, "");
    const problem = cuitProblem(digits);
    return problem ? refuse(say(describeCuitProblem(problem, digits))) : digits;
  });
}

/** A currency code as vouchers write `moneda` (DOL, 060…), upper case. */
export function currency() {
  return flag(t("a currency code as vouchers write moneda (DOL, 060…)"), (text) => {
    const moneda = text.trim().toUpperCase();
    return /^[A-Z0-9]{3}$/.test(moneda) ? moneda : refuse();
  });
}

/** An amount above 0, written with a dot and up to 2 decimals (1210.50). */
export function paidAmount() {
  return flag(t("a positive amount with up to 2 decimals and a dot (1210.50)"), (text) => {
    const paid = /^\s*\d+(\.\d{1,2})?\s*$/.test(text) ? Dec.tryParse(text.trim()) : undefined;
    return paid && paid.sign() > 0 ? paid : refuse();
  });
}

/** An amount in pesos above 0. */
export function pesos() {
  return flag(t("a positive amount in pesos"), (text) => {
    const d = Dec.tryParse(text.trim());
    return d && d.sign() > 0 ? d : refuse();
  });
}

/**
 * `1500.50` or `1500,50` (as the screen shows amounts in Spanish), grouped or not (`1.500,50`,
 * `1,500.50`), in cents at most, as text with 2 decimals. One separator before exactly three
 * digits (`1,000`, `1.000`) is a thousand in one language and one in the other: refused, not guessed.
 */
export function totalAmount() {
  return flag(t("a total with VAT, positive, in cents at most (1500.50 or 1500,50)"), (value) => {
    const text = value.trim();
    if (/^\d+[.,]\d{3}$/.test(text))
      refuse(t("ambiguous: one thousand, or one with three decimals? Write 1000 or 1000.00 (1000,00)"));
    const plain = /^\d+([.,]\d{1,2})?$/.test(text)
      ? text.replace(",", ".")
      : /^\d{1,3}(\.\d{3})+(,\d{1,2})?$/.test(text)
        ? text.replace(/\./g, "").replace(",", ".")
        : /^\d{1,3}(,\d{3})+(\.\d{1,2})?$/.test(text)
          ? text.replace(/,/g, "")
          : undefined;
    const amount = plain === undefined ? undefined : Dec.tryParse(plain);
    return amount && amount.sign() > 0 ? amount.toFixed(2) : refuse();
  });
}

/** `1,3`: item numbers, counted from 1. */
export function itemNumbers() {
  return flag(t("item numbers counted from 1, comma separated (1,3)"), (text) => {
    const parts = text.split(",").map((p) => p.trim());
    return parts.some((p) => !/^[1-9]\d*$/.test(p)) ? refuse() : parts.map(Number);
  });
}

/** A VAT condition code (RI, CF, M, E…), any case. */
export function vatCondition() {
  return flag(
    either(VAT_CONDITIONS),
    (text) => VAT_CONDITIONS.find((c) => c === text.trim().toUpperCase()) ?? refuse(),
  );
}

/** `--status` words, and the states they stand for. */
const STATUS_WORDS: Record<string, HeldState> = {
  issued: "issued",
  queued: "queued",
  "queue-error": "queue-error",
  error: "queue-error",
};

/** `--status issued --status "queued,error"`: the states, each once. */
export function statuses() {
  return z
    .array(
      flag(t("issued, queued or queue-error (error)"), (text) =>
        text.split(",").map((w) => STATUS_WORDS[w.trim().toLowerCase()] ?? refuse()),
      ),
    )
    .transform((lists) => [...new Set(lists.flat())]);
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|::1|\[::1\])$/;

/** A loopback address: the sandbox listens nowhere else. */
export function loopback() {
  return flag(t("a loopback address (127.0.0.1, ::1, localhost)"), (text) =>
    LOOPBACK.test(text) ? text : refuse(t("the sandbox listens on loopback only")),
  );
}

/** A sandbox fault, `latency=200`, `maintenance` (or several, comma separated): as given. */
export function faultSpec() {
  return flag(t("faults such as latency=200 or error5xx=0.1, comma separated"), (text) => {
    try {
      parseFaults([text]);
      return text;
    } catch (error) {
      if (error instanceof FaultSpecError) return refuse(say(error.text));
      throw error;
    }
  });
}

/** The sandbox's webhook URL, of every point of sale or of one (`680=https://…`): as given. */
export function webhookSpec() {
  return flag(t("an http:// or https:// URL of up to 255 characters, or PV=URL for one point of sale"), (text) => {
    try {
      parseWebhooks([text]);
      return text;
    } catch (error) {
      if (error instanceof WebhookSpecError) return refuse();
      throw error;
    }
  });
}

/** A profile's name: letters, digits, `.`, `_`, `-`. */
export function profileName() {
  return flag(t("a name of letters, digits, . _ -"), (text) => (/^[A-Za-z0-9_.-]+$/.test(text) ? text : refuse()));
}

/** A flag given again adds to the list. */
export const list = <T extends z.ZodType>(item: T) => z.array(item);

/** A flag of text taken as given. */
export const string = () => z.string().optional();

export const bool = () => z.boolean().optional();

/**
 * commander's raw `opts()` through the schema: the typed options, or the usage error of the first
 * flag that is wrong, in the one shape.
 */
export function parseOptions<T>(schema: z.ZodType<T>, command: Command): T {
  const raw = command.opts() as Record<string, unknown>;
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0] as z.core.$ZodIssue & { params?: { hint?: string; missing?: boolean } };
  const hint = issue.params?.hint;
  const [key, ...rest] = issue.path;
  if (typeof key !== "string") throw new UsageError(issue.message, hint);
  const flagName = command.options.find((o) => o.attributeName() === key)?.long ?? `--${key}`;
  let given: unknown = raw[key];
  for (const step of rest) given = (given as Record<PropertyKey, unknown> | undefined)?.[step as PropertyKey];
  if (given === undefined || issue.params?.missing) throw missingFlag(flagName, issue.message, hint);
  throw badFlag(flagName, String(given), issue.message, hint);
}
