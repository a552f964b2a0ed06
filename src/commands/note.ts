/**
 * `facturar credit-note --ref R` and `facturar debit-note --ref R`: the note of an issued voucher,
 * built from what the service holds (src/voucher/notes.ts, as `issue --from-ref` builds it), then
 * validated and issued exactly once on `issue`'s own path. Its reference derives from the
 * voucher's (`R-NC1`): a second run finds that note and sends nothing; `--new` makes `R-NC2`.
 */

import type { AccountKey } from "../api/connection.js";
import type { Service } from "../api/protocol.js";
import { inFlight, Journal } from "../batch/journal.js";
import type { VoucherResult } from "../batch/result.js";
import { stateDir } from "../config/paths.js";
import type { Context } from "../context.js";
import { type Outcome, UsageError } from "../errors.js";
import { t, tn } from "../i18n/index.js";
import { readableNumber } from "../i18n/numbers.js";
import type { SourceVoucher } from "../input/source.js";
import { amount as readableAmount } from "../voucher/amount.js";
import { voucherNumber } from "../voucher/codes.js";
import { argentinaToday, clockFrom, formatDay } from "../voucher/dates.js";
import { Dec } from "../voucher/decimal.js";
import type { ServiceVoucher } from "../voucher/held.js";
import {
  type BuiltNote,
  type NoteKind,
  type NotePart,
  NotePartError,
  type NoteSource,
  noteFromVoucher,
  noteReference,
} from "../voucher/notes.js";
import { issuedVoucher, notesOf } from "./from-ref.js";
import { type IssueFlags, issueVouchers } from "./issue.js";
import type { NoteOptions } from "./note.command.js";
import { withConnection } from "./online.js";

/**
 * The first note of the voucher this account's journal holds as sent and never settled
 * (`sending`, `unknown`): among the notes the service holds, or the one after them.
 */
async function unsettledNote(
  ctx: Context,
  account: AccountKey,
  profile: string,
  source: NoteSource,
  kind: NoteKind,
  existing: number,
): Promise<number | undefined> {
  const journal = await Journal.open(stateDir(ctx.io.env), account, { lock: false, readOnly: true, profile });
  try {
    for (let sequence = 1; ; sequence++) {
      const entry = journal.get(noteReference(source, kind, sequence));
      if (inFlight(entry)) return sequence;
      if (sequence > existing && entry === undefined) return undefined;
    }
  } finally {
    await journal.close();
  }
}

/** What the service's answer says a voucher is worth; zero when it says nothing readable. */
function worth(voucher: ServiceVoucher): Dec {
  return Dec.tryParse(voucher.total ?? "") ?? Dec.ZERO;
}

/** The perceptions and other tributos in a voucher or note (`comprobante.tributos[].total`). */
function tributosOf(comprobante: Record<string, unknown> | undefined): Dec {
  const tributos = Array.isArray(comprobante?.tributos) ? (comprobante.tributos as { total?: unknown }[]) : [];
  return Dec.sum(tributos.map((x) => Dec.tryParse(String(x.total ?? "")) ?? Dec.ZERO));
}

/**
 * A credit note may not take what the voucher's credit notes credit above what it charged, its
 * debit notes included: each note alone fits, nine of them did not. Counted twice: in totals,
 * and without perceptions, so that notes of amounts (which carry none) do not give back the
 * perceptions as net and VAT a few notes at a time.
 */
async function withinVoucherTotal(
  service: Service,
  voucher: ServiceVoucher,
  note: BuiltNote,
  credits: ServiceVoucher[],
): Promise<void> {
  const debits = await notesOf(service, note.source, "debit");
  const live = (notes: ServiceVoucher[]) => notes.filter((n) => n.state !== "queue-error");
  const noteTotal = Dec.parse(String(note.envelope.comprobante.total ?? "0"));
  const measures = [
    { of: worth, amount: noteTotal },
    {
      of: (v: ServiceVoucher) => worth(v).sub(tributosOf(v.raw.comprobante)),
      amount: noteTotal.sub(tributosOf(note.envelope.comprobante)),
    },
  ];
  for (const { of, amount } of measures) {
    const sum = (notes: ServiceVoucher[]) => Dec.sum(live(notes).map(of));
    const charged = of(voucher).add(sum(debits));
    const credited = sum(credits);
    if (credited.add(amount).cmp(charged) <= 0) continue;
    const left = charged.sub(credited);
    throw new NotePartError(
      tn(
        live(credits).length,
        "{credited} credited already to {tipo} {numero} by {n} credit note: one of {amount} more would credit more than its {total} (its debit notes included); {left} left to credit",
        "{credited} credited already to {tipo} {numero} by {n} credit notes: one of {amount} more would credit more than its {total} (its debit notes included); {left} left to credit",
        {
          credited: readableAmount(credited),
          tipo: voucher.tipo,
          numero: voucherNumber(note.source.punto_venta, note.source.numero),
          amount: readableAmount(amount),
          total: readableAmount(charged),
          left: readableAmount(left.sign() > 0 ? left : Dec.ZERO),
        },
      ),
      left.sign() > 0 ? t("a note of what is left: --amount {left}", { left: left.toFixed(2) }) : undefined,
    );
  }
}

function noteCommand(kind: NoteKind) {
  return async (ctx: Context, flags: NoteOptions): Promise<Outcome> => {
    const reference = flags.ref;
    const part: NotePart | undefined =
      flags.amount !== undefined
        ? { amount: flags.amount }
        : flags.items !== undefined
          ? { items: flags.items }
          : undefined;
    const condicionIva = flags.vatCondition;
    // FCE id 22 "S": the note annuls the invoice, which a part of it cannot (the options' schema refuses both).
    const fecha = formatDay(argentinaToday(clockFrom(ctx.io.env)()));

    const { note, sequence, existing, resumed } = await withConnection(ctx, async (connection, profile) => {
      const found = await issuedVoucher(connection.service, reference);
      const options = {
        kind,
        fecha,
        ...(condicionIva ? { condicionIva } : {}),
        ...(flags.annul ? { annulment: "S" as const } : {}),
        ...(part ? { part } : {}),
        ...(flags.mail ? { mail: true } : {}),
      };
      // Built once before anything else is asked: a voucher no note can come from ends here.
      const first = noteFromVoucher(found.raw, options);
      if (flags.annul && !first.envelope.comprobante.rg_especiales)
        throw new UsageError(t("--annul is for the notes of an FCE invoice; {tipo} is not one", { tipo: found.tipo }));
      const notes = await notesOf(connection.service, first.source, kind);
      const existing = notes.length;
      // A note an earlier run sent and never settled (killed before the answer came) was that
      // run's intention: it is resumed on issue's path, which asks the service, and no other is
      // made until it is settled; with --new too, for "run it again" must not issue a second.
      const unsettled = await unsettledNote(ctx, connection.account, profile.name, first.source, kind, existing);
      // Without --new, the latest note again: settled from the journal or the service, or sent
      // if it never was (a lost answer). With it, one more.
      const sequence = unsettled ?? (flags.new ? existing + 1 : Math.max(existing, 1));
      const note = sequence === 1 ? first : noteFromVoucher(found.raw, { ...options, sequence });
      // Only a note the service does not hold yet credits anything more.
      if (kind === "credit" && sequence > existing) await withinVoucherTotal(connection.service, found, note, notes);
      return { note, sequence, existing, resumed: unsettled !== undefined };
    });
    if (resumed && !ctx.quiet)
      ctx.err(
        `${ctx.errColor.yellow(t("warning:"))} ${t("{ref} was sent by an earlier run that did not see it settled: settled now, not another note", { ref: String(note.envelope.comprobante.external_reference) })}`,
      );
    if (note.assumed.includes("condicion_iva") && !ctx.quiet)
      ctx.err(
        `${ctx.errColor.yellow(t("warning:"))} ${t("the service does not say the customer's VAT condition: {condition} assumed (--vat-condition says it)", { condition: String(note.envelope.cliente.condicion_iva) })}`,
      );
    const total = String(note.envelope.comprobante.total ?? "");
    if (part && "amount" in part && total !== part.amount && !ctx.quiet)
      ctx.err(
        `${ctx.errColor.yellow(t("warning:"))} ${t("the note's total is {total}, not {amount}: with VAT rounded to the cent no net makes {amount} exactly", { total: readableNumber(total), amount: readableNumber(part.amount) })}`,
      );
    // Dated today when it is issued, not as part of what it says: asked again tomorrow (a lost
    // answer, a crash), it is the same note, not a conflict.
    const { fecha: _fecha, vencimiento: _due, ...undated } = note.envelope.comprobante as Record<string, unknown>;
    const source: SourceVoucher = {
      file: "note",
      index: 0,
      raw: { ...note.envelope, comprobante: undated },
      datedByCommand: true,
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
    const settled = (result: VoucherResult): VoucherResult => {
      if (sequence > existing) return result;
      if (result.status === "skipped-duplicate")
        return {
          ...result,
          hint: t("this note of {ref} is issued already: not sent again; --new issues another", { ref: reference }),
        };
      // The same note asked again for another amount or items: a conflict, not silently "done".
      if (result.status === "conflict")
        return {
          ...result,
          hint: t(
            "{note}, the note of {ref} issued before, is for another amount or items: nothing sent; --new issues another note",
            { note: result.external_reference, ref: reference },
          ),
        };
      return result;
    };
    return issueVouchers(ctx, "instant", [], [source], issueFlags, settled);
  };
}

export const creditNote = noteCommand("credit");
export const debitNote = noteCommand("debit");
