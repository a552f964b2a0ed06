/** Where facturar keeps things, following the XDG base directories. */
import { userInfo } from "node:os";
import { join } from "node:path";

/**
 * The user's home: HOME when it is an absolute path, else the account's own (a relative HOME,
 * `HOME=.`, would make the working folder the home, and its config the user's).
 */
export function homeOf(env: NodeJS.ProcessEnv = process.env): string {
  if (env.HOME?.startsWith("/")) return env.HOME;
  try {
    return userInfo().homedir;
  } catch {
    return "/";
  }
}

function base(env: NodeJS.ProcessEnv, variable: string, fallback: string[]): string {
  const value = env[variable];
  return value?.startsWith("/") ? value : join(homeOf(env), ...fallback);
}

/** `$XDG_DATA_HOME/facturar`: the embedded sandbox's state. */
function dataDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(base(env, "XDG_DATA_HOME", [".local", "share"]), "facturar");
}

/** `$XDG_STATE_HOME/facturar`: the journal. */
export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(base(env, "XDG_STATE_HOME", [".local", "state"]), "facturar");
}

/** `$XDG_CONFIG_HOME/facturar`: user configuration. */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(base(env, "XDG_CONFIG_HOME", [".config"]), "facturar");
}

export function sandboxDataDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(dataDir(env), "sandbox");
}
