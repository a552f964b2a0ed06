/** `facturar delete-purchase --type T --pv P --number N`: a purchase deleted (comprobante_eliminar). */

import type { Context } from "../context.js";
import { FacturarError, type Outcome } from "../errors.js";
import { t } from "../i18n/index.js";
import type { Text } from "../i18n/message.js";
import { voucherNumber } from "../voucher/codes.js";
import type { DeletePurchaseOptions } from "./delete-purchase.command.js";
import { noteInJournal, printAnswer, sentOnce, withConnection } from "./online.js";
import { pointsOfSale } from "./options.js";

export async function deletePurchaseCommand(ctx: Context, flags: DeletePurchaseOptions): Promise<Outcome> {
  const { type: tipo, number } = flags;
  // The supplier's point of sale: never the profile's (the options' schema saw that one is named).
  const puntoVenta = pointsOfSale(flags.pv, number)[0] as number;
  const printed = voucherNumber(puntoVenta, number.numero);
  return withConnection(ctx, async (connection, profile): Promise<Outcome> => {
    const lost = {
      message: (message: Text) =>
        t("the answer to comprobante_eliminar was lost ({message}): the purchase may be deleted", { message }),
      code: "delete-purchase.unknown",
      hint: t("check with: facturar query --purchases --type {tipo} --number {number}", {
        tipo: JSON.stringify(tipo),
        number: printed,
      }),
    };
    /** The journal's entries of this purchase, told what became of it. */
    const journal = (state: "deleted" | "unknown") =>
      noteInJournal(ctx, connection.account, profile.name, async (journal) => {
        const recorded = journal
          .all()
          .filter(
            (e) =>
              e.operacion === "C" &&
              e.state === "issued" &&
              e.tipo === tipo &&
              e.punto_venta === puntoVenta &&
              e.numero === number.numero,
          );
        if (recorded.length > 0)
          await journal.recordAll(recorded.map((e) => ({ ref: e.ref, state, mode: e.mode, operacion: "C" })));
      });
    let rta: string;
    try {
      rta = await sentOnce(() => connection.service.deletePurchase(tipo, puntoVenta, number.numero), lost);
    } catch (error) {
      // Maybe deleted: the next run asks the service before recording it again.
      if (error instanceof FacturarError && error.outcome === "unknown") await journal("unknown");
      throw error;
    }
    // The journal's entry said "issued": the next run would not record it again.
    await journal("deleted");
    await printAnswer(ctx, { ok: true, comprobante_tipo: tipo, punto_venta: puntoVenta, numero: number.numero, rta }, [
      t("purchase {tipo} {number} deleted", { tipo, number: printed }),
    ]);
    return "done";
  });
}
