/** `facturar ceiling` and `facturar status`: what the service says about itself. */

import { fetchCeiling } from "../batch/ceiling.js";
import { accountId } from "../batch/journal.js";
import { stateDir } from "../config/paths.js";
import type { Context } from "../context.js";
import type { Outcome } from "../errors.js";
import { t } from "../i18n/index.js";
import { amount } from "../output/amount.js";
import { withConnection } from "./online.js";

export async function ceilingCommand(ctx: Context, flags: { refresh?: boolean }): Promise<Outcome> {
  return withConnection(ctx, async (connection, profile): Promise<Outcome> => {
    const answer = await fetchCeiling(
      connection.service,
      stateDir(ctx.io.env),
      accountId(connection.account),
      flags.refresh ?? false,
    );
    if (ctx.json) {
      await ctx.out(
        JSON.stringify({
          ok: true,
          monto: answer.monto.toNumber(),
          day: answer.day,
          cached: answer.cached,
          profile: profile.name,
        }),
      );
    } else {
      await ctx.out(t("Final-consumer identification ceiling: $ {amount}", { amount: amount(answer.monto) }));
      ctx.err(
        ctx.errColor.dim(
          `${t("sales to an unidentified consumer (OTRO / 0) must stay below it")}; ${answer.cached ? t("cached on {day}", { day: answer.day }) : t("asked the service now")}`,
        ),
      );
    }
    return "done";
  });
}

export async function statusCommand(ctx: Context): Promise<Outcome> {
  return withConnection(ctx, async (connection, profile): Promise<Outcome> => {
    const answer = await connection.service.status();
    const { ok, maintenance } = answer;
    if (ctx.json) {
      await ctx.out(
        JSON.stringify({
          ok,
          profile: profile.name,
          sandbox: connection.sandbox,
          facturacion: answer.facturacion,
          maintenance,
          novedades: answer.novedades,
          errors: answer.errors,
        }),
      );
    } else {
      const c = ctx.color;
      await ctx.out(
        `${ok ? c.green("✔") : c.red("✖")} ${t("invoicing:")} ${ok ? "OK" : (answer.facturacion ?? (answer.errors.join("; ") || t("not OK")))}`,
      );
      await ctx.out(
        `  ${
          connection.sandbox
            ? t("profile {name} (embedded sandbox)", { name: profile.name })
            : t("profile {name} at {url}", { name: profile.name, url: connection.service.baseUrl.origin })
        }`,
      );
      if (maintenance.length === 0) await ctx.out(`  ${t("no scheduled maintenance")}`);
      for (const m of maintenance)
        await ctx.out(
          `  ${t("maintenance {from} to {to}:", { from: String(m.desde ?? "?"), to: String(m.hasta ?? "?") })} ${m.titulo ?? ""} ${m.texto ?? ""}`.trimEnd(),
        );
      if (answer.novedades) await ctx.out(`  ${t("news:")} ${answer.novedades}`);
    }
    return ok ? "done" : "unavailable";
  });
}
