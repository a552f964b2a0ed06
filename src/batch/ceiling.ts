/**
 * The final-consumer identification ceiling (`topecf`), cached for the day per account (never per
 * profile name: two services may differ): the authority updates it rarely, and every call uses a
 * request of the plan's quota.
 */

import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Service } from "../api/protocol.js";
import { diskCause, isDiskError } from "../durable/disk.js";
import { msg, type Text } from "../i18n/message.js";
import { DEFAULT_FINAL_CONSUMER_CEILING } from "../voucher/codes.js";
import { argentinaToday, formatDay } from "../voucher/dates.js";
import { Dec } from "../voucher/decimal.js";

interface CacheFile {
  [account: string]: { day: string; monto: string };
}

export interface CeilingAnswer {
  monto: Dec;
  day: string;
  cached: boolean;
  /** Why today's answer could not be cached (the state folder is read-only, say). */
  cacheProblem?: Text;
}

function readCache(path: string): CacheFile {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as CacheFile;
  } catch {
    return {};
  }
}

/** Asks `topecf` unless today's answer is cached. */
export async function fetchCeiling(
  service: Service,
  dir: string,
  account: string,
  refresh = false,
): Promise<CeilingAnswer> {
  const path = join(dir, "ceiling.json");
  const today = formatDay(argentinaToday());
  const cache = readCache(path);
  const hit = cache[account];
  if (!refresh && hit?.day === today && Dec.tryParse(hit.monto))
    return { monto: Dec.parse(hit.monto), day: today, cached: true };
  const monto = Dec.parse(await service.ceiling());
  // Only a cache: when it cannot be kept the answer still stands, and the next run asks again.
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const next = { ...readCache(path), [account]: { day: today, monto: monto.toString() } };
    writeFileSync(`${path}.tmp`, JSON.stringify(next, null, 2));
    renameSync(`${path}.tmp`, path);
  } catch (error) {
    if (!isDiskError(error)) throw error;
    return {
      monto,
      day: today,
      cached: false,
      cacheProblem: msg("the ceiling is not kept for the day: {path} cannot be written ({cause})", {
        path,
        cause: diskCause(error, path),
      }),
    };
  }
  return { monto, day: today, cached: false };
}

/** The ceiling for validation: the live one, or the documented default when it cannot be had. */
export async function currentCeiling(
  service: Service,
  dir: string,
  account: string,
  warn: (line: Text) => void,
): Promise<Dec> {
  try {
    const answer = await fetchCeiling(service, dir, account);
    if (answer.cacheProblem) warn(answer.cacheProblem);
    return answer.monto;
  } catch (error) {
    warn(
      msg("could not get the current final-consumer ceiling ({message}); using {ceiling}", {
        message: (error as Error).message,
        ceiling: DEFAULT_FINAL_CONSUMER_CEILING,
      }),
    );
    return Dec.parse(DEFAULT_FINAL_CONSUMER_CEILING);
  }
}
