/** `facturar next-number`: the number the service will give the next voucher of a type (numeracion). */

import type { Context } from "../context.js";
import { type Outcome, UsageError } from "../errors.js";
import { t } from "../i18n/index.js";
import { voucherNumber } from "../voucher/codes.js";
import type { NextNumberOptions } from "./next-number.command.js";
import { printAnswer, withConnection } from "./online.js";

/** `facturar next-number --type T [--pv P]`: the number the service will give next. */
export async function nextNumberCommand(ctx: Context, flags: NextNumberOptions): Promise<Outcome> {
  const tipo = flags.type;
  return withConnection(ctx, async (connection, profile): Promise<Outcome> => {
    const puntoVenta = flags.pv ?? connection.puntoVenta ?? profile.puntoVenta;
    if (!puntoVenta) throw new UsageError(t("--pv is required: the profile names no point of sale"));
    const next = await connection.service.nextNumber(tipo, puntoVenta);
    // `numeracion` answers the next number (both versions of its page); the last issued is one
    // less, 0 when the lane has none. `numero` stays the next one, as scripts read it.
    const last = Math.max(0, next - 1);
    await printAnswer(ctx, { ok: true, comprobante_tipo: tipo, punto_venta: puntoVenta, numero: next, next, last }, [
      t("next {tipo} at point of sale {puntoVenta}: {value}", {
        tipo,
        puntoVenta,
        value: voucherNumber(puntoVenta, next),
      }),
      last > 0
        ? t("last issued: {value}", { value: voucherNumber(puntoVenta, last) })
        : t("none issued yet at this point of sale"),
    ]);
    return "done";
  });
}
