import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Dec } from "../../src/voucher/decimal.js";

const d = (s: string) => Dec.parse(s);

describe("Dec", () => {
  it("parses plain decimals and refuses anything else", () => {
    expect(d("12.50").toString()).toBe("12.5");
    expect(d("-0.010").toString()).toBe("-0.01");
    expect(d("+7").toString()).toBe("7");
    expect(d("007.250").units).toBe(7250n);
    expect(d("-0").isZero()).toBe(true);
    // Past 15 digits, read exactly all the same.
    expect(d("123456789012345678.25").toString()).toBe("123456789012345678.25");
    expect(d("-9007199254740993").toString()).toBe("-9007199254740993");
    for (const bad of ["1e5", "1,5", "", " 1", "0x10", "NaN", "Infinity", "1.", ".5", "-", "+", "1.2.3", "--1", "1 "]) {
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

describe("Dec, the corners Stryker found untested", () => {
  it("signs, absolute values and equality", () => {
    expect([d("-0.5").sign(), d("0.00").sign(), d("3").sign()]).toEqual([-1, 0, 1]);
    expect([d("-1.25").abs().toString(), d("1.25").abs().toString(), d("0").abs().toString()]).toEqual([
      "1.25",
      "1.25",
      "0",
    ]);
    expect(d("1.50").eq(d("1.5"))).toBe(true);
    expect(d("1.5").eq(d("1.51"))).toBe(false);
  });

  it("rounds to as many decimals as it has, or more, without change, and negative ties half-even", () => {
    expect(d("1.5").roundHalfEven(2).toFixed(3)).toBe("1.500");
    expect(d("1.55").roundHalfEven(2).toFixed(2)).toBe("1.55");
    expect(d("-2.675").roundHalfEven(2).toFixed(2)).toBe("-2.68");
    expect(d("-0.125").roundHalfEven(2).toFixed(2)).toBe("-0.12");
    expect(d("0.005").roundHalfEven(2).toFixed(2)).toBe("0.00");
  });

  it("writes whole numbers with trailing zeros whole, and counts integer digits", () => {
    expect(d("100").toString()).toBe("100");
    expect(d("7.000").toString()).toBe("7");
    expect(d("120.50").toString()).toBe("120.5");
    expect([d("0.99").integerDigits(), d("-123.4").integerDigits(), d("1000").integerDigits()]).toEqual([1, 3, 4]);
  });

  it("scales beyond 40 decimals, reads numbers, refuses non-finite ones and non-decimals", () => {
    const tiny = d(`0.${"0".repeat(44)}1`);
    expect(tiny.add(d("1")).toString()).toBe(`1.${"0".repeat(44)}1`);
    expect(d("1").add(d("0.000001")).toString()).toBe("1.000001");
    expect(Dec.fromNumber(2.5)?.toString()).toBe("2.5");
    expect([Dec.fromNumber(Number.NaN), Dec.fromNumber(Number.POSITIVE_INFINITY)]).toEqual([undefined, undefined]);
    expect(() => Dec.parse("1e5")).toThrow('not a plain decimal number: "1e5"');
    expect(d("12.5").toNumber()).toBe(12.5);
  });
});

/** What a plain decimal is, read the slow sure way: the reference `Dec.tryParse`'s fast path must agree with. */
function plainDecimal(text: string): { units: bigint; scale: number } | undefined {
  const m = /^([+-])?(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) return undefined;
  const units = BigInt(`${m[2]}${m[3] ?? ""}`);
  return { units: m[1] === "-" ? -units : units, scale: (m[3] ?? "").length };
}

describe("Dec.tryParse, read a character at a time up to 15 digits", () => {
  it("reads exactly what a plain decimal says, and refuses the rest, at every length", () => {
    // Texts of digits, signs, points and a stray letter or blank, from empty to past the 15-digit fast path.
    const texts = fc.string({
      unit: fc.constantFrom(..."0123456789", "0", "9", ".", "-", "+", "x", " "),
      maxLength: 22,
    });
    fc.assert(
      fc.property(fc.oneof(texts, fc.string()), (text) => {
        const got = Dec.tryParse(text);
        const want = plainDecimal(text);
        expect(got && { units: got.units, scale: got.scale }).toEqual(want);
        if (want) expect(Dec.parse(text).eq(got as Dec)).toBe(true);
        else expect(() => Dec.parse(text)).toThrow(RangeError);
      }),
      { numRuns: 5000 },
    );
  });

  it("refuses a doubled point, and stray characters around a number too long for the fast path", () => {
    for (const bad of [
      "1..2",
      "-1..25",
      "x1234567890123456",
      "1234567890123456x",
      " 12345678901234567",
      "12345678901234567 ",
    ]) {
      expect(Dec.tryParse(bad), bad).toBeUndefined();
    }
    // 15 digits (the fast path) and 16 (the long one) read the same way, signed or not.
    expect(Dec.parse("-999999999999999").toString()).toBe("-999999999999999");
    expect(Dec.parse("+9999999999999.99").toFixed(2)).toBe("9999999999999.99");
    expect(Dec.parse("-99999999999999.99").toFixed(2)).toBe("-99999999999999.99");
  });
});
