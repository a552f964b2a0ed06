/** `facturar customer-ledger --cuit C`: a client's ledger (clientes/cuenta-corriente). */

import type { Context } from "../context.js";
import type { Outcome } from "../errors.js";
import { t } from "../i18n/index.js";
import { amountText } from "../output/amounts.js";
import { jsonText } from "../output/json.js";
import type { CustomerLedgerOptions } from "./customer-ledger.command.js";
import { withConnection } from "./online.js";

export async function customerLedgerCommand(ctx: Context, flags: CustomerLedgerOptions): Promise<Outcome> {
  const { cuit } = flags;
  return withConnection(ctx, async (connection): Promise<Outcome> => {
    const rows = await connection.service.customerLedger(cuit);
    const saldo = rows.at(-1)?.saldo ?? "0.00";
    if (ctx.json) {
      await ctx.out(jsonText({ ok: true, cuit, saldo, resultados: rows }));
      return "done";
    }
    const table = [
      [t("date"), t("concept"), t("debit"), t("credit"), t("left to pay"), t("balance")],
      ...rows.map((r) => [
        r.fecha,
        r.concepto,
        amountText(r.debe),
        amountText(r.haber),
        amountText(r.resta_abonar_de_este_comprobante),
        amountText(r.saldo),
      ]),
    ];
    const widths = (table[0] as string[]).map((_, i) => Math.max(...table.map((row) => (row[i] ?? "").length)));
    for (const row of table)
      await ctx.out(
        row.map((cell, i) => (i >= 2 ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0))).join("  "),
      );
    await ctx.out(t("balance: $ {amount}", { amount: amountText(saldo) }));
    return "done";
  });
}
