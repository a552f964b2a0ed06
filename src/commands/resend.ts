/** `facturar resend --ref R | --type T --number N [--pv P]`: the voucher e-mailed again (reenviar). */

import { ServiceRefusedError } from "../api/protocol.js";
import type { Context } from "../context.js";
import { FacturarError, type Outcome } from "../errors.js";
import { t } from "../i18n/index.js";
import { voucherNumber } from "../voucher/codes.js";
import { printAnswer, sentOnce, withConnection } from "./online.js";
import type { ResendOptions } from "./resend.command.js";
import { resolveTarget, targetArg } from "./voucher-target.js";

export async function resendCommand(ctx: Context, flags: ResendOptions): Promise<Outcome> {
  const arg = targetArg(flags);
  return withConnection(ctx, async (connection, profile): Promise<Outcome> => {
    const v = await resolveTarget(connection.service, arg, connection.puntoVenta ?? profile.puntoVenta);
    const number = voucherNumber(v.puntoVenta, v.numero);
    // An e-mail: sent once; a lost answer may mean it went out.
    const resend = async () => {
      try {
        await connection.service.resend(v.tipo, v.puntoVenta, v.numero, v.operacion);
      } catch (error) {
        if (!(error instanceof ServiceRefusedError)) throw error;
        // Refused (most often: not e-mailed when issued): its PDF is the next step, sent by hand.
        const pdf =
          "ref" in arg ? `facturar pdf --ref ${arg.ref}` : `facturar pdf --type "${v.tipo}" --number ${number}`;
        throw new FacturarError(
          error.text,
          error.outcome,
          error.code,
          t("to send it yourself, save its PDF with `{command}`", { command: pdf }),
        );
      }
    };
    await sentOnce(resend, {
      message: (message) =>
        t("the answer to reenviar was lost ({message}): {tipo} {number} may have been e-mailed", {
          message,
          tipo: v.tipo,
          number,
        }),
      code: "resend.unknown",
      hint: t("ask the client before sending it again"),
    });
    await printAnswer(
      ctx,
      { ok: true, comprobante_tipo: v.tipo, punto_venta: v.puntoVenta, numero: v.numero, operacion: v.operacion },
      [t("{tipo} {number} e-mailed to its client again", { tipo: v.tipo, number })],
    );
    return "done";
  });
}
