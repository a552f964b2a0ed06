/** The fast CSV tokenizer, checked against csv-parse (the reference implementation) record by record. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { CsvRecordReader, CsvSyntaxError } from "../../src/input/csv-records.js";
import { ROOT } from "../helpers.js";

function tokenize(text: string, delimiter = ",", chunkSize = Number.POSITIVE_INFINITY) {
  const records: { fields: string[]; line: number }[] = [];
  const reader = new CsvRecordReader(delimiter, (fields, line) => records.push({ fields, line }));
  for (let i = 0; i < text.length; i += chunkSize) reader.push(text.slice(i, i + chunkSize));
  reader.end();
  return records;
}

function reference(text: string, delimiter = ","): string[][] {
  return parse(text, { delimiter, bom: true, skip_empty_lines: true, relax_column_count: true });
}

const CASES: [string, string][] = [
  ["plain", "a,b,c\n1,2,3\n"],
  ["no final newline", "a,b\n1,2"],
  ["CRLF", "a,b\r\n1,2\r\n"],
  ["BOM", "\uFEFFa,b\n1,2\n"],
  ["empty lines", "a,b\n\n1,2\n\n3,4\n"],
  ["empty CRLF lines", "a,b\r\n\r\n1,2\r\n"],
  ["empty cells", "a,b,c\n,,\n1,,3\n"],
  ["quoted delimiter", 'a,b\n"x, y",2\n'],
  ["escaped quotes", 'a,b\n"he said ""hi""",2\n'],
  ["multi-line cell", 'a,b\n"line 1\nline 2",2\n3,4\n'],
  ["multi-line CRLF cell", 'a,b\r\n"line 1\r\nline 2",2\r\n3,4\r\n'],
  ["quoted empty", 'a,b\n"",""\n'],
  ["quote at line end", 'a,b\n1,"2"\n'],
  ["unicode", "descripción,precio\nÑandú 1½ kg,10\n"],
  ["lone CR inside a cell", "a,b\nx\ry,2\n"],
];

describe("CsvRecordReader", () => {
  it.each(CASES)("matches csv-parse: %s", (_, text) => {
    const expected = reference(text);
    for (const chunk of [Number.POSITIVE_INFINITY, 1, 2, 3, 7]) {
      expect(
        tokenize(text, ",", chunk).map((r) => r.fields),
        `chunks of ${chunk}`,
      ).toEqual(expected);
    }
  });

  it("matches csv-parse on the sample batches, in both dialects", () => {
    for (const [file, delimiter] of [
      ["samples/batch-nightly.csv", ","],
      ["samples/batch-nightly-es-AR.csv", ";"],
    ] as const) {
      const text = readFileSync(join(ROOT, file), "utf8");
      expect(tokenize(text, delimiter, 4096).map((r) => r.fields)).toEqual(reference(text, delimiter));
    }
  });

  it("numbers records by the physical line they start on", () => {
    const records = tokenize('h1,h2\n\n"a\nb",1\nc,2\n');
    expect(records.map((r) => r.line)).toEqual([1, 3, 5]);
  });

  it("refuses an unclosed quote, a stray quote and text after a closing quote, naming the line", () => {
    const failure = (text: string) => {
      try {
        tokenize(text);
      } catch (error) {
        if (error instanceof CsvSyntaxError) return [error.line, error.message];
      }
      return undefined;
    };
    expect(failure('a,b\n1,2\n"open,3\n')).toEqual([3, "a quoted cell is never closed"]);
    expect(failure('a,b\n1,2\n3,ab"c\n')?.[0]).toBe(3);
    expect(failure('a,b\n1,2\n3,ab"c\n')?.[1]).toMatch(/quote inside an unquoted cell/);
    expect(failure('a,b\n"x"y,2\n')?.[1]).toMatch(/text after a closing quote/);
  });

  it("reads a huge quoted cell in 64 KB chunks in time proportional to its size (it was quadratic)", () => {
    // 24 MB in one cell, lines and escaped quotes inside: a pass per chunk would scan it hundreds of
    // times (a minute); parsing again only when the text has doubled scans it about twice.
    const piece = 'word "" and\nmore text, ';
    const cell = piece.repeat(Math.ceil((24 * 1024 * 1024) / piece.length));
    const text = `a,b\n"${cell}",2\nc,d\n`;
    const records = tokenize(text, ",", 64 * 1024);
    expect(records.map((r) => r.fields.length)).toEqual([2, 2, 2]);
    expect(records[1]?.fields[0]?.length).toBe(cell.length - cell.split('""').length + 1);
    expect(records[1]?.fields[1]).toBe("2");
    expect(records[2]).toEqual({ fields: ["c", "d"], line: 2 + cell.split("\n").length });
  }, 20_000);
});
