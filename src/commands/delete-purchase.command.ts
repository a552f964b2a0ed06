/** `facturar delete-purchase`: flags, help and examples; the action is ./delete-purchase.ts. */
import { t } from "../i18n/index.js";
import { type Define, examples } from "./define.js";

export const define: Define = (program, run) => {
  const command = program
    .command("delete-purchase")
    .description(t("delete a recorded purchase (comprobante_eliminar); sales cannot be deleted"))
    .option(`--type ${t("<tipo>")}`, t('voucher type ("FACTURA A")'))
    .option(`--pv ${t("<n>")}`, t("the supplier's point of sale"))
    .option(`--number ${t("<n>")}`, t("the supplier's voucher number (N, or as printed: 00015-00000024)"))
    .action(run(async () => (await import("./delete-purchase.js")).deletePurchaseCommand));
  examples(command, [
    [t("a supplier's invoice entered by mistake"), 'facturar delete-purchase --type "FACTURA A" --pv 15 --number 24'],
    [t("the same, its number as printed"), 'facturar delete-purchase --type "FACTURA A" --number 00015-00000024'],
  ]);
};
