/**
 * Profiles from cosmiconfig (module `facturar`), searched from the working directory up, then the
 * user's config folder, or exactly the `--config` file. Precedence: flag > environment
 * (`FACTURAR_*`) > profile > built-in default. No configuration at all means the embedded sandbox.
 */

import { existsSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { cosmiconfig, defaultLoaders, type Loader } from "cosmiconfig";
import * as z from "zod";
import { FacturarError, UsageError } from "../errors.js";
import { t } from "../i18n/index.js";

export const SANDBOX = "sandbox";

const credential = z.union([
  z.string().min(1),
  z.number(),
  z.strictObject({ env: z.string().min(1) }),
  z.strictObject({ file: z.string().min(1) }),
]);

const profileSchema = z.strictObject({
  base_url: z.string().min(1).optional(),
  usertoken: credential.optional(),
  apikey: credential.optional(),
  apitoken: credential.optional(),
  punto_venta: z
    .union([
      z.number().int().min(1).max(99999),
      z
        .string()
        .regex(/^\d{1,5}$/)
        .transform(Number),
    ])
    .optional(),
  pdf_dir: z.string().min(1).optional(),
  production: z.boolean().optional(),
  /** Least milliseconds between requests sent in parallel (the service asks for 100). */
  rate_ms: z.number().int().min(0).optional(),
});

const configSchema = z.strictObject({
  $schema: z.string().optional(),
  default_profile: z.string().min(1).optional(),
  profiles: z.record(z.string(), profileSchema).default({}),
});

export type ProfileConfig = z.output<typeof profileSchema>;

export interface Credentials {
  usertoken: string;
  apikey: string;
  apitoken: string;
}

export interface Profile {
  name: string;
  /** `sandbox` (the embedded service) or the API's base URL, without a trailing slash. */
  baseUrl: string;
  /** Undefined for the sandbox, which hands out its own. */
  credentials?: Credentials;
  puntoVenta?: number;
  pdfDir?: string;
  production: boolean;
  rateMs?: number;
  /** The file the profile came from, if any. */
  configFile?: string;
  /** Problems worth a warning (a literal secret others can read). */
  warnings: string[];
}

export class ConfigError extends FacturarError {
  constructor(message: string, hint?: string) {
    super(message, "usage", "config.invalid", hint);
  }
}

function expandHome(path: string): string {
  return path === "~" || path.startsWith("~/") ? `${homedir()}${path.slice(1)}` : path;
}

type CredentialSpec = z.output<typeof credential>;

function resolveCredential(
  name: string,
  spec: CredentialSpec | undefined,
  env: NodeJS.ProcessEnv,
  baseDir: string,
): string | undefined {
  if (spec === undefined) return undefined;
  if (typeof spec === "string" || typeof spec === "number") return String(spec);
  if ("env" in spec) {
    const value = env[spec.env];
    if (!value)
      throw new ConfigError(
        t("credential {name} comes from the environment variable {variable}, which is not set", {
          name,
          variable: spec.env,
        }),
      );
    return value.trim();
  }
  const path = resolve(baseDir, expandHome(spec.file));
  try {
    return readFileSync(path, "utf8").trim();
  } catch (error) {
    throw new ConfigError(
      t("credential {name} comes from {path}, which cannot be read ({code})", {
        name,
        path,
        code: String((error as NodeJS.ErrnoException).code),
      }),
    );
  }
}

/**
 * A home to stop the search at: none when HOME is unset, empty or `/` (cron, systemd, docker),
 * where every folder would count as inside it and the search would run up to `/`.
 */
function realHome(home: string | undefined): string | undefined {
  if (!home) return undefined;
  const path = resolve(home);
  return path === "/" ? undefined : path;
}

/**
 * Where the search up from the working directory stops: the user's home when the working
 * directory is inside it; elsewhere (a shared /tmp, say) the project's root (the nearest folder
 * with `.git` or `package.json`), or the working directory alone. A config in any folder above
 * would let whoever can write there point the profile, and its credentials, elsewhere.
 */
function searchStop(cwd: string, home: string | undefined): string {
  if (home && (cwd === home || cwd.startsWith(`${home.replace(/\/+$/, "")}/`))) return home;
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (existsSync(join(dir, ".git")) || existsSync(join(dir, "package.json"))) return dir;
    if (dirname(dir) === dir) return cwd;
  }
}

/**
 * A config file is trusted when this user or root owns it and no one else can write it, as ssh
 * does with its own files. Its folder is not checked: a file planted there by another user is
 * theirs, and refused.
 */
function trusted(path: string): boolean {
  const uid = process.getuid?.();
  if (uid === undefined) return true;
  const info = statSync(path);
  return (info.uid === uid || info.uid === 0) && (info.mode & 0o022) === 0;
}

/**
 * A config file that runs code (`.js`, `.mjs`, `.cjs`, `.ts`) is checked before it runs:
 * otherwise anyone who could write it would run code as this user.
 */
function guardedCode(loader: Loader): Loader {
  return (path, content) => {
    if (!trusted(path))
      throw new ConfigError(
        t("refusing to run {path}: another user owns it or can write it", { path }),
        t("a config that runs code must be yours alone (chmod go-w); or use a JSON config"),
      );
    return loader(path, content);
  };
}

/**
 * Any other config file (JSON, YAML, rc, `package.json#facturar`) is refused the same way, with
 * an error rather than a warning: a cron job quietly running on other settings (the sandbox, or
 * another profile) is worse than one that stops and says why. A `package.json` with no
 * `facturar` settings is not a config and is let be.
 */
function guardedData(loader: Loader): Loader {
  return async (path, content) => {
    const loaded = await loader(path, content);
    if (basename(path) === "package.json" && (loaded as Record<string, unknown> | null)?.facturar === undefined)
      return loaded;
    if (!trusted(path))
      throw new ConfigError(
        t("refusing to use {path}: another user owns it or others can write it", { path }),
        t("a config file must be yours (or root's) and writable by no one else: chmod go-w it"),
      );
    return loaded;
  };
}

/**
 * A config that is code, loaded by Node itself: an ES module's default export, a CommonJS
 * module's exports. cosmiconfig's own loader calls import(), which the bundle (one CommonJS file)
 * turns into require(): an ES module's namespace came back instead of its default export.
 */
const loadCode: Loader = (path) => {
  let loaded: Record<string | symbol, unknown>;
  try {
    loaded = createRequire(import.meta.url)(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ERR_REQUIRE_ASYNC_MODULE")
      throw new ConfigError(t("{path} uses top-level await, which a configuration file cannot", { path }));
    throw error;
  }
  return moduleDefault(loaded, path);
};

/** An ES module's default export; one with named exports only is refused, never read as empty. */
function moduleDefault(loaded: Record<string | symbol, unknown>, path: string): unknown {
  const isModule = loaded?.[Symbol.toStringTag] === "Module" || (loaded?.__esModule === true && "default" in loaded);
  if (!isModule) return loaded;
  if (!("default" in loaded) || loaded.default === undefined)
    throw new ConfigError(t("{path} has no default export: write export default { profiles: … }", { path }));
  return loaded.default;
}

/** cosmiconfig's TypeScript loader imports what it compiles, which the bundle turns into require(). */
const loadTs: Loader = async (path, content) =>
  moduleDefault((await (defaultLoaders[".ts"] as Loader)(path, content)) as Record<string, unknown>, path);

const CODE_LOADERS = [".js", ".mjs", ".cjs", ".ts"] as const;
const DATA_LOADERS = [".json", ".yaml", ".yml", "noExt"] as const;

async function loadConfigFile(explicit: string | undefined, cwd: string, home: string | undefined) {
  const loaders = Object.fromEntries([
    ...CODE_LOADERS.map((ext) => [ext, guardedCode(ext === ".ts" ? loadTs : loadCode)]),
    ...DATA_LOADERS.map((ext) => [ext, guardedData(defaultLoaders[ext] as Loader)]),
  ]) as Record<string, Loader>;
  const explorer = cosmiconfig("facturar", {
    searchStrategy: "global",
    stopDir: searchStop(resolve(cwd), realHome(home)),
    loaders,
  });
  try {
    if (explicit) return await explorer.load(resolve(cwd, explicit));
    return await explorer.search(cwd);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (explicit && code === "ENOENT")
      throw new ConfigError(t("config file {path} does not exist", { path: explicit }));
    throw new ConfigError(t("cannot read the configuration: {message}", { message: (error as Error).message }));
  }
}

export interface ProfileRequest {
  profile?: string;
  config?: string;
  env: NodeJS.ProcessEnv;
  cwd?: string;
}

/** An empty variable counts as unset, as shells and cron files often leave them. */
function setting(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

export async function loadProfile(req: ProfileRequest): Promise<Profile> {
  const env = req.env;
  const found = await loadConfigFile(req.config, req.cwd ?? process.cwd(), env.HOME);
  let config: z.output<typeof configSchema> = { profiles: {} };
  if (found && !found.isEmpty) {
    // Parsed once a run: compiling its parser (zod's JIT) would cost more than it saves.
    const parsed = configSchema.safeParse(found.config, { jitless: true });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ConfigError(`${found.filepath}: ${issue?.path.join(".") || "(top)"}: ${issue?.message}`);
    }
    config = parsed.data;
  }
  // Never a production profile by accident: without a choice, the sandbox; a cron job that
  // gives only FACTURAR_BASE_URL and the credentials gets a profile named "default".
  const envBase = setting(env, "FACTURAR_BASE_URL");
  const fromEnvOnly = envBase !== undefined && envBase !== SANDBOX;
  const name =
    req.profile ?? setting(env, "FACTURAR_PROFILE") ?? config.default_profile ?? (fromEnvOnly ? "default" : SANDBOX);
  const profile = config.profiles[name];
  if (!profile && name !== SANDBOX && !fromEnvOnly) {
    const known = Object.keys(config.profiles);
    throw new ConfigError(
      found
        ? t("no profile named {name} in {path}", { name: JSON.stringify(name), path: found.filepath })
        : t("no profile named {name} (no configuration file found)", { name: JSON.stringify(name) }),
      known.length > 0
        ? t("profiles there: {names}", { names: known.join(", ") })
        : t("create one with `facturar init`, or use the embedded sandbox (no profile)"),
    );
  }
  const baseDir = found ? dirname(found.filepath) : process.cwd();
  const warnings: string[] = [];
  const baseUrl = (setting(env, "FACTURAR_BASE_URL") ?? profile?.base_url ?? SANDBOX).replace(/\/+$/, "");
  const pick = (key: "usertoken" | "apikey" | "apitoken") =>
    setting(env, `FACTURAR_${key.toUpperCase()}`) ?? resolveCredential(key, profile?.[key], env, baseDir);
  const literal = (["usertoken", "apikey", "apitoken"] as const).filter((k) => {
    const spec = profile?.[k];
    return typeof spec === "string" || typeof spec === "number";
  });
  if (found && literal.length > 0) {
    try {
      const mode = statSync(found.filepath).mode;
      if ((mode & 0o044) !== 0) {
        warnings.push(
          t(
            '{path} holds literal credentials ({keys}) and other users can read it: chmod 600 it, or use {"env": NAME} / {"file": PATH}',
            { path: found.filepath, keys: literal.join(", ") },
          ),
        );
      }
    } catch {
      // a config that vanished is reported elsewhere
    }
  }
  const envPuntoVenta = setting(env, "FACTURAR_PUNTO_VENTA");
  if (envPuntoVenta !== undefined && !/^\d{1,5}$/.test(envPuntoVenta.trim()))
    throw new ConfigError(
      t("FACTURAR_PUNTO_VENTA takes a point of sale from 1 to 99999, not {value}", {
        value: JSON.stringify(envPuntoVenta),
      }),
    );
  const puntoVenta = envPuntoVenta !== undefined ? Number(envPuntoVenta) : profile?.punto_venta;
  const result: Profile = {
    name,
    baseUrl,
    production: profile?.production ?? false,
    warnings,
    ...(found ? { configFile: found.filepath } : {}),
    ...(puntoVenta !== undefined ? { puntoVenta } : {}),
    ...(profile?.pdf_dir ? { pdfDir: resolve(baseDir, expandHome(profile.pdf_dir)) } : {}),
    ...(profile?.rate_ms !== undefined ? { rateMs: profile.rate_ms } : {}),
  };
  if (baseUrl !== SANDBOX) {
    checkBaseUrl(baseUrl);
    const usertoken = pick("usertoken");
    const apikey = pick("apikey");
    const apitoken = pick("apitoken");
    if (!usertoken || !apikey || !apitoken) {
      throw new FacturarError(
        t("profile {name} has no {keys}", {
          name,
          keys: [!usertoken && "usertoken", !apikey && "apikey", !apitoken && "apitoken"].filter(Boolean).join(", "),
        }),
        "denied",
        "config.credentials",
        t("set them in the profile, or in FACTURAR_USERTOKEN, FACTURAR_APIKEY and FACTURAR_APITOKEN"),
      );
    }
    result.credentials = { usertoken, apikey, apitoken };
  }
  return result;
}

const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/** https anywhere; plain http only to this machine. */
export function checkBaseUrl(baseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new UsageError(
      t("base_url {url} is not a URL", { url: JSON.stringify(baseUrl) }),
      t('use "sandbox" or https://<host>/app/api/v2'),
    );
  }
  if (url.protocol === "https:") return url;
  if (url.protocol === "http:" && LOOPBACK_HOST.test(url.hostname)) return url;
  throw new UsageError(
    t("refusing {url}: credentials travel in the body, so only https is allowed (plain http only to loopback)", {
      url: `${url.protocol}//${url.host}`,
    }),
  );
}

export function isLoopback(hostname: string): boolean {
  return LOOPBACK_HOST.test(hostname);
}

/** Profile names for completion: the configuration's and the built-in sandbox; never throws. */
export async function loadProfileNames(cwd = process.cwd()): Promise<string[]> {
  try {
    const found = await loadConfigFile(undefined, cwd, process.env.HOME);
    const parsed = found && !found.isEmpty ? configSchema.safeParse(found.config, { jitless: true }) : undefined;
    const names = parsed?.success ? Object.keys(parsed.data.profiles) : [];
    return [...new Set([...names, SANDBOX])];
  } catch {
    return [SANDBOX];
  }
}
