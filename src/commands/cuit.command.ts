/** `facturar cuit`: help and examples; the action is ./cuit.ts. */
import { t } from "../i18n/index.js";
import { type Define, examples } from "./define.js";

export const define: Define = (program, run) => {
  const command = program
    .command("cuit")
    .description(t("look a CUIT up in the authority's registry (clientes/afip-info): name, VAT condition, address"))
    .argument(t("<cuit>"), t("11 digits; dashes and dots are ignored"))
    .action(run(async () => (await import("./cuit.js")).cuitCommand));
  examples(command, [
    [t("who is this customer?"), "facturar cuit 30712293841"],
    [t("as JSON, for a script"), "facturar --json cuit 20-12345678-6"],
  ]);
};
