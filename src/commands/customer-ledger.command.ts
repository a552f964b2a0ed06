/** `facturar customer-ledger`: flags, help and examples; the action is ./customer-ledger.ts. */
import { t } from "../i18n/index.js";
import { type Define, examples } from "./define.js";
import type * as Kit from "./options.js";

/** customer-ledger's options, read before it runs. */
export const options = (o: typeof Kit) => o.z.object({ cuit: o.cuit() });
export type CustomerLedgerOptions = Kit.Output<typeof options>;

export const define: Define = (program, run) => {
  const command = program
    .command("customer-ledger")
    .description(
      t("a client's ledger (clientes/cuenta-corriente): the vouchers issued to it, its payments, the balance"),
    )
    .option(`--cuit ${t("<cuit>")}`, t("the client's CUIT"))
    .action(run(async () => (await import("./customer-ledger.js")).customerLedgerCommand, options));
  examples(command, [
    [t("what a client owes"), "facturar customer-ledger --cuit 30712293841"],
    [t("as JSON, for a script"), "facturar --json customer-ledger --cuit 30712293841"],
  ]);
};
