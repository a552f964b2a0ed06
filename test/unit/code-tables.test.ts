/**
 * The code tables of src/voucher/codes.ts against the references they were transcribed from
 * (reference/api-v2.md §10, the API's strings; reference/tax-rules.md §2, the authority's numeric
 * codes), read from the markdown itself: a code mistyped, dropped or shifted in our tables sends a
 * voucher the service refuses, or prints a wrong QR or PDF. Where our tables hold more than a
 * reference (currencies, LE and LC, the 5 and 2.5 % rates), the extra is the other reference's.
 * The references live beside the repository (../shared/reference, as in CI); without them the
 * file is skipped, as the vendor examples are.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  CURRENCIES,
  DOCUMENT_TYPE_CODES,
  DOCUMENT_TYPES,
  LANGUAGES,
  PAYMENT_CONDITIONS,
  PROVINCES,
  SPECIAL_REGIMES,
  TRIBUTO_REGIMES,
  TRIBUTO_TYPES,
  UNITS,
  VAT_CONDITION_NAMES,
  VAT_CONDITIONS,
  VAT_RATES,
  VOUCHER_TYPE_NAMES,
  VOUCHER_TYPES,
} from "../../src/voucher/codes.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** The first `shared/reference` up from the repository (a mutation run works in a copy below it). */
function referenceDir(): string | undefined {
  const chosen = process.env.FACTURAR_REFERENCE_DIR;
  if (chosen) return chosen;
  for (let dir = ROOT; ; dir = dirname(dir)) {
    const candidate = join(dir, "..", "shared", "reference");
    if (existsSync(join(candidate, "api-v2.md"))) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

const REFERENCES = referenceDir();
const read = (name: string) => readFileSync(join(REFERENCES as string, name), "utf8");

/** The text of a section, from its heading to the next heading of any level. */
function section(text: string, heading: string): string {
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`no section "${heading}" in the reference`);
  const rest = text.slice(start + heading.length + 2);
  const end = rest.search(/\n#{1,6} /);
  return end < 0 ? rest : rest.slice(0, end);
}

/** A section's table rows (header and rule left out), each as its trimmed cells. */
function rows(text: string): string[][] {
  const lines = text.split("\n").filter((l) => l.startsWith("|"));
  return lines
    .slice(2)
    .filter((l) => !/^\|[-| ]+\|$/.test(l))
    .map((l) =>
      l
        .slice(1, -1)
        .split("|")
        .map((c) => c.trim()),
    );
}

/** Code/name pairs of a table laid out in several code/name column pairs. */
function pairs(text: string): [string, string][] {
  return rows(text).flatMap((cells) => {
    const out: [string, string][] = [];
    for (let i = 0; i + 1 < cells.length; i += 2) if (cells[i]) out.push([cells[i] as string, cells[i + 1] as string]);
    return out;
  });
}

const unquote = (cell: string) => cell.replace(/`/g, "").trim();
/** "Contado (0 days)", "MercadoPago (D25)", "unidades (default)": the name without the remark. */
const bare = (cell: string) => unquote(cell.replace(/\s*\([^)]*\)\s*$/, ""));

describe.skipIf(!REFERENCES)("the code tables agree with the references", () => {
  const api = REFERENCES ? read("api-v2.md") : "";
  const tax = REFERENCES ? read("tax-rules.md") : "";

  it("voucher types: every type string of §10.1, and no other", () => {
    const names = rows(section(api, "### 10.1 `tipo` (voucher type strings)")).flatMap(([, strings]) => {
      // The backticked strings, not the source file a remark names.
      const listed = [...(strings ?? "").matchAll(/`([^`/]+)`/g)].map((m) => m[1] as string);
      // `FACTURA DE CREDITO ELECTRONICA MiPyME (FCE) A`, `… B`, `… C`: the same name, another class.
      const first = listed[0] ?? "";
      return listed.map((s) => (s.startsWith("… ") ? `${first.slice(0, -1)}${s.slice(2)}` : s));
    });
    expect(names).toHaveLength(31);
    expect([...VOUCHER_TYPE_NAMES].sort()).toEqual([...names].sort());
  });

  it("voucher types: the authority's code of each, and its class and kind (tax-rules §2.1)", () => {
    const expected = new Map<string, number>();
    const kinds = ["FACTURA", "NOTA DE DEBITO", "NOTA DE CREDITO"] as const;
    for (const [cls, invoice, debit, credit, receipt] of rows(
      section(tax, "### 2.1 Voucher types (`FEParamGetTiposCbte`)"),
    )) {
      // The first table's rows (the class groups' table lists the same classes, codes in one cell).
      if (!cls || !/^[ABC]$/.test(cls) || !/^\d+$/.test(invoice ?? "")) continue;
      for (const [i, code] of [invoice, debit, credit].entries()) expected.set(`${kinds[i]} ${cls}`, Number(code));
      if (cls === "C") expected.set("RECIBO C", Number(receipt));
    }
    for (const [codes, meaning] of rows(section(tax, "### 2.1 Voucher types (`FEParamGetTiposCbte`)"))) {
      const numbers = (codes ?? "").split(",").map((c) => Number(c.trim()));
      const fce = /FCE MiPyME, class ([ABC])/.exec(meaning ?? "");
      const names = fce
        ? ["FACTURA DE CREDITO", "NOTA DE DEBITO", "NOTA DE CREDITO"].map(
            (k) => `${k} ELECTRONICA MiPyME (FCE) ${fce[1]}`,
          )
        : /Formerly class M/.test(meaning ?? "")
          ? kinds.map((k) => `${k} M`)
          : /^Export: Factura E, ND E, NC E/.test(meaning ?? "")
            ? kinds.map((k) => `${k} E`)
            : [];
      for (const [i, name] of names.entries()) expected.set(name, numbers[i] as number);
    }
    // Settlements: "ARCA codes 63 and 64" in the API reference (tax-rules: 63 is Liquidación A).
    const settlements = /`LIQUIDACIONES A`, `LIQUIDACIONES B` \(ARCA codes (\d+) and (\d+)/.exec(api);
    expected.set("LIQUIDACIONES A", Number(settlements?.[1]));
    expected.set("LIQUIDACIONES B", Number(settlements?.[2]));
    expect(expected.size).toBe(27);
    for (const [name, code] of expected) {
      const info = VOUCHER_TYPES[name as keyof typeof VOUCHER_TYPES];
      expect(info?.code, name).toBe(code);
      const cls = name.slice(-1);
      expect(info?.class, name).toBe(cls);
      expect(info?.fce, name).toBe(name.includes("(FCE)"));
      const kind = name.startsWith("NOTA DE DEBITO")
        ? "debit"
        : name.startsWith("NOTA DE CREDITO")
          ? "credit"
          : name.startsWith("RECIBO")
            ? "receipt"
            : name.startsWith("LIQUIDACIONES")
              ? "settlement"
              : "invoice";
      expect(info?.kind, name).toBe(kind);
    }
    // The four with no authority code: not fiscal vouchers, issued only at once.
    const rest = VOUCHER_TYPE_NAMES.filter((n) => !expected.has(n));
    expect(rest.sort()).toEqual([
      "FACTURA NO VALIDA EN AFIP",
      "NOTA DE CREDITO NO VALIDA EN AFIP",
      "PRESUPUESTO",
      "REMITO",
    ]);
    for (const name of rest) expect(VOUCHER_TYPES[name], name).toMatchObject({ class: null, code: null });
    // "Types E and FCE are instant-only (D25)", and PRESUPUESTO, REMITO "(instant only)".
    const instant = VOUCHER_TYPE_NAMES.filter((n) => VOUCHER_TYPES[n].instantOnly);
    expect(instant.sort()).toEqual(
      VOUCHER_TYPE_NAMES.filter(
        (n) => n.endsWith(" E") || n.includes("(FCE)") || VOUCHER_TYPES[n].code === null,
      ).sort(),
    );
  });

  it("document types (§10.2) and their authority codes (tax-rules §2.2)", () => {
    // The list is the section's first line: `DNI`, `CUIT`, … (the remarks below name `OTRO` again).
    const [list = ""] = section(api, "### 10.2 `documento_tipo`").trim().split("\n");
    const listed = [...list.matchAll(/`([A-Z]+)`/g)].map((m) => m[1]);
    expect(listed).toHaveLength(6);
    const codes = new Map(
      rows(section(tax, "### 2.2 Document types (`FEParamGetTiposDoc`)")).map(([code, name]) => [
        /Doc\. \(Otro\)/.test(name ?? "") ? "OTRO" : (name ?? "").toUpperCase(),
        Number(code),
      ]),
    );
    // Ours: the API's six, and LE and LC from the authority's table.
    expect([...DOCUMENT_TYPES].sort()).toEqual([...listed, "LE", "LC"].sort());
    for (const type of DOCUMENT_TYPES) expect(DOCUMENT_TYPE_CODES[type], type).toBe(codes.get(type));
  });

  it("payment conditions (§10.3)", () => {
    const table = rows(section(api, "### 10.3 `condicion_pago` (client block)"));
    expect(table).toHaveLength(17);
    expect(PAYMENT_CONDITIONS).toEqual(Object.fromEntries(table.map(([code, name]) => [code, bare(name ?? "")])));
  });

  it("provinces (§10.4)", () => {
    const table = pairs(section(api, "### 10.4 `provincia`"));
    expect(table).toHaveLength(26);
    expect(PROVINCES).toEqual(Object.fromEntries(table.map(([code, name]) => [code, bare(name)])));
  });

  it("VAT conditions (§10.5): the official codes and names, not PDEX or 1", () => {
    const table = rows(section(api, "### 10.5 `condicion_iva` and `condicion_iva_operacion`"));
    expect([...VAT_CONDITIONS]).toEqual(table.map(([code]) => unquote(code ?? "")));
    expect(VAT_CONDITION_NAMES).toEqual(
      Object.fromEntries(table.map(([code, name]) => [unquote(code ?? ""), bare(name ?? "")])),
    );
  });

  it("tributo types and regimes (§10.6), the IIBB ones apart from the province codes", () => {
    const text = section(api, "### 10.6 `tributos`");
    const [types, regimes] = text.split("`regimen`:");
    expect(TRIBUTO_TYPES).toEqual(Object.fromEntries(rows(types ?? "").map(([code, name]) => [code, name])));
    const expected: Record<string, { tipo: number; name: string }> = {};
    const tipoOf = { IVA: 6, IIBB: 7, National: 1 } as Record<string, number>;
    for (const [group, list] of rows(regimes ?? "")) {
      for (const item of (list ?? "").split(" · ")) {
        const [, code, name] = /^(\d+) (.+)$/.exec(item.trim()) ?? [];
        // Named as the PDF prints them: the group first, but where the name is a resolution's.
        const prefix = group === "National" || name?.startsWith("RG ") ? "" : `${group} `;
        expected[code as string] = { tipo: tipoOf[group as string] as number, name: `${prefix}${name}` };
      }
    }
    expect(Object.keys(expected)).toHaveLength(32);
    expect(TRIBUTO_REGIMES).toEqual(expected);
  });

  it("VAT rates: the API's (§10.7) and the authority's 5 and 2.5 % (tax-rules §2.3)", () => {
    const api107 = rows(section(api, "### 10.7 `alicuota` (IVA rate, as a number)")).map(([value]) => value);
    const authority = rows(section(tax, "### 2.3 VAT rates (`AlicIva.Id`)")).map(([, rate]) =>
      (rate ?? "").replace(" %", ""),
    );
    expect([...VAT_RATES].sort()).toEqual([...new Set([...api107, ...authority])].sort());
  });

  it("languages (§10.8), currencies (§10.9 and tax-rules §2.4), units (§10.10)", () => {
    // "`1` Spanish, `2` English": each printed in its own language.
    const languages = [...section(api, "### 10.8 `idioma`").matchAll(/`(\d)` (\w+)/g)];
    const OWN_NAME: Record<string, string> = { Spanish: "Español", English: "English" };
    expect(LANGUAGES).toEqual(Object.fromEntries(languages.map(([, code, name]) => [code, OWN_NAME[name as string]])));

    const apiCurrencies = pairs(section(api, "### 10.9 `moneda`")).map(([c, n]) => [unquote(c), n] as const);
    const authority = rows(section(tax, "### 2.4 Currencies (`FEParamGetTiposMonedas`)")).map(([c]) => c);
    expect(Object.keys(CURRENCIES).sort()).toEqual(
      [...new Set([...apiCurrencies.map(([c]) => c), ...authority])].sort(),
    );
    // The API's names are ours but for the two it writes in English.
    for (const [code, name] of apiCurrencies)
      if (code !== "PES" && code !== "DOL") expect(CURRENCIES[code], code).toBe(name);
    // The authority's table names them in English where the API's does not list them: ours are
    // their Spanish names, as the service prints them.
    const SPANISH: Record<string, string> = {
      "Argentine peso": "Peso argentino",
      "US dollar": "Dólar estadounidense",
      "Dólar libre": "Dólar libre",
      "Swiss franc": "Franco suizo",
      "Uruguayan peso": "Peso uruguayo",
      Real: "Real",
      Yen: "Yen",
      "Libra (pound)": "Libra esterlina",
      "Chilean peso": "Peso chileno",
      Euro: "Euro",
      Yuan: "Yuan",
    };
    for (const [code, name] of rows(section(tax, "### 2.4 Currencies (`FEParamGetTiposMonedas`)")))
      expect(CURRENCIES[code as string], code).toBe(SPANISH[name as string]);

    const units = pairs(section(api, "### 10.10 `unidad_medida`"));
    expect(units).toHaveLength(47);
    expect(UNITS).toEqual(Object.fromEntries(units.map(([code, name]) => [code, bare(name)])));
  });

  it("special regimes and their ids (§10.11)", () => {
    const table = rows(section(api, "### 10.11 `rg_especiales` regimes and ids"));
    expect(SPECIAL_REGIMES).toEqual(
      Object.fromEntries(
        table.map(([regime, ids]) => [
          regime,
          (ids ?? "")
            .replace(/\(.*\)/, "")
            .split(",")
            .map((id) => Number(id.trim())),
        ]),
      ),
    );
  });
});
