/** `facturar ceiling` and `facturar status`: what the service says about itself. */

import { TransportError } from "../api/http.js";
import { type PlanUsage, type Service, ServiceRefusedError } from "../api/protocol.js";
import { fetchCeiling } from "../batch/ceiling.js";
import { accountId } from "../batch/journal.js";
import { stateDir } from "../config/paths.js";
import type { Profile } from "../config/profile.js";
import type { Context } from "../context.js";
import { FacturarError, type Outcome, textOf } from "../errors.js";
import { say, t } from "../i18n/index.js";
import type { Text } from "../i18n/message.js";
import { readableNumber } from "../i18n/numbers.js";
import { amountText } from "../output/amounts.js";
import { jsonText } from "../output/json.js";
import { withConnection } from "./online.js";

export async function ceilingCommand(ctx: Context, flags: { refresh?: boolean }): Promise<Outcome> {
  return withConnection(ctx, async (connection, profile): Promise<Outcome> => {
    const answer = await fetchCeiling(
      connection.service,
      stateDir(ctx.io.env),
      accountId(connection.account),
      flags.refresh ?? false,
    );
    if (answer.cacheProblem) ctx.err(`${ctx.errColor.yellow(t("warning:"))} ${say(answer.cacheProblem)}`);
    if (ctx.json) {
      await ctx.out(
        jsonText({
          ok: true,
          monto: answer.monto.toNumber(),
          day: answer.day,
          cached: answer.cached,
          profile: profile.name,
        }),
      );
    } else {
      await ctx.out(t("Final-consumer identification ceiling: $ {amount}", { amount: amountText(answer.monto) }));
      ctx.err(
        ctx.errColor.dim(
          `${t("sales to an unidentified consumer (OTRO / 0) must stay below it")}; ${answer.cached ? t("cached on {day}", { day: answer.day }) : t("asked the service now")}`,
        ),
      );
    }
    return "done";
  });
}

/** A refusal for consumo's own quota: it names a quota (cupo, límite) and the method itself. */
function ownQuotaSpent(errors: string[]): boolean {
  const text = errors.join(" ").normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
  return /\b(cupo|limite|quota)\b/.test(text) && text.includes("consumo");
}

/**
 * The subscription's vouchers (`micuenta/consumo`), or why they could not be read: `refused`, the
 * service's words when it refused the call (an account out of quota or whose plan lapsed has its
 * every call refused, reference §12), `problem` any other failure (status answers without them).
 */
async function planUsage(
  service: Service,
): Promise<{ usage: PlanUsage | null; refused: string[] | null; problem: Text | null }> {
  try {
    return { usage: await service.usage(), refused: null, problem: null };
  } catch (error) {
    if (error instanceof ServiceRefusedError)
      // Quotas are per method (spec §8): consumo's own spent says nothing of issuing.
      return ownQuotaSpent(error.errors)
        ? { usage: null, refused: null, problem: error.text }
        : { usage: null, refused: error.errors, problem: error.text };
    if (!(error instanceof FacturarError || error instanceof TransportError)) throw error;
    return { usage: null, refused: null, problem: textOf(error) };
  }
}

/** What `micuenta/consumo` documents, in a line: the vouchers issued, included, scheduled and left. */
function usageLine(usage: PlanUsage): string {
  const counts = {
    used: readableNumber(usage.comprobantes_generados),
    quota: readableNumber(usage.comprobantes_cupo),
    left: readableNumber(usage.comprobantes_disponibles),
    recurring: readableNumber(usage.abonos_pendientes),
  };
  return usage.abonos_pendientes
    ? t(
        "vouchers: {used} issued of the {quota} in the subscription, {recurring} scheduled as recurring, {left} left",
        counts,
      )
    : t("vouchers: {used} issued of the {quota} in the subscription, {left} left", counts);
}

/** The files a run's settings came from: the user's (or --config's), then the working folder's. */
function configFiles(profile: Profile): string[] {
  return [profile.configFile, profile.projectFile].filter((f): f is string => f !== undefined);
}

export async function statusCommand(ctx: Context): Promise<Outcome> {
  return withConnection(ctx, async (connection, profile): Promise<Outcome> => {
    const answer = await connection.service.status();
    const { ok, maintenance } = answer;
    // micuenta/consumo costs a request of its own quota (each method has its own, spec §8).
    const { usage, refused, problem } = await planUsage(connection.service);
    // The account cannot issue, however the service's status reads: it refuses this account's
    // calls, or the subscription has no voucher left.
    const accountProblem = refused
      ? t("the service refused this account's micuenta/consumo: {errors}", {
          errors: refused.join("; ") || t("the service said no"),
        })
      : usage && usage.comprobantes_disponibles <= 0
        ? t("no voucher left in the subscription ({used} of {quota} issued)", {
            used: readableNumber(usage.comprobantes_generados),
            quota: readableNumber(usage.comprobantes_cupo),
          })
        : null;
    const working = ok && !accountProblem;
    if (ctx.json) {
      await ctx.out(
        jsonText({
          ok: working,
          profile: profile.name,
          sandbox: connection.sandbox,
          config_files: configFiles(profile),
          facturacion: answer.facturacion,
          maintenance,
          novedades: answer.novedades,
          errors: answer.errors,
          usage,
          ...(problem ? { usage_error: problem } : {}),
        }),
      );
    } else {
      const c = ctx.color;
      const why = !ok ? (answer.facturacion ?? (answer.errors.join("; ") || t("not OK"))) : accountProblem;
      const invoicing = `${working ? c.green("✔") : c.red("✖")} ${t("invoicing:")} ${working ? "OK" : why}`;
      const warnProblem = () => {
        if (problem && !refused)
          ctx.err(`${ctx.errColor.yellow(t("warning:"))} ${t("quota use not read: {problem}", { problem })}`);
      };
      // Quiet: only what went wrong (a script reads the exit code).
      if (ctx.quiet) {
        if (!working) await ctx.out(invoicing);
        warnProblem();
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
      for (const file of configFiles(profile)) await ctx.out(`  ${t("settings from {file}", { file })}`);
      if (maintenance.length === 0) await ctx.out(`  ${t("no scheduled maintenance")}`);
      for (const m of maintenance)
        await ctx.out(
          `  ${t("maintenance {from} to {to}:", { from: String(m.desde ?? "?"), to: String(m.hasta ?? "?") })} ${m.titulo ?? ""} ${m.texto ?? ""}`.trimEnd(),
        );
      if (answer.novedades) await ctx.out(`  ${t("news:")} ${answer.novedades}`);
      if (usage) await ctx.out(`  ${usageLine(usage)}`);
      warnProblem();
    }
    return working ? "done" : "unavailable";
  });
}
