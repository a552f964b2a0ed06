/** How a yes/no answer typed at a prompt is read, in either language. */
import { describe, expect, it } from "vitest";
import { yesNo } from "../../src/commands/prompts.js";

describe("yes or no", () => {
  it("reads y, yes, s, si, sí and n, no in any case and with blanks; empty is the default", () => {
    for (const yes of ["y", "YES", " s ", "Si", "sí"]) expect(yesNo(yes, false)).toBe(true);
    for (const no of ["n", " NO "]) expect(yesNo(no, true)).toBe(false);
    expect(yesNo("", true)).toBe(true);
    expect(yesNo("  ", false)).toBe(false);
  });
  it("anything else is no answer, so the prompt asks again", () => {
    for (const other of ["x", "yes please", "nope", "0", "1"]) expect(yesNo(other, true)).toBeUndefined();
  });
});
