/** `facturar ceiling` and `facturar status`: what the service says about itself. */

import { TransportError } from "../api/http.js";
import type { PlanUsage, Service } from "../api/protocol.js";
import { fetchCeiling } from "../batch/ceiling.js";
import { accountId } from "../batch/journal.js";
import { stateDir } from "../config/paths.js";
import type { Context } from "../context.js";
import { FacturarError, type Outcome } from "../errors.js";
import { t } from "../i18n/index.js";
import { amount } from "../output/amount.js";
import { argentinaToday, clockFrom, dayNumber } from "../voucher/dates.js";
import { date } from "../voucher/schema.js";
import { withConnection } from "./online.js";

export async function ceilingCommand(ctx: Context, flags: { refresh?: boolean }): Promise<Outcome> {
  return withConnection(ctx, async (connection, profile): Promise<Outcome> => {
    const answer = await fetchCeiling(
      connection.service,
      stateDir(ctx.io.env),
      accountId(connection.account),
      flags.refresh ?? false,
    );
    if (answer.cacheProblem) ctx.err(`${ctx.errColor.yellow(t("warning:"))} ${answer.cacheProblem}`);
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

/** The plan's use, or why it could not be read: status still answers without it. */
async function planUsage(service: Service): Promise<{ usage: PlanUsage | null; problem: string | null }> {
  try {
    return { usage: await service.usage(), problem: null };
  } catch (error) {
    if (!(error instanceof FacturarError || error instanceof TransportError)) throw error;
    return { usage: null, problem: error.message };
  }
}

/** Days from today (Argentina) to a dd/mm/yyyy date; negative when it has passed. */
function daysUntil(fecha: string, env: NodeJS.ProcessEnv): number | null {
  const parsed = date().safeParse(fecha);
  return parsed.success ? dayNumber(parsed.data) - argentinaToday(clockFrom(env)()) : null;
}

export async function statusCommand(ctx: Context): Promise<Outcome> {
  return withConnection(ctx, async (connection, profile): Promise<Outcome> => {
    const answer = await connection.service.status();
    const { ok, maintenance } = answer;
    // micuenta/consumo costs one request of the quota, as every method but the queries does.
    const { usage, problem } = await planUsage(connection.service);
    const daysLeft = usage?.plan_vencimiento ? daysUntil(usage.plan_vencimiento, ctx.io.env) : null;
    // A lapsed plan: the service refuses every call, however its status reads.
    const lapsed = usage?.plan_vencimiento && daysLeft !== null && daysLeft < 0 ? usage.plan_vencimiento : null;
    if (ctx.json) {
      await ctx.out(
        JSON.stringify({
          ok: ok && !lapsed,
          profile: profile.name,
          sandbox: connection.sandbox,
          facturacion: answer.facturacion,
          maintenance,
          novedades: answer.novedades,
          errors: answer.errors,
          usage: usage ? { ...usage, dias_restantes: daysLeft } : null,
          ...(problem ? { usage_error: problem } : {}),
        }),
      );
    } else {
      const c = ctx.color;
      const planEnded = lapsed
        ? t("the plan ended on {fecha}: the service refuses every call", { fecha: lapsed })
        : null;
      const working = ok && !planEnded;
      const why = planEnded ?? answer.facturacion ?? (answer.errors.join("; ") || t("not OK"));
      const invoicing = `${working ? c.green("✔") : c.red("✖")} ${t("invoicing:")} ${working ? "OK" : why}`;
      // Quiet: only what went wrong (a script reads the exit code).
      if (ctx.quiet) {
        if (!working) await ctx.out(invoicing);
        if (problem)
          ctx.err(`${ctx.errColor.yellow(t("warning:"))} ${t("quota use not read: {problem}", { problem })}`);
        return working ? "done" : "unavailable";
      }
      await ctx.out(invoicing);
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
      if (usage) {
        await ctx.out(
          `  ${t("quota: {used} of {quota} requests used, {left} left", {
            used: usage.comprobantes_generados,
            quota: usage.comprobantes_cupo,
            left: usage.comprobantes_disponibles,
          })}${usage.abonos_pendientes ? `; ${t("{n} recurring vouchers scheduled", { n: usage.abonos_pendientes })}` : ""}`,
        );
        if (usage.plan_vencimiento)
          await ctx.out(
            `  ${
              (planEnded && c.red(planEnded)) ??
              t("the plan ends on {fecha} ({days} days left)", { fecha: usage.plan_vencimiento, days: daysLeft ?? "?" })
            }`,
          );
      } else if (problem)
        ctx.err(`${ctx.errColor.yellow(t("warning:"))} ${t("quota use not read: {problem}", { problem })}`);
    }
    return ok && !lapsed ? "done" : "unavailable";
  });
}
