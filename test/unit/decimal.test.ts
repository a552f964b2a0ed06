import { describe, expect, it } from "vitest";
import { Dec } from "../../src/voucher/decimal.js";

const d = (s: string) => Dec.parse(s);

describe("Dec", () => {
  it("parses plain decimals and refuses anything else", () => {
    expect(d("12.50").toString()).toBe("12.5");
    expect(d("-0.010").toString()).toBe("-0.01");
    expect(d("+7").toString()).toBe("7");
    for (const bad of ["1e5", "1,5", "", " 1", "0x10", "NaN", "Infinity", "1.", ".5"]) {
      expect(Dec.tryParse(bad), bad).toBeUndefined();
    }
  });

  it("adds exactly where floats drift", () => {
    expect(d("0.1").add(d("0.2")).toString()).toBe("0.3");
    expect(Dec.sum(Array.from({ length: 10 }, () => d("0.1"))).toString()).toBe("1");
    expect(d("1000000000000.01").add(d("0.02")).toFixed(2)).toBe("1000000000000.03");
  });

  it("multiplies and shifts exactly", () => {
    expect(d("1.5").mul(d("2.25")).toString()).toBe("3.375");
    expect(d("21").shift(2).toString()).toBe("0.21");
  });

  it("rounds half to even at two decimals", () => {
    expect(d("2.675").roundHalfEven(2).toFixed(2)).toBe("2.68");
    expect(d("2.665").roundHalfEven(2).toFixed(2)).toBe("2.66");
    expect(d("0.125").roundHalfEven(2).toFixed(2)).toBe("0.12");
    expect(d("0.135").roundHalfEven(2).toFixed(2)).toBe("0.14");
    expect(d("0.1250001").roundHalfEven(2).toFixed(2)).toBe("0.13");
    expect(d("-2.675").roundHalfEven(2).toFixed(2)).toBe("-2.68");
    expect(d("-0.125").roundHalfEven(2).toFixed(2)).toBe("-0.12");
    expect(d("0.005").roundHalfEven(2).toFixed(2)).toBe("0.00");
    expect(d("0.015").roundHalfEven(2).toFixed(2)).toBe("0.02");
    expect(d("3").roundHalfEven(2).toFixed(2)).toBe("3.00");
  });

  it("compares across scales", () => {
    expect(d("1.50").eq(d("1.5"))).toBe(true);
    expect(d("1.499").cmp(d("1.5"))).toBe(-1);
    expect(d("-1").cmp(d("-2"))).toBe(1);
  });

  it("reads JSON numbers through their shortest text", () => {
    expect(Dec.fromNumber(0.1)?.toString()).toBe("0.1");
    expect(Dec.fromNumber(1e21)).toBeUndefined();
    expect(Dec.fromNumber(Number.NaN)).toBeUndefined();
  });

  it("counts integer digits and significant decimals", () => {
    expect(d("1234567890123.45").integerDigits()).toBe(13);
    expect(d("0.5").integerDigits()).toBe(1);
    expect(d("1.2300").significantScale()).toBe(2);
  });
});
