/**
 * `vat-book --lid DIR` and `vat-book --check-lid DIR`: the Libro IVA Digital import files of a
 * date range, written from the same reading as the book, and read back to be checked as the
 * portal checks them (src/voucher/libro-iva.ts).
 */

import { randomBytes } from "node:crypto";
import { constants, existsSync } from "node:fs";
import { type FileHandle, link, lstat, open, readFile, rename, unlink } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import type { Service } from "../api/protocol.js";
import type { Context } from "../context.js";
import { makeFolders } from "../durable/files.js";
import { FacturarError, type Outcome, UsageError } from "../errors.js";
import { currentLang, say, t, tn } from "../i18n/index.js";
import { readableRate } from "../i18n/numbers.js";
import { amountText } from "../output/amounts.js";
import { jsonText } from "../output/json.js";
import { voucherTypeInfo } from "../voucher/codes.js";
import { Dec } from "../voucher/decimal.js";
import type { Operacion } from "../voucher/held.js";
import {
  type Book,
  checkLid,
  type LidRefusal,
  lidFile,
  lidFileNames,
  lidRecords,
  RATE_CODES,
} from "../voucher/libro-iva.js";
import { type BookLine, bookLine, compareLines, lineNumber } from "../voucher/vat-book.js";
import { listDates } from "./query.js";

class LidFilesError extends FacturarError {
  constructor(message: string, hint?: string) {
    super(message, "usage", "lid.files", hint);
  }
}

/** Before anything is asked of the service: the files are not there, or --force replaces them. */
export function lidTargets(dir: string, book: Book, force: boolean): { cbte: string; alicuotas: string } {
  const names = lidFileNames(book);
  const targets = { cbte: join(resolve(dir), names.cbte), alicuotas: join(resolve(dir), names.alicuotas) };
  for (const path of Object.values(targets))
    if (!force && existsSync(path))
      throw new LidFilesError(
        t("{path} exists already", { path }),
        t("--force replaces it; or choose another folder with --lid"),
      );
  return targets;
}

/** A file system failure, told with the path and its cause (never as an internal error). */
function diskFailure(path: string, error: unknown): LidFilesError {
  const cause = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  return new LidFilesError(t("cannot write {path}: {message}", { path, message: String(cause) }));
}

/**
 * A file written whole or not at all: records appended to a temporary file of its own (created
 * exclusively under a name nobody can guess, so no link planted there is followed or written
 * through), made durable, then put in place: replacing the old file only with --force, and
 * otherwise only while no file is there (a link, which fails if one appeared meanwhile).
 */
class AtomicFile {
  private constructor(
    private readonly handle: FileHandle,
    private readonly temp: string,
    readonly target: string,
  ) {}

  static async create(target: string): Promise<AtomicFile> {
    const existing = await lstat(target).catch(() => undefined);
    if (existing && !existing.isFile())
      throw new LidFilesError(t("refusing to write {path}: it is not a regular file", { path: target }));
    const temp = join(dirname(target), `.${basename(target)}.${randomBytes(8).toString("hex")}.tmp`);
    try {
      const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
      return new AtomicFile(await open(temp, flags, 0o644), temp, target);
    } catch (error) {
      throw diskFailure(temp, error);
    }
  }

  async append(records: string[]): Promise<void> {
    if (records.length > 0) await this.handle.write(lidFile(records));
  }

  /** Durable on disk, not yet in place. */
  async sync(): Promise<void> {
    await this.handle.sync();
    await this.handle.close();
  }

  async place(force: boolean): Promise<void> {
    try {
      if (force) await rename(this.temp, this.target);
      else {
        await link(this.temp, this.target);
        await unlink(this.temp);
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST")
        throw new LidFilesError(
          t("{path} appeared while the files were written: left as it is", { path: this.target }),
          t("--force replaces it; or choose another folder with --lid"),
        );
      throw diskFailure(this.target, error);
    }
  }

  async abandon(): Promise<void> {
    await this.handle.close().catch(() => {});
    await unlink(this.temp).catch(() => {});
  }
}

const REASONS = (r: LidRefusal): string => {
  switch (r.reason) {
    case "currency":
      return t("it is in {moneda} with no cotizacion: nothing of it is known in pesos", { moneda: r.line.moneda });
    case "document":
      return voucherTypeInfo(r.line.tipo)?.class === "E"
        ? t("an export's buyer is told by its country's CUIT (documento_tipo CUIT), which this voucher does not name")
        : t("the document number {nro} is not the 1 to 20 digits the design holds", {
            nro: JSON.stringify(r.line.documento_nro),
          });
    case "operation":
      return t(
        "its only rate is 0 % and nothing says why (exempt, not taxed, an export): the operation code cannot be told",
      );
    case "class":
      return t("a class C voucher has no place in a registered taxpayer's sales book");
    case "rate":
      return t("the VAT rate {rate} % has no code in the authority's table", { rate: readableRate(r.rate ?? "?") });
    case "size":
      return t("an amount has more than 13 digits of pesos");
    case "vat":
      return t(
        "for the {rate} % rate the tax must be {computed} ({rate} % of the net), not {said}: the portal refuses it",
        { rate: readableRate(r.rate ?? "?"), computed: r.computed?.toFixed(2) ?? "", said: r.said?.toFixed(2) ?? "" },
      );
    case "total":
      return t(
        "its total ({said}) is not the sum of its other amounts ({computed}), {difference} apart (typically VAT rounded item by item): the portal refuses it",
        {
          said: r.said?.toFixed(2) ?? "",
          computed: r.computed?.toFixed(2) ?? "",
          difference: r.said && r.computed ? r.said.sub(r.computed).toFixed(2) : "",
        },
      );
  }
};

/**
 * Writes the two files of `book` for `from`–`to`, a day at a time (memory bounded by the largest
 * day), and tells what was written: records, the totals per rate and overall (the portal's summary
 * shows the same), and each voucher left out with its reason. Exit `partial` when any was left out.
 */
export async function writeLid(
  ctx: Context,
  service: Service,
  range: { from: string; to: string },
  book: Book,
  targets: { cbte: string; alicuotas: string },
  force: boolean,
): Promise<Outcome> {
  const operacion: Operacion = book === "ventas" ? "V" : "C";
  await makeFolders(resolve(targets.cbte, "..")).catch((error) => {
    throw diskFailure(resolve(targets.cbte, ".."), error);
  });
  const cbte = await AtomicFile.create(targets.cbte);
  const alicuotas = await AtomicFile.create(targets.alicuotas).catch(async (error) => {
    await cbte.abandon();
    throw error;
  });
  const rates = new Map<string, { net: Dec; vat: Dec }>();
  let total = Dec.ZERO;
  let written = 0;
  let notIssued = 0;
  const refused: LidRefusal[] = [];
  const repeated: BookLine[] = [];
  let conversion = Dec.ZERO;
  try {
    let day: BookLine[] = [];
    let fecha: string | undefined;
    const flush = async () => {
      day.sort(compareLines);
      const records = lidRecords(day, book);
      await cbte.append(records.cbte);
      await alicuotas.append(records.alicuotas);
      for (const [rate, figures] of records.totals.rates) {
        const sum = rates.get(rate) ?? { net: Dec.ZERO, vat: Dec.ZERO };
        rates.set(rate, { net: sum.net.add(figures.net), vat: sum.vat.add(figures.vat) });
      }
      total = total.add(records.totals.total);
      written += records.totals.vouchers;
      refused.push(...records.refused);
      repeated.push(...records.repeated);
      // What the conversion of each part rounded away, for the vouchers written.
      const left = new Set([...records.refused.map((r) => r.line), ...records.repeated]);
      for (const line of day) if (!left.has(line)) conversion = conversion.add(line.conversion);
      day = [];
    };
    for await (const v of listDates(service, range.from, range.to, operacion)) {
      const line = bookLine(v);
      if (line === "not-issued") notIssued++;
      if (typeof line === "string") continue;
      if (fecha !== undefined && line.fecha !== fecha) await flush();
      fecha = line.fecha;
      day.push(line);
    }
    await flush();
    // Both durable before either is put in place: the two files are one book.
    await cbte.sync();
    await alicuotas.sync();
    await cbte.place(force);
    await alicuotas.place(force);
  } catch (error) {
    await cbte.abandon();
    await alicuotas.abandon();
    throw error;
  }

  for (const line of repeated)
    ctx.err(
      `${ctx.errColor.yellow(t("warning:"))} ${t("{tipo} {number} was listed twice by the service: written once", { tipo: line.tipo, number: lineNumber(line) })}`,
    );
  if (!conversion.isZero())
    ctx.err(
      `${ctx.errColor.yellow(t("note:"))} ${t("the vouchers in other currencies, converted part by part, come to {amount} less than their totals converted whole (the book's diferencia_conversion)", { amount: conversion.toFixed(2) })}`,
    );
  for (const r of refused)
    ctx.err(
      `${ctx.errColor.yellow(t("left out:"))} ${r.line.tipo} ${lineNumber(r.line)} (${r.line.fecha}): ${REASONS(r)}`,
    );
  const order = [...rates.keys()].sort((x, y) => Dec.parse(y).cmp(Dec.parse(x)));
  if (ctx.json) {
    await ctx.out(
      jsonText({
        ok: refused.length === 0,
        libro: book,
        desde: range.from,
        hasta: range.to,
        archivos: targets,
        comprobantes: written,
        totales: {
          alicuotas: order.map((rate) => ({
            alicuota: rate,
            codigo: RATE_CODES[rate],
            neto_gravado: (rates.get(rate) as { net: Dec }).net.toFixed(2),
            iva: (rates.get(rate) as { vat: Dec }).vat.toFixed(2),
          })),
          total: total.toFixed(2),
        },
        excluidos: refused.map((r) => ({
          tipo: r.line.tipo,
          comprobante_nro: lineNumber(r.line),
          fecha: r.line.fecha,
          external_reference: r.line.external_reference,
          motivo: r.reason,
          mensaje: REASONS(r),
        })),
        no_emitidos: notIssued,
      }),
    );
  } else {
    await ctx.out(`${targets.cbte}  ${tn(written, "{n} voucher", "{n} vouchers")}`);
    await ctx.out(targets.alicuotas);
    for (const rate of order) {
      const f = rates.get(rate) as { net: Dec; vat: Dec };
      await ctx.out(
        `  ${t("VAT {rate} %", { rate: rate.replace(".", currentLang() === "es" ? "," : ".") }).padEnd(12)}  ${t("net")} ${amountText(f.net).padStart(18)}  ${t("tax")} ${amountText(f.vat).padStart(16)}`,
      );
    }
    await ctx.out(`  ${t("total").padEnd(12)}  ${amountText(total).padStart(22)}`);
  }
  if (!ctx.quiet) {
    if (refused.length > 0)
      ctx.err(
        tn(
          refused.length,
          "{n} voucher left out of the files: the book is not clean",
          "{n} vouchers left out of the files: the book is not clean",
        ),
      );
    tellNotIssued(ctx, notIssued);
  }
  return refused.length > 0 ? "partial" : "done";
}

/** The vouchers of a range the book leaves out because the service has not issued them (yet). */
export function tellNotIssued(ctx: Context, notIssued: number): void {
  if (notIssued > 0)
    ctx.err(
      ctx.errColor.dim(
        tn(
          notIssued,
          "{n} voucher queued or failed in the queue left out",
          "{n} vouchers queued or failed in the queue left out",
        ),
      ),
    );
}

/** `--check-lid DIR`: the two files of the book read back and checked; problems are invalid input. */
export async function checkLidFiles(ctx: Context, dir: string, book: Book): Promise<Outcome> {
  const names = lidFileNames(book);
  const read = async (name: string) => {
    try {
      return await readFile(join(dir, name));
    } catch (error) {
      throw new UsageError(
        t("cannot read {path}: {message}", { path: join(dir, name), message: (error as Error).message }),
      );
    }
  };
  const problems = checkLid(book, names.cbte, await read(names.cbte), names.alicuotas, await read(names.alicuotas));
  if (ctx.json) await ctx.out(jsonText({ ok: problems.length === 0, libro: book, problemas: problems }));
  else for (const p of problems) await ctx.out(`${p.file}${p.record > 0 ? `:${p.record}` : ""}: ${say(p.message)}`);
  if (!ctx.quiet)
    ctx.err(
      problems.length === 0
        ? t("{cbte} and {alicuotas}: as the portal takes them", names)
        : tn(problems.length, "{n} problem the portal would refuse", "{n} problems the portal would refuse"),
    );
  return problems.length === 0 ? "done" : "invalid";
}
