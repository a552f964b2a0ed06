/** Check digits of the identifiers a voucher carries: CUIT/CUIL (tax-rules.md §3) and CBU. */
import { type Message, msg } from "../i18n/message.js";

const CUIT_WEIGHTS = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
/** Prefixes the authority issues (tax-rules.md §3.3). */
export const CUIT_PREFIXES = ["20", "23", "24", "27", "30", "33", "34", "50", "51", "55"];
export const CUIL_PREFIXES = ["20", "23", "24", "27"];

export type CuitProblem = "length" | "prefix" | "check-digit";

/**
 * Strict CUIT check: 11 digits, a known prefix, and the mod-11 digit. A remainder that would
 * need check digit 10 is rejected: the authority never issues such numbers (it changes the
 * prefix to 23 instead), so a validator that maps 10 to 9 would accept typos.
 */
export function cuitProblem(value: string, prefixes = CUIT_PREFIXES): CuitProblem | undefined {
  const digits = value.replace(/[-\s.]/g, "");
  if (!/^\d{11}$/.test(digits)) return "length";
  if (!prefixes.includes(digits.slice(0, 2))) return "prefix";
  const expected = cuitCheckDigit(digits);
  return expected === Number(digits[10]) ? undefined : "check-digit";
}

/** The check digit for the first ten digits; 10 means "no valid digit exists". */
export function cuitCheckDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < 10; i++) sum += Number(digits[i]) * (CUIT_WEIGHTS[i] ?? 0);
  const r = sum % 11;
  return r === 0 ? 0 : 11 - r;
}

export function isValidCuit(value: string): boolean {
  return cuitProblem(value) === undefined;
}

export function describeCuitProblem(problem: CuitProblem, value: string): Message {
  switch (problem) {
    case "length":
      return msg("a CUIT has 11 digits; got {value}", { value: JSON.stringify(value) });
    case "prefix":
      return msg("CUIT {value} starts with {prefix}, which the authority does not issue", {
        value,
        prefix: value.slice(0, 2),
      });
    case "check-digit": {
      const expected = cuitCheckDigit(value);
      return expected === 10
        ? msg("CUIT {value} cannot be valid: no check digit fits its first ten digits", { value })
        : // Not which digit would pass: a wrong digit anywhere gives this, and "fixing" the last
          // one would name another taxpayer.
          msg(
            "CUIT {value} is not valid: its check digit does not match the rest; check the whole number against the customer's papers",
            { value },
          );
    }
  }
}

const CBU_BLOCK1_WEIGHTS = [7, 1, 3, 9, 7, 1, 3];
const CBU_BLOCK2_WEIGHTS = [3, 9, 7, 1, 3, 9, 7, 1, 3, 9, 7, 1, 3];

function blockDigit(digits: string, weights: number[]): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) sum += Number(digits[i]) * (weights[i] ?? 0);
  return (10 - (sum % 10)) % 10;
}

/**
 * CBU: 22 digits in two blocks. Block one (bank, branch) ends in a check digit over its first 7
 * digits; block two (account) ends in one over its first 13.
 */
export function cbuProblem(value: string): Message | undefined {
  if (!/^\d{22}$/.test(value)) return msg("a CBU has 22 digits; got {value}", { value: JSON.stringify(value) });
  const block1 = value.slice(0, 8);
  const block2 = value.slice(8);
  if (blockDigit(block1, CBU_BLOCK1_WEIGHTS) !== Number(block1[7])) {
    return msg("CBU {value} has a wrong check digit in its first block (bank and branch)", { value });
  }
  if (blockDigit(block2, CBU_BLOCK2_WEIGHTS) !== Number(block2[13])) {
    return msg("CBU {value} has a wrong check digit in its second block (account)", { value });
  }
  return undefined;
}

/** Completes a CBU from its 20 payload digits (tests and samples use this to build valid ones). */
export function cbuWithCheckDigits(bankBranch7: string, account13: string): string {
  return (
    bankBranch7 + blockDigit(bankBranch7, CBU_BLOCK1_WEIGHTS) + account13 + blockDigit(account13, CBU_BLOCK2_WEIGHTS)
  );
}
