/** Checks for flag values, shared by the commands: a usage error (exit 2) names the flag. */

import { UsageError } from "../errors.js";
import { t } from "../i18n/index.js";

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
