/**
 * English and Spanish. Messages are written in English in the code, wrapped in `t()`, and the
 * English text is the key of the Spanish catalog (gettext's way: a message missing from the
 * catalog still reads, in English). `{name}` marks a parameter. The language is chosen once per
 * run by src/cli.ts: `--lang`, else LC_ALL, LC_MESSAGES, LANG.
 */
export type Lang = "en" | "es";

/** What a message takes: what a template literal would print. */
type Param = string | number | bigint | null | undefined;

let catalog: Readonly<Record<string, string>> | undefined;
let current: Lang = "en";

const PARAM = /\{(\w+)\}/g;

/** The message in the current language, with its `{parameters}` filled in. */
export function t(text: string, params?: Readonly<Record<string, Param>>): string {
  const template = catalog?.[text] ?? text;
  if (!params) return template;
  return template.replace(PARAM, (whole, name: string) => (name in params ? String(params[name]) : whole));
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
}

/** `t` of the singular or the plural message, with `{n}` the count. */
export function tn(count: number, one: string, other: string, params?: Readonly<Record<string, Param>>): string {
  return t(count === 1 ? one : other, { n: groupedCount(count), ...params });
}

/** How each language writes numbers: es-AR `1.234,5`, English `1,234.5`. */
export const SEPARATORS = { es: { group: ".", decimal: "," }, en: { group: ",", decimal: "." } } as const;

/** Whole digits grouped in thousands as `lang` writes them (`1234567` → es `1.234.567`). */
export function groupThousands(digits: string, lang: Lang = current): string {
  return digits.replace(/\B(?=(\d{3})+$)/g, SEPARATORS[lang].group);
}

/** A count grouped in thousands as the reader writes it: es `1.500`, en `1,500`. */
function groupedCount(count: number): string {
  return Number.isInteger(count) ? groupThousands(String(count)) : String(count);
}
