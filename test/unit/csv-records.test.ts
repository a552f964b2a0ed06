/**
 * CSV records as readCsvVouchers reads them through csv-parse: the line each row starts on, cells
 * across chunk boundaries, and the row and cell named for broken CSV.
 */
import { describe, expect, it } from "vitest";
import { FacturarError } from "../../src/errors.js";
import { readCsvVouchers } from "../../src/input/csv.js";
import type { SourceVoucher } from "../../src/input/source.js";

const HEADER = "comprobante.external_reference,comprobante.detalle.producto.descripcion";

async function* chunks(text: string, size: number) {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

async function read(text: string, size = Number.POSITIVE_INFINITY): Promise<SourceVoucher[]> {
  const out: SourceVoucher[] = [];
  for await (const v of readCsvVouchers("b.csv", chunks(text, size))) out.push(v);
  return out;
}

/** Each voucher's rows and its items' descriptions. */
async function rows(text: string, size?: number) {
  return (await read(text, size)).map((v) => ({
    rows: v.rows,
    cells: (v.raw as { comprobante: { detalle?: { producto: { descripcion: string } }[] } }).comprobante.detalle?.map(
      (d) => d.producto.descripcion,
    ),
  }));
}

async function failure(text: string, size?: number): Promise<string> {
  try {
    await read(text, size);
  } catch (error) {
    if (error instanceof FacturarError) return error.message;
    throw error;
  }
  throw new Error("expected the read to fail");
}

const SIZES = [Number.POSITIVE_INFINITY, 1, 2, 3, 7, 64];

describe("CSV records", () => {
  it("numbers rows by the physical line they start on: empty lines, cells over several lines, LF and CRLF", async () => {
    const text = [
      HEADER,
      "",
      'R1,"line 1\nline 2"',
      "R1,plain",
      'R2,"crlf 1\r\ncrlf 2"\r',
      "\r",
      'R3,"he said ""hi"", then ""bye"""',
      "R4,lone\rCR is text",
      "R5,no final line break",
    ].join("\n");
    const expected = [
      { rows: [3, 5], cells: ["line 1\nline 2", "plain"] },
      { rows: [6], cells: ["crlf 1\r\ncrlf 2"] },
      { rows: [9], cells: ['he said "hi", then "bye"'] },
      { rows: [10], cells: ["lone\rCR is text"] },
      { rows: [11], cells: ["no final line break"] },
    ];
    for (const size of SIZES) expect(await rows(text, size), `chunks of ${size}`).toEqual(expected);
  });

  it("reads a BOM, quoted delimiters, ; files and characters split across chunks", async () => {
    const text = `\uFEFF${HEADER.replace(",", ";")}\r\nR1;"Yerba; 1 kg"\r\nR2;Mate 🧉 ñandú\r\n`;
    for (const size of SIZES)
      expect(await rows(text, size), `chunks of ${size}`).toEqual([
        { rows: [2], cells: ["Yerba; 1 kg"] },
        { rows: [3], cells: ["Mate 🧉 ñandú"] },
      ]);
  });

  it("names the row a broken record starts on, and the cell", async () => {
    for (const size of SIZES) {
      expect(await failure(`${HEADER}\nR1,a\nR2,"open\nstill open\n`, size)).toBe(
        "b.csv:row 3: not valid CSV: a quoted cell is never closed",
      );
      expect(await failure(`${HEADER}\nR1,"a\nb"\nR2,ab"c\n`, size)).toBe(
        "b.csv:row 4: not valid CSV: a quote inside an unquoted cell (cell 2); quote the whole cell",
      );
      expect(await failure(`${HEADER}\n\nR1,"x"y\n`, size)).toBe(
        "b.csv:row 3: not valid CSV: text after a closing quote (cell 2); quote the whole cell",
      );
      expect(await failure(`${HEADER}\nR1,"a\nb"\nR2,b,c\n`, size)).toBe(
        "b.csv:row 4: not valid CSV: this row has 3 cells, the header 2",
      );
    }
  });

  it("reads a huge quoted cell in 64 KB chunks in time proportional to its size", async () => {
    // 24 MB in one cell, lines and escaped quotes inside: a parser that went back over the open
    // record for every chunk would scan it hundreds of times (a minute).
    const piece = 'word "" and\nmore text, ';
    const cell = piece.repeat(Math.ceil((24 * 1024 * 1024) / piece.length));
    const text = `${HEADER}\nR1,"${cell}"\nR2,after\n`;
    const vouchers = await rows(text, 64 * 1024);
    expect(vouchers.map((v) => v.rows)).toEqual([[2], [2 + cell.split("\n").length]]);
    // Cells are trimmed: the piece ends in a space.
    expect(vouchers[0]?.cells?.[0]).toBe(cell.replaceAll('""', '"').trim());
    expect(vouchers[1]?.cells).toEqual(["after"]);
  }, 20_000);
});
