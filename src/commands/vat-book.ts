/** `facturar vat-book --from D --to D [--purchases] [--csv [--decimal comma]]`: the VAT book of a date range. */

import type { Context } from "../context.js";
import { type Outcome, UsageError } from "../errors.js";
import { currentLang, t, tn } from "../i18n/index.js";
import { readableRate } from "../i18n/numbers.js";
import { amountText, moneyText } from "../output/amounts.js";
import { csvRow, sheetFormat, sheetNumber, sheetStart } from "../output/csv.js";
import { jsonText } from "../output/json.js";
import { shortTypeName } from "../voucher/codes.js";
import { dayNumber } from "../voucher/dates.js";
import type { Dec } from "../voucher/decimal.js";
import {
  BOOK_AMOUNTS,
  BOOK_RATES,
  type BookAmount,
  type BookFigures,
  type BookLine,
  type BookTotals,
  bookLine,
  bookRates,
  bookTotals,
  compareLines,
  lineNumber,
  outOfBalance,
} from "../voucher/vat-book.js";
import { checkLidFiles, lidTargets, tellNotIssued, writeLid } from "./lid.js";
import { withConnection } from "./online.js";
import { listDates } from "./query.js";
import type { VatBookOptions } from "./vat-book.command.js";

export async function vatBookCommand(ctx: Context, flags: VatBookOptions): Promise<Outcome> {
  const book = flags.purchases ? "compras" : "ventas";
  // Which flags go together, the options' schema said already.
  if (flags.checkLid !== undefined) return checkLidFiles(ctx, flags.checkLid, book);
  const { from, to } = flags as { from: string; to: string };
  if (flags.lid !== undefined) {
    // Refused before the service is asked anything: files already there are replaced only on purpose.
    const targets = lidTargets(flags.lid, book, flags.force === true);
    return withConnection(ctx, (connection) =>
      writeLid(ctx, connection.service, { from, to }, book, targets, flags.force === true),
    );
  }
  if (flags.csv && ctx.json) throw new UsageError(t("--csv and --json: choose one"));
  const operacion = flags.purchases ? "C" : "V";
  return withConnection(ctx, async (connection): Promise<Outcome> => {
    const days = dayNumber(to) - dayNumber(from) + 1;
    if (days > 31 && !ctx.quiet)
      ctx.err(ctx.errColor.dim(t("reading {days} days, one request or more each…", { days })));
    const lines: BookLine[] = [];
    let notIssued = 0;
    for await (const v of listDates(connection.service, from, to, operacion)) {
      const line = bookLine(v);
      if (line === "not-issued") notIssued++;
      else if (line !== "not-fiscal") lines.push(line);
    }
    lines.sort(compareLines);
    const totals = bookTotals(lines);
    for (const line of lines) {
      if (outOfBalance(line))
        ctx.err(
          `${ctx.errColor.yellow(t("warning:"))} ${t(
            "{tipo} {number}: its columns add up to {difference} less than its total ({moneda})",
            { tipo: line.tipo, number: lineNumber(line), difference: line.difference.toFixed(2), moneda: line.moneda },
          )}`,
        );
    }

    if (ctx.json) {
      const rates = bookRates(totals);
      const figures = (f: BookFigures) => ({
        // A list, not an object keyed by rate: JSON readers would reorder "21" before "10.5".
        alicuotas: rates.map((r) => ({
          alicuota: r,
          neto_gravado: (f.net.get(r) as Dec).toFixed(2),
          iva: (f.vat.get(r) as Dec).toFixed(2),
        })),
        ...Object.fromEntries(BOOK_AMOUNTS.map((k) => [k, f.amounts[k].toFixed(2)])),
      });
      await ctx.out(
        jsonText({
          ok: true,
          libro: flags.purchases ? "compras" : "ventas",
          desde: from,
          hasta: to,
          moneda: "PES",
          comprobantes: lines.map((line) => ({
            fecha: line.fecha,
            tipo: line.tipo,
            punto_venta: line.punto_venta,
            numero: line.numero,
            comprobante_nro: lineNumber(line),
            documento_tipo: line.documento_tipo,
            documento_nro: line.documento_nro,
            razon_social: line.razon_social,
            // The amounts are in pesos (`moneda` above); these say what the voucher was in.
            moneda_comprobante: line.moneda,
            cotizacion: line.cotizacion,
            total_moneda_comprobante: line.totalInCurrency.toFixed(2),
            external_reference: line.external_reference,
            ...figures(line),
            diferencia_sin_explicar: line.unexplained.toFixed(2),
            diferencia_conversion: line.conversion.toFixed(2),
          })),
          totales: {
            ...figures(totals),
            diferencia_sin_explicar: totals.unexplained.toFixed(2),
            diferencia_conversion: totals.conversion.toFixed(2),
          },
          no_emitidos: notIssued,
        }),
      );
      return "done";
    }

    if (flags.csv) {
      // A spreadsheet's in Spanish (; a decimal comma, a byte order mark), else plain CSV.
      const format = sheetFormat(flags, currentLang() === "es");
      const { delimiter } = format;
      const number = (x: Dec) => sheetNumber(x.toFixed(2), format);
      const rates = bookRates(totals);
      const figures = (f: BookFigures) => [
        ...rates.flatMap((r) => [number(f.net.get(r) as Dec), number(f.vat.get(r) as Dec)]),
        ...BOOK_AMOUNTS.map((k) => number(f.amounts[k])),
      ];
      await ctx.out(
        sheetStart(format) +
          csvRow(
            [
              "fecha",
              "tipo",
              "punto_venta",
              "numero",
              "documento_tipo",
              "documento_nro",
              "razon_social",
              // Every amount column is in pesos; these say what the voucher was in.
              "moneda_comprobante",
              "cotizacion",
              "total_moneda_comprobante",
              ...rates.flatMap((r) => [`neto_${r}`, `iva_${r}`]),
              ...BOOK_AMOUNTS,
              "diferencia_sin_explicar",
              "diferencia_conversion",
            ],
            delimiter,
          ),
      );
      for (const line of lines)
        await ctx.out(
          csvRow(
            [
              line.fecha,
              line.tipo,
              String(line.punto_venta),
              String(line.numero),
              line.documento_tipo,
              line.documento_nro,
              line.razon_social,
              line.moneda,
              sheetNumber(line.cotizacion, format),
              number(line.totalInCurrency),
              ...figures(line),
              number(line.unexplained),
              number(line.conversion),
            ],
            delimiter,
          ),
        );
      await ctx.out(
        csvRow(
          [
            "",
            "TOTAL",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            ...figures(totals),
            number(totals.unexplained),
            number(totals.conversion),
          ],
          delimiter,
        ),
      );
    } else {
      for (const row of humanTable(lines, totals)) await ctx.out(row);
    }
    if (!ctx.quiet) {
      ctx.err(
        ctx.errColor.dim(
          t(
            "{count}, {from} to {to}; amounts in pesos (another currency's voucher at its own cotizacion, each part converted and the total their sum), credit notes negative",
            { count: tn(lines.length, "{n} voucher", "{n} vouchers"), from, to },
          ),
        ),
      );
      tellNotIssued(ctx, notIssued);
    }
    return "done";
  });
}

/** Human column titles of the amounts after the rates. */
function amountTitle(k: BookAmount): string {
  const titles: Record<BookAmount, string> = {
    exentos: t("exempt"),
    nogravados: t("non-taxed"),
    percepciones_nacionales: t("perc. national"),
    percepciones_iibb: t("perc. IIBB"),
    percepciones_iva: t("perc. IVA"),
    percepciones_no_categorizados: t("perc. not categorised"),
    percepciones_municipales: t("perc. municipal"),
    otros_tributos: t("other tributos"),
    impuestos_internos: t("internal taxes"),
    total: t("total"),
  };
  return titles[k];
}

/**
 * The table: the rates that appear and the amount columns that are not all zero (the total
 * always), the totals last; names cut at 30 characters.
 */
function humanTable(lines: BookLine[], totals: BookTotals): string[] {
  const rates = bookRates(totals).filter((r) =>
    lines.some((l) => !(l.net.get(r) as Dec).isZero() || !(l.vat.get(r) as Dec).isZero()),
  );
  if (rates.length === 0 && lines.length === 0) rates.push(...BOOK_RATES.slice(0, 1));
  // The total last, after what the voucher's own figures leave unexplained (when any): the
  // columns before it add up to it.
  const amounts = BOOK_AMOUNTS.filter((k) => k !== "total" && lines.some((l) => !l.amounts[k].isZero()));
  // A voucher in another currency: its own total and rate beside the pesos, and the cents the
  // conversion of its parts rounded away.
  const foreign = lines.some((l) => l.moneda !== "PES");
  const conversion = lines.some((l) => !l.conversion.isZero());
  const unexplained = lines.some((l) => !l.unexplained.isZero());
  const head = [
    t("date"),
    t("type"),
    t("number"),
    t("document"),
    t("name"),
    ...(foreign ? [t("in its currency")] : []),
    // Rates as the reader writes them: es "neto 10,5 %", en "net 10.5%".
    ...rates.map((r) => readableRate(r)).flatMap((r) => [t("net {rate}%", { rate: r }), t("VAT {rate}%", { rate: r })]),
    ...amounts.map(amountTitle),
    ...(unexplained ? [t("unexplained")] : []),
    amountTitle("total"),
    ...(conversion ? [t("conversion diff.")] : []),
  ];
  const figures = (f: BookFigures, rest: Dec) => [
    ...rates.flatMap((r) => [amountText(f.net.get(r) as Dec), amountText(f.vat.get(r) as Dec)]),
    ...amounts.map((k) => amountText(f.amounts[k])),
    ...(unexplained ? [amountText(rest)] : []),
    amountText(f.amounts.total),
  ];
  // The rate as the reader writes decimals (1015,5 in Spanish), like the amounts beside it.
  const original = (l: BookLine) =>
    l.moneda === "PES" ? "" : `${moneyText(l.totalInCurrency, l.moneda)} × ${readableRate(l.cotizacion)}`;
  const rows = lines.map((l) => [
    l.fecha,
    shortTypeName(l.tipo),
    lineNumber(l),
    `${l.documento_tipo} ${l.documento_nro}`.trim(),
    l.razon_social,
    ...(foreign ? [original(l)] : []),
    ...figures(l, l.unexplained),
    ...(conversion ? [amountText(l.conversion)] : []),
  ]);
  const total = [
    t("TOTAL"),
    "",
    "",
    "",
    "",
    ...(foreign ? [""] : []),
    ...figures(totals, totals.unexplained),
    ...(conversion ? [amountText(totals.conversion)] : []),
  ];
  const all = [head, ...rows, total];
  const firstAmount = foreign ? 6 : 5;
  const widths = head.map((_, i) => Math.min(i === 4 ? 30 : 44, Math.max(...all.map((r) => (r[i] ?? "").length))));
  const fmt = (r: string[]) =>
    r
      .map((cell, i) => {
        const width = widths[i] ?? 0;
        const text = cell.length > width ? `${cell.slice(0, width - 1)}…` : cell;
        return i >= firstAmount ? text.padStart(width) : text.padEnd(width);
      })
      .join("  ")
      .trimEnd();
  const rule = widths.map((w) => "-".repeat(w)).join("  ");
  return [fmt(head), ...rows.map(fmt), rule, fmt(total)];
}
