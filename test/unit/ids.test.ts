import { describe, expect, it } from "vitest";
import { cbuProblem, cbuWithCheckDigits, cuitCheckDigit, cuitProblem, isValidCuit } from "../../src/voucher/ids.js";

describe("CUIT", () => {
  it("accepts the authority's published test values", () => {
    for (const cuit of ["23000000000", "20111111112", "30000000007", "20409378472", "30712293841"]) {
      expect(isValidCuit(cuit), cuit).toBe(true);
    }
  });

  it("computes the mod-11 digit as in the worked example", () => {
    expect(cuitCheckDigit("2011111111")).toBe(2);
  });

  it("refuses a wrong check digit, a bad length and an unknown prefix", () => {
    expect(cuitProblem("20111111113")).toBe("check-digit");
    expect(cuitProblem("2011111111")).toBe("length");
    expect(cuitProblem("201111111123")).toBe("length");
    expect(cuitProblem("2011111111a")).toBe("length");
    expect(cuitProblem("99111111112")).toBe("prefix");
  });

  it("accepts separators people type", () => {
    expect(isValidCuit("20-11111111-2")).toBe(true);
  });

  it("refuses numbers whose remainder would need check digit 10 (strict, no 10 → 9)", () => {
    // 2728765432x: the weighted sum leaves remainder 1, so no digit is valid.
    expect(cuitCheckDigit("2728765432")).toBe(10);
    expect(cuitProblem("27287654329")).toBe("check-digit");
  });
});

describe("CBU", () => {
  const valid = cbuWithCheckDigits("0170099", "2000004567890");

  it("builds and accepts a CBU with both check digits", () => {
    expect(valid).toHaveLength(22);
    expect(cbuProblem(valid)).toBeUndefined();
    expect(cbuProblem("2850590940090418135201")).toBeUndefined(); // a CBU published as an example
  });

  it("names the block whose digit is wrong", () => {
    const badFirst = `${valid.slice(0, 7)}${(Number(valid[7]) + 1) % 10}${valid.slice(8)}`;
    const badSecond = `${valid.slice(0, 21)}${(Number(valid[21]) + 1) % 10}`;
    expect(cbuProblem(badFirst)).toMatch(/first block/);
    expect(cbuProblem(badSecond)).toMatch(/second block/);
  });

  it("wants exactly 22 digits", () => {
    expect(cbuProblem(valid.slice(1))).toMatch(/22 digits/);
    expect(cbuProblem(`${valid.slice(0, 21)}x`)).toMatch(/22 digits/);
  });
});
