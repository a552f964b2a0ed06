/** `facturar journal`: flags, help and examples; the action is ./journal.ts. */
import { t } from "../i18n/index.js";
import { type Define, examples } from "./define.js";
import type * as Kit from "./options.js";

/** journal's options, read before it runs. */
export const options = (o: typeof Kit) => o.z.object({ ref: o.reference().optional(), reconcile: o.bool() });
export type JournalOptions = Kit.Output<typeof options>;

export const define: Define = (program, run) => {
  const command = program
    .command("journal")
    .description(t("what the journal holds for the profile (or for some input files), unknown outcomes first"))
    .argument(t("[files...]"), t("only the vouchers read from these files"))
    .option(`--ref ${t("<reference>")}`, t("only the voucher of this external_reference"))
    .option("--reconcile", t("settle unknown and queued entries by asking the service"))
    .action(run(async () => (await import("./journal.js")).journalCommand, options));
  examples(command, [
    [t("everything the profile's journal holds"), "facturar journal"],
    [t("what became of the vouchers of one batch file"), "facturar journal lote.csv"],
    [t("one voucher, by its reference"), "facturar journal --ref PEDIDO-1043"],
    [t("settle unknown outcomes by asking the service"), "facturar journal --reconcile"],
  ]);
};
