/** Checks for flag values, shared by the commands: a usage error (exit 2) names the flag. */

import { UsageError } from "../errors.js";
import { t } from "../i18n/index.js";
import { canonicalVoucherType, closestVoucherType, type VoucherType } from "../voucher/codes.js";

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
