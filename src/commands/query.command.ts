/** `facturar query`: flags, help and examples; the action is ./query.ts. */
import { t } from "../i18n/index.js";
import { type Define, examples, spreadsheetOptions } from "./define.js";
import type * as Kit from "./options.js";
import { criteriaOf, numberOf } from "./query-criteria.js";

/** query's options, read before it runs, and which of them go together (query-criteria.ts). */
export const options = (o: typeof Kit) =>
  o.z
    .object({
      ref: o.reference().optional(),
      date: o.date().optional(),
      from: o.dateOrNumber().optional(),
      to: o.dateOrNumber().optional(),
      type: o.voucherTypes().optional(),
      number: o.voucherNumber().optional(),
      status: o.statuses().optional(),
      pv: o.pointOfSale().optional(),
      purchases: o.bool(),
      csv: o.bool(),
      decimal: o.decimal().optional(),
      delimiter: o.delimiter().optional(),
      pdf: o.bool(),
      out: o.string(),
    })
    .superRefine((flags, ctx) => {
      const wanted = criteriaOf(flags);
      if ("broken" in wanted) o.rule(ctx, wanted.broken, wanted.hint);
      else if (flags.decimal !== undefined && !flags.csv) o.rule(ctx, t("--decimal goes with --csv"));
      else if (flags.delimiter !== undefined && !flags.csv) o.rule(ctx, t("--delimiter goes with --csv"));
      else o.onePointOfSale(ctx, flags.pv, flags.number, numberOf(flags.from), numberOf(flags.to));
    });
export type QueryOptions = Kit.Output<typeof options>;

/** A flag given again adds to the list (`--type A --type B`). */
const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

export const define: Define = (program, run) => {
  // The spreadsheet flags follow --csv, which they qualify.
  const command = spreadsheetOptions(
    program,
    program
      .command("query")
      .description(
        t("find vouchers: --ref R | --date D | --from D --to D | --type T --number N | --type T --from N --to M"),
      )
      .option(`--ref ${t("<reference>")}`, t("by external_reference"))
      .option(`--date ${t("<dd/mm/yyyy>")}`, t("by voucher date (newest first, as the service lists them)"))
      .option(
        `--from ${t("<from>")}`,
        t(
          "start of a range: a date dd/mm/yyyy (the vouchers of every day, oldest day first; at most 366 days, one request or more a day), or a number with --type",
        ),
      )
      .option(`--to ${t("<to>")}`, t("end of the range (a date, or a number), included"))
      .option(
        `--type ${t("<tipo>")}`,
        t(
          'voucher type, as the service writes it ("FACTURA B"); with --date or a date range a filter, repeatable or a comma list',
        ),
        collect,
      )
      .option(`--number ${t("<n>")}`, t("with --type: one voucher (N, or as printed: 00679-00000002)"))
      .option(
        `--status ${t("<state>")}`,
        t(
          "with --date or a date range: only issued, queued or queue-error (error) vouchers; repeatable or a comma list",
        ),
        collect,
      )
      .option(`--pv ${t("<n>")}`, t("point of sale (default: the profile's)"))
      .option("--purchases", t("purchases (operacion C): --pv and numbers are the supplier's"))
      .option("--csv", t("a CSV header, then one row per voucher (instead of the table)")),
  )
    .option("--pdf", t("save the PDFs of the issued vouchers found (fresh links when the old ones expired)"))
    .option(`--out ${t("<dir>")}`, t("folder for --pdf"))
    .action(run(async () => (await import("./query.js")).queryCommand, options));
  examples(command, [
    [t("what became of one voucher, by its reference"), "facturar query --ref PEDIDO-1043"],
    [t("one voucher by its number, as printed on it"), 'facturar query --type "FACTURA B" --number 00679-00000002'],
    [t("a day's vouchers, their PDFs saved"), "facturar query --date 20/11/2026 --pdf"],
    [
      t("a supplier's invoice recorded as a purchase"),
      'facturar query --purchases --type "FACTURA A" --number 00015-00000024',
    ],
    [
      t("a month's issued invoices B and credit notes B, as CSV"),
      'facturar query --from 01/11/2026 --to 30/11/2026 --type "FACTURA B,NOTA DE CREDITO B" --status issued --csv > noviembre.csv',
    ],
    [
      t("a range of numbers, as NDJSON (with the local PDF path when it is there)"),
      'facturar --json query --type "FACTURA B" --from 1 --to 50',
    ],
  ]);
};
