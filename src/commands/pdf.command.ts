/** `facturar pdf`: flags, help and examples; the action is ./pdf.ts. */
import { t } from "../i18n/index.js";
import { type Define, examples, targetRules, targetShape } from "./define.js";
import type * as Kit from "./options.js";

/** pdf's options, read before it runs. */
export const options = (o: typeof Kit) =>
  o.z.object({ ...targetShape(o), out: o.string() }).superRefine(targetRules(o, "pdf"));
export type PdfOptions = Kit.Output<typeof options>;

export const define: Define = (program, run) => {
  const command = program
    .command("pdf")
    .description(t("fresh links for an issued voucher (regenerar_pdf), then its PDF and ticket saved"))
    .option(`--ref ${t("<reference>")}`, t("the voucher's external_reference"))
    .option(`--type ${t("<tipo>")}`, t('voucher type ("FACTURA B")'))
    .option(`--number ${t("<n>")}`, t("voucher number (N, or as printed: 00679-00000002)"))
    .option(`--pv ${t("<n>")}`, t("point of sale (default: the profile's)"))
    .option(`--out ${t("<dir>")}`, t("folder (default: the profile's pdf_dir, else ./comprobantes)"))
    .action(run(async () => (await import("./pdf.js")).pdfCommand, options));
  examples(command, [
    [t("the PDF of a voucher, by its reference"), "facturar pdf --ref PEDIDO-1043"],
    [t("by its number, as printed on it"), 'facturar pdf --type "FACTURA B" --number 00679-00000002'],
    [t("into another folder"), 'facturar pdf --type "FACTURA A" --number 15 --pv 3 --out ~/facturas'],
  ]);
};
