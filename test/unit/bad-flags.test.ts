/**
 * One shape for a bad flag (#27): every command reads its flags through the zod schema beside
 * its definition, so a bad value is exit 2 and one message, `--flag takes WHAT, not "VALUE"`,
 * the flag named as typed; under --json, the error object every other error is. Run in this
 * process: each is refused before anything is read, asked or started.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import type { Define, Options, Run } from "../../src/commands/define.js";
import { runHere } from "../cli-here.js";
import { freshUser, ROOT } from "../helpers.js";

/** [command line before the bad flag, the flag, its bad value, (words after it)]. */
const BAD: [string[], string, string, string[]?][] = [
  [["validate"], "--encoding", "ebcdic", ["x.json"]],
  [["validate"], "--delimiter", "|", ["x.json"]],
  [["validate"], "--decimal", "coma-ish", ["x.json"]],
  [["validate"], "--ceiling", "-5", ["x.json"]],
  [["validate"], "--today", "31/02/2026", ["x.json"]],
  [["issue"], "--encoding", "ebcdic", ["x.json"]],
  [["issue"], "--delimiter", "|", ["x.json"]],
  [["issue"], "--decimal", "x", ["x.json"]],
  [["issue"], "--concurrency", "0", ["x.json"]],
  [["issue"], "--rate", "-1", ["x.json"]],
  [["issue"], "--batch-size", "21", ["x.json"]],
  [["issue"], "--from-ref", " "],
  [["issue-queued"], "--batch-size", "101", ["x.json"]],
  [["issue-queued", "--wait"], "--timeout", "0", ["x.json"]],
  [["issue-queued"], "--concurrency", "65", ["x.json"]],
  [["credit-note", "--ref", "V-1"], "--amount", "abc"],
  [["credit-note", "--ref", "V-1"], "--items", "0"],
  [["debit-note", "--ref", "V-1"], "--vat-condition", "XX"],
  [["query"], "--date", "32/01/2026"],
  [["query", "--ref", "R"], "--pv", "0"],
  [["query"], "--type", "FACTURA Z", ["--number", "1"]],
  [["query", "--type", "FACTURA B"], "--number", "x"],
  [["query", "--date", "20/11/2026"], "--status", "done"],
  [["query", "--date", "20/11/2026", "--csv"], "--decimal", "x"],
  [["query", "--date", "20/11/2026", "--csv"], "--delimiter", "|"],
  [["query", "--type", "FACTURA B", "--from", "1"], "--to", "x"],
  [["query", "--to", "30/11/2026"], "--from", "31/11/2026"],
  [["vat-book", "--to", "30/11/2026"], "--from", "99/11/2026"],
  [["vat-book", "--from", "01/11/2026", "--to", "30/11/2026", "--csv"], "--decimal", "x"],
  [["vat-book", "--from", "01/11/2026", "--to", "30/11/2026", "--csv"], "--delimiter", "|"],
  [["vat-book", "--from", "01/11/2026", "--to", "30/11/2026"], "--lid", " "],
  [["vat-book"], "--check-lid", ""],
  [["journal"], "--ref", " "],
  [["init", "--sandbox"], "--punto-venta", "0"],
  [["init", "--sandbox"], "--name", "a b"],
  [["pdf"], "--ref", " "],
  [["pdf", "--number", "1"], "--type", "FACTURA Z"],
  [["pdf", "--type", "FACTURA B"], "--number", "x"],
  [["pdf", "--type", "FACTURA B", "--number", "1"], "--pv", "0"],
  [["next-number"], "--type", "FACTURA Z"],
  [["next-number", "--type", "FACTURA B"], "--pv", "100000"],
  [["requires-fce"], "--cuit", "123"],
  [["requires-fce", "--cuit", "30500010912"], "--date", "2026-11-20"],
  [["exchange-rate"], "--currency", "DOLAR"],
  [["exchange-rate"], "--date", "20-11-2026"],
  [["resend", "--number", "1"], "--type", "FACTURA Z"],
  [["resend", "--type", "FACTURA B"], "--number", "0"],
  [["resend", "--type", "FACTURA B", "--number", "1"], "--pv", "x"],
  [["pay", "--ref", "R"], "--amount", "1.234"],
  [["pay", "--ref", "R", "--amount", "10"], "--method", " "],
  [["pay", "--type", "FACTURA B", "--amount", "10"], "--number", "-1"],
  [["customer-ledger"], "--cuit", "123"],
  [["products"], "--sort", "precio"],
  [["products"], "--code", " "],
  [["delete-purchase", "--number", "1", "--pv", "1"], "--type", "FACTURA Z"],
  [["delete-purchase", "--type", "FACTURA A", "--pv", "1"], "--number", "x"],
  [["delete-purchase", "--type", "FACTURA A", "--number", "1"], "--pv", "0"],
  [["queue", "delete", "--ref", "R"], "--date", "x"],
  [["queue", "reschedule", "--ref", "R", "--date", "01/12/2026"], "--due", "x"],
  [["queue", "retry"], "--ref", " "],
  [["sandbox"], "--port", "70000"],
  [["sandbox"], "--queue-interval", "5"],
  [["sandbox"], "--quota", "0"],
  [["sandbox"], "--ceiling", "0"],
  [["sandbox"], "--host", "8.8.8.8"],
  [["sandbox", "--fault", "latency=200"], "--fault", "earthquake=1"],
  [["sandbox"], "--webhook", "ftp://example.com/hook"],
];

const quoted = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

describe("a bad flag: exit 2 and one message in one shape, in every command", () => {
  it.each(BAD)("%j %s %j", async (before, flag, value, after = []) => {
    const u = freshUser("facturar-bad-flag-");
    const env = { ...u.env, CI: "true" };
    const args = [...before, flag, value, ...after];
    const r = await runHere(args, env);
    expect(r.code, r.stderr).toBe(2);
    const said = new RegExp(`^facturar: ${quoted(flag)} takes \\S[^\\n]*, not ${quoted(JSON.stringify(value))}\\n`);
    expect(r.stderr, args.join(" ")).toMatch(said);
    // Under --json: the error object of every other error, the same message.
    const json = await runHere(["--json", ...args], env);
    expect(json.code).toBe(2);
    const lines = json.stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    const error = JSON.parse(lines[0] as string);
    expect(error).toMatchObject({ ok: false, error: { code: "usage" } });
    expect(`facturar: ${error.error.message}\n`).toMatch(said);
  });

  it("in Spanish: the same shape, the value as typed", async () => {
    const u = freshUser("facturar-bad-flag-");
    const r = await runHere(["--lang", "es", "issue", "--batch-size", "0", "x.json"], { ...u.env, CI: "true" });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^facturar: --batch-size acepta un número entero de 1 a 20, no "0"\n/);
    const decimal = await runHere(["--lang", "es", "validate", "--decimal", "x", "x.json"], { ...u.env, CI: "true" });
    expect(decimal.stderr).toMatch(/^facturar: --decimal acepta coma, punto, comma o point, no "x"\n/);
  });

  it("a date written right that is no day of the calendar says so, not that it is written wrong", async () => {
    const u = freshUser("facturar-bad-flag-");
    const env = { ...u.env, CI: "true" };
    const r = await runHere(["query", "--date", "31/02/2026"], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'facturar: --date takes a date dd/mm/yyyy, not "31/02/2026"\nhint: 31/02/2026 is not a date in the calendar\n',
    );
    const es = await runHere(["--lang", "es", "query", "--date", "31/02/2026"], env);
    expect(es.stderr).toMatch(/\nsugerencia: 31\/02\/2026 no es una fecha del calendario\n$/);
  });

  it("a flag that must be there says so, naming it", async () => {
    const u = freshUser("facturar-bad-flag-");
    const env = { ...u.env, CI: "true" };
    for (const [args, flag] of [
      [["customer-ledger"], "--cuit"],
      [["pay", "--ref", "R"], "--amount"],
      [["next-number"], "--type"],
      [["requires-fce"], "--cuit"],
      [["credit-note"], "--ref"],
      [["queue", "delete"], "--ref"],
    ] as [string[], string][]) {
      const r = await runHere(args, env);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr, args.join(" ")).toMatch(new RegExp(`^facturar: ${quoted(flag)} is required`));
    }
  });
});

describe("each command's options schema, beside its flags", () => {
  it("reads every flag the command declares, and no other (none lost on the way to the action)", async () => {
    const { Command } = await import("commander");
    const { useLang } = await import("../../src/i18n/index.js");
    await useLang("en");
    const kit = await import("../../src/commands/options.js");
    const dir = join(ROOT, "src", "commands");
    const schemas = new Map<Command, Options | undefined>();
    const program = new Command();
    const run: Run = (_load, options) => {
      const action = async (..._args: unknown[]) => {};
      pending.push(options);
      return action;
    };
    let pending: (Options | undefined)[] = [];
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".command.ts"))) {
      const module = await import(join(dir, file));
      for (const define of Object.values(module).filter((v) => typeof v === "function") as Define[]) {
        if (!define.name.startsWith("define")) continue;
        const before = program.commands.length;
        pending = [];
        define(program, run);
        for (const [i, command] of program.commands.slice(before).entries()) schemas.set(command, pending[i]);
      }
    }
    expect(schemas.size).toBeGreaterThan(25);
    for (const [command, options] of schemas) {
      if (command.name() === "__complete") continue;
      const declared = [...new Set(command.options.map((o) => o.attributeName()))].sort();
      if (declared.length === 0) continue;
      expect(options, `${command.name()} has flags and no options schema`).toBeDefined();
      const schema = (options as Options)(kit) as unknown as { shape: object };
      expect(Object.keys(schema.shape).sort(), command.name()).toEqual(declared);
    }
  });
});
