/** CSV cells for stdout listings and books: numbers stay numbers, texts that would run as formulas do not. */
import { describe, expect, it } from "vitest";
import { csvCell, csvRow } from "../../src/output/csv.js";

describe("csv cells", () => {
  it("keeps a negative amount a number, in either decimal mark", () => {
    expect(csvCell("-133463.00", ",")).toBe("-133463.00");
    expect(csvCell("-133463,00", ";")).toBe("-133463,00");
  });

  it("defuses a text a spreadsheet would run as a formula", () => {
    for (const text of ["=SUM(A1:A9)", "+54 11 5555", "-rm", "@cmd", "\t=1+1", "\r=1+1"])
      expect(csvCell(text, ";")).toMatch(new RegExp(`^"?'${text.replace(/[+=()|]/g, "\\$&")}`));
  });

  it("quotes a delimiter, a quote or a line break, and leaves nulls empty", () => {
    expect(csvRow(["Pérez, Juana", 'El "Sol"', "a\nb", null, undefined, "ok"], ",")).toBe(
      '"Pérez, Juana","El ""Sol""","a\nb",,,ok',
    );
    expect(csvCell("7,50", ";")).toBe("7,50");
    expect(csvCell("7;50", ";")).toBe('"7;50"');
  });
});
