/** Checks for flag values, shared by the commands: a usage error (exit 2) names the flag. */

import { UsageError } from "../errors.js";
import { t } from "../i18n/index.js";
import { canonicalVoucherType, closestVoucherType, type VoucherType } from "../voucher/codes.js";
import { date } from "../voucher/schema.js";

/** A whole number within bounds, or undefined when the flag was not given. */
export function optionalInt(flag: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === "" || !Number.isInteger(n) || n < min || n > max) {
    throw new UsageError(
      t("{flag} takes a whole number from {min} to {max}, not {value}", {
        flag,
        min,
        max,
        value: JSON.stringify(value),
      }),
    );
  }
  return n;
}

/** A whole number within bounds that must be there. */
export function requiredInt(flag: string, value: string | undefined, min: number, max: number): number {
  const n = optionalInt(flag, value, min, max);
  if (n === undefined) throw new UsageError(t("{flag} is required", { flag }));
  return n;
}

/** A voucher type as people type it (`factura b`, `Nota de Crédito A`): the service's name for it. */
export function voucherTypeArg(value: string): VoucherType {
  const tipo = canonicalVoucherType(value);
  if (tipo) return tipo;
  const near = closestVoucherType(value);
  throw new UsageError(
    t("unknown voucher type {tipo}", { tipo: JSON.stringify(value) }),
    near
      ? t("did you mean {tipo}?", { tipo: JSON.stringify(near) })
      : t('write it as the service does, e.g. "FACTURA B"'),
  );
}

/** A voucher type flag that must be there. */
export function requiredVoucherType(value: string | undefined): VoucherType {
  if (!value) throw new UsageError(t("--type is required"), t('write it as the service does, e.g. "FACTURA B"'));
  return voucherTypeArg(value);
}

/** A date flag dd/mm/yyyy that must be there. */
export function requiredDate(flag: string, value: string | undefined): string {
  const parsed = date().safeParse(value);
  if (!parsed.success) throw new UsageError(t("{flag} takes a date dd/mm/yyyy", { flag }));
  return parsed.data;
}

/** A voucher number: `2`, or as printed on the voucher, point of sale and number: `00679-00000002`. */
export interface VoucherNumberArg {
  numero: number;
  puntoVenta?: number;
}

const PRINTED = /^\s*(\d{1,5})\s*-\s*(\d{1,8})\s*$/;

export function voucherNumberArg(flag: string, value: string | undefined): VoucherNumberArg | undefined {
  if (value === undefined) return undefined;
  const printed = PRINTED.exec(value);
  if (!printed) return { numero: requiredInt(flag, value, 1, 99_999_999) };
  return {
    puntoVenta: requiredInt(flag, printed[1], 1, 99999),
    numero: requiredInt(flag, printed[2], 1, 99_999_999),
  };
}

/**
 * The point of sale the flags name: --pv, or the one printed in a voucher number; undefined
 * when none does. Two that differ are a usage error.
 */
export function pointOfSaleArg(
  pv: string | undefined,
  ...numbers: (VoucherNumberArg | undefined)[]
): number | undefined {
  const named = [
    ...(pv === undefined ? [] : [{ flag: "--pv", value: requiredInt("--pv", pv, 1, 99999) }]),
    ...numbers.flatMap((n) => (n?.puntoVenta === undefined ? [] : [{ flag: "--number", value: n.puntoVenta }])),
  ];
  const first = named[0];
  const other = named.find((n) => n.value !== first?.value);
  if (first && other)
    throw new UsageError(
      t("two points of sale given: {first} and {second}", { first: first.value, second: other.value }),
    );
  return first?.value;
}
