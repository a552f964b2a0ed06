/** The --report CSV: a report that stops taking rows never stops the run, and is told once. */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { blankResult } from "../../src/batch/result.js";
import { Report } from "../../src/output/report.js";
import { runHere } from "../cli-here.js";
import { freshUser, ROOT, tempDir } from "../helpers.js";

const result = (reference: string) =>
  blankResult("issued", { source: "lote.csv:row 2", reference, tipo: "FACTURA B", punto_venta: 679, total: "121.00" });

describe("the report", () => {
  it("a row that cannot be written is the report's failure: later rows are not tried, the first cause is kept", () => {
    const dir = join(tempDir("facturar-report-"), "reports");
    mkdirSync(dir);
    const path = join(dir, "r.csv");
    const report = Report.create(path);
    expect(report.write(result("A-1"))).toBe(true);
    expect(readFileSync(path, "utf8").split("\n")[1]).toMatch(/^lote\.csv:row 2,A-1,issued,FACTURA B,/);

    rmSync(dir, { recursive: true });
    expect(report.write(result("A-2"))).toBe(false);
    expect((report.failure as NodeJS.ErrnoException).code).toBe("ENOENT");
    // The folder back: the report still takes no more rows (its file is gone, not half written again).
    mkdirSync(dir);
    expect(report.write(result("A-3"))).toBe(false);
    expect(existsSync(path)).toBe(false);
    report.sync();
    expect((report.failure as NodeJS.ErrnoException).code).toBe("ENOENT");
  });

  it("a report whose file is gone by the end says so when it is synced", () => {
    const dir = tempDir("facturar-report-");
    const report = Report.create(join(dir, "r.csv"));
    expect(report.write(result("B-1"))).toBe(true);
    rmSync(join(dir, "r.csv"));
    report.sync();
    expect((report.failure as NodeJS.ErrnoException).code).toBe("ENOENT");
  });

  it("defuses a reference or message a spreadsheet would run as a formula; a credit note's negative total stays a number", () => {
    const path = join(tempDir("facturar-report-"), "r.csv");
    const report = Report.create(path);
    const hostile = blankResult("rejected", {
      source: '=HYPERLINK("http://x")',
      reference: "@SUM(A1)",
      tipo: "NOTA DE CREDITO B",
      punto_venta: 679,
      total: "-121.00",
    });
    expect(report.write(hostile)).toBe(true);
    const row = readFileSync(path, "utf8").split("\n")[1] as string;
    expect(row.startsWith(`"'=HYPERLINK(""http://x"")",'@SUM(A1),rejected,NOTA DE CREDITO B,`)).toBe(true);
    expect(row).toContain(",-121.00,");
  });

  it("a run whose report stopped taking rows ends with exit 6, whatever became of its vouchers", async () => {
    const u = freshUser("facturar-report-run-");
    const dir = join(u.cwd, "informes");
    mkdirSync(dir);
    const csv = readFileSync(join(ROOT, "samples", "batch-nightly.csv"), "utf8").split("\n");
    writeFileSync(join(u.cwd, "lote.csv"), `${csv.slice(0, 5).join("\n")}\n`);
    // The report's folder goes away once the first voucher is told: later rows cannot be written.
    const run = await runHere(
      ["--json", "issue", "--no-pdf", "--report", join(dir, "r.csv"), join(u.cwd, "lote.csv")],
      u.env,
      () => rmSync(dir, { recursive: true, force: true }),
    );
    expect(
      run.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line).status),
    ).toEqual(["issued", "issued"]);
    expect(run.stderr).toMatch(/report/i);
    expect(run.code).toBe(6);
  });
});
