/** Numbers as people read them, in each language (#25 item 7): amounts, rates and counts. */
import { afterEach, describe, expect, it } from "vitest";
import { tn, useLang } from "../../src/i18n/index.js";
import { readableNumber, readableRate } from "../../src/i18n/numbers.js";
import { amount } from "../../src/voucher/amount.js";

afterEach(() => useLang("en"));

describe("numbers for people", () => {
  it("amounts are grouped in thousands with the language's separators; anything else is left as it is", () => {
    expect(readableNumber("2209849.64", "es")).toBe("2.209.849,64");
    expect(readableNumber("2209849.64", "en")).toBe("2,209,849.64");
    expect(readableNumber("-1000", "es")).toBe("-1.000");
    expect(readableNumber(999, "es")).toBe("999");
    expect(readableNumber("1e5", "es")).toBe("1e5");
    expect(readableNumber("abc", "en")).toBe("abc");
  });

  it("rates keep their decimals, never grouped: es 10,5, en 10.5", () => {
    expect(readableRate("10.5", "es")).toBe("10,5");
    expect(readableRate("10.5", "en")).toBe("10.5");
    expect(readableRate("21", "es")).toBe("21");
    expect(readableRate("2500", "es")).toBe("2500");
    expect(readableRate("exento", "es")).toBe("exento");
  });

  it("follows the language of the messages when none is named", async () => {
    await useLang("es");
    expect(amount("5000000")).toBe("5.000.000,00");
    expect(readableRate("2.5")).toBe("2,5");
    await useLang("en");
    expect(amount("5000000")).toBe("5,000,000.00");
  });

  it("a count told in a sentence is grouped as the reader writes it: 1.500 comprobantes", async () => {
    await useLang("es");
    expect(tn(1500, "{n} voucher", "{n} vouchers")).toBe("1.500 comprobantes");
    await useLang("en");
    expect(tn(1500, "{n} voucher", "{n} vouchers")).toBe("1,500 vouchers");
    expect(tn(1, "{n} voucher", "{n} vouchers")).toBe("1 voucher");
  });
});
