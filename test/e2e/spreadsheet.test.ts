/**
 * The CSVs people open in a spreadsheet (`vat-book --csv`, `query --csv`, `--report`), in es-AR
 * (#25 item 6): `;`, decimal commas and a UTF-8 byte order mark under a Spanish locale; plain CSV
 * when asked (`--decimal point`) and in English; `--decimal coma|punto` as the Spanish help says.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { freshUser, ROOT, runCli, TODAY } from "../helpers.js";

const u = freshUser();
const ES = { ...u.env, LANG: "es_AR.UTF-8" };
const BOM = "\uFEFF";

describe("spreadsheet CSVs in es-AR", () => {
  beforeAll(async () => {
    const r = await runCli(["issue", "--no-pdf", "--report", "reporte.csv", join(ROOT, "samples/factura-b-dni.json")], {
      cwd: u.cwd,
      env: ES,
    });
    expect(r.code, r.stderr).toBe(0);
  }, 60_000);

  it("--report: ; and a decimal comma after a byte order mark, for a JSON input in Spanish", () => {
    const report = readFileSync(join(u.cwd, "reporte.csv"), "utf8");
    expect(report.startsWith(`${BOM}source;`)).toBe(true);
    expect(report).toMatch(/;FB-2026-0001;.*;133463,00;/);
  });

  it("vat-book --csv: ; decimal commas and the mark by default; --decimal coma as the help says; --decimal point is plain CSV", async () => {
    const es = await runCli(["vat-book", "--from", TODAY, "--to", TODAY, "--csv"], { cwd: u.cwd, env: ES });
    expect(es.code, es.stderr).toBe(0);
    expect(es.stdout.startsWith(`${BOM}fecha;tipo;`)).toBe(true);
    expect(es.stdout).toMatch(/;Juana Pérez;PES;1;133463,00;/);
    const coma = await runCli(["vat-book", "--from", TODAY, "--to", TODAY, "--csv", "--decimal", "coma"], {
      cwd: u.cwd,
      env: ES,
    });
    expect(coma.code, coma.stderr).toBe(0);
    expect(coma.stdout).toBe(es.stdout);
    const plain = await runCli(["vat-book", "--from", TODAY, "--to", TODAY, "--csv", "--decimal", "punto"], {
      cwd: u.cwd,
      env: ES,
    });
    expect(plain.stdout.startsWith("fecha,tipo,")).toBe(true);
    expect(plain.stdout).toMatch(/,Juana Pérez,PES,1,133463.00,/);
    // --delimiter decides alone: ; with a decimal point.
    const semi = await runCli(
      ["vat-book", "--from", TODAY, "--to", TODAY, "--csv", "--decimal", "point", "--delimiter", ";"],
      { cwd: u.cwd, env: ES },
    );
    expect(semi.stdout).toMatch(/;Juana Pérez;PES;1;133463.00;/);
    // English: plain CSV, as before.
    const en = await runCli(["vat-book", "--from", TODAY, "--to", TODAY, "--csv"], u);
    expect(en.stdout).toBe(plain.stdout);
    const wrong = await runCli(["vat-book", "--from", TODAY, "--to", TODAY, "--csv", "--decimal", "dot"], {
      cwd: u.cwd,
      env: ES,
    });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/coma, punto/);
  });

  it("query --csv: the same, by default and on request", async () => {
    const es = await runCli(["query", "--date", TODAY, "--csv"], { cwd: u.cwd, env: ES });
    expect(es.code, es.stderr).toBe(0);
    expect(es.stdout.startsWith(`${BOM}fecha;tipo;`)).toBe(true);
    expect(es.stdout).toMatch(/;Juana Pérez;PES;133463,00;/);
    const plain = await runCli(["query", "--date", TODAY, "--csv", "--decimal", "point"], { cwd: u.cwd, env: ES });
    expect(plain.stdout).toMatch(/^fecha,tipo,.*\n.*,Juana Pérez,PES,133463.00,/);
  });
});
