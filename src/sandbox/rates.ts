/**
 * The authority's exchange rates as the sandbox answers them (`tablas_referencia/cotizacion`):
 * fixed per currency, whatever the day, so tests and examples are deterministic. Set others with
 * `CODE=RATE` pairs, comma separated (`FACTURAR_SANDBOX_RATES="DOL=1200,060=1300"`).
 */
import { WordedError } from "../errors.js";
import { msg } from "../i18n/message.js";
import { Dec } from "../voucher/decimal.js";

/** Pesos per unit; the currency codes of the service's table (api-v2.md §10). */
export const DEFAULT_RATES: Readonly<Record<string, string>> = {
  DOL: "1000.00",
  "002": "1000.00",
  "009": "1250.00",
  "010": "55.00",
  "011": "25.00",
  "012": "180.00",
  "019": "6.50",
  "021": "1300.00",
  "031": "145.00",
  "032": "0.25",
  "033": "1.05",
  "035": "270.00",
  "060": "1100.00",
  "064": "140.00",
};

export class RateSpecError extends WordedError {}

/** Parses `DOL=1200,060=1300.5` over `base`; throws RateSpecError naming the bad part. */
export function parseRates(specs: string[], base: Readonly<Record<string, string>> = DEFAULT_RATES) {
  const rates: Record<string, string> = { ...base };
  for (const part of specs.flatMap((s) => s.split(",")).map((s) => s.trim())) {
    if (part === "") continue;
    const [code, value, ...rest] = part.split("=").map((s) => s.trim());
    const rate = value === undefined ? undefined : Dec.tryParse(value);
    if (!code || !/^[A-Z0-9]{3}$/.test(code) || code === "PES" || !rate || rate.sign() <= 0 || rest.length > 0)
      throw new RateSpecError(
        msg("exchange rate {part}: write CODE=RATE, a currency code and pesos per unit (DOL=1050.50)", {
          part: JSON.stringify(part),
        }),
      );
    rates[code] = rate.toString();
  }
  return rates;
}
