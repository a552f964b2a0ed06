/** `facturar table`: help and examples; the action is ./table.ts. */
import { t } from "../i18n/index.js";
import { type Define, examples } from "./define.js";
import { TABLE_NAMES } from "./table-names.js";

export const define: Define = (program, run) => {
  const command = program
    .command("table")
    .description(t("a reference table of the service (tablas_referencia/<name>): codes and what they mean"))
    .argument(t("<name>"), t("one of: {names}", { names: TABLE_NAMES.join(", ") }))
    .action(run(async () => (await import("./table.js")).tableCommand));
  examples(command, [
    [t("the province codes a client block takes"), "facturar table provincias"],
    [t("the payment conditions, as JSON"), "facturar --json table condiciones_venta"],
    [
      t("the incoterms an export voucher's fex block takes (the service's list, else the reference's entries)"),
      "facturar table incoterms",
    ],
  ]);
};
