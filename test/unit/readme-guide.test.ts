/** The README is a user's guide: the engineering notes (mutation testing, coverage, timings) live in CONTRIBUTING.md. */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers.js";

function section(text: string, heading: string): string {
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) return "";
  const next = text.indexOf("\n## ", start + heading.length + 2);
  return text.slice(start, next < 0 ? undefined : next);
}

describe("README and CONTRIBUTING.md", () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");

  it("keeps the README's Development part to a few lines pointing to CONTRIBUTING.md", () => {
    const dev = section(readme, "## Development");
    expect(dev).toContain("CONTRIBUTING.md");
    expect(dev.split("\n").length).toBeLessThan(20);
    for (const note of ["### Mutation testing", "### Coverage", "### The suite's wall time"])
      expect(readme).not.toContain(note);
  });

  it("moves the engineering notes to CONTRIBUTING.md", () => {
    expect(existsSync(join(ROOT, "CONTRIBUTING.md"))).toBe(true);
    const contributing = readFileSync(join(ROOT, "CONTRIBUTING.md"), "utf8");
    for (const note of ["### Mutation testing", "### Coverage", "### The suite's wall time", "npm run mutate"])
      expect(contributing).toContain(note);
  });
});
