/** `facturar issue`: flags, help and examples; the action is ./issue.ts. */
import { INSTANT_BATCH_MAX } from "../batch/limits.js";
import { t } from "../i18n/index.js";
import { type Define, examples, inputOptions, inputShape } from "./define.js";
import type * as Kit from "./options.js";

/** issue's options, read before it runs. */
export const options = (o: typeof Kit) =>
  o.z.object({
    ...inputShape(o),
    interactive: o.bool(),
    fromRef: o.reference().optional(),
    batchSize: o.int(1, INSTANT_BATCH_MAX).optional(),
  });
export type IssueOptions = Kit.Output<typeof options>;

export const define: Define = (program, run) => {
  const command = inputOptions(
    program.command("issue").description(t("issue vouchers now (instant mode), each exactly once; PDFs saved")),
  )
    .option("-i, --interactive", t("no file: ask for the voucher on the terminal, show its totals, then issue it"))
    .option(
      `--from-ref ${t("<reference>")}`,
      t(
        "ask for a credit or debit note of the voucher issued under this reference, pre-filled (implies --interactive)",
      ),
    )
    .option(
      `--batch-size ${t("<n>")}`,
      t("vouchers of one type per batch call (lotes), 1 to 20 (default 20); 1 sends them one by one"),
    )
    .action(run(async () => (await import("./issue.js")).issueInstant, options));
  examples(command, [
    [t("issue one voucher; its PDF goes to ./comprobantes"), "facturar issue factura.json"],
    [t("no file yet: answer questions on the terminal"), "facturar issue --interactive"],
    [t("a credit note of an issued voucher, its answers pre-filled"), "facturar issue --from-ref VENTA-0001"],
    [
      t("a nightly batch from cron: NDJSON results and a CSV report"),
      "facturar --json issue --report informe.csv lote.csv",
    ],
    [t("with another profile, PDFs in a folder of your choice"), "facturar -p pv3 issue --out ~/facturas lote.csv"],
  ]);
};
