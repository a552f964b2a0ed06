/** `facturar queue`: flags, help and examples; the action is ./queue.ts. */
import { t } from "../i18n/index.js";
import { type Define, examples } from "./define.js";
import type * as Kit from "./options.js";

/** queue's options, read before it runs (which ones its action takes, the action says). */
export const options = (o: typeof Kit) =>
  o.z
    .object({
      ref: o.text(t("the queued voucher's external_reference")),
      date: o.date().optional(),
      due: o.date().optional(),
    })
    .superRefine((flags, ctx) => {
      if (flags.due !== undefined && flags.date !== undefined && o.dayNumber(flags.due) < o.dayNumber(flags.date))
        o.rule(ctx, t("--due {due} is before --date {fecha}", { due: flags.due, fecha: flags.date }));
    });
export type QueueOptions = Kit.Output<typeof options>;

export const define: Define = (program, run) => {
  const command = program
    .command("queue")
    .description(t("manage queued vouchers: delete, reschedule (--date, --due) or retry one that failed"))
    .argument(t("<action>"), t("delete | reschedule | retry"))
    .option(`--ref ${t("<reference>")}`, t("the queued voucher's external_reference"))
    .option(
      `--date ${t("<dd/mm/yyyy>")}`,
      t("reschedule: the new date (also the day it is issued); delete: only that date"),
    )
    .option(`--due ${t("<dd/mm/yyyy>")}`, t("reschedule: the new payment due date"))
    .action(run(async () => (await import("./queue.js")).queueCommand, options));
  examples(command, [
    [t("take a voucher out of the queue"), "facturar queue delete --ref PEDIDO-1043"],
    [t("issue it on another day"), "facturar queue reschedule --ref PEDIDO-1043 --date 01/12/2026 --due 15/12/2026"],
    [t("try again one that failed, once its cause is fixed"), "facturar queue retry --ref PEDIDO-1043"],
  ]);
};
