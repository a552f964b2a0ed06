/** `facturar exchange-rate [--currency DOL] [--date dd/mm/yyyy]`: the authority's rate (tablas_referencia/cotizacion). */

import type { Context } from "../context.js";
import type { Outcome } from "../errors.js";
import { t } from "../i18n/index.js";
import { readableNumber } from "../i18n/numbers.js";
import { amountText } from "../output/amounts.js";
import { jsonText } from "../output/json.js";
import { CURRENCIES } from "../voucher/codes.js";
import { Dec } from "../voucher/decimal.js";
import { rateBand } from "../voucher/exchange.js";
import type { ExchangeRateOptions } from "./exchange-rate.command.js";
import { withConnection } from "./online.js";

export async function exchangeRateCommand(ctx: Context, flags: ExchangeRateOptions): Promise<Outcome> {
  const { currency: moneda, date: fecha } = flags;
  return withConnection(ctx, async (connection): Promise<Outcome> => {
    const cotizacion = await connection.service.exchangeRate(moneda, fecha);
    const { min, max } = rateBand(Dec.parse(cotizacion));
    if (ctx.json) {
      await ctx.out(
        jsonText({
          ok: true,
          moneda,
          fecha: fecha ?? null,
          cotizacion,
          band: { min: min.toFixed(2), max: max.toFixed(2) },
        }),
      );
      return "done";
    }
    const name = CURRENCIES[moneda];
    await ctx.out(
      fecha
        ? t("{currency}: {rate} pesos, the authority's rate of {fecha}", {
            currency: name ? `${moneda} (${name})` : moneda,
            rate: readableNumber(cotizacion),
            fecha,
          })
        : t("{currency}: {rate} pesos, the authority's rate now", {
            currency: name ? `${moneda} (${name})` : moneda,
            rate: readableNumber(cotizacion),
          }),
    );
    if (moneda !== "PES")
      ctx.err(
        ctx.errColor.dim(
          t("a voucher in {moneda} takes a cotizacion from {min} to {max} (2 % to 400 % of it)", {
            moneda,
            min: amountText(min),
            max: amountText(max),
          }),
        ),
      );
    return "done";
  });
}
