import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // End-to-end tests spawn the built CLI; give slow CI machines room.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
