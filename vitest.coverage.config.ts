// The suite under coverage (scripts/coverage.mjs): the in-process tests through vitest's V8
// provider, and every CLI and sandbox the tests spawn through NODE_V8_COVERAGE, set here (not
// for vitest itself) so only those child processes write raw coverage.
import { defineConfig, mergeConfig } from "vitest/config";
import base from "./vitest.config.js";

export default mergeConfig(
  base,
  defineConfig({
    test: {
      setupFiles: ["test/child-coverage.ts"],
      coverage: {
        provider: "v8",
        include: ["src/**/*.ts"],
        reporter: ["json"],
        reportsDirectory: "coverage/in-process",
        // A failing test does not make the other tests' coverage worthless.
        reportOnFailure: true,
      },
    },
  }),
);
