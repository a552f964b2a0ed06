/** `facturar requires-fce`: must a buyer receive a MiPyME credit invoice (requiere_fec)? */

import type { Context } from "../context.js";
import type { Outcome } from "../errors.js";
import { t } from "../i18n/index.js";
import { amountText } from "../output/amounts.js";
import { printAnswer, withConnection } from "./online.js";
import type { RequiresFceOptions } from "./requires-fce.command.js";

/** `facturar requires-fce --cuit C [--date D]`: must this buyer get a MiPyME credit invoice? */
export async function requiresFceCommand(ctx: Context, flags: RequiresFceOptions): Promise<Outcome> {
  const { cuit, date: fecha } = flags;
  return withConnection(ctx, async (connection): Promise<Outcome> => {
    const { obligated, from } = await connection.service.requiresFce(cuit, fecha);
    await printAnswer(ctx, { ok: true, cuit, esta_obligado: obligated, importe_desde: from }, [
      obligated
        ? t("{cuit} must receive a MiPyME credit invoice (FCE) for amounts from $ {amount}", {
            cuit,
            amount: amountText(from),
          })
        : t("{cuit} does not require FCE: issue an ordinary invoice", { cuit }),
    ]);
    return "done";
  });
}
