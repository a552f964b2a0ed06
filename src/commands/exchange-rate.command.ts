/** `facturar exchange-rate`: flags, help and examples; the action is ./exchange-rate.ts. */
import { t } from "../i18n/index.js";
import { type Define, examples } from "./define.js";
import type * as Kit from "./options.js";

/** exchange-rate's options, read before it runs. */
export const options = (o: typeof Kit) =>
  o.z.object({ currency: o.currency().default("DOL"), date: o.date().optional() });
export type ExchangeRateOptions = Kit.Output<typeof options>;

export const define: Define = (program, run) => {
  const command = program
    .command("exchange-rate")
    .description(t("the authority's exchange rate of a currency, in pesos (tablas_referencia/cotizacion)"))
    .option(`--currency ${t("<code>")}`, t("currency code, as vouchers write moneda (default DOL)"))
    .option(`--date ${t("<dd/mm/yyyy>")}`, t("the rate of that day (at most 2 months back)"))
    .action(run(async () => (await import("./exchange-rate.js")).exchangeRateCommand, options));
  examples(command, [
    [t("today's dollar rate"), "facturar exchange-rate"],
    [t("the euro on a given day, as JSON"), "facturar --json exchange-rate --currency 060 --date 02/11/2026"],
  ]);
};
