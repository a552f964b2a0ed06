/** `facturar validate`: flags, help and examples; the action is ./validate.ts. */
import { t } from "../i18n/index.js";
import { type Define, decimalOption, delimiterOption, examples, readingShape } from "./define.js";
import type * as Kit from "./options.js";

/** validate's options, read before it runs. */
export const options = (o: typeof Kit) =>
  o.z.object({
    ...readingShape(o),
    ceiling: o.pesos().optional(),
    today: o.date().optional(),
  });
export type ValidateOptions = Kit.Output<typeof options>;

export const define: Define = (program, run) => {
  const command = program
    .command("validate")
    .description(t("check vouchers offline: schema, tax rules and computed totals; nothing is sent"))
    .argument(t("<files...>"), t(".json or .csv voucher files, or - for standard input"))
    .option(
      `--encoding ${t("<encoding>")}`,
      t(
        "input encoding: utf8 or latin1 (Windows-1252); by default UTF-8, and a file that is not UTF-8 is read as Windows-1252",
      ),
    )
    .addOption(delimiterOption(program, t("CSV delimiter (detected from the header by default)")))
    .addOption(decimalOption(program))
    .option(
      `--ceiling ${t("<amount>")}`,
      t("ceiling for unidentified final consumers, in pesos (default 10000000, RG 5700)"),
    )
    .option(`--today ${t("<dd/mm/yyyy>")}`, t("check date windows against this day instead of today in Argentina"))
    .action(run(async () => (await import("./validate.js")).validateCommand, options));
  examples(command, [
    [t("check one voucher file"), "facturar validate factura.json"],
    [t("check a spreadsheet export that uses ; and decimal commas"), "facturar validate lote.csv"],
    [t("only what is wrong, as NDJSON for a script"), "facturar --json -q validate lote.csv"],
  ]);
};
