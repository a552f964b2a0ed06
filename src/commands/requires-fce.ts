/** `facturar requires-fce`: must a buyer receive a MiPyME credit invoice (requiere_fec)? */

import type { Context } from "../context.js";
import { type Outcome, UsageError } from "../errors.js";
import { t } from "../i18n/index.js";
import { amount } from "../output/amount.js";
import { cuitProblem, describeCuitProblem } from "../voucher/ids.js";
import { requiredDate } from "./flags.js";
import { printAnswer, withConnection } from "./online.js";

/** `facturar requires-fce --cuit C [--date D]`: must this buyer get a MiPyME credit invoice? */
export async function requiresFceCommand(ctx: Context, flags: { cuit?: string; date?: string }): Promise<Outcome> {
  const cuit = (flags.cuit ?? "").replace(/[-\s.]/g, "");
  const problem = cuitProblem(cuit);
  if (problem) throw new UsageError(t("--cuit: {value}", { value: describeCuitProblem(problem, cuit) }));
  const fecha = flags.date ? requiredDate("--date", flags.date) : undefined;
  return withConnection(ctx, async (connection): Promise<Outcome> => {
    const { obligated, from } = await connection.service.requiresFce(cuit, fecha);
    await printAnswer(ctx, { ok: true, cuit, esta_obligado: obligated, importe_desde: from }, [
      obligated
        ? t("{cuit} must receive a MiPyME credit invoice (FCE) for amounts from $ {amount}", {
            cuit,
            amount: amount(from),
          })
        : t("{cuit} does not require FCE: issue an ordinary invoice", { cuit }),
    ]);
    return "done";
  });
}
