/** `facturar pay --ref R | --type T --number N --amount X [--method M]`: a payment recorded (pagar). */

import type { Context } from "../context.js";
import { type Outcome, UsageError } from "../errors.js";
import { t } from "../i18n/index.js";
import { amountText, moneyText } from "../output/amounts.js";
import { isNote, voucherNumber, voucherTypeInfo } from "../voucher/codes.js";
import { printAnswer, sentOnce, withConnection } from "./online.js";
import type { PayOptions } from "./pay.command.js";
import { resolveTarget, targetArg } from "./voucher-target.js";

export async function payCommand(ctx: Context, flags: PayOptions): Promise<Outcome> {
  const arg = targetArg(flags);
  const { amount: paid, method } = flags;
  const importe = paid.toFixed(2);
  return withConnection(ctx, async (connection, profile): Promise<Outcome> => {
    const v = await resolveTarget(connection.service, arg, connection.puntoVenta ?? profile.puntoVenta);
    if (v.operacion !== "V")
      throw new UsageError(
        t("pay records payments of sales; {ref} is a purchase", { ref: "ref" in arg ? arg.ref : v.tipo }),
      );
    const info = voucherTypeInfo(v.tipo);
    if (info && isNote(info) && info.kind === "credit")
      throw new UsageError(
        t("pay records payments of invoices and debit notes; {tipo} is a credit note", { tipo: v.tipo }),
      );
    // The amount is in the voucher's currency: asked of the service (consulta costs no quota).
    const moneda =
      v.moneda ?? (await connection.service.voucher(v.tipo, v.puntoVenta, v.numero))?.raw.comprobante.moneda;
    // A payment sent twice is recorded twice: a lost answer is not retried, and says so.
    await sentOnce(
      () => connection.service.pay(v.tipo, v.puntoVenta, v.numero, [{ descripcion: method, importe }], importe),
      {
        message: (message) => t("the answer to pagar was lost ({message}): the payment may be recorded", { message }),
        code: "pay.unknown",
        hint: t("look at the client's ledger (facturar customer-ledger --cuit C) before paying again"),
      },
    );
    const number = voucherNumber(v.puntoVenta, v.numero);
    await printAnswer(
      ctx,
      {
        ok: true,
        comprobante_tipo: v.tipo,
        punto_venta: v.puntoVenta,
        numero: v.numero,
        total: importe,
        formas_pago: [{ descripcion: method, importe }],
      },
      [
        t("{tipo} {number}: payment of {amount} ({method}) recorded", {
          tipo: v.tipo,
          number,
          amount: moneyText(paid, moneda) === amountText(paid) ? `$ ${amountText(paid)}` : moneyText(paid, moneda),
          method,
        }),
      ],
    );
    return "done";
  });
}
