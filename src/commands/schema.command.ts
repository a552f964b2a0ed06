/** `facturar schema`: help and examples; the action is ./schema.ts. */
import { t } from "../i18n/index.js";
import { type Define, examples } from "./define.js";

export const define: Define = (program, run) => {
  const command = program
    .command("schema")
    .description(t("print the JSON Schema of voucher files (for editors)"))
    .action(run(async () => (await import("./schema.js")).schemaCommand));
  examples(command, [[t("save it where an editor can use it"), "facturar schema > voucher.schema.json"]]);
};
