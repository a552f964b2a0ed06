/** `facturar sandbox`: the embedded development-mode service, on loopback, until stopped. */

import { resolve } from "node:path";
import { sandboxDataDir } from "../config/paths.js";
import type { Context } from "../context.js";
import { type Outcome, UsageError } from "../errors.js";
import { t } from "../i18n/index.js";
import { concat } from "../i18n/message.js";
import { jsonText } from "../output/json.js";
import { FaultSpecError, LIKE_PRODUCTION, parseFaults } from "../sandbox/faults.js";
import { parseRates, RateSpecError } from "../sandbox/rates.js";
import { startSandbox } from "../sandbox/server.js";
import { SandboxFolderError, SandboxInUseError } from "../sandbox/store.js";
import { parseWebhooks, WebhookSpecError, webhookOf } from "../sandbox/webhooks.js";
import { clockFrom } from "../voucher/dates.js";
import type { SandboxOptions } from "./sandbox.command.js";

export async function sandboxCommand(ctx: Context, flags: SandboxOptions): Promise<Outcome> {
  const { port, host, quota, ceiling, queueInterval: queueIntervalMs } = flags;
  let faults: ReturnType<typeof parseFaults>;
  try {
    // The preset first: a --fault or the variable may change one of its values.
    faults = parseFaults([
      flags.likeProduction ? LIKE_PRODUCTION : "",
      ctx.io.env.FACTURAR_SANDBOX_FAULTS ?? "",
      ...(flags.fault ?? []),
    ]);
  } catch (error) {
    if (error instanceof FaultSpecError) throw new UsageError(error.text);
    throw error;
  }
  let rates: ReturnType<typeof parseRates>;
  try {
    rates = parseRates([ctx.io.env.FACTURAR_SANDBOX_RATES ?? ""]);
  } catch (error) {
    if (error instanceof RateSpecError) throw new UsageError(concat("FACTURAR_SANDBOX_RATES: ", error.text));
    throw error;
  }
  let webhooks: ReturnType<typeof parseWebhooks>;
  try {
    webhooks = parseWebhooks([ctx.io.env.FACTURAR_SANDBOX_WEBHOOK ?? "", ...(flags.webhook ?? [])]);
  } catch (error) {
    if (error instanceof WebhookSpecError) throw new UsageError(error.text);
    throw error;
  }
  const dataDir = flags.dataDir ?? sandboxDataDir(ctx.io.env);
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  try {
    sandbox = await startSandbox({
      dataDir,
      host: host.replace(/^\[|\]$/g, ""),
      port,
      faults,
      rates,
      webhooks,
      queueIntervalMs,
      now: clockFrom(ctx.io.env),
      ...(quota ? { quota } : {}),
      ...(ceiling ? { ceiling } : {}),
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE")
      throw new UsageError(
        t("port {port} is already in use; pick another with --port, or --port 0 for a free one", { port }),
      );
    if (error instanceof SandboxInUseError)
      throw new UsageError(error.text, t("stop it first, or pick another --data-dir"));
    // The folder is the flag's value: a bad one is a usage error; the default one, a disk failure.
    if (error instanceof SandboxFolderError && flags.dataDir !== undefined)
      throw new UsageError(error.text, t("give --data-dir a folder (it is created if missing), or leave it out"));
    throw error;
  }
  const points = sandbox.pointsOfSale.map(({ punto_venta, usertoken, apikey, apitoken }) => ({
    punto_venta,
    usertoken,
    apikey,
    apitoken,
  }));
  // A webhook for a point of sale the sandbox does not have is a typo, not a setting: said, not served.
  const strangers = Object.keys(webhooks.byPointOfSale)
    .map(Number)
    .filter((pv) => !points.some((p) => p.punto_venta === pv));
  if (strangers.length > 0) {
    await sandbox.close();
    throw new UsageError(
      t("--webhook names point of sale {pv}, which this sandbox does not have (it has {have})", {
        pv: strangers.join(", "),
        have: points.map((p) => p.punto_venta).join(", "),
      }),
      t("write PV=URL with one of those, or the URL alone for all of them"),
    );
  }
  if (ctx.json) {
    await ctx.out(jsonText({ ok: true, base_url: sandbox.baseUrl, points_of_sale: points }));
  } else {
    const c = ctx.color;
    await ctx.out(
      `${c.bold("facturar sandbox")}: ${t("development-mode service (no fiscal validity), data in {dir}", { dir: resolve(dataDir) })}`,
    );
    await ctx.out(`${t("base URL:")} ${c.cyan(sandbox.baseUrl)}`);
    for (const p of points) {
      const webhook = webhookOf(webhooks, p.punto_venta);
      await ctx.out(
        `${t("point of sale {pv}:", { pv: p.punto_venta })} usertoken ${p.usertoken}  apikey ${p.apikey}  apitoken ${p.apitoken}${webhook ? `  webhook ${webhook}` : ""}`,
      );
    }
    const active = Object.entries(faults).filter(([, v]) => v !== 0 && v !== false);
    if (active.length > 0) await ctx.out(`${t("faults:")} ${active.map(([k, v]) => `${k}=${v}`).join(", ")}`);
    ctx.err(t("Stop with Ctrl-C."));
  }
  ctx.stop.graceful = true;
  await ctx.stop.requestedPromise;
  await sandbox.close();
  return "done";
}
