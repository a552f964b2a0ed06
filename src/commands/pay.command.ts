/** `facturar pay`: flags, help and examples; the action is ./pay.ts. */
import { t } from "../i18n/index.js";
import { type Define, examples, targetRules, targetShape } from "./define.js";
import type * as Kit from "./options.js";

/** pay's options, read before it runs. */
export const options = (o: typeof Kit) =>
  o.z
    .object({
      ...targetShape(o),
      amount: o.paidAmount(),
      method: o.text(t("the name of a means of payment (up to 255 characters)"), 255).default("Efectivo"),
    })
    .superRefine(targetRules(o, "pay"));
export type PayOptions = Kit.Output<typeof options>;

export const define: Define = (program, run) => {
  const command = program
    .command("pay")
    .description(t("record a payment of an issued sale in the client's ledger (pagar); the PDF does not change"))
    .option(`--ref ${t("<reference>")}`, t("the voucher's external_reference"))
    .option(`--type ${t("<tipo>")}`, t('voucher type ("FACTURA B")'))
    .option(`--number ${t("<n>")}`, t("voucher number (N, or as printed: 00679-00000002)"))
    .option(`--pv ${t("<n>")}`, t("point of sale (default: the profile's)"))
    .option(`--amount ${t("<amount>")}`, t("the amount paid, up to 2 decimals (at most what is left to pay)"))
    .option(`--method ${t("<name>")}`, t('how it was paid, as the platform names it (default "Efectivo")'))
    .action(run(async () => (await import("./pay.js")).payCommand, options));
  examples(command, [
    [t("a payment in cash of an order's invoice"), "facturar pay --ref PEDIDO-1043 --amount 1210"],
    [
      t("part of it by card"),
      'facturar pay --type "FACTURA A" --number 00679-00000015 --amount 500.50 --method "VISA"',
    ],
  ]);
};
