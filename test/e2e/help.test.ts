/**
 * Help as people ask for it: bare `facturar`, `help CMD` and `CMD --help` on stdout with exit 0,
 * an EXAMPLES section for every command, Spanish help with none of commander's English, and
 * amounts shown in the reader's locale while JSON keeps them plain.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runHere } from "../cli-here.js";
import { freshUser, ROOT, runCli } from "../helpers.js";

const u = freshUser("facturar-help-");
const SPANISH = { ...u.env, LANG: "es_AR.UTF-8", LC_ALL: "", LC_MESSAGES: "" };
const run = (args: string[], env: Record<string, string> = u.env) => runCli(args, { cwd: u.cwd, env });

/** commander's own words, as it prints them in English. */
const COMMANDER_ENGLISH =
  /Usage:|Options:|Arguments:|Commands:|Examples:|\[options\]|\[command\]|display help|choices:|default:|Did you mean|Allowed choices|Expected \d|unknown (option|command)|too many/;

describe("help", () => {
  it("bare facturar, help issue and issue --help print help on stdout and exit 0", async () => {
    for (const args of [[], ["help"], ["--help"]]) {
      const r = await run(args);
      expect(r.code, args.join(" ")).toBe(0);
      expect(r.stdout).toMatch(/^Usage: facturar \[options\] \[command\]/);
      expect(r.stdout).toMatch(/\nCommands:\n[\s\S]*\n {2}issue /);
      expect(r.stderr).toBe("");
    }
    const help = await run(["help", "issue"]);
    const flag = await run(["issue", "--help"]);
    for (const r of [help, flag]) {
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^Usage: facturar issue \[options\] \[files\.\.\.\]/);
      expect(r.stdout).toMatch(/\nExamples:\n {2}# .+\n {2}facturar issue /);
      expect(r.stderr).toBe("");
    }
    expect(help.stdout).toBe(flag.stdout);
    // A mistake is still one: exit 2, on stderr.
    const wrong = await run(["help", "isue"]);
    expect(wrong.code).toBe(2);
    expect(wrong.stdout).toBe("");
    // It says what was wrong and what was meant, not the whole program's help.
    expect(wrong.stderr).toMatch(/unknown command 'isue'[\s\S]*Did you mean issue\?/);
    expect(wrong.stderr).not.toMatch(/Commands:/);
  });

  it("every command's help has examples that run facturar with that command, in English and Spanish", async () => {
    const listed = await run(["__complete", "--", ""]);
    const commands = listed.stdout.split("\n").filter(Boolean);
    expect(commands).toEqual(expect.arrayContaining(["issue", "query", "pdf", "queue", "sandbox", "completion"]));
    expect(commands.length).toBeGreaterThanOrEqual(17);
    for (const command of commands) {
      for (const [lang, title] of [
        ["en", "Examples:"],
        ["es", "Ejemplos:"],
      ] as const) {
        const r = await runHere(["--lang", lang, command, "--help"], u.env);
        expect(r.code, `${lang} ${command}`).toBe(0);
        const examples = r.stdout.split(`\n${title}\n`)[1] ?? "";
        expect(examples, `${lang} ${command}`).toMatch(/^ {2}# \S/);
        // `completion`'s examples are shell lines that run it: `source <(facturar completion bash)`.
        expect(examples, `${lang} ${command}`).toMatch(new RegExp(`facturar (.* )?${command}\\b`));
        if (lang === "es") expect(r.stdout, command).not.toMatch(COMMANDER_ENGLISH);
      }
    }
  });

  it("wraps at word boundaries within 80 columns, in Spanish as in English", async () => {
    const listed = await run(["__complete", "--", ""]);
    const commands = listed.stdout.split("\n").filter(Boolean);
    for (const lang of ["es", "en"])
      for (const args of [[], ...commands.map((command) => [command])]) {
        const r = await runHere(["--lang", lang, ...args, "--help"], u.env);
        // commander's part (the examples are command lines to copy whole, as written in the code);
        // counted in characters: `instantáneo` is 11 columns wide, not its 12 bytes.
        const described = r.stdout.split(/\n(?:Examples|Ejemplos):\n/)[0] ?? "";
        const wide = described.split("\n").filter((line) => [...line].length > 80);
        expect(wide, `${lang} ${args.join(" ")}`).toEqual([]);
      }
  });

  it("the examples of the account's commands run as written, once the samples are issued", async () => {
    const user = freshUser("facturar-examples-");
    const samples = readdirSync(join(ROOT, "samples"))
      .filter((f) => f.endsWith(".json"))
      .map((f) => join(ROOT, "samples", f));
    const issued = await runCli(["issue", "--no-pdf", ...samples], { cwd: user.cwd, env: user.env });
    expect(issued.code, issued.stderr).toBe(0);
    // Not here: the examples that name the reader's own vouchers (PEDIDO-1043) or change them.
    const commands = ["cuit", "customer-ledger", "products", "table", "status", "vat-book", "query"];
    for (const command of commands) {
      const lines = new Set<string>();
      for (const lang of ["en", "es"]) {
        const help = await runHere(["--lang", lang, command, "--help"], user.env);
        for (const line of help.stdout.split("\n")) if (line.startsWith("  facturar ")) lines.add(line.trim());
      }
      expect(lines.size, command).toBeGreaterThan(0);
      for (const line of lines) {
        // The command's own part: what follows `&&` runs another command, `>` only redirects.
        const own = (line.split(" && ")[0] as string).split(" > ")[0] as string;
        if (/PEDIDO-/.test(own)) continue;
        // A folder the example writes to is the user's, not this repository's (the CLI runs here):
        // the Libro IVA Digital files, and the PDFs of --pdf (its --out, added).
        const words = shellWords(own)
          .slice(1)
          .map((w, i, all) => (["--lid", "--check-lid"].includes(all[i - 1] ?? "") ? join(user.cwd, w) : w));
        if (words.includes("--pdf") && !words.includes("--out")) words.push("--out", join(user.cwd, "comprobantes"));
        const r = await runHere(words, user.env);
        // The samples include a FACTURA C, which the Libro IVA Digital leaves out and tells (exit 7).
        if (words.includes("--lid")) expect(r.stderr).toMatch(/FACTURA C .*a class C voucher has no place/);
        expect(r.code, `${line}\n${r.stderr}`).toBe(words.includes("--lid") ? 7 : 0);
      }
    }
  }, 120_000);

  it("in Spanish: help, usage lines, choices, defaults, errors and suggestions", async () => {
    const issue = await run(["--lang", "es", "issue", "--help"]);
    expect(issue.code).toBe(0);
    expect(issue.stdout).toMatch(/^Uso: facturar issue \[opciones\] \[archivos\.\.\.\]/);
    expect(issue.stdout).toMatch(/--out <carpeta>/);
    // The Spanish words first, as the help describes them; the English ones are taken too.
    expect(issue.stdout).toMatch(/\(valores:\s+"coma",\s+"punto",\s+"comma",\s+"point"\)/);
    expect(issue.stdout).toMatch(/\nEjemplos:\n/);
    expect(issue.stdout).not.toMatch(COMMANDER_ENGLISH);
    // LANG alone is enough.
    const root = await run([], SPANISH);
    expect(root.code).toBe(0);
    expect(root.stdout).toMatch(/^Uso: facturar \[opciones\] \[comando\]/);
    expect(root.stdout).toMatch(/\n {2}help \[comando\] /);
    expect(root.stdout).not.toMatch(COMMANDER_ENGLISH);
    expect((await run(["sandbox", "--help"], SPANISH)).stdout).toMatch(/\(por\s+defecto:\s+"0"\)/);

    const mistyped = await run(["isue"], SPANISH);
    expect(mistyped.code).toBe(2);
    expect(mistyped.stderr).toMatch(/^error: comando desconocido 'isue'\n\(¿quisiste decir issue\?\)/);
    const flag = await run(["query", "--rf", "X"], SPANISH);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/\(¿quisiste decir --ref\?\)/);
    const choice = await run(["validate", "--decimal", "x", "a.json"], SPANISH);
    // A bad value is told in the one shape of every bad flag (#27), as the options' schema reads it.
    expect(choice.stderr).toMatch(/^facturar: --decimal acepta coma, punto, comma o point, no "x"\n/);
    const extra = await run(["schema", "de-mas"], SPANISH);
    expect(extra.stderr).toMatch(/demasiados argumentos\. Se esperaban 0 argumentos y llegaron 1\./);
    for (const r of [mistyped, flag, choice, extra]) expect(r.stderr).not.toMatch(COMMANDER_ENGLISH);
  });
});

describe("amounts on screen", () => {
  const file = join(ROOT, "samples", "factura-a-mixed-rates.json");

  it("follow the locale (es 2.177.855,58, en 2,177,855.58); JSON keeps them plain", async () => {
    const en = await run(["validate", file]);
    expect(en.stdout).toMatch(/total 2,177,855\.58\n/);
    expect(en.stdout).toMatch(/net 21% 1,700,000\.00 \+ VAT 357,000\.00.* = 2,177,855\.58/);
    const es = await run(["validate", file], SPANISH);
    expect(es.stdout).toMatch(/total 2\.177\.855,58\n/);
    expect(es.stdout).toMatch(/neto 21 % 1\.700\.000,00 \+ IVA 357\.000,00.* = 2\.177\.855,58/);
    const json = JSON.parse((await run(["--json", "validate", file], SPANISH)).stdout);
    expect(json.totals).toMatchObject({ total: "2177855.58", net: { "21": "1700000.00" } });
  });
});

/** An example's words, as a shell splits them: quotes group, and are taken off. */
function shellWords(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? (m[3] as string));
}

describe("a mistake in a command's flags", () => {
  it("points to that command's help, in the reader's language; one in the global flags, to the whole help", async () => {
    const wrong = await runCli(["issue", "--bogus"]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/\(run facturar issue --help for usage\)/);
    const spanish = await runCli(["--lang", "es", "query", "--ref"]);
    expect(spanish.code).toBe(2);
    expect(spanish.stderr).toMatch(/\(ejecutá facturar query --help para ver el uso\)/);
    const global = await runCli(["--bogus"]);
    expect(global.stderr).toMatch(/\(run facturar --help for usage\)/);
  });
});
