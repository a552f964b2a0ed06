/**
 * `facturar credit-note --ref R` and `facturar debit-note --ref R`: the note of an issued voucher,
 * built from what the service holds (src/voucher/notes.ts, as `issue --from-ref` builds it), then
 * validated and issued exactly once on `issue`'s own path. Its reference derives from the
 * voucher's (`R-NC1`): a second run finds that note and sends nothing; `--new` makes `R-NC2`.
 */
import type { VoucherResult } from "../batch/result.js";
import type { Context } from "../context.js";
import { type Outcome, UsageError } from "../errors.js";
import { t } from "../i18n/index.js";
import type { SourceVoucher } from "../input/source.js";
import { VAT_CONDITIONS, type VatCondition } from "../voucher/codes.js";
import { argentinaToday, clockFrom, formatDay } from "../voucher/dates.js";
import { Dec } from "../voucher/decimal.js";
import { type NoteKind, type NotePart, noteFromVoucher } from "../voucher/notes.js";
import { issuedVoucher, latestNote } from "./from-ref.js";
import { type IssueFlags, issueVouchers } from "./issue.js";
import { withConnection } from "./online.js";

export interface NoteFlags {
  ref?: string;
  amount?: string;
  items?: string;
  new?: boolean;
  annul?: boolean;
  vatCondition?: string;
  pdf?: boolean;
  out?: string;
  qr?: string;
  report?: string;
}

/** `--items 1,3`: the items, counted from 1, as the voucher lists them. */
function itemsArg(value: string): number[] {
  const parts = value.split(",").map((p) => p.trim());
  if (parts.some((p) => !/^[1-9]\d*$/.test(p)))
    throw new UsageError(
      t("--items takes item numbers counted from 1, comma separated (1,3), not {value}", {
        value: JSON.stringify(value),
      }),
    );
  return parts.map(Number);
}

/** `--amount 1500.50`: the note's total, VAT included. */
function amountArg(value: string): string {
  const amount = Dec.tryParse(value.trim());
  if (!amount || amount.sign() <= 0 || !amount.roundHalfEven(2).eq(amount))
    throw new UsageError(
      t(
        "--amount takes the note's total with VAT, positive, with a decimal point and cents at most (1500.50), not {value}",
        {
          value: JSON.stringify(value),
        },
      ),
    );
  return amount.toFixed(2);
}

function partArg(flags: NoteFlags): NotePart | undefined {
  if (flags.amount !== undefined && flags.items !== undefined)
    throw new UsageError(t("--amount and --items exclude each other: a note adjusts an amount, or some items"));
  if (flags.amount !== undefined) return { amount: amountArg(flags.amount) };
  if (flags.items !== undefined) return { items: itemsArg(flags.items) };
  return undefined;
}

function vatConditionArg(value: string | undefined): VatCondition | undefined {
  if (value === undefined) return undefined;
  const condition = VAT_CONDITIONS.find((c) => c === value.trim().toUpperCase());
  if (!condition)
    throw new UsageError(
      t("--vat-condition takes one of {list}, not {value}", {
        list: VAT_CONDITIONS.join(", "),
        value: JSON.stringify(value),
      }),
    );
  return condition;
}

function noteCommand(kind: NoteKind) {
  return async (ctx: Context, flags: NoteFlags): Promise<Outcome> => {
    const reference = flags.ref?.trim() ?? "";
    if (reference === "")
      throw new UsageError(t("--ref is required: the reference of the issued voucher the note adjusts"));
    const part = partArg(flags);
    const condicionIva = vatConditionArg(flags.vatCondition);
    // FCE id 22 "S": the note annuls the invoice, which a part of it cannot.
    if (flags.annul && part)
      throw new UsageError(t("--annul annuls the whole invoice: it takes no --amount or --items"));
    const fecha = formatDay(argentinaToday(clockFrom(ctx.io.env)()));

    const { note, sequence, existing } = await withConnection(ctx, async (connection) => {
      const found = await issuedVoucher(connection.service, reference);
      const options = {
        kind,
        fecha,
        ...(condicionIva ? { condicionIva } : {}),
        ...(flags.annul ? { annulment: "S" as const } : {}),
        ...(part ? { part } : {}),
      };
      // Built once before anything else is asked: a voucher no note can come from ends here.
      const first = noteFromVoucher(found.raw, options);
      if (flags.annul && !first.envelope.comprobante.rg_especiales)
        throw new UsageError(t("--annul is for the notes of an FCE invoice; {tipo} is not one", { tipo: found.tipo }));
      const existing = (await latestNote(connection.service, first.source, kind)).sequence;
      // Without --new, the latest note again: settled from the journal or the service, or sent
      // if it never was (a lost answer). With it, one more.
      const sequence = flags.new ? existing + 1 : Math.max(existing, 1);
      return {
        note: sequence === 1 ? first : noteFromVoucher(found.raw, { ...options, sequence }),
        sequence,
        existing,
      };
    });
    if (note.assumed.includes("condicion_iva") && !ctx.quiet)
      ctx.err(
        `${ctx.errColor.yellow(t("warning:"))} ${t("the service does not say the customer's VAT condition: {condition} assumed (--vat-condition says it)", { condition: String(note.envelope.cliente.condicion_iva) })}`,
      );
    const total = String(note.envelope.comprobante.total ?? "");
    if (part && "amount" in part && total !== part.amount && !ctx.quiet)
      ctx.err(
        `${ctx.errColor.yellow(t("warning:"))} ${t("the note's total is {total}, not {amount}: with VAT rounded to the cent no net makes {amount} exactly", { total, amount: part.amount })}`,
      );
    const source: SourceVoucher = {
      file: "note",
      index: 0,
      raw: note.envelope,
      readerFindings: [],
      label: `${reference} → ${String(note.envelope.comprobante.external_reference)}`,
      place: (path) => `${String(note.envelope.comprobante.external_reference)}: ${path.join(".")}`,
    };
    const issueFlags: IssueFlags = {
      ...(flags.pdf === false ? { pdf: false } : {}),
      ...(flags.out ? { out: flags.out } : {}),
      ...(flags.qr ? { qr: flags.qr } : {}),
      ...(flags.report ? { report: flags.report } : {}),
    };
    // The note the service holds already: --new, not --allow-duplicate, makes another.
    const settled = (result: VoucherResult): VoucherResult =>
      result.status === "skipped-duplicate" && sequence <= existing
        ? {
            ...result,
            hint: t("this note of {ref} is issued already: not sent again; --new issues another", { ref: reference }),
          }
        : result;
    return issueVouchers(ctx, "instant", [], [source], issueFlags, settled);
  };
}

export const creditNote = noteCommand("credit");
export const debitNote = noteCommand("debit");
