/** `facturar validate` as users run it: the built CLI in a child process. */
import { mkdtempSync, readdirSync, readFileSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runHere } from "../cli-here.js";
import { ENGLISH, ndjson, ROOT, runCli } from "../helpers.js";

/** The environment runCli gives a child, for the CLI run in this process. */
const HERE_ENV = { ...process.env, ...ENGLISH, NO_COLOR: "1", FORCE_COLOR: "" };
/**
 * The system's clock, as users run the samples: vitest.config.ts sets FACTURAR_TODAY for the CLIs
 * the tests start, and a blank one is no clock of its own (src/voucher/dates.ts clockFrom).
 */
const REAL_DAY = { FACTURAR_TODAY: "" };

const samples = readdirSync(join(ROOT, "samples"))
  .filter((f) => f.endsWith(".json"))
  .map((f) => `samples/${f}`);
const batches = readdirSync(join(ROOT, "samples"))
  .filter((f) => f.endsWith(".csv"))
  .map((f) => `samples/${f}`);

interface TableRow {
  file: string;
  code: string;
  field: string;
}

/** The table by file: the errors (code and field) each file reports, one row each, and no other. */
function invalidFiles(): { file: string; codes: string; errors: string[][] }[] {
  const byFile = new Map<string, string[][]>();
  for (const { file, code, field } of invalidTable()) byFile.set(file, [...(byFile.get(file) ?? []), [code, field]]);
  return [...byFile].map(([file, errors]) => ({ file, codes: errors.map(([code]) => code).join(" and "), errors }));
}

function invalidTable(): TableRow[] {
  const text = readFileSync(join(ROOT, "samples/invalid/README.md"), "utf8");
  return text
    .split("\n")
    .filter((l) => /^\| [\w.-]+\.(json|csv) \|/.test(l))
    .map((l) => {
      const [file, code, field] = l
        .split("|")
        .slice(1, 4)
        .map((c) => c.trim());
      return { file: file ?? "", code: code ?? "", field: field ?? "" };
    });
}

/** The escape that starts every ANSI colour sequence. */
const ESC = "\u001b[";

describe("facturar validate", () => {
  it("accepts every sample voucher and batch (exit 0), on the day the tests run", async () => {
    const r = await runCli(["validate", ...samples, ...batches], { env: REAL_DAY });
    expect(r.stderr).toMatch(/\d+ vouchers: \d+ valid, 0 invalid/);
    expect(r.code).toBe(0);
    expect(samples.length).toBeGreaterThanOrEqual(16);
    const valid = r.stdout.split("\n").filter((l) => l.startsWith("✔"));
    expect(valid.length).toBe(samples.length + 48);
  });

  it("reads a batch of at least 20 vouchers, several with many items, in both spreadsheet dialects", async () => {
    const comma = ndjson((await runCli(["validate", "--json", "samples/batch-nightly.csv"])).stdout);
    const semicolon = ndjson((await runCli(["validate", "--json", "samples/batch-nightly-es-AR.csv"])).stdout);
    expect(comma.length).toBeGreaterThanOrEqual(20);
    expect(comma.filter((v) => v.rows.length >= 10).length).toBeGreaterThanOrEqual(3);
    expect(semicolon.map((v) => [v.external_reference, v.totals.total])).toEqual(
      comma.map((v) => [v.external_reference, v.totals.total]),
    );
  });

  // The rules, not the process, are under test: the CLI runs in this process (one spawn is ~0.3 s).
  // On the day the tests run, as users run the samples: no --today, no test clock. The samples
  // hold no date that goes stale (scripts/any-day.mjs tries them on other days).
  it.each(invalidFiles())(
    "refuses samples/invalid/$file with $codes and no other error (exit 3), on the day the tests run",
    async ({ file, errors }) => {
      const r = await runHere(["validate", "--json", join(ROOT, "samples", "invalid", file)], {
        ...HERE_ENV,
        ...REAL_DAY,
      });
      const reported = ndjson(r.stdout).flatMap((v) => v.error_details);
      const pairs = reported.map((e: { code: string; field: string }) => [e.code, e.field]);
      expect(pairs.sort(), JSON.stringify(reported, null, 2)).toEqual([...errors].sort());
      expect(r.code).toBe(3);
    },
  );

  it("lists every file of samples/invalid in its README's table", () => {
    const files = readdirSync(join(ROOT, "samples", "invalid")).filter((f) => /\.(json|csv)$/.test(f));
    expect(
      invalidFiles()
        .map((row) => row.file)
        .sort(),
    ).toEqual(files.sort());
  });

  it("judges dates on the day --today names", async () => {
    const run = async (...args: string[]) => {
      const r = await runHere(["validate", "--json", ...args], { ...HERE_ENV, ...REAL_DAY });
      return { code: r.code, result: ndjson(r.stdout)[0] };
    };
    // Dated 01/01/2020: out of the window any day now, not on that day.
    const late = join(ROOT, "samples", "invalid", "date-window.json");
    expect((await run("--today", "01/01/2020", late)).code).toBe(0);
    const refused = await run("--today", "20/11/2026", late);
    expect(refused.code).toBe(3);
    expect(refused.result.error_details).toEqual([
      expect.objectContaining({ code: "date.window", message: expect.stringContaining("of today (20/11/2026)") }),
    ]);
    // A file without a date is dated on that day.
    const dated = await run("--today", "29/02/2028", join(ROOT, "samples", "factura-b-dni.json"));
    expect(dated.code).toBe(0);
    expect(dated.result.warning_details).toContainEqual(
      expect.objectContaining({
        code: "date.default",
        field: "comprobante.fecha",
        message: expect.stringContaining("29/02/2028"),
      }),
    );
  });

  it("has an invalid sample for every rule code the validator can raise", async () => {
    const table = new Set(invalidTable().map((row) => row.code));
    const source = ["rules.ts", "validate.ts"]
      .map((f) => readFileSync(join(ROOT, "src/voucher", f), "utf8"))
      .join("\n");
    const raised = new Set([...source.matchAll(/error\(\s*"([a-z_-]+\.[a-z-]+)"/g)].map((m) => m[1]));
    raised.add("csv.conflict");
    // Not checkable offline or without a profile: the issuer's own CUIT.
    raised.delete("cuit.self");
    const missing = [...raised].filter((c) => !table.has(c as string));
    expect(missing).toEqual([]);
  });

  it("reports a schema error and a rule error of one voucher in one run, with no follow-on noise", async () => {
    const dir = mkdtempSync(join(tmpdir(), "facturar-both-"));
    const raw = JSON.parse(readFileSync(join(ROOT, "samples/factura-b-dni.json"), "utf8"));
    raw.comprobante.fecha = "31/02/2026";
    raw.comprobante.tags = ["lote/1"];
    const file = join(dir, "both.json");
    writeFileSync(file, JSON.stringify(raw));
    const human = await runCli(["validate", "--today", "20/11/2026", file]);
    expect(human.code).toBe(3);
    expect(human.stdout).toMatch(/comprobante\.fecha: 31\/02\/2026 is not a date in the calendar \[schema\.invalid\]/);
    expect(human.stdout).toMatch(/comprobante\.tags\[0\]: a tag is .* \[tags\.format\]/);
    expect(human.stdout).toMatch(/2 errors/);
    const [result] = ndjson((await runCli(["validate", "--json", "--today", "20/11/2026", file])).stdout);
    expect(result.error_details.map((e: { code: string; field: string }) => [e.code, e.field])).toEqual([
      ["schema.invalid", "comprobante.fecha"],
      ["tags.format", "comprobante.tags[0]"],
    ]);
    // Nothing that hangs on the unreadable date: no date window, no due-date order.
    expect(result.warning_details).toEqual([]);
  });

  it("prints one NDJSON object per voucher with the computed totals (the README's example, any day)", async () => {
    const r = await runCli(
      ["validate", "--json", "samples/factura-a-mixed-rates.json", "samples/invalid/total-mismatch.json"],
      { env: REAL_DAY },
    );
    expect(r.code).toBe(3);
    const [good, bad] = ndjson(r.stdout);
    expect(good).toMatchObject({
      ok: true,
      status: "valid",
      comprobante_tipo: "FACTURA A",
      external_reference: "FA-2026-0001",
      totals: {
        net: { "21": "1700000.00", "10.5": "17579.75", "27": "8999.99" },
        exempt: "77999.97",
        non_taxed: "12000.00",
        total: "2177855.58",
      },
    });
    expect(bad.ok).toBe(false);
    expect(bad.error_details).toEqual([
      expect.objectContaining({
        code: "total.mismatch",
        field: "comprobante.total",
        place: "samples/invalid/total-mismatch.json comprobante.total",
      }),
    ]);
    const human = await runCli(["validate", "samples/invalid/total-mismatch.json"], { env: REAL_DAY });
    expect(human.stdout).toMatch(/total-mismatch\.json {2}FACTURA B {2}ref FB-2026-0001 {2}1 error\n/);
  });

  it("names file, row and column for CSV problems", async () => {
    const r = await runCli(["validate", "samples/invalid/csv-conflict.csv"]);
    expect(r.code).toBe(3);
    expect(r.stdout).toContain("samples/invalid/csv-conflict.csv:row 3, column comprobante.vencimiento:");
  });

  it("reads standard input", async () => {
    const input = readFileSync(join(ROOT, "samples/factura-b-dni.json"));
    const r = await runCli(["validate", "--json", "-"], { input });
    expect(r.code).toBe(0);
    expect(ndjson(r.stdout)[0]).toMatchObject({ ok: true, source: "<stdin>" });
  });

  it("shows escapes from a file's texts and name as visible text, never as terminal commands", async () => {
    const dir = mkdtempSync(join(tmpdir(), "facturar-e2e-esc-"));
    const raw = JSON.parse(readFileSync(join(ROOT, "samples/factura-b-dni.json"), "utf8"));
    raw.comprobante.external_reference = "A\u001b]0;X\u0007B\u202e";
    const name = join(dir, "v\u001b[2Jx.json");
    writeFileSync(name, JSON.stringify(raw));
    const missing = join(dir, "gone\u001b]0;T\u0007.json");
    const r = await runCli(["validate", name, missing]);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain(String.raw`v\x1b[2Jx.json`);
    expect(r.stdout).toContain(String.raw`ref A\x1b]0;X\x07B\u202e`);
    expect(r.stderr).toContain(String.raw`gone\x1b]0;T\x07.json: no such file`);
    for (const raw of ["\u001b", "\u0007", "\u202e"]) expect(`${r.stdout}${r.stderr}`).not.toContain(raw);
    // Scripts read the texts as they are: JSON escapes them its own way.
    const json = await runCli(["--json", "validate", name]);
    expect(ndjson(json.stdout)[0]).toMatchObject({ external_reference: "A\u001b]0;X\u0007B\u202e" });
  });

  describe("exit 2", () => {
    const dir = mkdtempSync(join(tmpdir(), "facturar-e2e-"));

    it("for a missing file, after reporting the others", async () => {
      const r = await runCli(["validate", "samples/factura-b-dni.json", "samples/nope.json"]);
      expect(r.code).toBe(2);
      expect(r.stdout).toContain("✔ samples/factura-b-dni.json");
      expect(r.stderr).toMatch(/samples\/nope.json: no such file/);
    });

    it("for broken JSON, with line and column", async () => {
      const broken = join(dir, "broken.json");
      writeFileSync(broken, '{\n  "comprobante": {\n    "tipo": "FACTURA B",,\n  }\n}\n');
      const r = await runCli(["validate", broken]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/broken.json:3:\d+: not valid JSON/);
      const json = await runCli(["validate", "--json", broken]);
      expect(ndjson(json.stdout)[0]).toMatchObject({
        ok: false,
        status: "unreadable",
        error_details: [{ code: "input.unreadable" }],
      });
    });

    it("for a Latin-1 file read as UTF-8 when --encoding utf8 asks so, with the way out", async () => {
      const latin = join(dir, "latin1.csv");
      const text = readFileSync(join(ROOT, "samples/batch-nightly.csv"), "utf8");
      writeFileSync(latin, Buffer.from(text, "latin1"));
      const r = await runCli(["validate", "--encoding", "utf8", latin]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/not valid UTF-8/);
      expect(r.stderr).toMatch(/--encoding latin1/);
      expect((await runCli(["validate", "-q", "--encoding", "latin1", latin])).code).toBe(0);
      // Untold, it is read as Windows-1252, and the first voucher's warning says so.
      const untold = await runCli(["validate", latin]);
      expect(untold.code).toBe(0);
      expect(untold.stdout).toMatch(/read as Windows-1252 .*\[input\.encoding\]/);
    });

    it('reads a UTF-16 file (a spreadsheet\'s "Unicode text") by its byte order mark, CSV and JSON', async () => {
      const utf16 = (text: string, big: boolean) => {
        const le = Buffer.from(`\uFEFF${text}`, "utf16le");
        return big ? Buffer.from(le).swap16() : le;
      };
      const csvText = readFileSync(join(ROOT, "samples/batch-nightly.csv"), "utf8");
      const jsonText = readFileSync(join(ROOT, "samples/factura-b-dni.json"), "utf8");
      const files = [
        ["utf16le.csv", utf16(csvText, false)],
        ["utf16be.csv", utf16(csvText, true)],
        ["utf16le.json", utf16(jsonText, false)],
      ] as const;
      for (const [name, bytes] of files) {
        writeFileSync(join(dir, name), bytes);
        const r = await runCli(["--json", "validate", join(dir, name)]);
        expect(r.code, `${name}: ${r.stderr}`).toBe(0);
        expect(ndjson(r.stdout).length, name).toBeGreaterThan(0);
      }
      // Accented names come through whole.
      const r = await runCli(["--json", "validate", join(dir, "utf16le.csv")]);
      expect(r.stdout).not.toContain("\uFFFD");
    });

    it("for a JSON file too large to read as one document, before reading it (a sparse 450 MB file)", async () => {
      const big = join(dir, "huge.json");
      writeFileSync(big, "");
      truncateSync(big, 450 * 1024 * 1024);
      const r = await runCli(["validate", big]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/huge\.json: the file is 450 MB: too large to read as one JSON document/);
      expect(r.stderr).toMatch(/export the vouchers as CSV/);
      expect(r.stderr).not.toMatch(/UTF-8/);
    });

    it("for bad flags and missing arguments", async () => {
      expect((await runCli(["validate", "--frobnicate", "samples/factura-b-dni.json"])).code).toBe(2);
      expect((await runCli(["validate"])).code).toBe(2);
      // Bare `facturar` is a request for help (exit 0), not a mistake: help.test.ts.
      expect((await runCli(["validate", "--today", "2026-11-20", "samples/factura-b-dni.json"])).code).toBe(2);
      expect((await runCli(["validate", "--encoding", "utf16", "samples/factura-b-dni.json"])).code).toBe(2);
      expect((await runCli(["validate", "--ceiling", "-5", "samples/factura-b-dni.json"])).code).toBe(2);
    });
  });

  it("obeys NO_COLOR and --no-color even when colour is forced", async () => {
    const forced = await runCli(["validate", "samples/factura-b-dni.json"], { env: { FORCE_COLOR: "1" } });
    expect(forced.stdout).toContain(ESC);
    const noColor = await runCli(["validate", "samples/factura-b-dni.json"], {
      env: { FORCE_COLOR: "1", NO_COLOR: "1" },
    });
    expect(noColor.stdout).not.toContain(ESC);
    const flag = await runCli(["--no-color", "validate", "samples/factura-b-dni.json"], { env: { FORCE_COLOR: "1" } });
    expect(flag.stdout).not.toContain(ESC);
  });

  it("applies a lower ceiling for unidentified consumers", async () => {
    const r = await runCli(["validate", "--json", "--ceiling", "50000", "samples/factura-b-anonymous.json"]);
    expect(r.code).toBe(3);
    expect(ndjson(r.stdout)[0].error_details[0].code).toBe("anonymous.ceiling");
  });

  it("prints its version", async () => {
    const r = await runCli(["--version"]);
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    expect(r).toMatchObject({ code: 0, stdout: `${pkg.version}\n` });
  });
});

describe("the voucher JSON Schema", () => {
  it("committed in schema/ is the one the zod schema generates", async () => {
    const { voucherJsonSchema } = await import("../../src/voucher/json-schema.js");
    const committed = JSON.parse(readFileSync(join(ROOT, "schema/voucher.schema.json"), "utf8"));
    expect(committed).toEqual(voucherJsonSchema());
  });
});
