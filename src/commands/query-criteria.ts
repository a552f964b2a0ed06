/**
 * query's ways of asking, from its flags as its options schema read them: which flags go
 * together is decided here, once, for the schema (a broken rule is a usage error before query
 * runs) and for the action (what to ask the service). vat-book's date range too. Light: the
 * command definitions import it.
 */
import { t } from "../i18n/index.js";
import { dayNumber } from "../voucher/dates.js";
import type { HeldState } from "../voucher/held.js";
import type { DateOrNumber, VoucherNumberArg } from "./options.js";

/** Which vouchers to keep of a listing: by type and by state (none given: all). */
export interface Filters {
  tipos?: string[];
  states?: HeldState[];
}

/** `puntoVenta`: the one --pv names, or the one printed in a number (`00679-00000002`). */
export type Criteria =
  | { kind: "ref"; ref: string }
  | ({ kind: "date"; date: string } & Filters)
  | ({ kind: "dates"; from: string; to: string } & Filters)
  | { kind: "number"; tipo: string; numero: number; puntoVenta?: number }
  | { kind: "range"; tipo: string; from: number; to: number; puntoVenta?: number };

/** A rule between flags broken: what to tell, and maybe how to mend it. */
export interface Broken {
  broken: string;
  hint?: string;
}

/** query's flags, read. */
export interface QueryFlags {
  ref?: string | undefined;
  date?: string | undefined;
  from?: DateOrNumber | undefined;
  to?: DateOrNumber | undefined;
  type?: string[] | undefined;
  number?: VoucherNumberArg | undefined;
  status?: HeldState[] | undefined;
  pv?: number | undefined;
}

/** Each day costs at least one request, 100 ms apart: a year is the most one run reads. */
const MAX_DAYS = 366;

/** Two dates dd/mm/yyyy, `from` not after `to`, at most MAX_DAYS apart. */
export function dateRangeOf(from: string | undefined, to: string | undefined): { from: string; to: string } | Broken {
  if (from === undefined || to === undefined) return { broken: t("a date range needs --from D and --to D") };
  const days = dayNumber(to) - dayNumber(from) + 1;
  if (days < 1) return { broken: t("--from {from} is after --to {to}", { from, to }) };
  if (days > MAX_DAYS)
    return {
      broken: t("the range covers {days} days; one run reads at most {max} (each day costs a request)", {
        days,
        max: MAX_DAYS,
      }),
      hint: t("split it, e.g. one run a month"),
    };
  return { from, to };
}

/** The date of `--from`/`--to`, if it is one. */
const dateOf = (v: DateOrNumber | undefined) => (v !== undefined && "date" in v ? v.date : undefined);
/** The number of `--from`/`--to`, if it is one. */
export const numberOf = (v: DateOrNumber | undefined) => (v !== undefined && "number" in v ? v.number : undefined);

const broken = (text: string): Broken => ({ broken: text });

/** The point of sale named, if one is (two that differ, the schema refuses: options.ts onePointOfSale). */
function pointOfSale(pv: number | undefined, ...numbers: VoucherNumberArg[]): { puntoVenta?: number } {
  const puntoVenta = pv ?? numbers.find((n) => n.puntoVenta !== undefined)?.puntoVenta;
  return puntoVenta === undefined ? {} : { puntoVenta };
}

/** What to look for: one way of asking, and its filters; or the rule between flags that is broken. */
export function criteriaOf(flags: QueryFlags): Criteria | Broken {
  const { from, to } = flags;
  const filters: Filters = {
    ...(flags.type ? { tipos: flags.type } : {}),
    ...(flags.status ? { states: flags.status } : {}),
  };
  if ([from, to].some((v) => dateOf(v) !== undefined)) {
    if ([from, to].some((v) => numberOf(v) !== undefined))
      return broken(
        t("--from and --to take two dates (a date range) or two numbers with --type (a number range), not one of each"),
      );
    if (flags.ref !== undefined || flags.date !== undefined || flags.number !== undefined)
      return broken(t("a date range (--from D --to D) does not go with --ref, --date or --number"));
    const range = dateRangeOf(dateOf(from), dateOf(to));
    return "broken" in range ? range : { kind: "dates", ...range, ...filters };
  }
  const types = flags.type;
  const chosen = [flags.ref !== undefined, flags.date !== undefined, types !== undefined && flags.date === undefined];
  if (chosen.filter(Boolean).length !== 1)
    return broken(
      t("query takes one of: --ref R | --date D | --from D --to D | --type T --number N | --type T --from N --to M"),
    );
  if (flags.ref !== undefined) {
    if (flags.status !== undefined) return broken(t("--status goes with --date or --from D --to D"));
    return { kind: "ref", ref: flags.ref };
  }
  if (flags.date !== undefined) {
    if (flags.number !== undefined || from !== undefined || to !== undefined)
      return broken(t("--date does not go with --number, --from or --to"));
    return { kind: "date", date: flags.date, ...filters };
  }
  if (flags.status !== undefined) return broken(t("--status goes with --date or --from D --to D"));
  if (types?.length !== 1) return broken(t("--number and a number range take one --type"));
  const tipo = types[0] as string;
  if (flags.number !== undefined) {
    if (from !== undefined || to !== undefined) return broken(t("--number does not go with --from/--to"));
    return { kind: "number", tipo, numero: flags.number.numero, ...pointOfSale(flags.pv, flags.number) };
  }
  const first = numberOf(from);
  const last = numberOf(to);
  if (first === undefined || last === undefined) return broken(t("--type needs --number N, or --from N and --to M"));
  if (first.numero > last.numero) return broken(t("--from is after --to"));
  return { kind: "range", tipo, from: first.numero, to: last.numero, ...pointOfSale(flags.pv, first, last) };
}
