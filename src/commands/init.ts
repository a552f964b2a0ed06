/**
 * `facturar init`: create or edit a profile. Asks on a terminal (@inquirer/prompts, credentials
 * hidden while typed); takes every answer as a flag, so scripts can run it with no terminal.
 * Writes the user's config file with mode 0600, then checks the profile with `status`.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { connect } from "../api/connect.js";
import { configDir } from "../config/paths.js";
import { checkBaseUrl, loadProfile, SANDBOX } from "../config/profile.js";
import type { Context } from "../context.js";
import { FacturarError, type Outcome, UsageError } from "../errors.js";
import { optionalInt } from "./flags.js";

type Credential = string | { env: string } | { file: string };
const KEYS = ["usertoken", "apikey", "apitoken"] as const;
type Key = (typeof KEYS)[number];

export interface InitFlags {
  name?: string;
  sandbox?: boolean;
  baseUrl?: string;
  usertoken?: string;
  apikey?: string;
  apitoken?: string;
  usertokenEnv?: string;
  apikeyEnv?: string;
  apitokenEnv?: string;
  usertokenFile?: string;
  apikeyFile?: string;
  apitokenFile?: string;
  puntoVenta?: string;
  pdfDir?: string;
  production?: boolean;
  default?: boolean;
  file?: string;
  check?: boolean;
}

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
      `${path} is not JSON; init edits JSON config files only`,
      "edit it by hand, or pass --file for a new one",
    );
  }
  const config = parsed as ConfigFile;
  return { ...config, profiles: { ...(config.profiles ?? {}) } };
}

function credentialFrom(flags: InitFlags, key: Key): Credential | undefined {
  const env = flags[`${key}Env` as keyof InitFlags] as string | undefined;
  const file = flags[`${key}File` as keyof InitFlags] as string | undefined;
  const literal = flags[key];
  const given = [env, file, literal].filter((v) => v !== undefined).length;
  if (given > 1) throw new UsageError(`give ${key} one way: --${key}, --${key}-env or --${key}-file`);
  if (env !== undefined) return { env };
  if (file !== undefined) return { file };
  return literal;
}

export async function initCommand(ctx: Context, flags: InitFlags): Promise<Outcome> {
  const path = flags.file ?? join(configDir(ctx.io.env), "config.json");
  const config = readConfig(path);
  const ask = ctx.interactive ? await import("@inquirer/prompts") : undefined;
  const io = { input: ctx.io.stdin, output: ctx.io.stderr };
  const missing = (what: string, flag: string): never => {
    throw new UsageError(`init needs ${what}: pass ${flag} (no terminal to ask on)`);
  };

  const name =
    flags.name ??
    (ask
      ? await ask.input(
          {
            message: "Profile name",
            default: "sandbox",
            validate: (v) => /^[A-Za-z0-9_.-]+$/.test(v) || "letters, digits, . _ -",
          },
          io,
        )
      : "sandbox");
  if (!/^[A-Za-z0-9_.-]+$/.test(name))
    throw new UsageError(`--name ${JSON.stringify(name)}: letters, digits, . _ - only`);
  const existing = config.profiles[name] ?? {};

  let baseUrl = flags.sandbox ? SANDBOX : flags.baseUrl;
  if (baseUrl === undefined) {
    if (!ask) baseUrl = (existing.base_url as string | undefined) ?? SANDBOX;
    else {
      const where = await ask.select(
        {
          message: "Which service?",
          choices: [
            { name: "The embedded sandbox (development, no account needed)", value: SANDBOX },
            { name: "The hosted service (its API v2 address and your credentials)", value: "url" },
          ],
          default: existing.base_url && existing.base_url !== SANDBOX ? "url" : SANDBOX,
        },
        io,
      );
      baseUrl =
        where === SANDBOX
          ? SANDBOX
          : await ask.input(
              {
                message: "Base URL of the API",
                default: (existing.base_url as string | undefined) ?? "https://www.tusfacturas.app/app/api/v2",
                validate: (v) => {
                  try {
                    checkBaseUrl(v);
                    return true;
                  } catch (error) {
                    return (error as Error).message;
                  }
                },
              },
              io,
            );
    }
  }
  if (baseUrl !== SANDBOX) checkBaseUrl(baseUrl);

  const profile: Record<string, unknown> = { ...existing, base_url: baseUrl };
  if (baseUrl !== SANDBOX) {
    for (const key of KEYS) {
      let value = credentialFrom(flags, key);
      if (value === undefined && existing[key] !== undefined) value = existing[key] as Credential;
      if (value === undefined && ask) {
        const how = await ask.select(
          {
            message: `How should ${key} be kept?`,
            choices: [
              { name: `In this config file (mode 0600)`, value: "literal" },
              { name: "In an environment variable (the file names it)", value: "env" },
              { name: "In a file of its own (the config names it)", value: "file" },
            ],
          },
          io,
        );
        if (how === "literal")
          value = await ask.password(
            { message: `Value of ${key}`, mask: "*", validate: (v) => v.trim() !== "" || "required" },
            io,
          );
        else if (how === "env")
          value = {
            env: await ask.input(
              {
                message: `Variable holding ${key}`,
                default: `FACTURAR_${name.toUpperCase().replace(/[^A-Z0-9]/g, "_")}_${key.toUpperCase()}`,
              },
              io,
            ),
          };
        else
          value = {
            file: await ask.input({ message: `File holding ${key}`, default: `~/.secrets/${name}-${key}` }, io),
          };
      }
      if (value === undefined) missing(key, `--${key}, --${key}-env or --${key}-file`);
      profile[key] = value;
    }
  }

  const pv = optionalInt("--punto-venta", flags.puntoVenta, 1, 99999);
  if (pv !== undefined) profile.punto_venta = pv;
  else if (ask && baseUrl !== SANDBOX) {
    const answer = await ask.number(
      { message: "Point of sale", default: (existing.punto_venta as number | undefined) ?? 1, min: 1, max: 99999 },
      io,
    );
    if (answer !== undefined) profile.punto_venta = answer;
  }
  if (flags.pdfDir !== undefined) profile.pdf_dir = flags.pdfDir;
  else if (ask)
    profile.pdf_dir = await ask.input(
      { message: "Folder for PDFs", default: (existing.pdf_dir as string | undefined) ?? "./comprobantes" },
      io,
    );
  if (flags.production !== undefined) profile.production = flags.production;
  else if (ask && baseUrl !== SANDBOX) {
    profile.production = await ask.confirm(
      {
        message: "Is this production (real vouchers; ask before issuing)?",
        default: (existing.production as boolean | undefined) ?? false,
      },
      io,
    );
  }
  const makeDefault =
    flags.default ??
    (ask
      ? await ask.confirm({ message: `Use ${name} by default?`, default: !config.default_profile }, io)
      : !config.default_profile);

  config.profiles[name] = profile;
  if (makeDefault) config.default_profile = name;
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  // Written with mode 0600 first, then moved into place: no moment where others can read it.
  writeFileSync(`${path}.tmp`, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  chmodSync(`${path}.tmp`, 0o600);
  renameSync(`${path}.tmp`, path);
  ctx.err(`wrote profile ${name} to ${path}${makeDefault ? " (the default profile)" : ""}`);

  if (flags.check === false) return "done";
  const loaded = await loadProfile({ profile: name, config: path, env: ctx.io.env });
  const connection = await connect(loaded, { env: ctx.io.env });
  try {
    const answer = await connection.client.read("estado_servicios/alertas");
    const ok = answer.error === "N";
    if (ctx.json)
      await ctx.out(
        JSON.stringify({ ok, profile: name, file: path, base_url: baseUrl, status: answer.facturacion ?? null }),
      );
    else
      await ctx.out(
        `${ok ? ctx.color.green("✔") : ctx.color.red("✖")} ${name}: ${connection.sandbox ? "embedded sandbox" : baseUrl} answers, invoicing ${answer.facturacion ?? "?"}`,
      );
    return ok ? "done" : "unavailable";
  } catch (error) {
    if (error instanceof FacturarError) error.message = `profile written, but the check failed: ${error.message}`;
    throw error;
  } finally {
    await connection.close();
  }
}
