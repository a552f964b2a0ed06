/**
 * What the CLI asks the service at run time, against a sandbox process set to differ from the
 * defaults: a final-consumer ceiling (`topecf`) other than the documented one, and listings longer
 * than one page (the `page-size` fault: the sandbox serves fewer per page than asked).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FaultSpecError, parseFaults } from "../../src/sandbox/faults.js";
import { freshUser, ndjson, ROOT, runCli } from "../helpers.js";
import { type RunningSandbox, sandboxEnv, startSandboxProcess } from "../sandbox-process.js";

const sandboxes: RunningSandbox[] = [];
afterEach(async () => {
  for (const s of sandboxes.splice(0)) await s.stop();
});

async function sandbox(args: string[]): Promise<{ s: RunningSandbox; env: Record<string, string>; cwd: string }> {
  const s = await startSandboxProcess({ args });
  sandboxes.push(s);
  const user = freshUser("facturar-live-");
  return { s, cwd: user.cwd, env: sandboxEnv(s, user.env) };
}

describe("the service's final-consumer ceiling", () => {
  it("a sale the documented ceiling allows is refused before sending when the service's is lower (exit 3)", async () => {
    const { env, cwd } = await sandbox(["--ceiling", "50000"]);
    const anonymous = join(ROOT, "samples", "factura-b-anonymous.json"); // total 62,859
    // Offline, against the documented ceiling, the sale is valid.
    expect((await runCli(["validate", anonymous], { env, cwd })).code).toBe(0);
    const r = await runCli(["--json", "issue", "--no-pdf", anonymous], { env, cwd });
    expect(r.code, r.stderr).toBe(3);
    const [result] = ndjson(r.stdout);
    expect(result).toMatchObject({ status: "invalid", error_details: [{ code: "anonymous.ceiling" }] });
    expect(result.errors.join(" ")).toMatch(/reaches the ceiling for unidentified consumers \(50,000\.00\)/);
    const ceiling = await runCli(["--json", "ceiling"], { env, cwd });
    expect(JSON.parse(ceiling.stdout)).toMatchObject({ monto: 50000 });
  }, 60_000);
});

describe("listings longer than a page", () => {
  it("the page-size fault takes a whole number from 1", () => {
    expect(parseFaults(["page-size=2"]).pageSize).toBe(2);
    for (const bad of ["page-size=0", "page-size", "page-size=1.5"])
      expect(() => parseFaults([bad])).toThrow(FaultSpecError);
  });

  it("query --date and query --type --from --to read every page (five vouchers, two a page)", async () => {
    const { env, cwd } = await sandbox(["--fault", "page-size=2"]);
    const raw = JSON.parse(readFileSync(join(ROOT, "samples", "factura-b-dni.json"), "utf8"));
    const file = join(cwd, "five.json");
    writeFileSync(
      file,
      JSON.stringify(
        Array.from({ length: 5 }, (_, i) => ({
          ...raw,
          comprobante: { ...raw.comprobante, fecha: "20/11/2026", external_reference: `PAGE-${i}` },
        })),
      ),
    );
    const issued = await runCli(["--json", "issue", "--no-pdf", file], { env, cwd });
    expect(issued.code, issued.stderr).toBe(0);
    const byDate = await runCli(["--verbose", "--json", "query", "--date", "20/11/2026"], { env, cwd });
    expect(byDate.code, byDate.stderr).toBe(0);
    expect(
      ndjson(byDate.stdout)
        .map((v) => v.external_reference)
        .sort(),
    ).toEqual(["PAGE-0", "PAGE-1", "PAGE-2", "PAGE-3", "PAGE-4"]);
    // Three pages asked: 2 + 2 + 1.
    expect(byDate.stderr.match(/consulta_avanzada/g)).toHaveLength(3);
    const range = await runCli(["--json", "query", "--type", "FACTURA B", "--from", "1", "--to", "5"], { env, cwd });
    expect(ndjson(range.stdout).map((v) => v.comprobante_nro)).toHaveLength(5);
  }, 60_000);
});
