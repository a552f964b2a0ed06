/** `facturar query`: by reference, date, type and number, or number range; every page. */

import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Operacion, Service, ServiceVoucher } from "../api/protocol.js";
import { saveDocument } from "../batch/issue.js";
import { type AccountKey, Journal } from "../batch/journal.js";
import { stateDir } from "../config/paths.js";
import type { Context } from "../context.js";
import { type Outcome, UsageError } from "../errors.js";
import { t, tn } from "../i18n/index.js";
import { amount } from "../output/amount.js";
import { documentName } from "../output/files.js";
import { voucherNumber } from "../voucher/codes.js";
import { date } from "../voucher/schema.js";
import { optionalInt, pointOfSaleArg, type VoucherNumberArg, voucherNumberArg, voucherTypeArg } from "./flags.js";
import { withConnection } from "./online.js";

export interface QueryFlags {
  ref?: string;
  date?: string;
  type?: string;
  number?: string;
  from?: string;
  to?: string;
  pv?: string;
  pdf?: boolean;
  out?: string;
  /** Purchases (`operacion: "C"`) instead of sales. */
  purchases?: boolean;
}

/** `puntoVenta`: the one --pv names, or the one printed in a number (`00679-00000002`). */
type Criteria =
  | { kind: "ref"; ref: string }
  | { kind: "date"; date: string }
  | { kind: "number"; tipo: string; numero: number; puntoVenta?: number }
  | { kind: "range"; tipo: string; from: number; to: number; puntoVenta?: number };

export function criteria(flags: QueryFlags): Criteria {
  const chosen = [flags.ref !== undefined, flags.date !== undefined, flags.type !== undefined].filter(Boolean).length;
  if (chosen !== 1)
    throw new UsageError(t("query takes one of: --ref R | --date D | --type T --number N | --type T --from N --to M"));
  if (flags.ref !== undefined) {
    if (flags.ref.trim() === "") throw new UsageError(t("--ref needs a reference"));
    return { kind: "ref", ref: flags.ref.trim() };
  }
  if (flags.date !== undefined) {
    const parsed = date().safeParse(flags.date);
    if (!parsed.success)
      throw new UsageError(t("--date takes dd/mm/yyyy, not {date}", { date: JSON.stringify(flags.date) }));
    return { kind: "date", date: parsed.data };
  }
  const tipo = voucherTypeArg(String(flags.type));
  if (flags.number !== undefined) {
    if (flags.from !== undefined || flags.to !== undefined)
      throw new UsageError(t("--number does not go with --from/--to"));
    const number = voucherNumberArg("--number", flags.number) as VoucherNumberArg;
    return { kind: "number", tipo, numero: number.numero, ...pointOfSale(flags.pv, number) };
  }
  if (flags.from === undefined || flags.to === undefined)
    throw new UsageError(t("--type needs --number N, or --from N and --to M"));
  const from = voucherNumberArg("--from", flags.from) as VoucherNumberArg;
  const to = voucherNumberArg("--to", flags.to) as VoucherNumberArg;
  if (from.numero > to.numero) throw new UsageError(t("--from is after --to"));
  return { kind: "range", tipo, from: from.numero, to: to.numero, ...pointOfSale(flags.pv, from, to) };
}

/** Every voucher the criteria match, newest first, page after page. */
export async function* queryAll(
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
  yield* c.kind === "date"
    ? service.listByDate(c.date, operacion)
    : service.listByNumbers(c.tipo, puntoVenta, c.from, c.to, operacion);
}

function pointOfSale(pv: string | undefined, ...numbers: VoucherNumberArg[]): { puntoVenta?: number } {
  const puntoVenta = pointOfSaleArg(pv, ...numbers);
  return puntoVenta === undefined ? {} : { puntoVenta };
}

export async function queryCommand(ctx: Context, flags: QueryFlags): Promise<Outcome> {
  const wanted = criteria(flags);
  const pvFlag = "puntoVenta" in wanted ? wanted.puntoVenta : optionalInt("--pv", flags.pv, 1, 99999);
  return withConnection(ctx, async (connection, profile): Promise<Outcome> => {
    const operacion: Operacion = flags.purchases ? "C" : "V";
    // A purchase's point of sale is its supplier's: never the profile's.
    const pv = operacion === "C" ? pvFlag : (pvFlag ?? connection.puntoVenta ?? profile.puntoVenta);
    const outDir = flags.out ?? profile.pdfDir ?? `${process.cwd()}/comprobantes`;
    const local = localDocuments(ctx, connection.account, profile.name, outDir);
    const rows: string[][] = [];
    let count = 0;
    for await (const v of queryAll(connection.service, wanted, pv, operacion)) {
      count++;
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
            const message = (error as Error).message;
            ctx.err(
              `${ctx.errColor.yellow(t("warning:"))} ${tipo} ${number}: ${which === "pdf" ? t("PDF not saved: {message}", { message }) : t("ticket not saved: {message}", { message })}`,
            );
            return null;
          }
        };
        pdf = await save("pdf");
        ticket = await save("ticket");
      }
      if (ctx.json) {
        await ctx.out(
          JSON.stringify({
            ...v.raw,
            state: v.state,
            comprobante_nro: number,
            external_reference: v.external_reference,
            ...(v.observations.length ? { observations: v.observations } : {}),
            pdf,
            ticket,
          }),
        );
      } else {
        rows.push([
          v.tipo,
          number ?? t("(queued)"),
          v.fecha ?? "",
          // A table cell holds one line: the service's line breaks (`#@#`) read as spaces there.
          String((v.raw.cliente ?? v.raw.proveedor)?.razon_social ?? "").replace(/\s*\n\s*/g, " "),
          v.total ? amount(v.total) : "",
          v.status,
          v.external_reference,
          pdf ?? "",
        ]);
      }
    }
    await local.close();
    if (!ctx.json) {
      const withPdf = flags.pdf === true || rows.some((r) => r[7] !== "");
      if (rows.length === 0) ctx.err(t("no voucher found"));
      else
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
    }
    if (!ctx.quiet && !ctx.json && count > 0) ctx.err(tn(count, "{n} voucher", "{n} vouchers"));
    if (count > 0) return "done";
    // A script asking about a reference learns "not there" from the exit code, or from JSON.
    if (ctx.json) await ctx.out(JSON.stringify({ ok: false, status: "not-found", query: wanted }));
    return "notFound";
  });
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
  return {
    async documents(v: ServiceVoucher): Promise<{ pdf: string | null; ticket: string | null }> {
      const [pdf, ticket] = [named(v), named(v, "-ticket")];
      if (pdf) return { pdf, ticket };
      journal ??= Journal.open(stateDir(ctx.io.env), account, { lock: false, readOnly: true, profile }).catch(
        () => undefined,
      );
      const entry = (await journal)?.get(v.external_reference);
      const same = entry?.tipo === v.tipo && entry.punto_venta === v.punto_venta && entry.numero === v.numero;
      if (!same) return { pdf: null, ticket };
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
