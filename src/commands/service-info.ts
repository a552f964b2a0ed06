/** `facturar ceiling` and `facturar status`: what the service says about itself. */
import { fetchCeiling } from "../batch/ceiling.js";
import { stateDir } from "../config/paths.js";
import type { Context } from "../context.js";
import type { Outcome } from "../errors.js";
import { withConnection } from "./online.js";

export async function ceilingCommand(ctx: Context, flags: { refresh?: boolean }): Promise<Outcome> {
  return withConnection(ctx, async (connection, profile): Promise<Outcome> => {
    const answer = await fetchCeiling(connection.client, stateDir(ctx.io.env), profile.name, flags.refresh ?? false);
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
      const amount = answer.monto
        .toNumber()
        .toLocaleString("es-AR", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
      await ctx.out(`Final-consumer identification ceiling: $ ${amount}`);
      ctx.err(
        ctx.errColor.dim(
          `sales to an unidentified consumer (OTRO / 0) must stay below it; ${answer.cached ? `cached on ${answer.day}` : "asked the service now"}`,
        ),
      );
    }
    return "done";
  });
}

export async function statusCommand(ctx: Context): Promise<Outcome> {
  return withConnection(ctx, async (connection, profile): Promise<Outcome> => {
    const answer = await connection.client.read("estado_servicios/alertas");
    const ok = answer.error === "N" && String(answer.facturacion ?? "").toUpperCase() === "OK";
    const maintenance = Array.isArray(answer.prox_mantenimientos_programados)
      ? answer.prox_mantenimientos_programados
      : [];
    if (ctx.json) {
      await ctx.out(
        JSON.stringify({
          ok,
          profile: profile.name,
          sandbox: connection.sandbox,
          facturacion: answer.facturacion ?? null,
          maintenance,
          novedades: answer.novedades ?? "",
          errors: answer.errores ?? [],
        }),
      );
    } else {
      const c = ctx.color;
      await ctx.out(
        `${ok ? c.green("✔") : c.red("✖")} invoicing: ${ok ? "OK" : (answer.facturacion ?? answer.errores?.join("; ") ?? "not OK")}`,
      );
      await ctx.out(
        `  profile ${profile.name}${connection.sandbox ? " (embedded sandbox)" : ` at ${connection.client.baseUrl.origin}`}`,
      );
      if (maintenance.length === 0) await ctx.out("  no scheduled maintenance");
      for (const m of maintenance)
        await ctx.out(
          `  maintenance ${m.desde ?? "?"} to ${m.hasta ?? "?"}: ${m.titulo ?? ""} ${m.texto ?? ""}`.trimEnd(),
        );
      if (answer.novedades) await ctx.out(`  news: ${answer.novedades}`);
    }
    return ok ? "done" : "unavailable";
  });
}
