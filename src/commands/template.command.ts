/** `facturar template`: flags, help and examples; the action is ./schema.ts. */
import { t } from "../i18n/index.js";
import { type Define, examples } from "./define.js";
import type * as Kit from "./options.js";

/** template's options, read before it runs. */
export const options = (o: typeof Kit) => o.z.object({ csv: o.bool() });
export type TemplateOptions = Kit.Output<typeof options>;

export const define: Define = (program, run) => {
  const command = program
    .command("template")
    .description(t("print a valid skeleton voucher of a type, as JSON or (--csv) as a CSV header and row"))
    .argument(t("<tipo>"), t('voucher type, quoted: "FACTURA B"'))
    .option("--csv", t("a CSV header and one row instead of JSON"))
    .action(run(async () => (await import("./schema.js")).templateCommand, options));
  examples(command, [
    [t("start a voucher file from a valid one"), 'facturar template "FACTURA B" > factura.json'],
    [t("the columns of a CSV batch"), 'facturar template "FACTURA A" --csv > lote.csv'],
  ]);
};
