/**
 * Packaging: what `npm pack` makes is what a user installs. The tarball goes into an empty
 * folder with `npm install`, and the installed `facturar` answers --version and issues a voucher
 * against its embedded sandbox, PDF saved, with nothing of this checkout on its path.
 */
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync, renameSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { freshUser, ROOT, runCli, tempDir } from "../helpers.js";

const exec = promisify(execFile);

describe("the npm package", () => {
  it("packs, installs in an empty folder, and issues from there", async () => {
    const out = tempDir("facturar-pack-");
    // --ignore-scripts: dist/ is already built (npm test builds before vitest), and rebuilding it
    // here would pull it from under the other tests' processes.
    const { stdout } = await exec("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", out], {
      cwd: ROOT,
    });
    const [pack] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
    const files = (pack?.files ?? []).map((f) => f.path);
    expect(files).toContain("bin/facturar.js");
    expect(files).toContain("dist/cli.js");
    expect(files).toContain("dist/cli.cjs");
    expect(files.filter((f) => f.includes(".cache"))).toEqual([]);
    expect(files).toContain("schema/voucher.schema.json");
    // Compiled JavaScript only: no sources, tests or benchmarks.
    expect(files.filter((f) => /^(src|test|bench)\//.test(f) || /(?<!\.d)\.ts$/.test(f))).toEqual([]);

    const app = tempDir("facturar-installed-");
    await exec(
      "npm",
      ["install", "--no-audit", "--no-fund", "--prefer-offline", "--omit=dev", join(out, pack?.filename ?? "")],
      { cwd: app, env: { ...process.env, npm_config_loglevel: "error" } },
    );
    const installed = join(app, "node_modules", ".bin", "facturar");
    expect(existsSync(installed)).toBe(true);
    const version = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version as string;

    const u = freshUser("facturar-installed-user-");
    const env = { ...u.env, PATH: `${join(app, "node_modules", ".bin")}:${process.env.PATH}` };
    const v = await exec(installed, ["--version"], { cwd: u.cwd, env });
    expect(v.stdout.trim()).toBe(version);

    const sample = join(app, "node_modules", "facturar", "samples", "factura-b-dni.json");
    const issued = await exec(installed, ["--json", "issue", sample], { cwd: u.cwd, env });
    const result = JSON.parse(issued.stdout.trim().split("\n")[0] as string);
    expect(result).toMatchObject({ ok: true, status: "issued", comprobante_tipo: "FACTURA B" });
    expect(result.pdf).toBe(join(u.cwd, "comprobantes", "FACTURA_B-00679-00000001.pdf"));
    expect(readFileSync(result.pdf).subarray(0, 5).toString()).toBe("%PDF-");
    // CSV is read by csv-parse, a runtime dependency: installed without dev dependencies, it is there.
    const batch = join(app, "node_modules", "facturar", "samples", "batch-nightly.csv");
    const checked = await exec(installed, ["--json", "validate", batch], { cwd: u.cwd, env });
    const lines = checked.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { ok: boolean });
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.every((l) => l.ok)).toBe(true);
    // Installed, the package has no node_modules of its own: the code cache is the user's, one per
    // command run; FACTURAR_CODE_CACHE=off makes none.
    const cache = join(u.home, ".cache", "facturar");
    const commands = () => readdirSync(cache).map((f) => f.replace(/^.*-/, ""));
    expect(commands().sort()).toEqual(["_.v8", "issue.v8", "validate.v8"]);
    await exec(installed, ["schema"], { cwd: u.cwd, env: { ...env, FACTURAR_CODE_CACHE: "off" } });
    expect(commands()).not.toContain("schema.v8");
    await exec(installed, ["schema"], { cwd: u.cwd, env });
    expect(commands()).toContain("schema.v8");
    // An install missing the renderer's package (a dependency lost) fails before anything is sent,
    // in words, with nothing issued; the sandbox loads pdfkit only at its first download.
    renameSync(join(app, "node_modules", "pdfkit"), join(app, "pdfkit-aside"));
    const other = freshUser("facturar-installed-broken-");
    const broken = await exec(installed, ["issue", "--no-pdf", sample], {
      cwd: other.cwd,
      env: { ...other.env, PATH: env.PATH as string },
    }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(broken.code, broken.stderr).toBe(6);
    expect(broken.stderr).toMatch(/the sandbox cannot draw documents: pdfkit cannot be loaded \(MODULE_NOT_FOUND\)/);
    expect(broken.stderr).toMatch(/hint: install facturar again/);
    expect(broken.stdout).toBe("");
    expect(readdirSync(other.cwd)).toEqual([]);
    renameSync(join(app, "pdfkit-aside"), join(app, "node_modules", "pdfkit"));
    // The checkout's own CLI agrees on what the installed one issued: same journal, skipped.
    const again = await runCli(["--json", "issue", sample], { cwd: u.cwd, env: u.env });
    expect(JSON.parse(again.stdout.trim())).toMatchObject({ status: "skipped-duplicate" });
  }, 180_000);
});
