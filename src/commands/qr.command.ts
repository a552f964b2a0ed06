/** `facturar qr`: flags, help and examples; the action is ./qr.ts. */
import { t } from "../i18n/index.js";
import { type Define, examples } from "./define.js";
import type * as Kit from "./options.js";

/** qr's options, read before it runs. */
export const options = (o: typeof Kit) => o.z.object({ ref: o.reference().optional() });
export type QrOptions = Kit.Output<typeof options>;

export const define: Define = (program, run) => {
  const command = program
    .command("qr")
    .description(t("decode a voucher's QR payload; with --ref, check it against the voucher"))
    .argument(t("[url]"), t("the QR's text (https://www.afip.gob.ar/fe/qr/?p=...)"))
    .option(`--ref ${t("<reference>")}`, t("fetch the voucher by external_reference and check its QR"))
    .action(run(async () => (await import("./qr.js")).qrCommand, options));
  examples(command, [
    [
      t("what a QR says (its text, read with a phone or a scanner)"),
      "facturar qr 'https://www.afip.gob.ar/fe/qr/?p=eyJ2ZXIiOjEs...'",
    ],
    [t("check an issued voucher's QR against the voucher"), "facturar qr --ref PEDIDO-1043"],
  ]);
};
