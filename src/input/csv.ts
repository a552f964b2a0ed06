/**
 * CSV batches as design.md describes them: a header of dotted paths, one item per row, rows with
 * the same `comprobante.external_reference` forming one voucher. Streams: a voucher is yielded as
 * soon as its rows end, so a file of any size validates in bounded memory.
 */

import { InputError, textOf } from "../errors.js";
import { concat, msg, type Text } from "../i18n/message.js";
import { Dec } from "../voucher/decimal.js";
import type { Finding, Path } from "../voucher/rules.js";
import {
  type ColumnSpec,
  columnCatalogue,
  columnPattern,
  ITEM_PREFIX,
  REFERENCE_COLUMN,
  suggestColumn,
  TAGS_COLUMN,
} from "./columns.js";
import { commaNumber } from "./numbers.js";
import { cellPlace, rowLabel, rowRange, type SourceVoucher } from "./source.js";

interface Column {
  name: string;
  /** Path segments inside the envelope (voucher columns) or inside an item (item columns). */
  segments: (string | number)[];
  item: boolean;
  numeric: boolean;
  tags: boolean;
  /** Writes a value at `segments`: made once per header, as most paths are one or two names deep. */
  set: (target: Record<string, unknown>, value: unknown) => void;
}

export interface CsvOptions {
  delimiter?: "," | ";";
  /**
   * Numbers with a decimal comma and thousands dots (`1.234,56`); on by default with `;`
   * (es-AR spreadsheets), off with `,`. `--decimal comma|point` decides instead.
   */
  decimalComma?: boolean;
}

export function detectDelimiter(headerLine: string): "," | ";" {
  const semicolons = headerLine.split(";").length;
  const commas = headerLine.split(",").length;
  return semicolons > commas ? ";" : ",";
}

function compileHeader(file: string, header: string[]): Column[] {
  const catalogue = columnCatalogue();
  const seen = new Set<string>();
  return header.map((rawName, i) => {
    const name = rawName.trim();
    const place = cellPlace(file, 1, String(i + 1));
    if (name === "") throw new InputError(concat(place, ": ", msg("empty column name in the header")), place);
    if (seen.has(name)) throw new InputError(concat(place, ": ", msg("column {name} appears twice", { name })), place);
    seen.add(name);
    const spec: ColumnSpec | undefined = catalogue.get(columnPattern(name));
    if (!spec) {
      const suggestion = suggestColumn(name);
      const hint =
        name.startsWith(ITEM_PREFIX) && /\.\d+\./.test(name)
          ? msg("item columns take no index: each row is one item")
          : suggestion
            ? msg("did you mean {column}?", { column: suggestion })
            : msg("columns are dotted paths such as comprobante.detalle.producto.descripcion (see `facturar schema`)");
      throw new InputError(
        concat(place, ": ", msg("unknown column {name}", { name: JSON.stringify(name) })),
        place,
        hint,
      );
    }
    const segments = name.split(".").map((s) => (/^\d+$/.test(s) ? Number(s) : s));
    const item = name.startsWith(ITEM_PREFIX);
    const path = item ? segments.slice(2) : segments;
    return {
      name,
      segments: path,
      item,
      numeric: spec.numeric,
      tags: name === TAGS_COLUMN,
      set: pathSetter(path),
    };
  });
}

function pathSetter(segments: (string | number)[]): Column["set"] {
  const [first, second] = segments;
  if (segments.length === 1 && first !== undefined)
    return (target, value) => {
      target[first] = value;
    };
  if (segments.length === 2 && first !== undefined && typeof second === "string")
    return (target, value) => {
      let child = target[first] as Record<string, unknown> | undefined;
      if (child === undefined) {
        child = {};
        target[first] = child;
      }
      child[second] = value;
    };
  return (target, value) => setPath(target, segments, value);
}

function setPath(target: Record<string, unknown>, segments: (string | number)[], value: unknown): void {
  let node: Record<string | number, unknown> = target;
  for (let i = 0; i < segments.length - 1; i++) {
    const key = segments[i] as string | number;
    const nextIsIndex = typeof segments[i + 1] === "number";
    let child = node[key];
    if (child === undefined) {
      child = nextIsIndex ? [] : {};
      node[key] = child;
    }
    node = child as Record<string | number, unknown>;
  }
  node[segments[segments.length - 1] as string | number] = value;
}

/** Arrays filled by index may have holes (`tributos.1` without `tributos.0`): close them up. */
function compact(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((v) => v !== undefined).map(compact);
  if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) (value as Record<string, unknown>)[k] = compact(v);
  }
  return value;
}

class VoucherBuilder {
  readonly envelope: Record<string, unknown> = {};
  readonly items: Record<string, unknown>[] = [];
  readonly rows: number[] = [];
  readonly itemRows: number[] = [];
  /** First row that set each voucher-level cell, and its value. */
  readonly cells = new Map<string, { row: number; value: string }>();
  readonly findings: Finding[] = [];

  constructor(
    readonly file: string,
    readonly index: number,
    readonly reference: string,
    /** Whether a column has an index in its path, leaving holes for `compact` to close. */
    private readonly indexed: boolean,
  ) {}

  addRow(row: number, record: string[], columns: Column[], decimalComma: boolean): void {
    this.rows.push(row);
    let item: Record<string, unknown> | undefined;
    for (let i = 0; i < columns.length; i++) {
      const column = columns[i] as Column;
      const cell = (record[i] ?? "").trim();
      if (cell === "") continue;
      let value = cell;
      if (column.numeric && decimalComma) {
        const read = commaNumber(cell);
        if (read === undefined)
          this.findings.push({
            severity: "error",
            code: "csv.ambiguous-number",
            path: column.item ? ["comprobante", "detalle", this.items.length, ...column.segments] : column.segments,
            at: cellPlace(this.file, row, column.name),
            message: msg(
              "{cell} is ambiguous in a file with decimal commas: a dot separates thousands there (7.000 is seven thousand, 7,00 is seven); write it so, or pass --decimal point if this file uses decimal points",
              { cell: JSON.stringify(cell) },
            ),
          });
        else value = read;
      }
      if (column.item) {
        item ??= {};
        column.set(item, value);
        continue;
      }
      const first = this.cells.get(column.name);
      if (first) {
        if (!sameCell(first.value, value, column.numeric)) {
          this.findings.push({
            severity: "error",
            code: "csv.conflict",
            path: column.segments,
            at: cellPlace(this.file, row, column.name),
            message: msg(
              "{cell} differs from {first} given on row {row} for the same voucher: voucher cells on later rows must be empty or equal",
              { cell: JSON.stringify(cell), first: JSON.stringify(first.value), row: first.row },
            ),
          });
        }
        continue;
      }
      this.cells.set(column.name, { row, value });
      column.set(this.envelope, column.tags ? splitTags(value) : value);
    }
    if (item) {
      this.items.push(item);
      this.itemRows.push(row);
    }
  }

  build(): SourceVoucher {
    const envelope = this.indexed ? (compact(this.envelope) as Record<string, unknown>) : this.envelope;
    const comprobante = (envelope.comprobante ?? {}) as Record<string, unknown>;
    envelope.comprobante = comprobante;
    if (this.items.length > 0) comprobante.detalle = this.items;
    const rows = this.rows;
    const label = `${this.file}:${rowLabel(rows)}`;
    return {
      file: this.file,
      index: this.index,
      raw: envelope,
      readerFindings: this.findings,
      hasNoEmptyStrings: true,
      label,
      rows,
      place: (path: Path) => this.place(path),
    };
  }

  private place(path: Path): Text {
    if (path[0] === "comprobante" && path[1] === "detalle" && typeof path[2] === "number") {
      const row = this.itemRows[path[2]];
      const rest = path.slice(3).filter((s) => typeof s === "string");
      const column = rest.length > 0 ? `${ITEM_PREFIX}${rest.join(".")}` : undefined;
      return row === undefined ? concat(`${this.file}:`, rowRange(this.rows)) : cellPlace(this.file, row, column);
    }
    const name = path.join(".");
    const exact = this.cells.get(name);
    if (exact) return cellPlace(this.file, exact.row, name);
    for (const [cellName, cell] of this.cells) {
      if (name !== "" && cellName.startsWith(`${name}.`)) return cellPlace(this.file, cell.row, cellName);
    }
    return concat(
      `${this.file}:`,
      rowRange(this.rows),
      name ? concat(", ", msg("column {column}", { column: name })) : "",
    );
  }
}

function sameCell(a: string, b: string, numeric: boolean): boolean {
  if (a === b) return true;
  if (!numeric) return false;
  const x = Dec.tryParse(a.trim());
  const y = Dec.tryParse(b.trim());
  return x !== undefined && y !== undefined && x.eq(y);
}

function splitTags(value: string): string[] {
  return value
    .split("|")
    .map((t) => t.trim())
    .filter((t) => t !== "");
}

/**
 * Reads vouchers from CSV text chunks. Rows of one voucher must be contiguous; a reference that
 * comes back after other vouchers is refused rather than silently split into two vouchers.
 */
export async function* readCsvVouchers(
  file: string,
  chunks: AsyncIterable<string>,
  opts: CsvOptions = {},
): AsyncGenerator<SourceVoucher> {
  const iterator = chunks[Symbol.asyncIterator]();
  // Gather the whole header line before guessing the delimiter from it.
  let firstChunk = "";
  for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
    firstChunk += next.value;
    if (/[\r\n]/.test(firstChunk)) break;
  }
  if (firstChunk.trim() === "") throw new InputError(concat(file, ": ", msg("the file is empty")), file);
  const delimiter = opts.delimiter ?? detectDelimiter(firstChunk.split(/\r?\n/, 1)[0] ?? "");
  const decimalComma = opts.decimalComma ?? delimiter === ";";

  let columns: Column[] | undefined;
  let indexed = false;
  let referenceIndex = -1;
  let current: VoucherBuilder | undefined;
  const finished = new Map<string, number>();
  const ready: SourceVoucher[] = [];
  let count = 0;
  let failure: unknown;

  const onRecord = (record: string[], row: number): void => {
    if (!columns) {
      columns = compileHeader(file, record);
      referenceIndex = columns.findIndex((c) => c.name === REFERENCE_COLUMN);
      indexed = columns.some((c) => !c.item && c.segments.some((s) => typeof s === "number"));
      return;
    }
    const reference = referenceIndex >= 0 ? (record[referenceIndex] ?? "").trim() : "";
    if (current && (reference === "" || reference !== current.reference)) {
      ready.push(current.build());
      if (current.reference !== "") finished.set(current.reference, current.rows[0] ?? row);
      current = undefined;
    }
    if (!current) {
      const earlier = reference === "" ? undefined : finished.get(reference);
      if (earlier !== undefined) {
        const place = cellPlace(file, row, REFERENCE_COLUMN);
        throw new InputError(
          concat(
            place,
            `: `,
            msg("reference {reference} already formed a voucher at row {row}; keep each voucher's rows together", {
              reference,
              row: earlier,
            }),
          ),
          place,
        );
      }
      current = new VoucherBuilder(file, count++, reference, indexed);
    }
    current.addRow(row, record, columns, decimalComma);
  };
  // Loaded here: a JSON file, or `--version`, has no use for csv-parse.
  const { CsvRecordReader, CsvSyntaxError } = await import("./csv-records.js");
  const reader = new CsvRecordReader(delimiter, (record, row) => {
    if (failure !== undefined) return;
    // An empty line before the header is skipped, as any empty line.
    if (!columns && record.length === 1 && record[0] === "") return;
    // A blank row (`;;;;;`, as spreadsheets export empty lines) is no voucher and no error.
    if (columns && record.every((cell) => cell.trim() === "")) return;
    if (columns && record.length !== columns.length) {
      failure = new InputError(
        concat(
          cellPlace(file, row),
          ": ",
          msg("not valid CSV: this row has {cells} cells, the header {columns}", {
            cells: record.length,
            columns: columns.length,
          }),
        ),
        cellPlace(file, row),
        msg("a cell holding the delimiter must be quoted"),
      );
      return;
    }
    try {
      onRecord(record, row);
    } catch (error) {
      failure = error;
    }
  });

  try {
    let chunk: string | undefined = firstChunk;
    while (chunk !== undefined) {
      reader.push(chunk);
      if (failure !== undefined) throw failure;
      // Vouchers are handed on per chunk (a megabyte of rows parsed synchronously), not per row.
      yield* ready.splice(0);
      const next = await iterator.next();
      chunk = next.done ? undefined : next.value;
    }
    await reader.end();
    if (failure !== undefined) throw failure;
  } catch (error) {
    if (error instanceof CsvSyntaxError) {
      const place = cellPlace(file, error.line);
      throw new InputError(concat(place, ": ", msg("not valid CSV: {message}", { message: textOf(error) })), place);
    }
    throw error;
  }
  yield* ready.splice(0);
  if (!columns) throw new InputError(concat(file, ": ", msg("the file has no header row")), file);
  if (current) yield (current as VoucherBuilder).build();
  if (count === 0) throw new InputError(concat(file, ": ", msg("the file has a header but no voucher rows")), file);
}
