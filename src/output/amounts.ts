/** Amounts as the reader writes them (`2.209.849,64`), for the lines renderers build and pad. */
import { say } from "../i18n/index.js";
import { amount, money } from "../voucher/amount.js";
import type { Dec } from "../voucher/decimal.js";

export function amountText(value: Dec | string | number): string {
  return say(amount(value));
}

export function moneyText(value: Dec | string | number, moneda: unknown): string {
  return say(money(value, moneda));
}
