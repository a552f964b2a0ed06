import { defineConfig } from "vitest/config";
// @ts-expect-error: a plain .mjs module without types
import { SCOPES } from "./stryker.scopes.mjs";
import base from "./vitest.config.js";

/** The tests of one mutation scope (STRYKER_SCOPE, see stryker.config.mjs), with the suite's settings. */
const scope = (SCOPES as Record<string, { tests: string[] }>)[process.env.STRYKER_SCOPE || "ids"];

export default defineConfig({
  // One test file at a time, as before the suite ran two per core: Stryker runs its own workers.
  test: { ...base.test, include: scope?.tests ?? [], maxWorkers: 1 },
});
