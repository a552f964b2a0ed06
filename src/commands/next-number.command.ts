/** `facturar next-number`: flags, help and examples; the action is ./next-number.ts. */
import { t } from "../i18n/index.js";
import { type Define, examples } from "./define.js";
import type * as Kit from "./options.js";

/** next-number's options, read before it runs. */
export const options = (o: typeof Kit) => o.z.object({ type: o.voucherType(), pv: o.pointOfSale().optional() });
export type NextNumberOptions = Kit.Output<typeof options>;

export const define: Define = (program, run) => {
  const command = program
    .command("next-number")
    .description(t("the number the service will give the next voucher of a type (numeracion)"))
    .option(`--type ${t("<tipo>")}`, t('voucher type ("FACTURA B")'))
    .option(`--pv ${t("<n>")}`, t("point of sale (default: the profile's)"))
    .action(run(async () => (await import("./next-number.js")).nextNumberCommand, options));
  examples(command, [
    [t("the next FACTURA B at the profile's point of sale"), 'facturar next-number --type "FACTURA B"'],
    [t("at point of sale 3, as JSON"), 'facturar --json next-number --type "FACTURA A" --pv 3'],
  ]);
};
