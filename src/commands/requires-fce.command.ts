/** `facturar requires-fce`: flags, help and examples; the action is ./requires-fce.ts. */
import { t } from "../i18n/index.js";
import { type Define, examples } from "./define.js";
import type * as Kit from "./options.js";

/** requires-fce's options, read before it runs. */
export const options = (o: typeof Kit) => o.z.object({ cuit: o.cuit(), date: o.date().optional() });
export type RequiresFceOptions = Kit.Output<typeof options>;

export const define: Define = (program, run) => {
  const command = program
    .command("requires-fce")
    .description(t("whether a buyer must receive a MiPyME credit invoice (requiere_fec)"))
    .option(`--cuit ${t("<cuit>")}`, t("the buyer's CUIT"))
    .option(`--date ${t("<dd/mm/yyyy>")}`, t("as of this date"))
    .action(run(async () => (await import("./requires-fce.js")).requiresFceCommand, options));
  examples(command, [
    [t("must this buyer get an FCE today?"), "facturar requires-fce --cuit 30-71234567-1"],
    [t("as of a date"), "facturar requires-fce --cuit 30712345671 --date 01/12/2026"],
  ]);
};
