/** `facturar delete-purchase --type T --pv P --number N`: a purchase deleted (comprobante_eliminar). */

import type { Context } from "../context.js";
import { type Outcome, UsageError } from "../errors.js";
import { t } from "../i18n/index.js";
import { voucherNumber } from "../voucher/codes.js";
import { pointOfSaleArg, requiredVoucherType, voucherNumberArg } from "./flags.js";
import { printAnswer, withConnection } from "./online.js";

export async function deletePurchaseCommand(
  ctx: Context,
  flags: { type?: string; pv?: string; number?: string },
): Promise<Outcome> {
  const tipo = requiredVoucherType(flags.type);
  const number = voucherNumberArg("--number", flags.number);
  if (!number) throw new UsageError(t("{flag} is required", { flag: "--number" }));
  // The supplier's point of sale: never the profile's.
  const puntoVenta = pointOfSaleArg(flags.pv, number);
  if (puntoVenta === undefined)
    throw new UsageError(t("--pv is required: the supplier's point of sale (or write the number as 00015-00000024)"));
  return withConnection(ctx, async (connection): Promise<Outcome> => {
    const rta = await connection.service.deletePurchase(tipo, puntoVenta, number.numero);
    await printAnswer(ctx, { ok: true, tipo, punto_venta: puntoVenta, numero: number.numero, rta }, [
      t("purchase {tipo} {number} deleted", { tipo, number: voucherNumber(puntoVenta, number.numero) }),
    ]);
    return "done";
  });
}
