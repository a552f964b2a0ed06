/** Where facturar keeps things, following the XDG base directories. */
import { homedir } from "node:os";
import { join } from "node:path";

function base(env: NodeJS.ProcessEnv, variable: string, fallback: string[]): string {
  const value = env[variable];
  return value?.startsWith("/") ? value : join(env.HOME || homedir(), ...fallback);
}

/** `$XDG_DATA_HOME/facturar`: the embedded sandbox's state. */
export function dataDir(env: NodeJS.ProcessEnv = process.env): string {
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
