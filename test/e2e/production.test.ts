import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { freshUser, inTerminal, ndjson, ROOT, runCli, userConfig } from "../helpers.js";

function productionUser() {
  const { home, cwd, env: fresh } = freshUser("facturar-prod-");
  userConfig(fresh, { default_profile: "prod", profiles: { prod: { base_url: "sandbox", production: true } } });
  // CI is cleared so that the pseudo-terminal counts as a person at a terminal.
  const env = { ...process.env, ...fresh, CI: "" };
  return { home, cwd, env };
}

function ask(cwd: string, env: NodeJS.ProcessEnv, args: string[], answer: string): Promise<string> {
  return inTerminal(args, { cwd, env }, [[/Issue (it|all \d+)\?/, `${answer}\r`]]);
}

const sample = join(ROOT, "samples", "factura-b-dni.json");

describe("production profiles", () => {
  it("ask on a terminal: no sends nothing, yes issues", async () => {
    const u = productionUser();
    const declined = await ask(u.cwd, u.env, ["issue", sample], "n");
    expect(declined).toMatch(/PRODUCTION profile prod: these vouchers are real/);
    expect(declined).toMatch(/point of sale 679; 1 voucher; total 133,463\.00/);
    expect(declined).toMatch(/cancelled, nothing sent/);
    expect(declined).toMatch(/EXIT=0/);
    const nothing = await runCli(["--json", "query", "--ref", "FB-2026-0001"], {
      cwd: u.cwd,
      env: u.env as Record<string, string>,
    });
    expect(nothing.code).toBe(9);
    expect(ndjson(nothing.stdout)).toEqual([
      { ok: false, error: { code: "service.not-found", message: "no voucher with reference FB-2026-0001" } },
    ]);
    const accepted = await ask(u.cwd, u.env, ["issue", sample], "y");
    expect(accepted).toMatch(/✔ FACTURA B 00679-00000001/);
    expect(accepted).toMatch(/EXIT=0/);
  }, 60_000);

  it("never ask off a terminal (a cron job), nor with --yes", async () => {
    const u = productionUser();
    const r = await runCli(["--json", "issue", sample], { cwd: u.cwd, env: u.env as Record<string, string> });
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/Issue it\?/);
    expect(ndjson(r.stdout)[0]).toMatchObject({ status: "issued" });
    const yes = await ask(u.cwd, u.env, ["--yes", "issue", join(ROOT, "samples", "factura-m.json")], "n");
    expect(yes).not.toMatch(/Issue it\?/);
    expect(yes).toMatch(/✔ FACTURA M 00679-00000001/);
  }, 60_000);
});
