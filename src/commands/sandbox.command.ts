/** `facturar sandbox`: flags, help and examples; the action is ./sandbox.ts. */
import { t } from "../i18n/index.js";
import { type Define, examples } from "./define.js";
import type * as Kit from "./options.js";

/** sandbox's options, read before it runs (--fault and --webhook joined to their variables' in the action). */
export const options = (o: typeof Kit) =>
  o.z.object({
    port: o.int(0, 65535),
    host: o.loopback(),
    dataDir: o.string(),
    fault: o.list(o.faultSpec()),
    likeProduction: o.bool(),
    webhook: o.list(o.webhookSpec()),
    queueInterval: o.int(10, 3_600_000),
    quota: o.int(1, 100_000_000).optional(),
    ceiling: o.int(1, 1_000_000_000_000).optional(),
  });
export type SandboxOptions = Kit.Output<typeof options>;

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

export const define: Define = (program, run) => {
  const command = program
    .command("sandbox")
    .description(t("run the embedded development-mode service on loopback until stopped (Ctrl-C)"))
    .option(`--port ${t("<port>")}`, t("port to listen on; 0 takes a free one"), "0")
    .option(`--host ${t("<address>")}`, t("loopback address to listen on"), "127.0.0.1")
    .option(
      `--data-dir ${t("<dir>")}`,
      t("where the service keeps its state (default $XDG_DATA_HOME/facturar/sandbox)"),
    )
    .option(
      `--fault ${t("<name=value>")}`,
      t(
        "inject a fault (repeatable; also FACTURAR_SANDBOX_FAULTS): latency=MS, spacing=MS, slow-commit=MS, page-size=N, error5xx=RATE, ratelimit=RATE, drop-before=RATE, drop-after-commit=RATE, queue-error=RATE, observe=RATE, maintenance, authority-down, plan-ended, authority-checks, webhook-required",
      ),
      collect,
      [],
    )
    .option(
      "--like-production",
      t(
        "behave like the real service: latency=80, spacing=100, the authority's checks the development plan skips (authority-checks), and queued vouchers refused at a point of sale without a webhook URL (webhook-required); --fault may change them",
      ),
    )
    .option(
      `--webhook ${t("<url|pv=url>")}`,
      t(
        "the webhook URL of every point of sale, or of one (repeatable; also FACTURAR_SANDBOX_WEBHOOK): queued issuing needs it like production; the sandbox sends nothing to it",
      ),
      collect,
      [],
    )
    .option(`--queue-interval ${t("<ms>")}`, t("how often the queue worker runs"), "1000")
    .option(`--quota ${t("<n>")}`, t("the plan's voucher quota (the development plan has 1500)"))
    .option(`--ceiling ${t("<pesos>")}`, t("the final-consumer ceiling topecf answers (default 10000000)"))
    .action(run(async () => (await import("./sandbox.js")).sandboxCommand, options));
  examples(command, [
    [t("a service for other programs on a fixed port"), "facturar sandbox --port 8080"],
    [
      t("one that fails a tenth of the time, to try a batch against"),
      "facturar sandbox --fault error5xx=0.1 --fault latency=200",
    ],
    [t("as slow and as strict as the real service"), "facturar sandbox --port 8080 --like-production"],
    [
      t("the same, with the webhook URL that queued issuing needs"),
      "facturar sandbox --port 8080 --like-production --webhook https://example.com/hooks/facturar",
    ],
  ]);
};
