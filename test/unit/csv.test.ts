import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FacturarError } from "../../src/errors.js";
import { checkSource } from "../../src/input/check.js";
import { columnCatalogue } from "../../src/input/columns.js";
import { readCsvVouchers } from "../../src/input/csv.js";
import { inputDelimiter, readVouchers } from "../../src/input/read.js";
import type { SourceVoucher } from "../../src/input/source.js";
import { ruleOptions } from "../../src/voucher/validate.js";

const HEADER = [
  "comprobante.external_reference",
  "comprobante.tipo",
  "comprobante.fecha",
  "comprobante.vencimiento",
  "comprobante.rubro",
  "comprobante.rubro_grupo_contable",
  "comprobante.total",
  "comprobante.tags",
  "cliente.documento_tipo",
  "cliente.documento_nro",
  "cliente.razon_social",
  "cliente.condicion_iva",
  "comprobante.tributos.0.tipo",
  "comprobante.detalle.cantidad",
  "comprobante.detalle.producto.descripcion",
  "comprobante.detalle.producto.precio_unitario_sin_iva",
  "comprobante.detalle.producto.alicuota",
];

function row(cells: Partial<Record<(typeof HEADER)[number], string>>, delimiter = ","): string {
  return HEADER.map((h) => cells[h] ?? "").join(delimiter);
}

const V = {
  "comprobante.tipo": "FACTURA B",
  "comprobante.fecha": "20/11/2026",
  "comprobante.vencimiento": "20/12/2026",
  "comprobante.rubro": "Ventas",
  "comprobante.rubro_grupo_contable": "Ventas",
  "cliente.documento_tipo": "DNI",
  "cliente.documento_nro": "30123456",
  "cliente.razon_social": "Juana",
  "cliente.condicion_iva": "CF",
};
const I = (d: string, q: string, p: string, a = "21") => ({
  "comprobante.detalle.cantidad": q,
  "comprobante.detalle.producto.descripcion": d,
  "comprobante.detalle.producto.precio_unitario_sin_iva": p,
  "comprobante.detalle.producto.alicuota": a,
});

async function* chunks(text: string, size = 7) {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

async function readAll(text: string, opts = {}): Promise<SourceVoucher[]> {
  const out: SourceVoucher[] = [];
  for await (const v of readCsvVouchers("b.csv", chunks(text), opts)) out.push(v);
  return out;
}

async function readError(text: string): Promise<FacturarError> {
  try {
    await readAll(text);
  } catch (error) {
    if (error instanceof FacturarError) return error;
    throw error;
  }
  throw new Error("expected the read to fail");
}

const rules = ruleOptions({ now: new Date("2026-11-20T15:00:00Z") });

describe("CSV batches", () => {
  it("groups rows by external_reference, one item per row", async () => {
    const text = [
      HEADER.join(","),
      row({ "comprobante.external_reference": "R1", ...V, ...I("Yerba mate", "2", "100") }),
      row({ "comprobante.external_reference": "R1", ...I("Azúcar blanca", "1", "50") }),
      row({ "comprobante.external_reference": "R2", ...V, ...I("Harina 000", "1", "10", "10.5") }),
      row({ ...V, ...I("Sin referencia", "1", "1") }),
      row({ ...V, ...I("Otra sin referencia", "1", "1") }),
    ].join("\n");
    const vouchers = await readAll(text);
    expect(vouchers.map((v) => v.label)).toEqual(["b.csv:rows 2-3", "b.csv:row 4", "b.csv:row 5", "b.csv:row 6"]);
    const first = checkSource(vouchers[0] as SourceVoucher, rules);
    expect(first.ok).toBe(true);
    expect(first.result.envelope?.comprobante.detalle.map((d) => d.producto.descripcion)).toEqual([
      "Yerba mate",
      "Azúcar blanca",
    ]);
    expect(first.result.totals?.total.toFixed(2)).toBe("302.50");
  });

  it("accepts repeated voucher cells when equal (numbers compared as numbers), refuses conflicts at the later row", async () => {
    const text = [
      HEADER.join(","),
      row({ "comprobante.external_reference": "R1", ...V, "comprobante.total": "121", ...I("Yerba mate", "1", "100") }),
      row({
        "comprobante.external_reference": "R1",
        ...V,
        "comprobante.total": "121.00",
        ...I("Yerba mate", "0", "0"),
      }),
      row({ "comprobante.external_reference": "R1", "comprobante.fecha": "21/11/2026", ...I("Yerba mate", "1", "0") }),
    ].join("\n");
    const [voucher] = await readAll(text);
    const result = checkSource(voucher as SourceVoucher, rules);
    const conflict = result.errors.find((e) => e.code === "csv.conflict");
    expect(conflict?.place).toBe("b.csv:row 4, column comprobante.fecha");
    expect(conflict?.message).toMatch(/"21\/11\/2026" differs from "20\/11\/2026" given on row 2/);
  });

  it("places item errors at their row and column, voucher errors at the cell that set them", async () => {
    const text = [
      HEADER.join(","),
      row({ "comprobante.external_reference": "R1", ...V, "comprobante.total": "999", ...I("Yerba mate", "1", "100") }),
      row({ "comprobante.external_reference": "R1", ...I("Azúcar", "1", "50", "19") }),
    ].join("\n");
    const [voucher] = await readAll(text);
    const result = checkSource(voucher as SourceVoucher, rules);
    expect(result.errors.map((e) => e.place)).toEqual(["b.csv:row 3, column comprobante.detalle.producto.alicuota"]);
    const ok = text.replace("1,Azúcar,50,19", "1,Azúcar blanca,50,21");
    const [again] = await readAll(ok);
    const mismatch = checkSource(again as SourceVoucher, rules);
    expect(mismatch.errors.map((e) => [e.code, e.place])).toEqual([
      ["total.mismatch", "b.csv:row 2, column comprobante.total"],
    ]);
  });

  it("places an error about a whole block at the first cell that set part of it", async () => {
    // fex on a FACTURA B: the finding names comprobante.fex, which no column is; one of its sub-columns is.
    const header = `${HEADER.join(",")},comprobante.fex.tipo_exportacion`;
    const text = [
      header,
      `${row({ "comprobante.external_reference": "R1", ...V, "comprobante.total": "121", ...I("Yerba mate", "1", "100") })},2`,
    ].join("\n");
    const [voucher] = await readAll(text);
    const result = checkSource(voucher as SourceVoucher, rules);
    expect(result.errors.map((e) => [e.code, e.place])).toEqual([
      ["fex.not-export", "b.csv:row 2, column comprobante.fex.tipo_exportacion"],
    ]);
    // A path no cell lies under keeps the rows and names the path.
    expect((voucher as SourceVoucher).place(["comprobante", "asociado"])).toBe(
      "b.csv:row 2, column comprobante.asociado",
    );
  });

  it("reads index segments, | tags and a missing required column", async () => {
    const text = [
      HEADER.join(","),
      row({
        "comprobante.external_reference": "R1",
        ...V,
        "comprobante.tags": "lote| noviembre |",
        ...I("Yerba mate", "1", "100"),
      }),
    ].join("\n");
    const [voucher] = await readAll(text.replace(",Ventas,Ventas,", ",,Ventas,"));
    expect((voucher as SourceVoucher).raw).toMatchObject({ comprobante: { tags: ["lote", "noviembre"] } });
    const result = checkSource(voucher as SourceVoucher, rules);
    expect(result.errors.map((e) => [e.code, e.place])).toEqual([
      ["schema.required", "b.csv:row 2, column comprobante.rubro"],
    ]);
  });

  it("reads ; and decimal commas (es-AR spreadsheets), with thousands dots", async () => {
    const text = [
      HEADER.join(";"),
      row(
        {
          "comprobante.external_reference": "R1",
          ...V,
          "comprobante.total": "1.210,00",
          ...I("Yerba mate", "1", "1.000,00"),
        },
        ";",
      ),
    ].join("\n");
    const [voucher] = await readAll(text);
    const result = checkSource(voucher as SourceVoucher, rules);
    expect(result.ok).toBe(true);
    expect(result.result.totals?.total.toFixed(2)).toBe("1210.00");
  });

  it("a decimal-comma file: 7.000 is seven thousand, 1.234.567,50 is read whole; 7.00 and 1.2345 are errors at their cell", async () => {
    const line = (ref: string, total: string, price: string) =>
      row(
        { "comprobante.external_reference": ref, ...V, "comprobante.total": total, ...I("Yerba mate", "1", price) },
        ";",
      );
    const text = [
      HEADER.join(";"),
      line("R1", "8.470", "7.000"),
      line("R2", "1.493.826,56", "1.234.567,40"),
      line("R3", "8,47", "7.00"),
      line("R4", "-", "1.2345"),
    ].join("\n");
    const [r1, r2, r3, r4] = (await readAll(text)).map((v) => checkSource(v as SourceVoucher, rules));
    expect(r1?.ok, JSON.stringify(r1?.errors)).toBe(true);
    expect(r1?.result.totals?.total.toFixed(2)).toBe("8470.00");
    expect(r2?.ok, JSON.stringify(r2?.errors)).toBe(true);
    expect(r2?.result.totals?.total.toFixed(2)).toBe("1493826.55");
    expect(r3?.errors.map((e) => [e.code, e.place])).toContainEqual([
      "csv.ambiguous-number",
      "b.csv:row 4, column comprobante.detalle.producto.precio_unitario_sin_iva",
    ]);
    expect(r4?.errors.map((e) => [e.code, e.place])).toContainEqual([
      "csv.ambiguous-number",
      "b.csv:row 5, column comprobante.detalle.producto.precio_unitario_sin_iva",
    ]);
    // A leading zero is no thousands group: 0.500 was read as 500, 07.000 as 7000.
    for (const cell of ["0.500", "0.001", "07.000", "00.500"]) {
      const [v] = await readAll([HEADER.join(";"), line("R5", "-", cell)].join("\n"));
      const c = checkSource(v as SourceVoucher, rules);
      expect(
        c.errors.map((e) => e.code),
        cell,
      ).toContain("csv.ambiguous-number");
    }
    // --decimal point: the same cells read as decimals, nothing ambiguous.
    const [p3] = await readAll([HEADER.join(";"), line("R3", "8.47", "7.00")].join("\n"), { decimalComma: false });
    const point = checkSource(p3 as SourceVoucher, rules);
    expect(point.ok, JSON.stringify(point.errors)).toBe(true);
    expect(point.result.totals?.total.toFixed(2)).toBe("8.47");
  });

  it("skips blank rows, however many delimiters they carry, between and after vouchers", async () => {
    const one = (ref: string) =>
      row({ "comprobante.external_reference": ref, ...V, ...I("Yerba mate", "1", "100") }, ";");
    const blank = ";".repeat(HEADER.length - 1);
    const text = [HEADER.join(";"), one("R1"), blank, ";;;;;", "  ;  ", one("R2"), blank, ""].join("\n");
    const vouchers = await readAll(text);
    expect(
      vouchers.map((v) => (v.raw as { comprobante: { external_reference: string } }).comprobante.external_reference),
    ).toEqual(["R1", "R2"]);
    expect(vouchers.map((v) => checkSource(v, rules).errors)).toEqual([[], []]);
    expect(vouchers.map((v) => v.label)).toEqual(["b.csv:row 2", "b.csv:row 6"]);
  });

  it("leaves commas alone in a comma-delimited file's quoted text", async () => {
    const text = [
      HEADER.join(","),
      row({
        "comprobante.external_reference": "R1",
        ...V,
        "cliente.razon_social": '"Pérez, Juana"',
        ...I('"Yerba, 1 kg"', "1", "100"),
      }),
    ].join("\n");
    const [voucher] = await readAll(text);
    const env = checkSource(voucher as SourceVoucher, rules).result.envelope;
    expect(env?.cliente?.razon_social).toBe("Pérez, Juana");
    expect(env?.comprobante.detalle[0]?.producto.descripcion).toBe("Yerba, 1 kg");
  });

  it("refuses an unknown column with a suggestion, and item columns with an index", async () => {
    const typo = await readError("comprobante.totl,comprobante.tipo\n1,FACTURA B\n");
    expect(typo.message).toMatch(/row 1, column 1: unknown column "comprobante.totl"$/);
    expect(typo.hint).toBe("did you mean comprobante.total?");
    const indexed = await readError("comprobante.detalle.0.cantidad\n1\n");
    expect(indexed.hint).toMatch(/item columns take no index/);
    const twice = await readError("comprobante.tipo,comprobante.tipo\nA,B\n");
    expect(twice.message).toMatch(/appears twice/);
  });

  it("refuses a reference whose rows are not together", async () => {
    const text = [
      HEADER.join(","),
      row({ "comprobante.external_reference": "R1", ...V, ...I("Yerba mate", "1", "1") }),
      row({ "comprobante.external_reference": "R2", ...V, ...I("Yerba mate", "1", "1") }),
      row({ "comprobante.external_reference": "R1", ...I("Yerba mate", "1", "1") }),
    ].join("\n");
    const error = await readError(text);
    expect(error.message).toMatch(
      /row 4, column comprobante.external_reference: reference R1 already formed a voucher at row 2/,
    );
  });

  it("reports broken CSV with its row", async () => {
    const ragged = await readError(`${HEADER.join(",")}\nR1,FACTURA B\n`);
    expect(ragged.message).toMatch(/b.csv:row 2: not valid CSV: this row has 2 cells, the header 17/);
    const unclosed = await readError(`${HEADER.join(",")}\n"R1,FACTURA B\n`);
    expect(unclosed.message).toMatch(/not valid CSV: a quoted cell is never closed/);
    expect((await readError("")).message).toMatch(/empty/);
    expect((await readError(`${HEADER.join(",")}\n`)).message).toMatch(/no voucher rows/);
  });

  it("derives its columns from the schema", () => {
    const catalogue = columnCatalogue();
    expect(catalogue.get("comprobante.detalle.producto.precio_unitario_sin_iva")?.numeric).toBe(true);
    expect(catalogue.get("comprobante.tributos.#.alicuota")?.numeric).toBe(true);
    expect(catalogue.get("comprobante.fex.permisos.#.codigo_despacho")?.numeric).toBe(false);
    expect(catalogue.has("comprobante.tags")).toBe(true);
    expect(catalogue.has("usertoken")).toBe(false);
  });
});

describe("CSV files and encodings", () => {
  const dir = mkdtempSync(join(tmpdir(), "facturar-csv-"));
  const text = [
    HEADER.join(","),
    row({
      "comprobante.external_reference": "R1",
      ...V,
      "cliente.razon_social": "Peña Ñandú",
      ...I("Café molido", "1", "100"),
    }),
  ].join("\r\n");

  async function names(file: string, opts = {}) {
    const out: string[] = [];
    for await (const v of readVouchers(file, opts))
      out.push(String((v.raw as { cliente: { razon_social: string } }).cliente.razon_social));
    return out;
  }

  it("reads UTF-8 with and without a BOM, CRLF line ends", async () => {
    const plain = join(dir, "plain.csv");
    const bom = join(dir, "bom.csv");
    writeFileSync(plain, text);
    writeFileSync(bom, `\uFEFF${text}`);
    expect(await names(plain)).toEqual(["Peña Ñandú"]);
    expect(await names(bom)).toEqual(["Peña Ñandú"]);
  });

  it("reads latin1 when told; untold, a file that is not UTF-8 is read as Windows-1252 and says so on its first voucher", async () => {
    const latin = join(dir, "latin1.csv");
    // Excel's es-AR "CSV": Windows-1252, where ’ is 0x92 (no Latin-1 letter).
    writeFileSync(latin, Buffer.from(text.replace("Peña", "O\x92Peña"), "latin1"));
    expect(await names(latin, { encoding: "latin1" })).toEqual(["O\u2019Peña Ñandú"]);
    expect(await names(latin)).toEqual(["O\u2019Peña Ñandú"]);
    const json = join(dir, "latin1.json");
    writeFileSync(json, Buffer.from(JSON.stringify({ cliente: { razon_social: "Peña" }, comprobante: {} }), "latin1"));
    for (const [file, opts] of [
      [latin, {}],
      [json, {}],
      ["-", { stdin: (await import("node:stream")).Readable.from([readFileSync(latin)]) }],
    ] as const) {
      const vouchers: SourceVoucher[] = [];
      for await (const v of readVouchers(file, opts)) vouchers.push(v);
      expect(vouchers[0]?.readerFindings, file).toContainEqual(
        expect.objectContaining({
          severity: "warning",
          code: "input.encoding",
          message: expect.stringMatching(/read as Windows-1252/),
        }),
      );
    }
    // A UTF-8 file is read as one, and says nothing.
    const utf8 = join(dir, "utf8.csv");
    writeFileSync(utf8, text);
    for await (const v of readVouchers(utf8)) expect(v.readerFindings).toEqual([]);
  });

  it("--encoding utf8 keeps it strict; a bad byte is told by row and column, never as byte 0", async () => {
    const latin = join(dir, "strict.csv");
    writeFileSync(latin, Buffer.from(`${text}\r\n${text.split("\r\n")[1]?.replace("R1", "R2")}`, "latin1"));
    for (const [file, opts] of [
      [latin, { encoding: "utf8" }],
      ["-", { encoding: "utf8", stdin: (await import("node:stream")).Readable.from([readFileSync(latin)]) }],
    ] as const)
      await expect(names(file, opts)).rejects.toMatchObject({
        code: "input.unreadable",
        message: expect.stringMatching(/:row 2, column cliente\.razon_social: not valid UTF-8$/),
        hint: expect.stringMatching(/--encoding latin1/),
      });
    // UTF-8 letters beside a byte that is not: neither encoding, told where, whatever the size.
    const mixed = join(dir, "mixed.csv");
    const big = `${text}\r\n`
      .repeat(1)
      .concat(Array.from({ length: 3000 }, (_, i) => text.split("\r\n")[1]?.replace("R1", `M${i}`)).join("\r\n"));
    writeFileSync(mixed, Buffer.concat([Buffer.from(big, "utf8"), Buffer.from("\r\nR9,\xf1", "latin1")]));
    await expect(names(mixed)).rejects.toMatchObject({
      message: expect.stringMatching(
        /:row 3003, column comprobante\.tipo: not valid UTF-8, though the rest of the file is UTF-8/,
      ),
    });
    const json = join(dir, "mixed.json");
    writeFileSync(
      json,
      Buffer.concat([
        Buffer.from('{"cliente": {"razon_social": "Peña"},\n "x": "', "utf8"),
        Buffer.from([0xf1, 0x22, 0x7d]),
      ]),
    );
    await expect(names(json)).rejects.toMatchObject({
      message: expect.stringMatching(/mixed\.json:line 2, column 8: not valid UTF-8/),
    });
  });

  it("tells UTF-16 without a byte order mark apart from Latin-1, in a file and on standard input", async () => {
    const { Readable } = await import("node:stream");
    for (const big of [false, true]) {
      const le = Buffer.from(text, "utf16le");
      const bytes = big ? Buffer.from(le).swap16() : le;
      const file = join(dir, big ? "bomless-be.csv" : "bomless-le.csv");
      writeFileSync(file, bytes);
      for (const [input, opts] of [
        [file, {}],
        [file, { encoding: "latin1" }],
        ["-", { stdin: Readable.from([bytes]) }],
      ] as const) {
        const error = await names(input, opts).then(
          () => undefined,
          (e: FacturarError) => e,
        );
        expect(error?.message, `${input} ${big}`).toMatch(/looks like UTF-16 without a byte order mark/);
        expect(error?.hint).toMatch(/UTF-16 with a byte order mark/);
        expect(error?.hint).not.toMatch(/latin1/);
      }
    }
  });

  it("spools standard input: JSON past the limit is refused while it arrives, CSV streams from the spool", async () => {
    const { Readable } = await import("node:stream");
    let sent = 0;
    // 8 MB of JSON, and a 1 MB limit: reading stops soon after the first MB, not at the end.
    const endless = Readable.from(
      (function* () {
        yield Buffer.from("[");
        for (let i = 0; i < 128; i++) {
          sent += 65536;
          yield Buffer.alloc(65536, 0x20);
        }
      })(),
    );
    await expect(names("-", { stdin: endless, maxJsonBytes: 1024 * 1024 })).rejects.toMatchObject({
      message: expect.stringMatching(/<stdin>: more than 1 MB of JSON: too large/),
    });
    expect(sent).toBeLessThan(2 * 1024 * 1024);
    // A CSV has no such limit, in chunks that cut a character in two; blanks only are no input.
    const bytes = Buffer.from(`\n\n${text}`);
    const chunks = Array.from({ length: Math.ceil(bytes.length / 7) }, (_, i) => bytes.subarray(i * 7, i * 7 + 7));
    expect(await names("-", { stdin: Readable.from(chunks), maxJsonBytes: 10 })).toEqual(["Peña Ñandú"]);
    await expect(names("-", { stdin: Readable.from([Buffer.from(" \n\t ")]) })).rejects.toMatchObject({
      message: "<stdin>: no input",
    });
  });

  it("says so when standard input cannot be spooled (TMPDIR missing)", async () => {
    const { Readable } = await import("node:stream");
    const before = process.env.TMPDIR;
    process.env.TMPDIR = join(dir, "no-such-folder");
    try {
      await expect(names("-", { stdin: Readable.from([Buffer.from(text)]) })).rejects.toMatchObject({
        message: expect.stringMatching(/<stdin>: cannot be written to a temporary file in .*no-such-folder \(ENOENT\)/),
        hint: expect.stringMatching(/TMPDIR/),
      });
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
    }
  });

  it("sniffs CSV and JSON on standard input", async () => {
    const { Readable } = await import("node:stream");
    expect(await names("-", { stdin: Readable.from([Buffer.from(text)]) })).toEqual(["Peña Ñandú"]);
    const json = JSON.stringify({ cliente: { razon_social: "Desde JSON" }, comprobante: {} });
    expect(await names("-", { stdin: Readable.from([Buffer.from(json)]) })).toEqual(["Desde JSON"]);
  });

  it("reads a .txt file as CSV, and a file of another kind by what it holds", async () => {
    const txt = join(dir, "ventas.txt");
    const dat = join(dir, "ventas.dat");
    const json = join(dir, "pedido.dat");
    writeFileSync(txt, text);
    writeFileSync(dat, text);
    writeFileSync(json, JSON.stringify({ cliente: { razon_social: "Desde JSON" }, comprobante: {} }));
    expect(await names(txt)).toEqual(["Peña Ñandú"]);
    expect(await names(dat)).toEqual(["Peña Ñandú"]);
    expect(await names(json)).toEqual(["Desde JSON"]);
  });

  it("a CSV file that starts with a UTF-16 byte order mark but is not UTF-16 is told as such", async () => {
    const file = join(dir, "broken-utf16.csv");
    // The mark, then a lone low surrogate (U+DC00): no UTF-16 text has it.
    writeFileSync(
      file,
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("a,b\n", "utf16le"), Buffer.from([0x00, 0xdc])]),
    );
    for (const encoding of ["utf8", "latin1"] as const)
      await expect(names(file, { encoding })).rejects.toMatchObject({
        code: "input.unreadable",
        message: expect.stringMatching(/starts as UTF-16 but is not valid UTF-16/),
      });
  });

  // Tests run as root, whom file permissions do not stop: /proc/self/mem is a file anyone may open
  // and no one may read from its start (EIO), the stand-in for a file that cannot be read.
  it("a file that cannot be read, CSV or JSON or by its content, is named with the cause; a folder too", async () => {
    for (const name of ["unreadable.csv", "unreadable.json", "unreadable.dat"]) {
      const file = join(dir, name);
      symlinkSync("/proc/self/mem", file);
      await expect(names(file)).rejects.toMatchObject({
        code: "input.unreadable",
        message: expect.stringMatching(/cannot be read \(EIO\)/),
      });
    }
    const folder = join(dir, "folder.csv");
    mkdirSync(folder);
    await expect(names(folder)).rejects.toMatchObject({
      code: "input.unreadable",
      message: expect.stringMatching(/is a folder, not a voucher file/),
    });
  });

  it("the report's delimiter follows the CSV files that can be read; one that cannot counts for nothing", async () => {
    const semicolon = join(dir, "punto-y-coma.csv");
    const unreadable = join(dir, "unreadable-delimiter.csv");
    writeFileSync(semicolon, `${HEADER.join(";")}\n`);
    const comma = join(dir, "coma.csv");
    writeFileSync(comma, `${HEADER.join(",")}\n`);
    symlinkSync("/proc/self/mem", unreadable);
    expect(await inputDelimiter([unreadable, semicolon])).toBe(";");
    expect(await inputDelimiter([comma])).toBe(",");
    // Files that disagree decide nothing: the report is written as the language writes CSV.
    expect(await inputDelimiter([comma, semicolon])).toBeUndefined();
  });

  it("names a missing file", async () => {
    await expect(names(join(dir, "nope.csv"))).rejects.toMatchObject({
      code: "input.unreadable",
      message: expect.stringMatching(/no such file/),
    });
  });
});
