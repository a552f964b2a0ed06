/**
 * The service's other methods, one thin command each: pdf (regenerar_pdf + download),
 * next-number (numeracion), requires-fce (requiere_fec), queue delete|reschedule|retry, and qr.
 */

import { TransportError } from "../api/http.js";
import { preferred, type QueueActionAnswer, type Service, type ServiceVoucher } from "../api/protocol.js";
import { saveDocument } from "../batch/issue.js";
import { type AccountKey, Journal, type JournalState } from "../batch/journal.js";
import { stateDir } from "../config/paths.js";
import type { Context } from "../context.js";
import { FacturarError, type Outcome, UsageError } from "../errors.js";
import { t } from "../i18n/index.js";
import { documentName } from "../output/files.js";
import { voucherNumber, voucherTypeInfo } from "../voucher/codes.js";
import { toIsoDate } from "../voucher/dates.js";
import { Dec } from "../voucher/decimal.js";
import { cuitProblem, describeCuitProblem } from "../voucher/ids.js";
import { decodeQr } from "../voucher/qr.js";
import { date } from "../voucher/schema.js";
import { requiredInt, voucherTypeArg } from "./flags.js";
import { withConnection } from "./online.js";

function tipoOf(value: string | undefined): string {
  if (!value) throw new UsageError(t("--type is required"), t('write it as the service does, e.g. "FACTURA B"'));
  return voucherTypeArg(value);
}

function dateOf(flag: string, value: string | undefined): string {
  const parsed = date().safeParse(value);
  if (!parsed.success) throw new UsageError(t("{flag} takes a date dd/mm/yyyy", { flag }));
  return parsed.data;
}

async function print(ctx: Context, json: Record<string, unknown>, human: string[]): Promise<void> {
  if (ctx.json) await ctx.out(JSON.stringify(json));
  else for (const line of human) await ctx.out(line);
}

/** `facturar pdf --type T --number N [--pv P] [--out DIR]`: fresh links, then both documents saved. */
export async function pdfCommand(
  ctx: Context,
  flags: { type?: string; number?: string; pv?: string; out?: string },
): Promise<Outcome> {
  const tipo = tipoOf(flags.type);
  const numero = requiredInt("--number", flags.number, 1, 99_999_999);
  return withConnection(ctx, async (connection, profile): Promise<Outcome> => {
    const puntoVenta = flags.pv
      ? requiredInt("--pv", flags.pv, 1, 99999)
      : (connection.puntoVenta ?? profile.puntoVenta);
    if (!puntoVenta) throw new UsageError(t("--pv is required: the profile names no point of sale"));
    const links = await connection.service.freshLinks(tipo, puntoVenta, numero);
    const dir = flags.out ?? profile.pdfDir ?? `${process.cwd()}/comprobantes`;
    const regenerate = async () => {
      throw new Error(t("the fresh link did not work"));
    };
    const pdf = await saveDocument(
      connection.service,
      dir,
      `${documentName(tipo, puntoVenta, numero)}.pdf`,
      links.pdf,
      regenerate,
    );
    const ticket = links.ticket
      ? await saveDocument(
          connection.service,
          dir,
          `${documentName(tipo, puntoVenta, numero, "-ticket")}.pdf`,
          links.ticket,
          regenerate,
        )
      : null;
    await print(ctx, { ok: true, pdf, ticket }, [
      `PDF: ${pdf}`,
      ...(ticket ? [t("ticket: {ticket}", { ticket })] : []),
    ]);
    return "done";
  });
}

/** `facturar next-number --type T [--pv P]`: the number the service will give next. */
export async function nextNumberCommand(ctx: Context, flags: { type?: string; pv?: string }): Promise<Outcome> {
  const tipo = tipoOf(flags.type);
  return withConnection(ctx, async (connection, profile): Promise<Outcome> => {
    const puntoVenta = flags.pv
      ? requiredInt("--pv", flags.pv, 1, 99999)
      : (connection.puntoVenta ?? profile.puntoVenta);
    if (!puntoVenta) throw new UsageError(t("--pv is required: the profile names no point of sale"));
    const next = await connection.service.nextNumber(tipo, puntoVenta);
    await print(ctx, { ok: true, tipo, punto_venta: puntoVenta, numero: next }, [
      t("next {tipo} at point of sale {puntoVenta}: {value}", {
        tipo,
        puntoVenta,
        value: voucherNumber(puntoVenta, next),
      }),
    ]);
    return "done";
  });
}

/** `facturar requires-fce --cuit C [--date D]`: must this buyer get a MiPyME credit invoice? */
export async function requiresFceCommand(ctx: Context, flags: { cuit?: string; date?: string }): Promise<Outcome> {
  const cuit = (flags.cuit ?? "").replace(/[-\s.]/g, "");
  const problem = cuitProblem(cuit);
  if (problem) throw new UsageError(t("--cuit: {value}", { value: describeCuitProblem(problem, cuit) }));
  const fecha = flags.date ? dateOf("--date", flags.date) : undefined;
  return withConnection(ctx, async (connection): Promise<Outcome> => {
    const { obligated, from } = await connection.service.requiresFce(cuit, fecha);
    await print(ctx, { ok: true, cuit, esta_obligado: obligated, importe_desde: from }, [
      obligated
        ? t("{cuit} must receive a MiPyME credit invoice (FCE) for amounts from $ {amount}", {
            cuit,
            amount: from.toLocaleString("es-AR", { minimumFractionDigits: 2 }),
          })
        : t("{cuit} does not require FCE: issue an ordinary invoice", { cuit }),
    ]);
    return "done";
  });
}

/** `facturar queue delete|reschedule|retry --ref R ...`: the queue methods of reference §4.2. */
export async function queueCommand(
  ctx: Context,
  action: string,
  flags: { ref?: string; date?: string; due?: string },
): Promise<Outcome> {
  const ref = flags.ref?.trim();
  if (!ref) throw new UsageError(t("--ref is required: the queued voucher's external_reference"));
  let call: (service: Service) => Promise<QueueActionAnswer>;
  /** What the journal says afterwards: the service's queue decides what a later run does. */
  let after: JournalState;
  if (action === "delete") {
    const fecha = flags.date ? dateOf("--date", flags.date) : undefined;
    call = (service) => service.deleteQueued(ref, fecha);
    after = "deleted";
  } else if (action === "reschedule") {
    const fecha = dateOf("--date", flags.date);
    const due = flags.due ? dateOf("--due", flags.due) : undefined;
    call = (service) => service.reschedule(ref, fecha, due);
    after = "queued";
  } else if (action === "retry") {
    call = (service) => service.requeue(ref);
    after = "queued";
  } else {
    throw new UsageError(
      t("queue takes delete, reschedule or retry, not {action}", { action: JSON.stringify(action) }),
    );
  }
  return withConnection(ctx, async (connection, profile): Promise<Outcome> => {
    // These change the queue: never retried blindly (they count against the quota).
    let answer: QueueActionAnswer;
    try {
      answer = await call(connection.service);
    } catch (error) {
      if (!(error instanceof TransportError)) throw error;
      throw new FacturarError(
        t("{action} {ref}: {message}; the service may or may not have done it", {
          action,
          ref,
          message: error.message,
        }),
        "unknown",
        "service.unknown",
        t("check with: facturar query --ref {ref}", { ref }),
      );
    }
    await noteInJournal(ctx, connection.account, profile.name, ref, after);
    const { partial, processed: done } = answer;
    await print(
      ctx,
      { ok: !partial, action, external_reference: ref, partial, procesados: done, errors: answer.errors },
      [
        ...(done.length > 0 ? done : [t("{action}: done for {ref}", { action, ref })]),
        ...(partial ? [t("only partly: {errors}", { errors: answer.errors.join("; ") })] : []),
      ],
    );
    return partial ? "partial" : "done";
  });
}

/**
 * Tells the account's journal what a queue action did, when it knows the reference: a deleted
 * voucher may be sent again by the next run. Best effort: a running batch holds the journal, and
 * the next run asks the service anyway.
 */
async function noteInJournal(
  ctx: Context,
  account: AccountKey,
  profile: string,
  ref: string,
  state: JournalState,
): Promise<void> {
  let journal: Journal | undefined;
  try {
    journal = await Journal.open(stateDir(ctx.io.env), account, { lock: true, profile });
    if (journal.get(ref)) await journal.record({ ref, state, mode: "queued" });
  } catch {
    // Busy or unwritable: the service's queue is the truth, and the next run asks it.
  } finally {
    await journal?.close();
  }
}

interface QrCheck {
  field: string;
  qr: unknown;
  voucher: unknown;
  ok: boolean;
}

/**
 * `facturar qr [URL] [--ref R]`: decodes a voucher's QR payload; with --ref it also fetches the
 * voucher and checks the QR against it (amount, type, number, point of sale, date, CAE, receiver).
 */
export async function qrCommand(ctx: Context, text: string | undefined, flags: { ref?: string }): Promise<Outcome> {
  if (!text && !flags.ref) throw new UsageError(t("give the QR's text (its URL) or --ref to fetch the voucher"));
  const show = async (url: string, found?: ServiceVoucher): Promise<Outcome> => {
    const voucher = found?.raw;
    const data = decodeQr(url);
    if (!data)
      throw new FacturarError(t("not a voucher QR: {value}", { value: url.slice(0, 80) }), "invalid", "qr.invalid");
    const checks: QrCheck[] = [];
    if (voucher) {
      const c = voucher.comprobante;
      const expect = (field: string, qr: unknown, value: unknown, same: boolean) =>
        checks.push({ field, qr, voucher: value, ok: same });
      expect("tipoCmp", data.tipoCmp, c.tipo, voucherTypeInfo(String(c.tipo))?.code === data.tipoCmp);
      expect("ptoVta", data.ptoVta, c.punto_venta, Number(c.punto_venta) === data.ptoVta);
      expect("nroCmp", data.nroCmp, c.numero, Number(c.numero) === data.nroCmp);
      expect("fecha", data.fecha, c.fecha, typeof c.fecha === "string" && toIsoDate(c.fecha) === data.fecha);
      const total = Dec.fromNumber(Number(c.total));
      const importe = Dec.fromNumber(data.importe);
      expect("importe", data.importe, c.total, !!total && !!importe && total.eq(importe));
      expect("moneda", data.moneda, c.moneda, data.moneda === c.moneda);
      expect("codAut", data.codAut, c.cae || "(none)", String(c.cae || "0") === String(data.codAut));
      expect(
        "nroDocRec",
        data.nroDocRec,
        voucher.cliente.documento_nro,
        String(voucher.cliente.documento_nro ?? "").trim() === String(data.nroDocRec ?? ""),
      );
    }
    const ok = checks.every((c) => c.ok);
    if (ctx.json) {
      await ctx.out(JSON.stringify({ ok, qr: data, checks }));
    } else {
      for (const [key, value] of Object.entries(data)) await ctx.out(`${key.padEnd(11)} ${value}`);
      for (const c of checks) {
        await ctx.out(
          `${c.ok ? ctx.color.green("✔") : ctx.color.red("✖")} ${c.field.padEnd(10)} QR ${String(c.qr)}  ${t("voucher")} ${String(c.voucher)}`,
        );
      }
    }
    return ok ? "done" : "invalid";
  };
  if (!flags.ref) return show(text as string);
  return withConnection(ctx, async (connection): Promise<Outcome> => {
    const ref = flags.ref as string;
    const found = preferred(await connection.service.findByReference(ref));
    if (!found)
      throw new FacturarError(
        t("no voucher with reference {ref}", { ref: String(flags.ref) }),
        "rejected",
        "service.not-found",
      );
    const url = text ?? found.qr;
    if (!url)
      throw new FacturarError(
        t("the voucher {ref} has no QR yet (is it still queued?)", { ref: String(flags.ref) }),
        "rejected",
        "qr.missing",
      );
    return show(String(url), found);
  });
}
