/**
 * The cron job's path (#25): results on stdout, what a person reads on stderr in every mode
 * (`--json` too), Windows-1252 exports read as what they are.
 */

import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { BIN, freshUser, journalText, ndjson, ROOT, runCli, tempDir } from "../helpers.js";

const NIGHTLY = readFileSync(join(ROOT, "samples/batch-nightly.csv"), "utf8");
/** The nightly export's references, in input order (24 vouchers). */
const REFERENCES = [
  ...new Set(
    NIGHTLY.split("\n")
      .slice(1)
      .filter(Boolean)
      .map((l) => l.split(",")[0] as string),
  ),
];
/** The nightly export with its second voucher invalid (a type that does not exist). */
const ONE_INVALID = NIGHTLY.replace("LOTE-20261120-002,FACTURA B,", "LOTE-20261120-002,FACTURA Z,");
/** A `--report` file's rows, by its header (a "," report: the input's delimiter). */
const reportRows = (path: string): Record<string, string>[] =>
  parse(readFileSync(path, "utf8"), { columns: true, bom: true });

describe("under --json, stderr still tells a person what happened", () => {
  it("an unreadable file (exit 2): its message on stderr, the JSON error on stdout", async () => {
    const u = freshUser();
    const r = await runCli(["--json", "issue", "--report", "results.csv", "--no-input", "missing.csv"], u);
    expect(r.code).toBe(2);
    expect(ndjson(r.stdout)).toMatchObject([{ ok: false, error: { code: "input.unreadable" } }]);
    expect(r.stderr).toMatch(/missing\.csv: no such file/);
  });

  it("a missing input leaves last night's report as it was, not a header alone", async () => {
    const u = freshUser();
    const lastNight = "external_reference,status\nLOTE-1,issued\n";
    writeFileSync(join(u.cwd, "results.csv"), lastNight);
    const r = await runCli(["--json", "issue", "--report", "results.csv", "--no-input", "missing.csv"], u);
    expect(r.code).toBe(2);
    expect(readFileSync(join(u.cwd, "results.csv"), "utf8")).toBe(lastNight);
  });

  it("an invalid row (exit 3): its error and the summary on stderr, the results on stdout", async () => {
    const u = freshUser();
    const lines = NIGHTLY.split("\n");
    // The second voucher's first row loses its type: that voucher alone is invalid.
    const at = lines.findIndex((l) => l.startsWith("LOTE-20261120-002,FACTURA B,"));
    lines[at] = (lines[at] as string).replace("LOTE-20261120-002,FACTURA B,", "LOTE-20261120-002,FACTURA Z,");
    writeFileSync(join(u.cwd, "nightly.csv"), lines.join("\n"));
    const r = await runCli(["--json", "issue", "--report", "results.csv", "--no-input", "nightly.csv"], u);
    expect(r.code).toBe(3);
    const results = ndjson(r.stdout);
    const invalid = results.filter((x) => x.status === "invalid");
    expect(invalid).toHaveLength(1);
    const valid =
      new Set(
        NIGHTLY.split("\n")
          .slice(1)
          .filter(Boolean)
          .map((l) => l.split(",")[0]),
      ).size - 1;
    expect(r.stderr).toContain(
      `1 invalid, so nothing sent: ${valid} valid not sent either (--skip-invalid sends them)`,
    );
    expect(r.stderr).toMatch(/nightly\.csv:row \d+, column comprobante\.tipo/);
  });

  it("another command's error under --json is told on stderr too", async () => {
    const u = freshUser();
    const r = await runCli(["--json", "query", "--date", "99/99/2026"], u);
    expect(r.code).toBe(2);
    expect(ndjson(r.stdout)[0]).toMatchObject({ ok: false });
    expect(r.stderr).toMatch(/^facturar: .+/m);
  });
});

describe("validate --json", () => {
  it("an unreadable file: the JSON object on stdout, its message on stderr", async () => {
    const u = freshUser();
    const r = await runCli(["--json", "validate", "missing.csv"], u);
    expect(r.code).toBe(2);
    expect(ndjson(r.stdout)).toMatchObject([{ ok: false, status: "unreadable" }]);
    expect(r.stderr).toMatch(/error: missing\.csv: no such file/);
  });
});

describe("a Windows-1252 export (Excel's CSV in an es-AR Windows)", () => {
  it("is read as Windows-1252 and the run says so on stderr and in --json's warnings; --encoding utf8 refuses it at its row and column", async () => {
    const u = freshUser();
    writeFileSync(join(u.cwd, "nightly.csv"), Buffer.from(NIGHTLY, "latin1"));
    const r = await runCli(["--json", "issue", "--no-input", "--no-pdf", "nightly.csv"], u);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/warning: nightly\.csv: not valid UTF-8 and no byte order mark: read as Windows-1252/);
    const results = ndjson(r.stdout);
    expect(results.every((x) => x.status === "issued")).toBe(true);
    const first = results.find((x) => x.external_reference === "LOTE-20261120-001");
    expect(first.warning_details).toContainEqual(expect.objectContaining({ code: "input.encoding" }));

    const strict = await runCli(["validate", "--encoding", "utf8", "nightly.csv"], u);
    expect(strict.code).toBe(2);
    // Almacén, the first row's rubro: row 2, not "byte 0".
    expect(strict.stderr).toMatch(/nightly\.csv:row 2, column comprobante\.rubro: not valid UTF-8/);
    expect(strict.stderr).not.toMatch(/byte/);
  });
});

describe("the README's crontab line, as written", () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const block = /```crontab\n([^\n]+)\n```/.exec(readme)?.[1] ?? "";
  // What cron runs: the line after its five schedule fields, by /bin/sh, with a bare environment.
  const command = block.split(/\s+/).slice(5).join(" ");
  const cron = () => {
    const home = tempDir("facturar-cron-");
    mkdirSync(join(home, ".local", "bin"), { recursive: true });
    mkdirSync(join(home, "facturas"));
    // `facturar` on the PATH the line sets, as an install puts it there.
    const shim = join(home, ".local", "bin", "facturar");
    writeFileSync(shim, `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`);
    chmodSync(shim, 0o755);
    const run = () =>
      spawnSync("/bin/sh", ["-c", command], {
        env: { HOME: home, LOGNAME: "ana", SHELL: "/bin/sh", PATH: "/usr/bin:/bin" },
        encoding: "utf8",
      });
    return { dir: join(home, "facturas"), run };
  };

  it("is a complete line: schedule, cd, PATH, --encoding named beside it, the log appended with 2>>", () => {
    expect(block).toMatch(/^30 2 \* \* \* cd /);
    expect(command).toMatch(/export PATH=/);
    expect(command).toMatch(/> results\.ndjson 2>> cron\.log/);
    expect(readme).toMatch(/`--encoding latin1`/);
  });

  it("a Windows-1252 export: issued, silent for cron's mail, the log says how it was read", () => {
    const { dir, run } = cron();
    writeFileSync(join(dir, "nightly.csv"), Buffer.from(NIGHTLY, "latin1"));
    const r = run();
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("");
    expect(r.status).toBe(0);
    const results = ndjson(readFileSync(join(dir, "results.ndjson"), "utf8"));
    expect(results.length).toBeGreaterThan(1);
    expect(results.every((x) => x.status === "issued")).toBe(true);
    const log = readFileSync(join(dir, "cron.log"), "utf8");
    expect(log).toMatch(/read as Windows-1252/);
    expect(log).toMatch(new RegExp(`${results.length} issued`));
    expect(readFileSync(join(dir, "results.csv"), "utf8")).toMatch(/^source,/);
  });

  it("an invalid row: nothing sent, cron mails the exit code, the log keeps the summary", () => {
    const { dir, run } = cron();
    writeFileSync(
      join(dir, "nightly.csv"),
      NIGHTLY.replace("LOTE-20261120-002,FACTURA B,", "LOTE-20261120-002,FACTURA Z,"),
    );
    const r = run();
    expect(r.stdout).toBe(`facturar exited 3: see ${dir}/cron.log\n`);
    expect(readFileSync(join(dir, "cron.log"), "utf8")).toMatch(
      /1 invalid, so nothing sent: \d+ valid not sent either/,
    );
  });

  it("an invalid row: every voucher of the input has its result, in the NDJSON and in the report (#25)", () => {
    const { dir, run } = cron();
    writeFileSync(join(dir, "nightly.csv"), ONE_INVALID);
    const r = run();
    expect(r.stdout).toBe(`facturar exited 3: see ${dir}/cron.log\n`);
    expect(REFERENCES).toHaveLength(24);
    const invalid = "LOTE-20261120-002";
    const results = ndjson(readFileSync(join(dir, "results.ndjson"), "utf8"));
    expect(results.map((x) => x.external_reference).sort()).toEqual([...REFERENCES].sort());
    for (const x of results)
      if (x.external_reference === invalid) expect(x).toMatchObject({ ok: false, status: "invalid" });
      else
        expect(x).toMatchObject({
          ok: false,
          status: "held",
          cae: null,
          numero: null,
          errors: ["not sent: 1 voucher of this run is invalid; --skip-invalid sends the valid ones"],
          error_details: [{ code: "voucher.held" }],
        });
    // The valid ones as the input has them: in its order, each with its place in the file.
    const held = results.filter((x) => x.status === "held");
    expect(held.map((x) => x.external_reference)).toEqual(REFERENCES.filter((ref) => ref !== invalid));
    expect(held[0]).toMatchObject({ comprobante_tipo: "FACTURA B", punto_venta: null, total: "3885.01" });
    expect(held[0].source).toMatch(/nightly\.csv:rows 2-\d+$/);
    const rows = reportRows(join(dir, "results.csv"));
    expect(rows.map((row) => [row.external_reference, row.status]).sort()).toEqual(
      REFERENCES.map((ref) => [ref, ref === invalid ? "invalid" : "held"]).sort(),
    );
    const log = readFileSync(join(dir, "cron.log"), "utf8");
    expect(log).toContain("1 invalid, so nothing sent: 23 valid not sent either (--skip-invalid sends them)");
    // A person reads each voucher not sent on a line of its own, and why once, not 23 times.
    for (const ref of REFERENCES.filter((x) => x !== invalid))
      expect(log).toMatch(new RegExp(`^· FACTURA [ABC]  ref ${ref}  not sent$`, "m"));
    expect(log.match(/not sent: 1 voucher of this run is invalid/g)).toHaveLength(1);
    // Nothing was sent, and nothing journaled: the next run sends them all.
    expect(journalText(join(dir, "..", ".local", "state"))).toBe("");
    writeFileSync(join(dir, "nightly.csv"), NIGHTLY);
    expect(run().status).toBe(0);
    expect(ndjson(readFileSync(join(dir, "results.ndjson"), "utf8")).map((x) => x.status)).toEqual(
      REFERENCES.map(() => "issued"),
    );
  });

  it("an invalid row, for a person: each valid voucher on a line, not sent, and why once", async () => {
    const u = freshUser();
    writeFileSync(join(u.cwd, "nightly.csv"), ONE_INVALID);
    const r = await runCli(["issue", "--no-input", "nightly.csv"], u);
    expect(r.code, r.stderr).toBe(3);
    const notSent = r.stdout.split("\n").filter((l) => l.startsWith("· "));
    expect(notSent).toHaveLength(23);
    expect(
      r.stdout.match(/not sent: 1 voucher of this run is invalid; --skip-invalid sends the valid ones/g),
    ).toHaveLength(1);
    expect(r.stderr).toContain("1 invalid, so nothing sent: 23 valid not sent either (--skip-invalid sends them)");
  });

  it("--skip-invalid as before: the invalid row told, the 23 others issued, each once (exit 7)", async () => {
    const u = freshUser();
    writeFileSync(join(u.cwd, "nightly.csv"), ONE_INVALID);
    const r = await runCli(
      ["--json", "issue", "--no-input", "--no-pdf", "--skip-invalid", "--report", "results.csv", "nightly.csv"],
      u,
    );
    expect(r.code, r.stderr).toBe(7);
    const results = ndjson(r.stdout);
    expect(results.map((x) => x.external_reference).sort()).toEqual([...REFERENCES].sort());
    expect(results.filter((x) => x.status !== "issued")).toMatchObject([
      { external_reference: "LOTE-20261120-002", status: "invalid" },
    ]);
    expect(reportRows(join(u.cwd, "results.csv")).map((row) => row.status)).toEqual(results.map((x) => x.status));
    expect(r.stderr).toMatch(/1 invalid \(skipped\), 23 issued/);
    expect(r.stderr).not.toMatch(/valid not sent|of this run (is|are) invalid/);
  });
});
