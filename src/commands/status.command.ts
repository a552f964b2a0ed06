/** `facturar status`: help and examples; the action is ./service-info.ts. */
import { t } from "../i18n/index.js";
import { type Define, examples } from "./define.js";

export const define: Define = (program, run) => {
  const command = program
    .command("status")
    .description(
      t(
        "service status, scheduled maintenance, news, and the subscription's vouchers, issued and left (micuenta/consumo, a request of its own quota); exit 6 when invoicing is not OK or the account's calls are refused",
      ),
    )
    .action(run(async () => (await import("./service-info.js")).statusCommand));
  examples(command, [
    [t("is the service up, and is maintenance scheduled?"), "facturar status"],
    [t("in a script: go on only when invoicing is OK"), "facturar -q status && facturar issue lote.csv"],
  ]);
};
