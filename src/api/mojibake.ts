/**
 * Double-encoded UTF-8 (reference §6.3, §12 "Encoding"): the registry (`clientes/afip-info`) may
 * answer a text whose UTF-8 bytes were read as Windows-1252 or Latin-1 and encoded again, so that
 * `MUÑOZ` arrives `MUÃ‘OZ` and the official example's `INFORMÁTICA` arrives `INFORM\u00c3\u0081TICA`.
 * Undone only when the whole text is made of characters those encodings have a byte for, some of
 * them beyond ASCII, and those bytes are well-formed UTF-8: a correct Spanish text never is (an
 * accented capital or an eñe followed by a plain letter is no UTF-8), and a text that is partly
 * right and partly mangled is left as it came.
 */

/** Windows-1252's characters for the bytes 0x80 to 0x9F (the five it leaves undefined are Latin-1's controls). */
const WINDOWS_1252: Readonly<Record<string, number>> = {
  "\u20ac": 0x80,
  "\u201a": 0x82,
  "\u0192": 0x83,
  "\u201e": 0x84,
  "\u2026": 0x85,
  "\u2020": 0x86,
  "\u2021": 0x87,
  "\u02c6": 0x88,
  "\u2030": 0x89,
  "\u0160": 0x8a,
  "\u2039": 0x8b,
  "\u0152": 0x8c,
  "\u017d": 0x8e,
  "\u2018": 0x91,
  "\u2019": 0x92,
  "\u201c": 0x93,
  "\u201d": 0x94,
  "\u2022": 0x95,
  "\u2013": 0x96,
  "\u2014": 0x97,
  "\u02dc": 0x98,
  "\u2122": 0x99,
  "\u0161": 0x9a,
  "\u203a": 0x9b,
  "\u0153": 0x9c,
  "\u017e": 0x9e,
  "\u0178": 0x9f,
};

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true });

/** Beyond ASCII, and within what a double encoding can produce. */
const SUSPECT = /[\u0080-\u00ff\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192\u02c6\u02dc\u2013-\u203a\u20ac\u2122]/;

/** The text with a double encoding undone, or the text itself when it does not decode cleanly as one. */
export function repairMojibake(text: string): string {
  if (!SUSPECT.test(text)) return text;
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const byte = code <= 0xff ? code : WINDOWS_1252[text[i] as string];
    if (byte === undefined) return text;
    bytes[i] = byte;
  }
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    return text;
  }
}

/** Control characters of the C1 block: in a service's text, the trace of Latin-1 double encoding (or garbage). */
export const C1_CONTROL = /[\u0080-\u009f]/;
