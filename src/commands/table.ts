/** `facturar table <name>`: a reference table (tablas_referencia/<name>). */

import type { Context } from "../context.js";
import { type Outcome, UsageError } from "../errors.js";
import { t } from "../i18n/index.js";
import { withConnection } from "./online.js";
import { TABLE_NAMES } from "./table-names.js";

export async function tableCommand(ctx: Context, value: string): Promise<Outcome> {
  // `provincias`, `Provincias`, `condiciones-venta`: the service's name.
  const name = value.trim().toLowerCase().replace(/-/g, "_");
  if (!(TABLE_NAMES as readonly string[]).includes(name)) {
    const near = TABLE_NAMES.find((n) => n.startsWith(name.slice(0, 4)));
    throw new UsageError(
      t("unknown table {name}", { name: JSON.stringify(value) }),
      near ? t("did you mean {name}?", { name: near }) : t("one of: {names}", { names: TABLE_NAMES.join(", ") }),
    );
  }
  return withConnection(ctx, async (connection): Promise<Outcome> => {
    const { items, records } = await connection.service.referenceTable(name);
    if (ctx.json) {
      await ctx.out(JSON.stringify({ ok: true, table: name, source: "service", items, records }));
      return "done";
    }
    if (items.length === 0) ctx.err(t("the service's list is empty"));
    const width = Math.max(2, ...items.map((i) => i.id.length));
    for (const i of items) await ctx.out(`${i.id.padEnd(width)}  ${i.descripcion}`.trimEnd());
    return "done";
  });
}
