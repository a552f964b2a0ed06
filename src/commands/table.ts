/** `facturar table <name>`: a reference table (tablas_referencia/<name>). */

import { MalformedAnswerError, type Service } from "../api/protocol.js";
import type { Context } from "../context.js";
import { FacturarError, type Outcome, UsageError } from "../errors.js";
import { say, t, tn } from "../i18n/index.js";
import { jsonText } from "../output/json.js";
import { EXPORT_TABLES } from "../voucher/export-codes.js";
import { withConnection } from "./online.js";
import { TABLE_NAMES } from "./table-names.js";

type Item = { id: string; descripcion: string };

/** A table as shown: the service's, or (export tables) the reference's entries and why. */
type Shown =
  | { source: "service"; items: Item[]; records: unknown[] }
  | { source: "reference"; items: Item[]; serviceError: string };

/**
 * The service's list; for the export tables, the reference's entries where the service has no such
 * method (HTTP 404), or answers one that holds no list we can read, or an empty one. The service's
 * own refusals (credentials, quota, maintenance) and an unreachable service are told as every
 * command tells them: the reference's two examples are no stand-in for a working account.
 */
async function lookUp(service: Service, name: string): Promise<Shown> {
  const reference = EXPORT_TABLES[name];
  try {
    const { items, records } = await service.referenceTable(name);
    if (!reference || items.length > 0) return { source: "service", items, records };
    return { source: "reference", items: [...reference], serviceError: t("the service's list is empty") };
  } catch (error) {
    const notAnswered =
      error instanceof MalformedAnswerError || (error instanceof FacturarError && error.code === "http.404");
    if (!reference || !notAnswered) throw error;
    return { source: "reference", items: [...reference], serviceError: say(error.text) };
  }
}

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
    const shown = await lookUp(connection.service, name);
    const { items } = shown;
    if (ctx.json) {
      await ctx.out(
        jsonText(
          shown.source === "service"
            ? { ok: true, table: name, source: "service", items, records: shown.records }
            : { ok: true, table: name, source: "reference", items, records: items, service_error: shown.serviceError },
        ),
      );
      return "done";
    }
    if (shown.source === "reference") {
      ctx.err(
        ctx.errColor.yellow(
          tn(
            items.length,
            "from the reference, not the service: the {n} entry the vendor's documentation shows, not the authority's whole list",
            "from the reference, not the service: the {n} entries the vendor's documentation shows, not the authority's whole list",
          ),
        ),
      );
      ctx.err(ctx.errColor.dim(t("the service did not answer it: {problem}", { problem: shown.serviceError })));
    } else if (items.length === 0) ctx.err(t("the service's list is empty"));
    const width = Math.max(2, ...items.map((i) => i.id.length));
    for (const i of items) await ctx.out(`${i.id.padEnd(width)}  ${i.descripcion}`.trimEnd());
    return "done";
  });
}
