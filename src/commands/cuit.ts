/** `facturar cuit <cuit>`: the registry's record of a CUIT (clientes/afip-info). */

import type { Context } from "../context.js";
import { type Outcome, UsageError } from "../errors.js";
import { t } from "../i18n/index.js";
import { jsonText } from "../output/json.js";
import { VAT_CONDITION_NAMES } from "../voucher/codes.js";
import { cuitProblem, describeCuitProblem } from "../voucher/ids.js";
import { withConnection } from "./online.js";

/** A CUIT as people type it (dashes, dots, spaces), checked: its 11 digits. */
function cuitArg(value: string): string {
  const digits = value.replace(/[-\s.]/g, "");
  const problem = cuitProblem(digits);
  if (problem) throw new UsageError(describeCuitProblem(problem, digits));
  return digits;
}

export async function cuitCommand(ctx: Context, value: string): Promise<Outcome> {
  const cuit = cuitArg(value);
  return withConnection(ctx, async (connection): Promise<Outcome> => {
    const record = await connection.service.registry(cuit);
    if (ctx.json) {
      await ctx.out(jsonText({ ok: true, ...record }));
      return "done";
    }
    const condition = record.condicion_iva
      ? `${record.condicion_impositiva} (${record.condicion_iva}: ${VAT_CONDITION_NAMES[record.condicion_iva]})`
      : t("registered in neither VAT nor the monotributo");
    const address = [record.direccion, record.localidad, record.codigopostal, record.provincia].filter((x) => x !== "");
    await ctx.out(`${ctx.color.bold(record.razon_social)}  CUIT ${cuit}`);
    await ctx.out(`  ${t("VAT condition:")} ${condition}`);
    if (address.length) await ctx.out(`  ${t("address:")} ${address.join(", ")}`);
    if (record.estado) await ctx.out(`  ${t("status:")} ${record.estado}`);
    for (const a of record.actividad) await ctx.out(`  ${t("activity:")} ${a.id} ${a.descripcion}`);
    for (const e of record.errors) ctx.err(`${ctx.errColor.yellow(t("warning:"))} ${e}`);
    return "done";
  });
}
