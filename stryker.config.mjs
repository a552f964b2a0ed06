// Mutation testing (StrykerJS), run by hand, not in CI: `npm run mutate -- SCOPE`, where SCOPE is
// one of the keys below (default `ids`). Only in-process tests can kill a mutant: the end-to-end
// tests spawn the built CLI in dist/, which Stryker does not mutate, so each scope runs the unit
// tests that import its modules (vitest.stryker.config.ts reads the same scope).
import { SCOPES } from "./stryker.scopes.mjs";

const scope = process.env.STRYKER_SCOPE || "ids";
const chosen = SCOPES[scope];
if (!chosen) throw new Error(`STRYKER_SCOPE=${scope}: one of ${Object.keys(SCOPES).join(", ")}`);

export default {
  testRunner: "vitest",
  vitest: { configFile: "vitest.stryker.config.ts", related: false },
  mutate: chosen.mutate,
  coverageAnalysis: "perTest",
  concurrency: 1,
  timeoutMS: 20_000,
  reporters: ["clear-text", "progress", "json"],
  jsonReporter: { fileName: `reports/mutation/${scope}.json` },
  thresholds: { high: 85, low: 70, break: null },
  ignorePatterns: ["bench/data", "dist-check", "reports", "*.tgz", "comprobantes"],
  tempDirName: ".stryker-tmp",
  cleanTempDir: "always",
};
