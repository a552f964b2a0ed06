/** What the online commands share: the profile, the connection, verbose logging, warnings. */
import { type Connection, connect } from "../api/connect.js";
import { loadProfile, type Profile } from "../config/profile.js";
import type { Context } from "../context.js";
import { t } from "../i18n/index.js";

export async function withConnection<T>(
  ctx: Context,
  use: (connection: Connection, profile: Profile) => Promise<T>,
): Promise<T> {
  const profile = await loadProfile({
    ...(ctx.profile ? { profile: ctx.profile } : {}),
    ...(ctx.configPath ? { config: ctx.configPath } : {}),
    env: ctx.io.env,
  });
  for (const w of profile.warnings) ctx.err(`${ctx.errColor.yellow(t("warning:"))} ${w}`);
  const connection = await connect(profile, {
    env: ctx.io.env,
    notice: (line) => ctx.err(line),
    ...(ctx.verbose ? { log: (line: string) => ctx.err(ctx.errColor.dim(line)) } : {}),
  });
  try {
    return await use(connection, profile);
  } finally {
    await connection.close();
  }
}

/** A method's answer: one JSON document, or lines for people. */
export async function printAnswer(ctx: Context, json: Record<string, unknown>, human: string[]): Promise<void> {
  if (ctx.json) await ctx.out(JSON.stringify(json));
  else for (const line of human) await ctx.out(line);
}
