/** `facturar query`: by reference, date, type and number, or number range; every page. */

import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import type { AccountKey } from "../api/connection.js";
import type { Service } from "../api/protocol.js";
import { saveDocument } from "../batch/documents.js";
import { Journal } from "../batch/journal.js";
import { stateDir } from "../config/paths.js";
import type { Context } from "../context.js";
import { FacturarError, type Outcome, textOf, UsageError } from "../errors.js";
import { currentLang, t, tn } from "../i18n/index.js";
import { moneyText } from "../output/amounts.js";
import { csvRow, type SheetFormat, sheetFormat, sheetNumber, sheetStart } from "../output/csv.js";
import { jsonText } from "../output/json.js";
import { caeText, mailedLine, pagesLine, stateWord } from "../output/voucher.js";
import { documentName, shortTypeName, voucherNumber, voucherTypeInfo } from "../voucher/codes.js";
import { dayNumber, formatDay } from "../voucher/dates.js";
import type { Operacion, ServiceVoucher } from "../voucher/held.js";
import { notesOf } from "./from-ref.js";
import { withConnection } from "./online.js";
import type { QueryOptions } from "./query.command.js";
import { type Criteria, criteriaOf, type Filters } from "./query-criteria.js";

function kept(v: ServiceVoucher, f: Filters): boolean {
  return (!f.tipos || f.tipos.includes(v.tipo)) && (!f.states || f.states.includes(v.state));
}

/**
 * Every voucher dated from `from` to `to`, day after day, oldest day first; within a day in the
 * order they were stored (the service lists a day newest first, so each day is read whole, then
 * turned round).
 */
export async function* listDates(
  service: Service,
  from: string,
  to: string,
  operacion: Operacion = "V",
): AsyncGenerator<ServiceVoucher> {
  for (let day = dayNumber(from); day <= dayNumber(to); day++) {
    const vouchers: ServiceVoucher[] = [];
    for await (const v of service.listByDate(formatDay(day), operacion)) vouchers.push(v);
    yield* vouchers.reverse();
  }
}

/** Every voucher the criteria match, newest first (a date range: oldest first), page after page. */
async function* queryAll(
  service: Service,
  c: Criteria,
  puntoVenta: number | undefined,
  operacion: Operacion = "V",
): AsyncGenerator<ServiceVoucher> {
  if (c.kind === "number") {
    const found = await service.voucher(c.tipo, puntoVenta, c.numero, operacion);
    if (found) yield found;
    return;
  }
  if (c.kind === "ref") {
    yield* await service.findByReference(c.ref, operacion);
    return;
  }
  if (c.kind === "range") {
    yield* service.listByNumbers(c.tipo, puntoVenta, c.from, c.to, operacion);
    return;
  }
  const listed =
    c.kind === "date" ? service.listByDate(c.date, operacion) : listDates(service, c.from, c.to, operacion);
  for await (const v of listed) if (kept(v, c)) yield v;
}

export async function queryCommand(ctx: Context, flags: QueryOptions): Promise<Outcome> {
  // Which flags go together, the options' schema said already (query-criteria.ts, both).
  const wanted = criteriaOf(flags) as Criteria;
  if (flags.csv && ctx.json) throw new UsageError(t("--csv and --json: choose one"));
  // A spreadsheet's in Spanish (; a decimal comma, a byte order mark), else plain CSV.
  const sheet = sheetFormat(flags, currentLang() === "es");
  const pvFlag = "puntoVenta" in wanted ? wanted.puntoVenta : flags.pv;
  return withConnection(ctx, async (connection, profile): Promise<Outcome> => {
    const operacion: Operacion = flags.purchases ? "C" : "V";
    // A purchase's point of sale is its supplier's: never the profile's.
    const pv = operacion === "C" ? pvFlag : (pvFlag ?? connection.puntoVenta ?? profile.puntoVenta);
    const outDir = flags.out ?? profile.pdfDir ?? `${process.cwd()}/comprobantes`;
    const local = localDocuments(ctx, connection.account, profile.name, outDir);
    const rows: string[][] = [];
    /** Under a reference's table: whether each voucher was e-mailed, and its pages. */
    const notes: string[] = [];
    let count = 0;
    let noReason = false;
    if (wanted.kind === "dates" && !ctx.quiet) {
      const days = dayNumber(wanted.to) - dayNumber(wanted.from) + 1;
      if (days > 31) ctx.err(ctx.errColor.dim(t("reading {days} days, one request or more each…", { days })));
    }
    if (flags.csv) await ctx.out(sheetStart(sheet) + csvRow(CSV_COLUMNS, sheet.delimiter));
    for await (const v of queryAll(connection.service, wanted, pv, operacion)) {
      count++;
      if (v.reasonMissing) noReason = true;
      const issued = v.state === "issued" && v.numero !== null && v.punto_venta !== null;
      const number = issued ? voucherNumber(v.punto_venta as number, v.numero as number) : null;
      let pdf: string | null = null;
      let ticket: string | null = null;
      if (issued && !flags.pdf) ({ pdf, ticket } = await local.documents(v));
      else if (flags.pdf && issued) {
        const { tipo } = v;
        const [puntoVenta, numero] = [v.punto_venta as number, v.numero as number];
        // Both documents, as `issue` saves them: the PDF and, where the service has one, the ticket.
        const save = async (which: "pdf" | "ticket"): Promise<string | null> => {
          const link = which === "pdf" ? v.pdf_url : v.ticket_url;
          if (which === "ticket" && !link) return null;
          try {
            return await saveDocument(
              connection.service,
              outDir,
              `${documentName(tipo, puntoVenta, numero, which === "ticket" ? "-ticket" : "")}.pdf`,
              link,
              async () => (await connection.service.freshLinks(tipo, puntoVenta, numero, v.operacion))[which],
            );
          } catch (error) {
            const message = textOf(error);
            ctx.err(
              `${ctx.errColor.yellow(t("warning:"))} ${tipo} ${number}: ${which === "pdf" ? t("PDF not saved: {message}", { message }) : t("ticket not saved: {message}", { message })}`,
            );
            return null;
          }
        };
        pdf = await save("pdf");
        ticket = await save("ticket");
      }
      if (flags.csv) {
        await ctx.out(csvRow(csvCells(v, number, pdf, sheet), sheet.delimiter));
      } else if (ctx.json) {
        await ctx.out(
          jsonText({
            // A voucher result, as issue's (schema/output.schema.json), then the service's record.
            ok: v.state !== "queue-error",
            status: v.state,
            external_reference: v.external_reference,
            comprobante_tipo: v.tipo,
            punto_venta: v.punto_venta,
            numero: v.numero,
            comprobante_nro: number,
            cae: v.cae,
            vencimiento_cae: v.vencimiento_cae,
            vencimiento_pago: v.vencimiento_pago,
            qr: v.qr,
            pdf,
            ticket,
            errors: v.errors,
            error_details: v.errors.map((text) => ({ code: "service.queue-error", text })),
            observations: v.observations,
            ...v.raw,
          }),
        );
      } else {
        rows.push([
          shortTypeName(v.tipo),
          number ?? t("(queued)"),
          v.fecha ?? "",
          // A table cell holds one line: the service's line breaks (`#@#`) read as spaces there.
          String((v.raw.cliente ?? v.raw.proveedor)?.razon_social ?? "").replace(/\s*\n\s*/g, " "),
          v.total ? moneyText(v.total, v.raw.comprobante.moneda) : "",
          stateWord(v.state),
          v.external_reference,
          pdf ?? "",
        ]);
        if (wanted.kind === "ref") notes.push(...(await referenceNotes(v, number, local, connection.service)));
      }
    }
    await local.close();
    if (!ctx.json && !flags.csv) {
      const withPdf = flags.pdf === true || rows.some((r) => r[7] !== "");
      if (rows.length === 0) {
        ctx.err(
          wanted.kind === "ref" ? t("no voucher with reference {ref}", { ref: wanted.ref }) : t("no voucher found"),
        );
        // A reference read over the phone often comes in another case; the service matches it exactly.
        if (wanted.kind === "ref" && wanted.ref !== wanted.ref.toUpperCase())
          ctx.err(t("hint: references match exactly, capitals too: try {upper}", { upper: wanted.ref.toUpperCase() }));
      } else
        for (const line of table(
          [
            t("type"),
            t("number"),
            t("date"),
            t("customer"),
            t("total"),
            t("status"),
            t("reference"),
            ...(withPdf ? ["pdf"] : []),
          ],
          rows,
          withPdf,
        ))
          await ctx.out(line);
      for (const note of notes) await ctx.out(`  ${note}`);
    }
    if (!ctx.quiet && !ctx.json && (count > 0 || flags.csv)) ctx.err(tn(count, "{n} voucher", "{n} vouchers"));
    // A voucher that failed in the queue: its listing says only so; where the reason is.
    if (noReason && !ctx.quiet && !ctx.json)
      ctx.err(
        ctx.errColor.dim(
          t(
            "the service's answer gives no reason, only its status; the reason went to the point of sale's webhook (event error, its msg), and the service's web panel shows the webhooks of the last 3 days",
          ),
        ),
      );
    if (count > 0) return "done";
    // A script asking about a reference learns "not there" from the exit code, or from JSON: the
    // error object every command prints.
    if (ctx.json)
      throw new FacturarError(
        wanted.kind === "ref" ? t("no voucher with reference {ref}", { ref: wanted.ref }) : t("no voucher found"),
        "notFound",
        "service.not-found",
      );
    return "notFound";
  });
}

/** `query --csv`: one row per voucher; new columns go at the end (scripts read them by position). */
const CSV_COLUMNS = [
  "fecha",
  "tipo",
  "punto_venta",
  "numero",
  "comprobante_nro",
  "documento_tipo",
  "documento_nro",
  "razon_social",
  "moneda",
  "total",
  // Ours (issued, queued, queue-error) as JSON's `status`, then the service's word (EMITIDO…).
  "status",
  "estado",
  "external_reference",
  "cae",
  "pdf",
];

function csvCells(v: ServiceVoucher, number: string | null, pdf: string | null, sheet: SheetFormat): (string | null)[] {
  const { comprobante } = v.raw;
  // A purchase's party is its supplier.
  const cliente = v.raw.cliente ?? v.raw.proveedor ?? {};
  return [
    v.fecha,
    v.tipo,
    v.punto_venta === null ? null : String(v.punto_venta),
    v.numero === null ? null : String(v.numero),
    number,
    String(cliente.documento_tipo ?? ""),
    String(cliente.documento_nro ?? ""),
    String(cliente.razon_social ?? ""),
    String(comprobante.moneda ?? ""),
    v.total === null ? null : sheetNumber(v.total, sheet),
    v.state,
    v.status,
    v.external_reference,
    v.cae,
    pdf,
  ];
}

/**
 * `FACTURA B 00679-00000001: e-mailed to a@b` and its pages: what the service's item says, else
 * (the listings do not carry `envio_x_mail`, reference §6.9) what this machine's journal saw
 * when it was issued.
 */
async function referenceNotes(
  v: ServiceVoucher,
  number: string | null,
  local: ReturnType<typeof localDocuments>,
  service: Service,
): Promise<string[]> {
  const who = `${v.tipo} ${number ?? t("(queued)")}`;
  const notes: string[] = [];
  // Support's first question: the authorisation code.
  if (v.state === "issued") notes.push(`${who}: ${caeText(v.cae, v.vencimiento_cae)}`);
  // Failed in the queue: what the service says of it (its status text, or its reasons).
  if (v.state === "queue-error" && v.errors.length > 0) notes.push(`${who}: ${v.errors.join("; ")}`);
  const mailed =
    v.envio_x_mail === true
      ? (v.envio_x_mail_direcciones ?? [])
      : v.envio_x_mail === false || v.state !== "issued"
        ? undefined
        : await local.mailedTo(v);
  if (mailed) notes.push(`${who}: ${mailedLine(mailed)}`);
  const pages = v.micrositios && pagesLine(v.micrositios);
  if (pages) notes.push(`${who}: ${pages}`);
  // Support's next question: has it been credited? The notes this tool makes of it, by reference.
  const info = voucherTypeInfo(v.tipo);
  if (v.state === "issued" && info?.kind === "invoice" && v.punto_venta !== null && v.numero !== null) {
    const source = {
      tipo: v.tipo,
      punto_venta: v.punto_venta,
      numero: v.numero,
      fecha: v.fecha ?? "",
      total: v.total,
      external_reference: v.external_reference,
    };
    for (const kind of ["credit", "debit"] as const) {
      const made = await notesOf(service, source, kind);
      if (made.length > 0)
        notes.push(
          `${who}: ${kind === "credit" ? t("credit notes:") : t("debit notes:")} ${made
            .map(
              (n) =>
                `${n.external_reference} (${n.punto_venta !== null && n.numero !== null ? voucherNumber(n.punto_venta, n.numero) : t("(queued)")}, ${moneyText(n.total ?? "", n.raw.comprobante.moneda)}, ${stateWord(n.state)})`,
            )
            .join("; ")}`,
        );
    }
  }
  return notes;
}

/**
 * Where an issued voucher's PDF and ticket already are on this machine: in the output folder under the name
 * the tool gives it, else where the journal says it was saved. The journal is read only if asked.
 */
function localDocuments(ctx: Context, account: AccountKey, profile: string, outDir: string) {
  let journal: Promise<Journal | undefined> | undefined;
  const named = (v: ServiceVoucher, suffix = "") => {
    const path = join(
      resolve(outDir),
      `${documentName(v.tipo, v.punto_venta as number, v.numero as number, suffix)}.pdf`,
    );
    return existsSync(path) ? path : null;
  };
  /** The journal's entry of this very voucher (type, point of sale and number), if it has one. */
  const journaled = async (v: ServiceVoucher) => {
    journal ??= Journal.open(stateDir(ctx.io.env), account, { lock: false, readOnly: true, profile }).catch(
      () => undefined,
    );
    const entry = (await journal)?.get(v.external_reference);
    return entry?.tipo === v.tipo && entry.punto_venta === v.punto_venta && entry.numero === v.numero
      ? entry
      : undefined;
  };
  return {
    /** The addresses the service e-mailed it to when this machine issued it; undefined when not known so. */
    async mailedTo(v: ServiceVoucher): Promise<string[] | undefined> {
      return (await journaled(v))?.envio_x_mail_direcciones;
    },
    async documents(v: ServiceVoucher): Promise<{ pdf: string | null; ticket: string | null }> {
      const [pdf, ticket] = [named(v), named(v, "-ticket")];
      if (pdf) return { pdf, ticket };
      const entry = await journaled(v);
      if (!entry) return { pdf: null, ticket };
      const saved = (path: string | null | undefined) => (path && existsSync(path) ? resolve(path) : null);
      return { pdf: saved(entry.pdf), ticket: ticket ?? saved(entry.ticket) };
    },
    async close(): Promise<void> {
      await (await journal)?.close();
    },
  };
}

function table(head: string[], rows: string[][], withPdf: boolean): string[] {
  const all = [head, ...rows.map((r) => (withPdf ? r : r.slice(0, -1)))];
  // Cells are cut at 40 characters, but not a PDF's path: a cut one leads nowhere.
  const widths = head.map((_, i) =>
    Math.min(i === 7 ? Infinity : 40, Math.max(...all.map((r) => (r[i] ?? "").length))),
  );
  const fmt = (r: string[]) =>
    r
      .map((cell, i) => {
        const text = cell.length > (widths[i] ?? 0) ? `${cell.slice(0, (widths[i] ?? 1) - 1)}…` : cell;
        return i === 4 ? text.padStart(widths[i] ?? 0) : text.padEnd(widths[i] ?? 0);
      })
      .join("  ")
      .trimEnd();
  return all.map(fmt);
}
