import { describe, expect, it } from "vitest";
import {
  CUIL_PREFIXES,
  CUIT_PREFIXES,
  cbuProblem,
  cbuWithCheckDigits,
  cuitCheckDigit,
  cuitProblem,
  describeCuitProblem,
  isValidCuit,
} from "../../src/voucher/ids.js";

/** A valid CUIT with `prefix`: the first body whose check digit exists. */
function cuitWith(prefix: string): string {
  for (let n = 11111111; ; n++) {
    const ten = `${prefix}${n}`;
    const digit = cuitCheckDigit(ten);
    if (digit < 10) return `${ten}${digit}`;
  }
}

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

describe("CUIT prefixes and messages", () => {
  it("accepts every prefix the authority issues, CUIL ones only for CUILs", () => {
    expect(CUIT_PREFIXES).toEqual(["20", "23", "24", "27", "30", "33", "34", "50", "51", "55"]);
    for (const prefix of CUIT_PREFIXES) expect(isValidCuit(cuitWith(prefix)), prefix).toBe(true);
    for (const prefix of CUIL_PREFIXES) expect(cuitProblem(cuitWith(prefix), CUIL_PREFIXES), prefix).toBeUndefined();
    for (const prefix of ["30", "33", "34", "50", "51", "55"])
      expect(cuitProblem(cuitWith(prefix), CUIL_PREFIXES), prefix).toBe("prefix");
    expect(isValidCuit("20111111113")).toBe(false);
  });

  it("says what is wrong, with the number", () => {
    expect(describeCuitProblem("length", "123")).toBe('a CUIT has 11 digits; got "123"');
    expect(describeCuitProblem("prefix", "99111111112")).toBe(
      "CUIT 99111111112 starts with 99, which the authority does not issue",
    );
    expect(describeCuitProblem("check-digit", "20111111113")).toBe(
      "CUIT 20111111113 is not valid: its check digit does not match the rest; check the whole number against the customer's papers",
    );
    expect(describeCuitProblem("check-digit", "27287654329")).toBe(
      "CUIT 27287654329 cannot be valid: no check digit fits its first ten digits",
    );
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
    // Nothing before or after them either.
    expect(cbuProblem(`${valid}0`)).toBe(`a CBU has 22 digits; got "${valid}0"`);
    expect(cbuProblem(`x${valid}`)).toBe(`a CBU has 22 digits; got "x${valid}"`);
  });

  it("names the CBU in its messages", () => {
    const badFirst = `${valid.slice(0, 7)}${(Number(valid[7]) + 1) % 10}${valid.slice(8)}`;
    const badSecond = `${valid.slice(0, 21)}${(Number(valid[21]) + 1) % 10}`;
    expect(cbuProblem(badFirst)).toBe(`CBU ${badFirst} has a wrong check digit in its first block (bank and branch)`);
    expect(cbuProblem(badSecond)).toBe(`CBU ${badSecond} has a wrong check digit in its second block (account)`);
  });
});
