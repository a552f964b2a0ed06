/**
 * The voucher modules load, and the samples pass through them, with each module imported inside
 * a test. Most of their code runs as they load (code tables, the zod schema): a module that throws
 * as it loads fails every test file that imports it at its top before any test runs, which vitest
 * reports as a file error and StrykerJS's vitest runner counts as no failure ("survived"). Here
 * the same error fails a test. Imported fresh: vitest isolates each test file.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// Not test/helpers.ts: it imports voucher modules, whose failure to load must fail a test here.
const ROOT = fileURLToPath(new URL("../..", import.meta.url));

// Every module of src/voucher, as the folder holds them: a new one is checked without a word here.
const MODULES = readdirSync(join(ROOT, "src", "voucher"))
  .filter((f) => f.endsWith(".ts"))
  .map((f) => f.slice(0, -3));

describe("the voucher modules", () => {
  it("are found: the sixteen of today at least", () => {
    expect(MODULES.length).toBeGreaterThanOrEqual(16);
    expect(MODULES).toEqual(expect.arrayContaining(["codes", "schema", "validate", "rules"]));
  });

  it.each(MODULES)("%s loads and exports what it declares", async (name) => {
    const module = await import(`../../src/voucher/${name}.ts`);
    const exported = Object.entries(module);
    // A module of types alone (held.ts) declares nothing that runs: it must still load.
    const declaresValues = /^export (async )?(function|const|let|class)\b/m.test(
      readFileSync(join(ROOT, "src", "voucher", `${name}.ts`), "utf8"),
    );
    expect(exported.length > 0, name).toBe(declaresValues);
    for (const [key, value] of exported) expect(value, `${name}.${key}`).toBeDefined();
  });

  it("take every sample in samples/ as valid, on the day the tests date them", async () => {
    const { validateEnvelope } = await import("../../src/voucher/validate.js");
    const dir = join(ROOT, "samples");
    const files = readdirSync(dir).filter((f) => f.endsWith(".json"));
    expect(files.length).toBeGreaterThanOrEqual(17);
    for (const file of files) {
      const raw = JSON.parse(readFileSync(join(dir, file), "utf8"));
      const result = validateEnvelope(raw, { now: new Date("2026-11-20T15:00:00Z") });
      expect(
        result.findings.filter((f) => f.severity === "error"),
        file,
      ).toEqual([]);
      expect(result.ok, file).toBe(true);
    }
  });
});
