/**
 * The environment's faults, tried with real processes: output paths that would destroy an input
 * or cannot be written, state folders that cannot be written, an unwritable stderr, files that
 * cannot grow. Each is a clear message naming the path, with its documented exit code, and
 * whatever could be known up front is refused before anything is sent.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { freshUser, journalText, ROOT, runCli } from "../helpers.js";

const NIGHTLY = join(ROOT, "samples", "batch-nightly.csv");
const ONE = join(ROOT, "samples", "factura-b-dni.json");

describe("the environment's faults", () => {
  it("a --report or --qr that is an input is a usage error, and the input is left whole", async () => {
    const u = freshUser("facturar-report-input-");
    const input = join(u.cwd, "nightly.csv");
    copyFileSync(NIGHTLY, input);
    const original = readFileSync(input, "utf8");
    symlinkSync(input, join(u.cwd, "link.csv"));
    for (const [report, given] of [
      ["nightly.csv", "nightly.csv"],
      ["./nightly.csv", "nightly.csv"],
      [input, "nightly.csv"],
      ["link.csv", "nightly.csv"],
      ["../work/nightly.csv", "./nightly.csv"],
    ] as const) {
      const run = await runCli(["issue", "--no-pdf", "--report", report, given], { cwd: u.cwd, env: u.env });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(`--report ${report} is the input ${given}: writing it would destroy it`);
      expect(readFileSync(input, "utf8")).toBe(original);
    }
    // Standard input redirected from the report's file.
    const piped = spawnSync(
      "bash",
      [
        "-c",
        `'${process.execPath}' '${join(ROOT, "bin", "facturar.js")}' issue --no-pdf --report nightly.csv - < nightly.csv`,
      ],
      { cwd: u.cwd, env: u.env, encoding: "utf8" },
    );
    expect(piped.status, piped.stderr).toBe(2);
    expect(piped.stderr).toContain("--report nightly.csv is the input -");
    expect(readFileSync(input, "utf8")).toBe(original);
    // --qr ticket writes ticket.png: an input of that name is refused too.
    writeFileSync(join(u.cwd, "ticket.png"), "not a voucher");
    const qr = await runCli(["issue", "--no-pdf", "--qr", "ticket", ONE, "ticket.png"], { cwd: u.cwd, env: u.env });
    expect(qr.code).toBe(2);
    expect(qr.stderr).toContain("--qr ticket would overwrite the input ticket.png");
    expect(journalText(u.env.XDG_STATE_HOME)).toBe("");
  });

  it("an --out that cannot be a folder is refused before anything is sent; with --no-pdf it is not used", async () => {
    const u = freshUser("facturar-out-");
    writeFileSync(join(u.cwd, "existing.csv"), "x");
    for (const [out, why] of [
      ["existing.csv", "--out existing.csv: it is not a folder"],
      ["existing.csv/pdfs", `--out existing.csv/pdfs: ${join(u.cwd, "existing.csv")} is not a folder`],
    ] as const) {
      const run = await runCli(["issue", "--out", out, ONE], { cwd: u.cwd, env: u.env });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(why);
      expect(journalText(u.env.XDG_STATE_HOME)).toBe("");
    }
    const fine = await runCli(["issue", "--out", join(u.cwd, "new", "pdfs"), ONE], { cwd: u.cwd, env: u.env });
    expect(fine.code, fine.stderr).toBe(0);
    const noPdf = await runCli(["issue", "--no-pdf", "--allow-duplicate", "--out", "existing.csv", ONE], {
      cwd: u.cwd,
      env: u.env,
    });
    expect(noPdf.code, noPdf.stderr).toBe(0);
  });

  it("a sandbox.log already there, readable by others, is made 0600 when the sandbox opens it", async () => {
    const u = freshUser("facturar-log-mode-");
    const log = join(u.env.XDG_DATA_HOME, "facturar", "sandbox", "sandbox.log");
    mkdirSync(dirname(log), { recursive: true });
    writeFileSync(log, "", { mode: 0o644 });
    chmodSync(log, 0o644);
    const run = await runCli(["status"], { cwd: u.cwd, env: u.env });
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(log, "utf8")).toContain("apitoken");
    expect(statSync(log).mode & 0o777).toBe(0o600);
  });
});
