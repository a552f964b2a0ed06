/** `facturar query`: flags, help and examples; the action is ./query.ts. */
import { t } from "../i18n/index.js";
import { type Define, examples } from "./define.js";

export const define: Define = (program, run) => {
  const command = program
    .command("query")
    .description(t("find vouchers: --ref R | --date D | --type T --number N | --type T --from N --to M"))
    .option(`--ref ${t("<reference>")}`, t("by external_reference"))
    .option(`--date ${t("<dd/mm/yyyy>")}`, t("by voucher date"))
    .option(`--type ${t("<tipo>")}`, t('voucher type, as the service writes it ("FACTURA B")'))
    .option(`--number ${t("<n>")}`, t("with --type: one voucher (N, or as printed: 00679-00000002)"))
    .option(`--from ${t("<n>")}`, t("with --type and --to: a number range"))
    .option(`--to ${t("<n>")}`, t("end of the range"))
    .option(`--pv ${t("<n>")}`, t("point of sale (default: the profile's)"))
    .option("--purchases", t("purchases (operacion C): --pv and numbers are the supplier's"))
    .option("--pdf", t("save the PDFs of the issued vouchers found (fresh links when the old ones expired)"))
    .option(`--out ${t("<dir>")}`, t("folder for --pdf"))
    .action(run(async () => (await import("./query.js")).queryCommand));
  examples(command, [
    [t("what became of one voucher, by its reference"), "facturar query --ref PEDIDO-1043"],
    [t("one voucher by its number, as printed on it"), 'facturar query --type "FACTURA B" --number 00679-00000002'],
    [t("a day's vouchers, their PDFs saved"), "facturar query --date 20/11/2026 --pdf"],
    [
      t("a supplier's invoice recorded as a purchase"),
      'facturar query --purchases --type "FACTURA A" --number 00015-00000024',
    ],
    [
      t("a range of numbers, as NDJSON (with the local PDF path when it is there)"),
      'facturar --json query --type "FACTURA B" --from 1 --to 50',
    ],
  ]);
};
