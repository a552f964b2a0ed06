/** `facturar issue-queued`: flags, help and examples; the action is ./issue.ts. */
import { QUEUED_BATCH_MAX } from "../batch/limits.js";
import { t } from "../i18n/index.js";
import { type Define, examples, inputOptions, inputShape, paragraph } from "./define.js";
import type * as Kit from "./options.js";

/** issue-queued's options, read before it runs. */
export const options = (o: typeof Kit) =>
  o.z
    .object({
      ...inputShape(o),
      wait: o.bool(),
      timeout: o.seconds().optional(),
      batchSize: o.int(1, QUEUED_BATCH_MAX).optional(),
      requeue: o.bool(),
    })
    .superRefine((flags, ctx) => {
      if (flags.timeout !== undefined && !flags.wait) o.rule(ctx, t("--timeout goes with --wait"));
    });
export type IssueQueuedOptions = Kit.Output<typeof options>;

export const define: Define = (program, run) => {
  const command = inputOptions(
    program
      .command("issue-queued")
      .description(t("issue vouchers through the service's queue; --wait follows them to the end")),
  )
    .option("--wait", t("wait until each voucher is issued or fails, then save its PDF"))
    .option(`--timeout ${t("<seconds>")}`, t("with --wait: give up waiting after this long (default 300)"))
    .option(
      `--batch-size ${t("<n>")}`,
      t("vouchers per queued batch call (lotes_encola), 1 to 100 (default 100); 1 sends them one by one"),
    )
    .option(
      "--requeue",
      t("put vouchers that failed in the service's queue back in it (reenviar_encolado), once their cause is fixed"),
    )
    .action(run(async () => (await import("./issue.js")).issueQueued, options));
  command.addHelpText("after", () =>
    paragraph(
      t(
        "The service takes queued vouchers only at a point of sale with a webhook URL, set in its web panel (Mi espacio de trabajo > CUITs / PDV); without one it refuses them at once, and the run stops saying so. --wait follows them by polling; it does not replace the webhook. The sandbox asks for one like production: facturar sandbox --like-production --webhook URL.",
      ),
    ),
  );
  examples(command, [
    [t("queue a batch and return at once"), "facturar issue-queued lote.csv"],
    [t("queue it and wait up to 10 minutes for every voucher"), "facturar issue-queued --wait --timeout 600 lote.csv"],
    [t("send again the ones that failed, once fixed"), "facturar issue-queued --requeue lote.csv"],
  ]);
};
