/**
 * Amounts as people read them: es `2.209.849,64`, en `2,209,849.64`. Only for what people read
 * (messages, tables, result lines, totals); JSON, CSV and reports keep the plain `2209849.64`.
 * They are messages: the renderers say them in the reader's notation (`say(amount(x))`).
 */
import { amountFigure, concat, type Message } from "../i18n/message.js";
import { Dec } from "./decimal.js";

/** Two decimals, grouped in thousands in the reader's notation; anything unreadable as is. */
export function amount(value: Dec | string | number): Message {
  const plain =
    value instanceof Dec
      ? value.toFixed(2)
      : ((typeof value === "number" ? Dec.fromNumber(value) : Dec.tryParse(value))?.toFixed(2) ?? String(value));
  return concat(amountFigure(plain));
}

/** The currencies people know by another name than the one vouchers write in `moneda`. */
const CURRENCY_NAMES: Record<string, string> = { DOL: "USD", "060": "EUR" };

/**
 * An amount with its currency when it is not pesos: `USD 1,452.00`; pesos as `amount` shows them.
 * `moneda` as vouchers write it (PES, DOL, 060…).
 */
export function money(value: Dec | string | number, moneda: unknown): Message {
  const code = typeof moneda === "string" ? moneda.trim().toUpperCase() : "";
  if (code === "" || code === "PES") return amount(value);
  return concat(`${CURRENCY_NAMES[code] ?? code} `, amount(value));
}
