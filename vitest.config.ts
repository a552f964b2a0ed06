import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Messages compare equal to the words they say (see the file).
    setupFiles: ["test/setup-words.ts"],
    // End-to-end tests spawn the built CLI; give slow CI machines room.
    testTimeout: 60_000,
    // Test files mostly wait on the CLIs and sandboxes they spawn (one file at a time, vitest's
    // default on 2 cores, kept 0.4 of one core busy): two files per core keep both busy.
    maxWorkers: 2 * availableParallelism(),
    hookTimeout: 60_000,
    // Tests date their vouchers 20/11/2026 (test/helpers.ts TODAY): the CLIs they start, and the
    // sandboxes those start, judge date windows on that day, whatever day the tests run.
    env: { FACTURAR_TODAY: "20/11/2026" },
  },
});
