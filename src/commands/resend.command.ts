/** `facturar resend`: flags, help and examples; the action is ./resend.ts. */
import { t } from "../i18n/index.js";
import { type Define, examples, targetRules, targetShape } from "./define.js";
import type * as Kit from "./options.js";

/** resend's options, read before it runs. */
export const options = (o: typeof Kit) => o.z.object(targetShape(o)).superRefine(targetRules(o, "resend"));
export type ResendOptions = Kit.Output<typeof options>;

export const define: Define = (program, run) => {
  const command = program
    .command("resend")
    .description(t("e-mail an issued voucher to its client again (reenviar); only one e-mailed when it was issued"))
    .option(`--ref ${t("<reference>")}`, t("the voucher's external_reference"))
    .option(`--type ${t("<tipo>")}`, t('voucher type ("FACTURA B")'))
    .option(`--number ${t("<n>")}`, t("voucher number (N, or as printed: 00679-00000002)"))
    .option(`--pv ${t("<n>")}`, t("point of sale (default: the profile's)"))
    .action(run(async () => (await import("./resend.js")).resendCommand, options));
  examples(command, [
    [t("the voucher of an order, e-mailed again"), "facturar resend --ref PEDIDO-1043"],
    [t("by its number, as printed on it"), 'facturar resend --type "FACTURA B" --number 00679-00000002'],
  ]);
};
