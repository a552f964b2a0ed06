/** `facturar credit-note` and `facturar debit-note`: flags, help and examples; the action is ./note.ts. */
import { t } from "../i18n/index.js";
import { type Define, examples } from "./define.js";
import type * as Kit from "./options.js";

/** credit-note's and debit-note's options, read before they run. */
export const options = (o: typeof Kit) =>
  o.z
    .object({
      ref: o.text(t("the reference of the issued voucher the note adjusts")),
      amount: o.totalAmount().optional(),
      items: o.itemNumbers().optional(),
      new: o.bool(),
      annul: o.bool(),
      vatCondition: o.vatCondition().optional(),
      mail: o.bool(),
      out: o.string(),
      pdf: o.bool(),
      qr: o.string(),
      report: o.string(),
    })
    .superRefine((flags, ctx) => {
      if (flags.amount !== undefined && flags.items !== undefined)
        o.rule(ctx, t("--amount and --items exclude each other: a note adjusts an amount, or some items"));
      else if (flags.annul && (flags.amount !== undefined || flags.items !== undefined))
        o.rule(ctx, t("--annul annuls the whole invoice: it takes no --amount or --items"));
    });
export type NoteOptions = Kit.Output<typeof options>;

function noteDefinition(kind: "credit" | "debit"): Define {
  return (program, run) => {
    const name = kind === "credit" ? "credit-note" : "debit-note";
    const command = program
      .command(name)
      .description(
        kind === "credit"
          ? t("issue the credit note of an issued voucher, built from what the service holds; once")
          : t("issue the debit note of an issued voucher, built from what the service holds; once"),
      )
      .option(`--ref ${t("<reference>")}`, t("the reference of the issued voucher the note adjusts"))
      .option(
        `--amount ${t("<total>")}`,
        t("a partial note of this total, VAT included, split over the voucher's VAT rates as it had them"),
      )
      .option(
        `--items ${t("<list>")}`,
        t("a partial note of these items of the voucher, whole (1,3: the first and third)"),
      )
      .option(
        "--new",
        t("issue one more note of the voucher (R-NC2…); without it a note issued before is not repeated"),
      )
      .option("--annul", t("FCE: the note annuls the invoice (opcional 22 = S); by default it does not (N)"))
      .option(
        `--vat-condition ${t("<code>")}`,
        t(
          "the customer's VAT condition (RI, CF, M, E…); the service does not say it, so the class's usual one is assumed",
        ),
      )
      .option(
        "--mail",
        t(
          "e-mail the note to the addresses of the voucher (the service does not say whether the voucher was e-mailed)",
        ),
      )
      .option(
        `--out ${t("<dir>")}`,
        t("folder for PDFs and tickets (default: the profile's pdf_dir, else ./comprobantes)"),
      )
      .option("--no-pdf", t("do not download the PDF and the ticket"))
      .option(`--qr ${t("<target>")}`, t("write each voucher's QR to FILE.png, or draw it: --qr terminal"))
      .option(`--report ${t("<file.csv>")}`, t("write one CSV row per voucher as it settles"))
      .action(run(async () => (await import("./note.js"))[kind === "credit" ? "creditNote" : "debitNote"], options));
    examples(
      command,
      kind === "credit"
        ? [
            [
              t("cancel the whole voucher VENTA-0001 (its note is VENTA-0001-NC1)"),
              "facturar credit-note --ref VENTA-0001",
            ],
            [t("give back 1500.50 of it, VAT included"), "facturar credit-note --ref VENTA-0001 --amount 1500.50"],
            [t("credit its first and third items"), "facturar credit-note --ref VENTA-0001 --items 1,3"],
            [t("a second credit note of the same voucher"), "facturar credit-note --ref VENTA-0001 --new --amount 200"],
          ]
        : [
            [
              t("charge 350 more on the voucher VENTA-0001, VAT included"),
              "facturar debit-note --ref VENTA-0001 --amount 350",
            ],
            [t("undo the credit note VENTA-0001-NC1"), "facturar debit-note --ref VENTA-0001-NC1"],
          ],
    );
  };
}

export const defineCreditNote = noteDefinition("credit");
export const defineDebitNote = noteDefinition("debit");
