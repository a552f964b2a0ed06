/** `facturar vat-book`: flags, help and examples; the action is ./vat-book.ts. */
import { t } from "../i18n/index.js";
import { type Define, examples, paragraph, spreadsheetOptions } from "./define.js";
import type * as Kit from "./options.js";
import { dateRangeOf } from "./query-criteria.js";

/** vat-book's options, read before it runs. */
export const options = (o: typeof Kit) =>
  o.z
    .object({
      from: o.date().optional(),
      to: o.date().optional(),
      purchases: o.bool(),
      csv: o.bool(),
      decimal: o.decimal().optional(),
      delimiter: o.delimiter().optional(),
      lid: o.folder().optional(),
      force: o.bool(),
      checkLid: o.folder().optional(),
    })
    .superRefine((flags, ctx) => {
      if (flags.checkLid !== undefined) {
        if (flags.lid !== undefined || flags.csv || flags.from !== undefined || flags.to !== undefined || flags.force)
          o.rule(
            ctx,
            t("--check-lid reads files and takes no dates: it goes without --from, --to, --lid, --force and --csv"),
          );
        return;
      }
      const range = dateRangeOf(flags.from, flags.to);
      if ("broken" in range) o.rule(ctx, range.broken, range.hint);
      else if (flags.force && flags.lid === undefined) o.rule(ctx, t("--force goes with --lid"));
      else if (flags.lid !== undefined && flags.csv) o.rule(ctx, t("--lid and --csv: choose one"));
      else if (flags.lid === undefined && flags.decimal !== undefined && !flags.csv)
        o.rule(ctx, t("--decimal goes with --csv"));
      else if (flags.lid === undefined && flags.delimiter !== undefined && !flags.csv)
        o.rule(ctx, t("--delimiter goes with --csv"));
    });
export type VatBookOptions = Kit.Output<typeof options>;

export const define: Define = (program, run) => {
  // The spreadsheet flags follow --csv, which they qualify.
  const command = spreadsheetOptions(
    program,
    program
      .command("vat-book")
      .description(t("the VAT book (libro IVA ventas, or compras) of a date range, with its totals"))
      // Not required by commander: --check-lid reads files and takes no dates (the options schema asks for them otherwise).
      .option(`--from ${t("<dd/mm/yyyy>")}`, t("first day"))
      .option(`--to ${t("<dd/mm/yyyy>")}`, t("last day, included (at most 366 days; one request or more a day)"))
      .option("--purchases", t('the purchases book (libro IVA compras: operacion "C") instead of sales'))
      .option("--csv", t("a CSV header, one row per voucher and a TOTAL row (instead of the table)")),
  )
    .option(
      `--lid ${t("<folder>")}`,
      t(
        "write the Libro IVA Digital import files there (LIBRO_IVA_DIGITAL_VENTAS_CBTE.txt and _ALICUOTAS.txt; COMPRAS with --purchases)",
      ),
    )
    .option("--force", t("with --lid: replace files already there"))
    .option(
      `--check-lid ${t("<folder>")}`,
      t("read the Libro IVA Digital files of that folder back and check them as the portal does (no service needed)"),
    )
    .action(run(async () => (await import("./vat-book.js")).vatBookCommand, options));
  command.addHelpText("after", () =>
    paragraph(
      t(
        "Only issued vouchers count (not queued nor failed ones). Amounts are in pesos: a voucher in another currency is converted at its own cotizacion, each rate's net and every other part to the cent, its VAT computed on the converted net and its total the sum of the parts (diferencia_conversion shows the cents by which that differs from its total converted whole). Credit notes are negative. Net and VAT per rate come from the voucher's items, its discount shared among the rates; the table shows the rates that appear, CSV and JSON all of the authority's (21, 10.5, 27, 5, 2.5, 0). Vouchers of classes C and E carry no VAT: their net is at 0 %. Lines go by date, then type, point of sale and number. --json writes one document: the lines and the totals.",
      ),
    ),
  );
  examples(command, [
    [t("November's sales book"), "facturar vat-book --from 01/11/2026 --to 30/11/2026"],
    [
      t("for a spreadsheet in Spanish: ; between fields and a decimal comma"),
      "facturar vat-book --from 01/11/2026 --to 30/11/2026 --csv --decimal comma > iva-ventas-2026-11.csv",
    ],
    [t("the purchases book, as JSON"), "facturar --json vat-book --purchases --from 01/11/2026 --to 30/11/2026"],
    [
      t("November's files for the Libro IVA Digital portal, then checked again before upload"),
      "facturar vat-book --from 01/11/2026 --to 30/11/2026 --lid libro-2026-11",
    ],
    [t("the files checked again (after editing them by hand)"), "facturar vat-book --check-lid libro-2026-11"],
  ]);
};
