/** The code tables' look-ups: type names however written, a suggestion for a typo, short names. */
import { describe, expect, it } from "vitest";
import {
  canonicalVoucherType,
  closestVoucherType,
  isNote,
  shortTypeName,
  VOUCHER_TYPES,
  voucherNumber,
  voucherTypeInfo,
} from "../../src/voucher/codes.js";

const FCE_A = "FACTURA DE CREDITO ELECTRONICA MiPyME (FCE) A";

describe("voucher type names", () => {
  it("are the service's whatever the case, accents and spacing", () => {
    expect(canonicalVoucherType("nota de crédito  a")).toBe("NOTA DE CREDITO A");
    expect(canonicalVoucherType("  Factura\tB ")).toBe("FACTURA B");
    expect(canonicalVoucherType("factura de credito electronica mipyme (fce) a")).toBe(FCE_A);
    expect(canonicalVoucherType("FACTURA")).toBeUndefined();
  });

  it("suggest the nearest name a couple of letters off, the first of equals", () => {
    expect(closestVoucherType("factra b")).toBe("FACTURA B");
    expect(closestVoucherType("FACTRUA C")).toBe("FACTURA C");
    // Two letters off every FACTURA: the table's first.
    expect(closestVoucherType("FACTURA")).toBe("FACTURA A");
    expect(closestVoucherType("FACTURA XYZ")).toBeUndefined();
    expect(closestVoucherType("recibo")).toBe("RECIBO C");
    expect(closestVoucherType("XYZ")).toBeUndefined();
    expect(closestVoucherType("")).toBeUndefined();
  });

  it("allow more letters off in a long name, a fifth of it", () => {
    // Six letters short of the 46 of the FCE A invoice's name.
    expect(closestVoucherType("FACTURA DE CREDITO ELECTRONICA MIPYME A")).toBe(FCE_A);
    expect(closestVoucherType("FACTURA DE CREDITO MIPYME A")).toBeUndefined();
  });

  it("shorten the FCE names to what tells them apart", () => {
    expect(shortTypeName(FCE_A)).toBe("FCE A");
    expect(shortTypeName("NOTA DE CREDITO ELECTRONICA MiPyME (FCE) B")).toBe("NOTA DE CREDITO FCE B");
    expect(shortTypeName("FACTURA A")).toBe("FACTURA A");
  });
});

describe("voucher kinds and numbers", () => {
  it("credit and debit notes are notes; invoices, receipts and quotes are not", () => {
    const notes = Object.entries(VOUCHER_TYPES)
      .filter(([, info]) => isNote(info))
      .map(([name]) => name);
    expect(notes.every((n) => n.startsWith("NOTA DE"))).toBe(true);
    expect(notes).toHaveLength(Object.keys(VOUCHER_TYPES).filter((n) => n.startsWith("NOTA DE")).length);
    expect(isNote(voucherTypeInfo("RECIBO C") as never)).toBe(false);
  });

  it("writes a point of sale and number as the service prints them", () => {
    expect(voucherNumber(679, 74)).toBe("00679-00000074");
    expect(voucherNumber("1", "12345678")).toBe("00001-12345678");
  });
});
