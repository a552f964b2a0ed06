/** `facturar delete-purchase`: flags, help and examples; the action is ./delete-purchase.ts. */
import { t } from "../i18n/index.js";
import { type Define, examples } from "./define.js";
import type * as Kit from "./options.js";

/** delete-purchase's options, read before it runs. */
export const options = (o: typeof Kit) =>
  o.z
    .object({ type: o.voucherType(), pv: o.pointOfSale().optional(), number: o.voucherNumber() })
    .superRefine((flags, ctx) => {
      // The supplier's point of sale: never the profile's.
      if (o.pointsOfSale(flags.pv, flags.number).length === 0)
        o.missing(ctx, "pv", t("the supplier's point of sale (or write the number as 00015-00000024)"));
      else o.onePointOfSale(ctx, flags.pv, flags.number);
    });
export type DeletePurchaseOptions = Kit.Output<typeof options>;

export const define: Define = (program, run) => {
  const command = program
    .command("delete-purchase")
    .description(t("delete a recorded purchase (comprobante_eliminar); sales cannot be deleted"))
    .option(`--type ${t("<tipo>")}`, t('voucher type ("FACTURA A")'))
    .option(`--pv ${t("<n>")}`, t("the supplier's point of sale"))
    .option(`--number ${t("<n>")}`, t("the supplier's voucher number (N, or as printed: 00015-00000024)"))
    .action(run(async () => (await import("./delete-purchase.js")).deletePurchaseCommand, options));
  examples(command, [
    [t("a supplier's invoice entered by mistake"), 'facturar delete-purchase --type "FACTURA A" --pv 15 --number 24'],
    [t("the same, its number as printed"), 'facturar delete-purchase --type "FACTURA A" --number 00015-00000024'],
  ]);
};
