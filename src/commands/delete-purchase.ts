/** `facturar delete-purchase --type T --pv P --number N`: a purchase deleted (comprobante_eliminar). */

import type { Context } from "../context.js";
import { FacturarError, type Outcome, UsageError } from "../errors.js";
import { t } from "../i18n/index.js";
import { voucherNumber } from "../voucher/codes.js";
import { pointOfSaleArg, requiredVoucherType, voucherNumberArg } from "./flags.js";
import { noteInJournal, printAnswer, sentOnce, withConnection } from "./online.js";

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
  const printed = voucherNumber(puntoVenta, number.numero);
  return withConnection(ctx, async (connection, profile): Promise<Outcome> => {
    const lost = {
      message: (message: string) =>
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
