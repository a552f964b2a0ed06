/** Calendar days as whole numbers, so that date rules are plain arithmetic. */

import { UsageError } from "../errors.js";
import { msg } from "../i18n/message.js";

const MS_PER_DAY = 86_400_000;
/** Argentina has no daylight saving: UTC−3 all year. */
const ARGENTINA_OFFSET_MS = -3 * 3_600_000;

const dayNumbers = new Map<string, number>();

/** Day number (days since 1970-01-01) of a normalised dd/mm/yyyy date. */
export function dayNumber(ddmmyyyy: string): number {
  // A batch repeats the same few dates thousands of times.
  let day = dayNumbers.get(ddmmyyyy);
  if (day === undefined) {
    const [d, m, y] = ddmmyyyy.split("/").map(Number);
    day = Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1) / MS_PER_DAY;
    if (dayNumbers.size > 10_000) dayNumbers.clear();
    dayNumbers.set(ddmmyyyy, day);
  }
  return day;
}

export function formatDay(day: number): string {
  const date = new Date(day * MS_PER_DAY);
  const dd = String(date.getUTCDate()).padStart(2, "0");
  const mm = String(date.getUTCMonth() + 1).padStart(2, "0");
  return `${dd}/${mm}/${date.getUTCFullYear()}`;
}

/** Today's day number in Argentina, where the authority counts its date windows. */
export function argentinaToday(now: Date = new Date()): number {
  return Math.floor((now.getTime() + ARGENTINA_OFFSET_MS) / MS_PER_DAY);
}

/** Months since year 0 of a dd/mm/yyyy or mm/yyyy date, to compare month periods. */
export function monthNumber(date: string): number {
  const parts = date.split("/").map(Number);
  const month = parts.length === 3 ? parts[1] : parts[0];
  const year = parts[parts.length - 1];
  return (year ?? 0) * 12 + (month ?? 1) - 1;
}

/** ISO yyyy-mm-dd of a dd/mm/yyyy date (the QR wants it). */
export function toIsoDate(ddmmyyyy: string): string {
  const [d, m, y] = ddmmyyyy.split("/");
  return `${y}-${m}-${d}`;
}

/** `FACTURAR_TODAY` (tests only): which day the clock shows, as dd/mm/yyyy; the time of day runs on. */
export const TEST_CLOCK = "FACTURAR_TODAY";

/**
 * The clock: the system's, or moved by whole days to FACTURAR_TODAY, so that date windows, the
 * defaults taken from today and the embedded sandbox can be tried on another day.
 */
export function clockFrom(env: Record<string, string | undefined>): () => Date {
  const wanted = env[TEST_CLOCK]?.trim();
  if (!wanted) return () => new Date();
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(wanted);
  const day = m ? Date.UTC(Number(m[3]), Number(m[2]) - 1, Number(m[1])) / MS_PER_DAY : Number.NaN;
  if (!m || formatDay(day) !== wanted)
    throw new UsageError(
      msg("{variable} takes a date dd/mm/yyyy, not {value}", { variable: TEST_CLOCK, value: JSON.stringify(wanted) }),
    );
  const shift = (day - argentinaToday()) * MS_PER_DAY;
  return () => new Date(Date.now() + shift);
}

/** A date `days` after a dd/mm/yyyy one. */
export function addDays(ddmmyyyy: string, days: number): string {
  return formatDay(dayNumber(ddmmyyyy) + days);
}
