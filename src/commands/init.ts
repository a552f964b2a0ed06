/**
 * `facturar init`: create or edit a profile. Asks on a terminal (@inquirer/prompts, credentials
 * hidden while typed); takes every answer as a flag, so scripts can run it with no terminal.
 * Writes the user's config file with mode 0600, then checks the profile with `status`.
 */

import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { configDir } from "../config/paths.js";
import { checkBaseUrl, loadProfile, SANDBOX } from "../config/profile.js";
import type { Context } from "../context.js";
import { FacturarError, type Outcome, textOf, UsageError } from "../errors.js";
import { t } from "../i18n/index.js";
import { jsonText } from "../output/json.js";
import { visible } from "../output/visible.js";
import { connect } from "../session/connect.js";
import type { InitOptions } from "./init.command.js";
import { prompts } from "./prompts.js";
import { shellWord } from "./shell-word.js";

type Credential = string | { env: string } | { file: string };
const KEYS = ["usertoken", "apikey", "apitoken"] as const;
type Key = (typeof KEYS)[number];

type InitFlags = InitOptions;

interface ConfigFile {
  default_profile?: string;
  profiles: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

function readConfig(path: string): ConfigFile {
  if (!existsSync(path)) return { profiles: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    throw new UsageError(
      t("{path} is not JSON; init edits JSON config files only", { path }),
      t("edit it by hand, or pass --file for a new one"),
    );
  }
  const config = parsed as ConfigFile;
  return { ...config, profiles: { ...(config.profiles ?? {}) } };
}

function credentialFrom(flags: InitFlags, key: Key): Credential | undefined {
  const env = flags[`${key}Env` as keyof InitFlags] as string | undefined;
  const file = flags[`${key}File` as keyof InitFlags] as string | undefined;
  const literal = flags[key];
  // Given one way only: the options' schema refuses two.
  if (env !== undefined) return { env };
  if (file !== undefined) return { file };
  return literal;
}

export async function initCommand(ctx: Context, flags: InitFlags): Promise<Outcome> {
  // A secret on the command line is in `ps` and the shell's history for every user of the machine.
  for (const key of ["usertoken", "apitoken"] as const)
    if (flags[key] !== undefined)
      ctx.err(
        `${ctx.errColor.yellow(t("warning:"))} ${t("--{key} VALUE shows the secret to every user of this machine (ps, shell history); prefer the prompt, --{key}-env NAME or --{key}-file PATH", { key })}`,
      );
  const path = flags.file ?? join(configDir(ctx.io.env), "config.json");
  const config = readConfig(path);
  const ask = ctx.interactive ? await prompts(ctx) : undefined;
  const missing = (what: string, flag: string): never => {
    throw new UsageError(t("init needs {what}: pass {flag} (no terminal to ask on)", { what, flag }));
  };

  const name =
    flags.name ??
    (ask
      ? await ask.input({
          message: t("Profile name"),
          default: "sandbox",
          validate: (v) => /^[A-Za-z0-9_.-]+$/.test(v) || t("letters, digits, . _ -"),
        })
      : "sandbox");
  const existing = config.profiles[name] ?? {};

  let baseUrl = flags.sandbox ? SANDBOX : flags.baseUrl;
  if (baseUrl === undefined) {
    if (!ask) baseUrl = (existing.base_url as string | undefined) ?? SANDBOX;
    else {
      const where = await ask.select({
        message: t("Which service?"),
        choices: [
          { name: t("The embedded sandbox (development, no account needed)"), value: SANDBOX },
          { name: t("The hosted service (its API v2 address and your credentials)"), value: "url" },
        ],
        default: existing.base_url && existing.base_url !== SANDBOX ? "url" : SANDBOX,
      });
      baseUrl =
        where === SANDBOX
          ? SANDBOX
          : await ask.input({
              message: t("Base URL of the API"),
              default: (existing.base_url as string | undefined) ?? "https://www.tusfacturas.app/app/api/v2",
              validate: (v) => {
                try {
                  checkBaseUrl(v);
                  return true;
                } catch (error) {
                  // Its words in the reader's language (its `message` is the English, for logs).
                  return visible(textOf(error));
                }
              },
            });
    }
  }
  if (baseUrl !== SANDBOX) checkBaseUrl(baseUrl);

  const profile: Record<string, unknown> = { ...existing, base_url: baseUrl };
  if (baseUrl !== SANDBOX) {
    for (const key of KEYS) {
      let value = credentialFrom(flags, key);
      if (value === undefined && existing[key] !== undefined) value = existing[key] as Credential;
      if (value === undefined && ask) {
        const how = await ask.select({
          message: t("How should {key} be kept?", { key }),
          choices: [
            { name: t("In this config file (mode 0600)"), value: "literal" },
            { name: t("In an environment variable (the file names it)"), value: "env" },
            { name: t("In a file of its own (the config names it)"), value: "file" },
          ],
        });
        if (how === "literal")
          value = await ask.password({
            message: t("Value of {key}", { key }),
            validate: (v) => v.trim() !== "" || t("required"),
          });
        else if (how === "env")
          value = {
            env: await ask.input({
              message: t("Variable holding {key}", { key }),
              default: `FACTURAR_${name.toUpperCase().replace(/[^A-Z0-9]/g, "_")}_${key.toUpperCase()}`,
            }),
          };
        else
          value = {
            file: await ask.input({ message: t("File holding {key}", { key }), default: `~/.secrets/${name}-${key}` }),
          };
      }
      if (value === undefined) missing(key, t("--{key}, --{key}-env or --{key}-file", { key }));
      profile[key] = value;
    }
  }

  const pv = flags.puntoVenta;
  if (pv !== undefined) profile.punto_venta = pv;
  else if (ask && baseUrl !== SANDBOX) {
    const answer = await ask.input({
      message: t("Point of sale"),
      default: String((existing.punto_venta as number | undefined) ?? 1),
      validate: (v) => (/^\d{1,5}$/.test(v.trim()) && Number(v) >= 1) || t("a whole number from 1 to 99999"),
    });
    profile.punto_venta = Number(answer);
  }
  // A folder typed here means one seen from here; in the config file, relative paths would
  // mean the config's own folder (XDG), where nobody would look for their PDFs.
  // Left empty, none is written: each run saves into ./comprobantes of the folder it runs in (an
  // accountant's folder per customer), which a path fixed here would not be.
  const typed =
    flags.pdfDir ??
    (ask
      ? (
          await ask.input({
            message: t("Folder for PDFs (Enter: ./comprobantes of the folder facturar runs in)"),
            default: (existing.pdf_dir as string | undefined) ?? "",
          })
        ).trim()
      : undefined);
  const pdfDir = typed === "" ? undefined : typed;
  if (pdfDir !== undefined) profile.pdf_dir = pdfDir.startsWith("~") ? pdfDir : resolve(pdfDir);
  else if (typed === "") delete profile.pdf_dir;
  if (flags.production !== undefined) profile.production = flags.production;
  else if (ask && baseUrl !== SANDBOX) {
    profile.production = await ask.confirm({
      message: t("Is this production (real vouchers; ask before issuing)?"),
      default: (existing.production as boolean | undefined) ?? false,
    });
  }
  const makeDefault =
    flags.default ??
    (ask
      ? await ask.confirm({ message: t("Use {name} by default?", { name }), default: !config.default_profile })
      : !config.default_profile);

  config.profiles[name] = profile;
  if (makeDefault) config.default_profile = name;
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  // Written with mode 0600 first, then moved into place: no moment where others can read it.
  writeFileSync(`${path}.tmp`, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  chmodSync(`${path}.tmp`, 0o600);
  renameSync(`${path}.tmp`, path);
  ctx.err(
    makeDefault
      ? t("wrote profile {name} to {path} (the default profile)", { name, path })
      : t("wrote profile {name} to {path}", { name, path }),
  );

  const production = profile.production === true;
  // The command shown names the file when it is not the one every run reads.
  const configFlag = flags.file === undefined ? "" : ` --config ${shellWord(resolve(path))}`;
  if (flags.check === false) {
    if (production) tellResync(ctx, name, configFlag);
    else tellFirstVoucher(ctx, name, makeDefault, configFlag);
    return "done";
  }
  const loaded = await loadProfile({ profile: name, config: path, env: ctx.io.env });
  const connection = await connect(loaded, { env: ctx.io.env });
  try {
    const answer = await connection.service.status();
    const ok = answer.answered;
    if (ctx.json)
      await ctx.out(jsonText({ ok, profile: name, file: path, base_url: baseUrl, status: answer.facturacion ?? null }));
    else
      await ctx.out(
        `${ok ? ctx.color.green("✔") : ctx.color.red("✖")} ${t("{name}: {service} answers, invoicing {state}", {
          name,
          service: connection.sandbox ? t("embedded sandbox") : baseUrl,
          state: String(answer.facturacion ?? "?"),
        })}`,
      );
    if (production) tellResync(ctx, name, configFlag);
    else if (ok) tellFirstVoucher(ctx, name, makeDefault, configFlag);
    return ok ? "done" : "unavailable";
  } catch (error) {
    // The profile is written: its next step holds whatever the check says today.
    if (production) tellResync(ctx, name, configFlag);
    if (error instanceof FacturarError)
      throw new FacturarError(
        t("profile written, but the check failed: {message}", { message: error.text }),
        error.outcome,
        error.code,
        error.hint,
      );
    throw error;
  } finally {
    await connection.close();
  }
}

/** The next step of a profile that is not production: the first voucher, guided or from a file. */
function tellFirstVoucher(ctx: Context, profile: string, isDefault: boolean, configFlag: string): void {
  const facturar = isDefault && !configFlag ? "facturar" : `facturar${configFlag} --profile ${shellWord(profile)}`;
  ctx.err(
    t(
      "next step: `{guided}` asks for a voucher, shows its totals and issues it; or `{template}` writes one to fill in, then `{issue}`",
      {
        guided: `${facturar} issue --interactive`,
        template: `facturar template "FACTURA B" > factura.json`,
        issue: `${facturar} issue factura.json`,
      },
    ),
  );
}

/**
 * The next step of a production profile: after the development plan (API DEV), the service's
 * voucher counter must be re-synchronised once from ARCA, in its web panel (reference §2, §9.1:
 * D25 `como-paso-a-produccion.md`); there is no API method for it. `next-number` then shows what
 * the service will give next, to compare with ARCA's last authorised voucher.
 */
function tellResync(ctx: Context, profile: string, configFlag: string): void {
  const command = `facturar${configFlag} --profile ${shellWord(profile)} next-number --type "FACTURA B"`;
  ctx.err(
    t(
      "next step: after the development plan (API DEV), re-synchronise this point of sale's numbering once from ARCA, in the service's web panel, before the first real voucher; then `{command}` shows the next number, which must follow the last one ARCA authorised",
      { command },
    ),
  );
}
