/**
 * English and Spanish, for the renderers. Messages are written in English in the code, and the
 * English text is the key of the Spanish catalog (gettext's way: a message missing from the
 * catalog still reads, in English). `{name}` marks a parameter. The core builds its messages as
 * data (`msg()` of ./message.ts) and never imports this module (ARCHITECTURE.md): only the
 * renderers, which `t()` their own words and `say()` the core's. The language is chosen once per
 * run by src/cli.ts: `--lang`, else LC_ALL, LC_MESSAGES, LANG.
 */
import { type Lang, msg, msgn, type Params, render, type Text, type ZodWords } from "./message.js";

export type { Lang } from "./message.js";

let catalog: Readonly<Record<string, string>> | undefined;
let zodWords: ZodWords | undefined;
let current: Lang = "en";

/** The message in the current language, with its `{parameters}` filled in. */
export function t(text: string, params?: Params): string {
  return render(msg(text, params), current, catalog);
}

/** `t` of the singular or the plural message, with `{n}` the count grouped in thousands. */
export function tn(count: number, one: string, other: string, params?: Params): string {
  return render(msgn(count, one, other, params), current, catalog);
}

/** What the core said (a message, or words already), in the reader's language. */
export function say(text: Text): string {
  return render(text, current, catalog, zodWords);
}

export function currentLang(): Lang {
  return current;
}

/** Spanish for "es", "es_AR.UTF-8", "es-AR"; English for "en…", "C", "POSIX"; undefined otherwise. */
export function parseLang(value: string | undefined): Lang | undefined {
  const v = value?.trim().toLowerCase();
  if (!v) return undefined;
  if (/^es([_.@-]|$)/.test(v)) return "es";
  if (/^en([_.@-]|$)/.test(v) || v === "c" || v.startsWith("c.") || v === "posix") return "en";
  return undefined;
}

/** The locale the environment asks for, POSIX order: LC_ALL, LC_MESSAGES, LANG (empty = unset). */
export function langFromEnv(env: NodeJS.ProcessEnv): Lang {
  for (const name of ["LC_ALL", "LC_MESSAGES", "LANG"]) {
    const value = env[name];
    if (value !== undefined && value !== "") return parseLang(value.split(":")[0]) ?? "en";
  }
  return "en";
}

/** Switches the language; Spanish loads its catalog (only then, to keep start-up light). */
export async function useLang(lang: Lang): Promise<void> {
  current = lang;
  catalog = lang === "es" ? (await import("./es.js")).ES : undefined;
  zodWords = lang === "es" ? (await import("./zod-es.js")).zodWordsEs : undefined;
}
