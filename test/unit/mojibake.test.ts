/**
 * Double-encoded UTF-8 (reference §6.3, §12 "Encoding"): the registry may answer a name's UTF-8
 * bytes read as Windows-1252 or Latin-1 and encoded again (`MUÃ‘OZ` for `MUÑOZ`, the official
 * example's `INFORM\u00c3\u0081TICA`). Repaired only when the whole text decodes cleanly so.
 */
import { describe, expect, it } from "vitest";
import { repairMojibake } from "../../src/api/mojibake.js";

describe("repairMojibake", () => {
  it("leaves correct texts alone: ASCII, accents, eñes, symbols", () => {
    for (const text of ["GOMEZ PABLO", "MUÑOZ MARÍA JOSÉ", "Peña y Cía.", "€ 100", "ÁÉÍÓÚ ÜÑ ¿¡", "", "a→b ✓"])
      expect(repairMojibake(text), text).toBe(text);
  });

  it("repairs UTF-8 read as Windows-1252 or as Latin-1 and encoded again", () => {
    expect(repairMojibake("MUÃ‘OZ")).toBe("MUÑOZ");
    expect(repairMojibake("INFORM\u00c3\u0081TICA")).toBe("INFORMÁTICA");
    expect(repairMojibake("GARC\u00c3\u008dA")).toBe("GARCÍA");
    expect(repairMojibake("JosÃ© MarÃ\u00ada PeÃ±a")).toBe("José María Peña");
    expect(repairMojibake("Ã‘ANDÃš Â¿SÃ\u00ad?")).toBe("ÑANDÚ ¿Sí?");
    expect(repairMojibake("CafÃ© â€” 10 â‚¬")).toBe("Café — 10 €");
  });

  it("leaves mixed or invalid texts as they are: never a half repair", () => {
    // One part right, one part double-encoded: which bytes meant what is not sure.
    expect(repairMojibake("MUÑOZ MUÃ‘OZ")).toBe("MUÑOZ MUÃ‘OZ");
    // Bytes that are no UTF-8 once undone.
    for (const text of ["Ã", "ÃX", "Ã‘Ã", "CAFÃ", "Â", "\u0081"]) expect(repairMojibake(text), text).toBe(text);
    // A character Windows-1252 has no byte for: not a double encoding.
    expect(repairMojibake("Ã‘ ✓")).toBe("Ã‘ ✓");
    // Undone once only.
    expect(repairMojibake("MUÃƒâ€˜OZ")).toBe("MUÃ‘OZ");
  });
});
