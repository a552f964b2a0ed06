/**
 * Profiles from the user's config folder (`$XDG_CONFIG_HOME/facturar/config.*`) or exactly the
 * `--config` / FACTURAR_CONFIG file, read with cosmiconfig's loaders; a config found from the
 * working folder up may only choose among them and set non-secret defaults (`findConfigs`).
 * Precedence: flag > environment (`FACTURAR_*`) > the folder's config > profile > built-in
 * default. No configuration at all means the embedded sandbox.
 */

import { existsSync, lstatSync, readFileSync, realpathSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, extname, isAbsolute, join, relative, resolve } from "node:path";
import { defaultLoaders, getDefaultSearchPlaces, globalConfigSearchPlaces, type Loader } from "cosmiconfig";
import * as z from "zod";
import { FacturarError, UsageError } from "../errors.js";
import { concat, type Message, msg, type Text, zodIssue } from "../i18n/message.js";
import { configDir, homeOf } from "./paths.js";

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
  /** The config found from the working folder that chose the profile or set its defaults, if any. */
  projectFile?: string;
  /** Problems worth a warning (a literal secret others can read). */
  warnings: Text[];
}

class ConfigError extends FacturarError {
  constructor(message: Text, hint?: Text) {
    super(message, "usage", "config.invalid", hint);
  }
}

function expandHome(path: string, env: NodeJS.ProcessEnv = process.env): string {
  return path === "~" || path.startsWith("~/") ? `${homeOf(env)}${path.slice(1)}` : path;
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
        msg("credential {name} comes from the environment variable {variable}, which is not set", {
          name,
          variable: spec.env,
        }),
      );
    return value.trim();
  }
  const path = resolve(baseDir, expandHome(spec.file, env));
  try {
    return readFileSync(path, "utf8").trim();
  } catch (error) {
    throw new ConfigError(
      msg("credential {name} comes from {path}, which cannot be read ({code})", {
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
  if (!home?.startsWith("/")) return undefined;
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
 * Why a config file cannot be trusted, or undefined when it can. As ssh's StrictModes: the file,
 * and every folder above it (as named, and where its links lead), must be this user's or root's
 * and writable by no one else; a folder others may write but only owners may rename in (sticky,
 * as /tmp) is no danger. Otherwise another user could swap the file between its check and its
 * read, or plant one.
 */
function untrusted(path: string): { folder?: string } | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  const ours = (info: { uid: number }) => info.uid === uid || info.uid === 0;
  const file = statSync(path);
  if (!ours(file) || (file.mode & 0o022) !== 0) return {};
  for (const start of new Set([dirname(resolve(path)), dirname(realpathSync(path))]))
    for (let dir = start; ; dir = dirname(dir)) {
      const info = statSync(dir);
      if (!ours(info) || ((info.mode & 0o022) !== 0 && (info.mode & 0o1000) === 0)) return { folder: dir };
      if (dirname(dir) === dir) break;
    }
  return undefined;
}

/**
 * A config file that runs code (`.js`, `.mjs`, `.cjs`, `.ts`) is checked before it runs:
 * otherwise anyone who could write it would run code as this user.
 */
function guardedCode(loader: Loader): Loader {
  return (path, content) => {
    const why = untrusted(path);
    if (why?.folder)
      throw new ConfigError(
        msg("refusing to run {path}: others can write the folder {folder}", { path, folder: why.folder }),
      );
    if (why)
      throw new ConfigError(
        msg("refusing to run {path}: another user owns it or can write it", { path }),
        msg("a config that runs code must be yours alone (chmod go-w); or use a JSON config"),
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
    const why = untrusted(path);
    if (why?.folder)
      throw new ConfigError(
        msg("refusing to use {path}: others can write the folder {folder}", { path, folder: why.folder }),
      );
    if (why)
      throw new ConfigError(
        msg("refusing to use {path}: another user owns it or others can write it", { path }),
        msg("a config file must be yours (or root's) and writable by no one else: chmod go-w it"),
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
      throw new ConfigError(msg("{path} uses top-level await, which a configuration file cannot", { path }));
    throw error;
  }
  return moduleDefault(loaded, path);
};

/** An ES module's default export; one with named exports only is refused, never read as empty. */
function moduleDefault(loaded: Record<string | symbol, unknown>, path: string): unknown {
  const isModule = loaded?.[Symbol.toStringTag] === "Module" || (loaded?.__esModule === true && "default" in loaded);
  if (!isModule) return loaded;
  if (!("default" in loaded) || loaded.default === undefined)
    throw new ConfigError(msg("{path} has no default export: write export default { profiles: … }", { path }));
  return loaded.default;
}

/** cosmiconfig's TypeScript loader imports what it compiles, which the bundle turns into require(). */
const loadTs: Loader = async (path, content) =>
  moduleDefault((await (defaultLoaders[".ts"] as Loader)(path, content)) as Record<string, unknown>, path);

/** The names cosmiconfig's global search reads in the user's config folder, in its order. */
const USER_PLACES = globalConfigSearchPlaces;
/** The names searched from the working folder up (cosmiconfig's); the code ones are refused. */
const PROJECT_PLACES = getDefaultSearchPlaces("facturar");

const CODE_EXTENSIONS = new Set([".js", ".mjs", ".cjs", ".ts"]);
const DATA_LOADERS: Record<string, Loader> = {
  ".json": defaultLoaders[".json"] as Loader,
  ".yaml": defaultLoaders[".yaml"] as Loader,
  ".yml": defaultLoaders[".yml"] as Loader,
  noExt: defaultLoaders.noExt as Loader,
};

/** What a config found from the working folder may set in a profile: nothing secret or steering. */
const PROJECT_PROFILE_KEYS = new Set(["pdf_dir"]);
const PROJECT_KEYS = new Set(["$schema", "default_profile", "profiles"]);

interface Found {
  filepath: string;
  config: unknown;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * One config file, read with cosmiconfig's loader for its format; `undefined` when it is empty,
 * or a `package.json` with no `facturar` settings. Code runs only where `code` is "run".
 */
async function loadFile(path: string, code: "run" | { refuse: string }): Promise<Found | undefined> {
  const extension = extname(path);
  if (CODE_EXTENSIONS.has(extension)) {
    if (code !== "run")
      throw new ConfigError(
        msg("refusing to run {path}: a config found from the working folder is never run", { path }),
        msg("configs that run code are read only from {dir}, or when you name one with --config or FACTURAR_CONFIG", {
          dir: code.refuse,
        }),
      );
    const loader = guardedCode(extension === ".ts" ? loadTs : loadCode);
    return { filepath: path, config: await loader(path, readFileSync(path, "utf8")) };
  }
  const loader = DATA_LOADERS[extension || "noExt"];
  if (!loader)
    throw new ConfigError(
      msg("config file {path}: unknown format (use .json, .yaml, .js, .mjs, .cjs or .ts)", { path }),
    );
  const content = readFileSync(path, "utf8");
  if (content.trim() === "") return undefined;
  let loaded: unknown;
  try {
    loaded = await guardedData(loader)(path, content);
  } catch (error) {
    if (error instanceof FacturarError) throw error;
    throw new ConfigError(unreadable(path, content, error as Error));
  }
  if (basename(path) === "package.json") loaded = (loaded as Record<string, unknown> | null)?.facturar;
  return loaded === undefined || loaded === null ? undefined : { filepath: path, config: loaded };
}

/**
 * Where a config file fails to parse, never what it holds: the parsers quote the text around the
 * error, and a config (or a file linked in its place) may hold secrets that end up in a CI log.
 */
function unreadable(path: string, content: string, error: Error): Message {
  const message = error.message;
  const yaml = /\((\d+):(\d+)\)/.exec(message);
  const position = /position (\d+)/.exec(message);
  let where: { line: number; column: number } | undefined;
  if (yaml) where = { line: Number(yaml[1]), column: Number(yaml[2]) };
  else if (position) {
    const before = content.slice(0, Number(position[1])).split("\n");
    where = { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
  }
  return where
    ? msg("{path} cannot be read: not valid JSON or YAML at line {line}, column {column}", { path, ...where })
    : msg("{path} cannot be read: not valid JSON or YAML", { path });
}

/**
 * The configuration a run may use, as the README's "Security" section tells it:
 * - `trusted`: exactly the file --config or FACTURAR_CONFIG names, or else the user's own in
 *   `$XDG_CONFIG_HOME/facturar/` (credentials, base_url, code: as gh and the AWS and Stripe CLIs,
 *   which read only the user's own folder);
 * - `project`: the first config found from the working folder up (see `searchStop`), data only:
 *   it may choose among the trusted profiles and set non-secret defaults. A config there that
 *   runs code is refused unread, as direnv runs nothing it was not told to allow.
 * cosmiconfig's explorer is not used: on creation it reads a "meta config" from the working
 * folder's `.config/`, running a `config.js` found there; only its loaders are.
 */
async function findConfigs(
  explicit: string | undefined,
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ trusted?: Found; project?: Found }> {
  try {
    const fromEnv = explicit === undefined ? setting(env, "FACTURAR_CONFIG") : undefined;
    if (fromEnv !== undefined && !isAbsolute(expandHome(fromEnv, env)))
      throw new ConfigError(
        msg("FACTURAR_CONFIG must be an absolute path, not {value}: it applies in every folder you stand in", {
          value: JSON.stringify(fromEnv),
        }),
      );
    const named = explicit ?? fromEnv;
    if (named) {
      const path = resolve(cwd, expandHome(named, env));
      if (!isFile(path)) throw new ConfigError(msg("config file {path} does not exist", { path: named }));
      return { trusted: await loadFile(path, "run") };
    }
    const userDir = configDir(env);
    let trusted: Found | undefined;
    for (const place of USER_PLACES) {
      const path = join(userDir, place);
      trusted = isFile(path) ? await loadFile(path, "run") : undefined;
      if (trusted) break;
    }
    const start = resolve(cwd);
    const stop = searchStop(start, realHome(env.HOME));
    for (let dir = start; ; dir = dirname(dir)) {
      // The user's own folder is theirs, not a project's, wherever the search passes.
      if (dir !== userDir)
        for (const place of PROJECT_PLACES) {
          const path = join(dir, place);
          if (!isFile(path)) continue;
          // A link would read any file of the user's (~/.git-credentials) as the folder's config.
          if (lstatSync(path).isSymbolicLink() || realpathSync(path) !== join(realpathSync(dir), place))
            throw new ConfigError(
              msg("refusing {path}: a config found from the working folder may not be a link", { path }),
            );
          const project = await loadFile(path, { refuse: userDir });
          if (project) return { trusted, project };
        }
      if (dir === stop || dirname(dir) === dir) return { trusted };
    }
  } catch (error) {
    if (error instanceof FacturarError) throw error;
    throw new ConfigError(msg("cannot read the configuration: {message}", { message: (error as Error).message }));
  }
}

function parseConfig(found: Found): z.output<typeof configSchema> {
  // Parsed once a run: compiling its parser (zod's JIT) would cost more than it saves.
  const parsed = configSchema.safeParse(found.config, { jitless: true });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    // zod's words with its data, said in the reader's language (as the vouchers' issues are).
    const at = issue?.path.join(".") || "(top)";
    const input = issue?.path.reduce<unknown>(
      (value, key) =>
        value !== null && typeof value === "object" ? (value as Record<PropertyKey, unknown>)[key] : undefined,
      found.config,
    );
    throw new ConfigError(concat(`${found.filepath}: ${at}: `, issue ? zodIssue(issue, input) : ""));
  }
  return parsed.data;
}

/**
 * A project config, held to what it may set: `default_profile`, and `pdf_dir` and `punto_venta`
 * of profiles the trusted configuration defines (or the built-in sandbox). Anything else is
 * refused whole, naming the file and the keys.
 */
function projectSettings(found: Found, trusted: z.output<typeof configSchema>, userDir: string) {
  const raw = found.config;
  const forbidden = new Set<string>();
  if (raw !== null && typeof raw === "object" && !Array.isArray(raw)) {
    for (const [key, value] of Object.entries(raw)) {
      if (!PROJECT_KEYS.has(key)) forbidden.add(key);
      else if (key === "profiles" && value !== null && typeof value === "object")
        for (const profile of Object.values(value))
          if (profile !== null && typeof profile === "object")
            for (const inner of Object.keys(profile)) if (!PROJECT_PROFILE_KEYS.has(inner)) forbidden.add(inner);
    }
  }
  if (forbidden.size > 0)
    throw new ConfigError(
      msg("refusing {path}: a config found from the working folder may not set {keys}", {
        path: found.filepath,
        keys: [...forbidden].join(", "),
      }),
      msg(
        "credentials, base_url and the other settings come only from {dir}, --config, FACTURAR_CONFIG or the environment; a folder's config may set default_profile and pdf_dir",
        { dir: userDir },
      ),
    );
  const project = parseConfig(found);
  const defined = (name: string) => name === SANDBOX || Object.hasOwn(trusted.profiles, name);
  for (const name of [project.default_profile, ...Object.keys(project.profiles)])
    if (name !== undefined && !defined(name))
      throw new ConfigError(
        msg("{path} sets profile {name}, which your configuration does not define", {
          path: found.filepath,
          name: JSON.stringify(name),
        }),
        msg("define it in {dir} (facturar init does), or give --profile", { dir: userDir }),
      );
  const folder = dirname(found.filepath);
  for (const profile of Object.values(project.profiles)) {
    const pdfDir = profile.pdf_dir;
    const inside = pdfDir === undefined ? "" : relative(folder, resolve(folder, pdfDir));
    if (
      pdfDir !== undefined &&
      (pdfDir.startsWith("~") || isAbsolute(pdfDir) || isAbsolute(inside) || inside.startsWith(".."))
    )
      throw new ConfigError(
        msg("{path}: pdf_dir must be a folder inside {folder}, not {value}", {
          path: found.filepath,
          folder,
          value: JSON.stringify(pdfDir),
        }),
      );
  }
  return project;
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
  const { trusted, project } = await findConfigs(req.config, req.cwd ?? process.cwd(), env);
  const config: z.output<typeof configSchema> = trusted ? parseConfig(trusted) : { profiles: {} };
  const local = project ? projectSettings(project, config, configDir(env)) : undefined;
  const found = trusted;
  // Never a production profile by accident: without a choice, the sandbox; a cron job that
  // gives only FACTURAR_BASE_URL and the credentials gets a profile named "default".
  const envBase = setting(env, "FACTURAR_BASE_URL");
  const fromEnvOnly = envBase !== undefined && envBase !== SANDBOX;
  // A cron job's profile from the environment is the environment's: a folder's config neither
  // renames it nor sets anything of it.
  const folderChoice = fromEnvOnly ? undefined : local?.default_profile;
  const named = req.profile ?? setting(env, "FACTURAR_PROFILE");
  const name = named ?? folderChoice ?? config.default_profile ?? (fromEnvOnly ? "default" : SANDBOX);
  const profile = Object.hasOwn(config.profiles, name) ? config.profiles[name] : undefined;
  // A production profile is chosen by the user alone: a folder's config that picks one could turn
  // a rehearsal in a downloaded folder into real vouchers.
  if (named === undefined && folderChoice !== undefined && name === folderChoice && profile?.production)
    throw new ConfigError(
      msg("{path} may not choose profile {name}, a production one: give --profile {bare} (or FACTURAR_PROFILE)", {
        path: (project as Found).filepath,
        name: JSON.stringify(name),
        bare: name,
      }),
    );
  if (!profile && name !== SANDBOX && !fromEnvOnly) {
    const known = Object.keys(config.profiles);
    throw new ConfigError(
      found
        ? msg("no profile named {name} in {path}", { name: JSON.stringify(name), path: found.filepath })
        : msg("no profile named {name} (no configuration file found)", { name: JSON.stringify(name) }),
      known.length > 0
        ? msg("profiles there: {names}", { names: known.join(", ") })
        : msg("create one with `facturar init`, or use the embedded sandbox (no profile)"),
    );
  }
  const baseDir = found ? dirname(found.filepath) : process.cwd();
  const warnings: Text[] = [];
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
          msg(
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
      msg("FACTURAR_PUNTO_VENTA takes a point of sale from 1 to 99999, not {value}", {
        value: JSON.stringify(envPuntoVenta),
      }),
    );
  const folder =
    local && Object.hasOwn(local.profiles, name) && (profile !== undefined || (name === SANDBOX && baseUrl === SANDBOX))
      ? local.profiles[name]
      : undefined;
  const puntoVenta = envPuntoVenta !== undefined ? Number(envPuntoVenta) : profile?.punto_venta;
  const pdfDir = folder?.pdf_dir
    ? resolve(dirname((project as Found).filepath), folder.pdf_dir)
    : profile?.pdf_dir
      ? resolve(baseDir, expandHome(profile.pdf_dir, env))
      : undefined;
  const result: Profile = {
    name,
    baseUrl,
    production: profile?.production ?? false,
    warnings,
    ...(found ? { configFile: found.filepath } : {}),
    ...(puntoVenta !== undefined ? { puntoVenta } : {}),
    ...(project ? { projectFile: project.filepath } : {}),
    ...(pdfDir ? { pdfDir } : {}),
    ...(profile?.rate_ms !== undefined ? { rateMs: profile.rate_ms } : {}),
  };
  if (baseUrl !== SANDBOX) {
    checkBaseUrl(baseUrl);
    const usertoken = pick("usertoken");
    const apikey = pick("apikey");
    const apitoken = pick("apitoken");
    if (!usertoken || !apikey || !apitoken) {
      throw new FacturarError(
        msg("profile {name} has no {keys}", {
          name,
          keys: [!usertoken && "usertoken", !apikey && "apikey", !apitoken && "apitoken"].filter(Boolean).join(", "),
        }),
        "denied",
        "config.credentials",
        msg("set them in the profile, or in FACTURAR_USERTOKEN, FACTURAR_APIKEY and FACTURAR_APITOKEN"),
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
      msg("base_url {url} is not a URL", { url: JSON.stringify(baseUrl) }),
      msg('use "sandbox" or https://<host>/app/api/v2'),
    );
  }
  if (url.protocol === "https:") return url;
  if (url.protocol === "http:" && LOOPBACK_HOST.test(url.hostname)) return url;
  throw new UsageError(
    msg("refusing {url}: credentials travel in the body, so only https is allowed (plain http only to loopback)", {
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
    const { trusted } = await findConfigs(undefined, cwd, process.env);
    const names = trusted ? Object.keys(parseConfig(trusted).profiles) : [];
    return [...new Set([...names, SANDBOX])];
  } catch {
    return [SANDBOX];
  }
}
