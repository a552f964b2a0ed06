/** Spanish and English: every message the code wraps in t() has its Spanish, with the same parameters. */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ES } from "../src/i18n/es.js";
import { langFromEnv, parseLang, t, useLang } from "../src/i18n/index.js";

const SRC = join(import.meta.dirname, "..", "src");
const LITERAL = String.raw`("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\`(?:[^\`\\$]|\\.)*\`)`;
/** t("…") and tn(count, "…one", "…other") of the renderers; msg and msgn, their data, in the core. */
const CALLS = [
  new RegExp(String.raw`\b(?:t|msg)\(\s*${LITERAL}`, "g"),
  new RegExp(String.raw`\b(?:tn|msgn)\([^,]+,\s*${LITERAL},\s*${LITERAL}`, "g"),
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

/** The keys the code asks for, as the strings JavaScript would build from the literals. */
function usedKeys(): Map<string, string> {
  const keys = new Map<string, string>();
  for (const file of sources(SRC)) {
    const text = readFileSync(file, "utf8");
    for (const call of CALLS)
      for (const m of text.matchAll(call))
        for (const literal of m.slice(1) as string[]) keys.set(unquote(literal), file.slice(SRC.length + 1));
  }
  return keys;
}

function unquote(literal: string): string {
  if (literal.startsWith("`")) return literal.slice(1, -1);
  if (literal.startsWith("'")) return JSON.parse(`"${literal.slice(1, -1).replace(/"/g, '\\"')}"`);
  return JSON.parse(literal);
}

const params = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe("the Spanish catalog", () => {
  const used = usedKeys();

  it("covers every message the code uses", () => {
    const missing = [...used].filter(([key]) => !(key in ES)).map(([key, file]) => `${file}: ${key}`);
    expect(missing).toEqual([]);
    expect(used.size).toBeGreaterThan(300);
  });

  it("is asked with literal messages only, so that this test sees them all", () => {
    const computed = sources(SRC)
      .filter((file) => !file.endsWith(join("i18n", "index.ts")) && !file.endsWith(join("i18n", "message.ts")))
      .flatMap((file) =>
        [...readFileSync(file, "utf8").matchAll(/\b(?:t|msg)\(\s*(?!["'`])\S/g)].map((m) => `${file}: ${m[0]}`),
      );
    expect(computed).toEqual([]);
  });

  it("holds nothing the code no longer says", () => {
    expect(Object.keys(ES).filter((key) => !used.has(key))).toEqual([]);
  });

  it("speaks in voseo, as es-AR software does: no usted imperatives or forms", () => {
    // The usted imperatives (and their enclitic forms) the catalog once held, and the other usted
    // forms a message addressing the user would take; "se lo detenga" and the like are third person.
    const USTED = new RegExp(
      String.raw`(?<![\p{L}])(?:${[
        "indique",
        "revise",
        "ejecute",
        "use",
        "intente",
        "envíe",
        "identifique",
        "escriba",
        "elija",
        "pase",
        "agregue",
        "corrija",
        "instale",
        "espere",
        "consulte",
        "defina",
        "quite",
        "guarde",
        "cree",
        "mire",
        "vea",
        "ponga",
        "baje",
        "libere",
        "exporte",
        "encole",
        "responda",
        "mantenga",
        "arregle",
        "verifique",
        "confirme",
        "cambie",
        "borre",
        "ingrese",
        "seleccione",
        "pruebe",
        "busque",
        "complete",
        "quiso",
        "usted",
        "ustedes",
        "suyo",
        "suya",
        "asegúrese",
        "fíjese",
        String.raw`\p{L}*[áéíó]\p{L}*(?:lo|la|le|los|las|les)`,
      ].join("|")})(?![\p{L}])`,
      "iu",
    );
    const gerund = /(?:ándo|iéndo)(?:lo|la|le|los|las|les)$/i;
    const usted = Object.values(ES).filter((es) =>
      [...es.matchAll(new RegExp(USTED, "giu"))].some((m) => !gerund.test(m[0])),
    );
    expect(usted).toEqual([]);
  });

  it("writes cotización with its accent, but for the field's name", () => {
    const bare = Object.values(ES).filter((es) =>
      /(?<![{/\p{L}])cotizacion(?![}\p{L}])/u.test(es.replace(/campo cotizacion/g, "")),
    );
    expect(bare).toEqual([]);
  });

  it("keeps each message's parameters", () => {
    const mismatched = Object.entries(ES).filter(([en, es]) => params(en).join() !== params(es).join());
    expect(mismatched).toEqual([]);
  });
});

describe("choosing the language", () => {
  afterEach(() => useLang("en"));

  it("follows LC_ALL, then LC_MESSAGES, then LANG; empty is unset", () => {
    expect(langFromEnv({ LANG: "es_AR.UTF-8" })).toBe("es");
    expect(langFromEnv({ LC_ALL: "", LANG: "es_AR.UTF-8" })).toBe("es");
    expect(langFromEnv({ LC_ALL: "C", LANG: "es_AR.UTF-8" })).toBe("en");
    expect(langFromEnv({ LC_MESSAGES: "es_ES", LANG: "en_US.UTF-8" })).toBe("es");
    expect(langFromEnv({ LANG: "fr_FR.UTF-8" })).toBe("en");
    expect(langFromEnv({})).toBe("en");
  });

  it("reads --lang values people write", () => {
    expect(["es", "ES", "es-AR", "es_AR.UTF-8"].map(parseLang)).toEqual(["es", "es", "es", "es"]);
    expect(["en", "en_US", "C", "POSIX"].map(parseLang)).toEqual(["en", "en", "en", "en"]);
    expect(parseLang("fr")).toBeUndefined();
    expect(parseLang("espanol")).toBeUndefined();
  });

  it("fills parameters in either language", async () => {
    expect(t("{type} number", { type: "DNI" })).toBe("DNI number");
    await useLang("es");
    expect(t("{type} number", { type: "DNI" })).toBe("Número de DNI");
    expect(t("a message nobody translated")).toBe("a message nobody translated");
  });
});
