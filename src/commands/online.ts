/** What the online commands share: the profile, the connection, verbose logging, warnings. */

import { unreachable } from "../api/client.js";
import type { AccountKey, Connection } from "../api/connection.js";
import { TransportError } from "../api/http.js";
import { Journal } from "../batch/journal.js";
import { stateDir } from "../config/paths.js";
import { loadProfile, type Profile } from "../config/profile.js";
import type { Context } from "../context.js";
import { FacturarError } from "../errors.js";
import { say, t } from "../i18n/index.js";
import type { Text } from "../i18n/message.js";
import { jsonText } from "../output/json.js";
import { connect } from "../session/connect.js";

export async function withConnection<T>(
  ctx: Context,
  use: (connection: Connection, profile: Profile) => Promise<T>,
): Promise<T> {
  const profile = await loadProfile({
    ...(ctx.profile ? { profile: ctx.profile } : {}),
    ...(ctx.configPath ? { config: ctx.configPath } : {}),
    env: ctx.io.env,
  });
  for (const w of profile.warnings) ctx.err(`${ctx.errColor.yellow(t("warning:"))} ${say(w)}`);
  const connection = await connect(profile, {
    env: ctx.io.env,
    notice: (line) => ctx.err(line),
    ...(ctx.verbose ? { log: (line: Text) => ctx.err(ctx.errColor.dim(say(line))) } : {}),
  });
  try {
    return await use(connection, profile);
  } finally {
    await connection.close();
  }
}

/** A method's answer: one JSON document, or lines for people. */
export async function printAnswer(ctx: Context, json: Record<string, unknown>, human: string[]): Promise<void> {
  if (ctx.json) await ctx.out(jsonText(json));
  else for (const line of human) await ctx.out(line);
}

/** What to tell when a call that changes something lost its answer. */
export interface LostAnswer {
  /** The first line, given the network's message. */
  message: (network: Text) => string;
  code: string;
  /** Where to look before doing it again. */
  hint: string;
}

/**
 * What to tell of a call that changes something. It is a write of the client (api/client.ts
 * `request`): sent once, retried only on a 429 (a second one may do it twice, and it counts
 * against the quota), and a failure after which the work may have been done (a lost connection,
 * a 5xx a proxy may have sent after it, an answer that cannot be read) comes out as TransportError,
 * maybe delivered. Here that becomes the user's: a request that never reached the service is
 * unavailable (exit 6); a lost answer leaves the outcome unknown (exit 8), with where to look.
 */
export async function sentOnce<T>(call: () => Promise<T>, lost: LostAnswer): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof TransportError)) throw error;
    if (!error.maybeDelivered) throw unreachable(error.text);
    throw new FacturarError(lost.message(error.text), "unknown", lost.code, lost.hint);
  }
}

/**
 * Tells the account's journal what a command did to vouchers it may hold (a deleted one may be
 * sent again by the next run). Best effort: a running batch holds the journal, and the next run
 * asks the service anyway.
 */
export async function noteInJournal(
  ctx: Context,
  account: AccountKey,
  profile: string,
  note: (journal: Journal) => Promise<void>,
): Promise<void> {
  let journal: Journal | undefined;
  try {
    journal = await Journal.open(stateDir(ctx.io.env), account, { lock: true, profile });
    await note(journal);
  } catch {
    // Busy or unwritable: the service is the truth, and the next run asks it.
  } finally {
    await journal?.close();
  }
}
