/**
 * zod's own messages (a wrong JSON type, a missing block) in Spanish: loaded with the Spanish
 * catalog. The one locale by name: `z.locales.es` would keep all of zod's locales in the bundle
 * (scripts/bundle.mjs).
 */
import { es } from "zod/locales";
import type { ZodWords } from "./message.js";

const locale = es();

export const zodWordsEs: ZodWords = (issue) => {
  // An issue read back from a file (the journal) may not be one zod made: then its English.
  try {
    const said = locale.localeError(issue as unknown as Parameters<typeof locale.localeError>[0]);
    return typeof said === "string" ? said : said?.message;
  } catch {
    return undefined;
  }
};
