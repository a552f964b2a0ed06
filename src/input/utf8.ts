/**
 * Whether bytes are UTF-8, and where they stop being: a file saved by Excel as plain "CSV" in a
 * Spanish Windows is Windows-1252, and one that is not UTF-8 is read as that (read.ts). A file with
 * valid UTF-8 letters beside invalid bytes is neither, and is told with the place of the first one.
 */
import { isAscii, isUtf8 } from "node:buffer";
import { concat, type Message, msg } from "../i18n/message.js";
import { detectDelimiter } from "./csv.js";
import { cellPlace } from "./source.js";

/** The length of the valid sequence at `i`; 0 when it is not one; -1 when the bytes end inside it. */
function sequenceAt(b: Uint8Array, i: number): number {
  const c = b[i] as number;
  let n: number;
  let lo = 0x80;
  let hi = 0xbf;
  if (c >= 0xc2 && c <= 0xdf) n = 2;
  else if (c >= 0xe0 && c <= 0xef) {
    n = 3;
    if (c === 0xe0) lo = 0xa0;
    else if (c === 0xed) hi = 0x9f;
  } else if (c >= 0xf0 && c <= 0xf4) {
    n = 4;
    if (c === 0xf0) lo = 0x90;
    else if (c === 0xf4) hi = 0x8f;
  } else return 0;
  for (let k = 1; k < n; k++) {
    if (i + k >= b.length) return -1;
    const d = b[i + k] as number;
    if (k === 1 ? d < lo || d > hi : d < 0x80 || d > 0xbf) return 0;
  }
  return n;
}

/** Where a sequence cut by the chunk's end starts (the chunk's length when none is). */
function completeEnd(b: Uint8Array): number {
  for (let j = b.length - 1; j >= Math.max(0, b.length - 3); j--) {
    const c = b[j] as number;
    if (c < 0x80) return b.length;
    if (c >= 0xc0) {
      const needed = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
      return j + needed > b.length ? j : b.length;
    }
  }
  return b.length;
}

/** Bytes looked at chunk after chunk: the first that is not UTF-8, and whether any letter was. */
class Utf8Scan {
  /** Offset of the first byte that is not UTF-8, from the input's start. */
  bad: number | undefined;
  /** Whether a valid sequence beyond ASCII was seen (UTF-8 letters). */
  multibyte = false;
  private carry: Uint8Array = new Uint8Array(0);
  private offset = 0;

  push(chunk: Uint8Array): void {
    const bytes = this.carry.length > 0 ? Buffer.concat([this.carry, chunk]) : chunk;
    this.scan(bytes, completeEnd(bytes));
  }

  end(): this {
    this.scan(this.carry, this.carry.length);
    return this;
  }

  private scan(bytes: Uint8Array, end: number): void {
    const body = bytes.subarray(0, end);
    if (this.bad === undefined && isUtf8(body)) {
      if (!this.multibyte && !isAscii(body)) this.multibyte = true;
    } else if (this.bad === undefined || !this.multibyte) {
      for (let i = 0; i < body.length; ) {
        if ((body[i] as number) < 0x80) {
          i++;
          continue;
        }
        const n = sequenceAt(body, i);
        if (n > 0) {
          this.multibyte = true;
          i += n;
        } else {
          this.bad ??= this.offset + i;
          i++;
        }
        if (this.bad !== undefined && this.multibyte) break;
      }
    }
    this.offset += end;
    this.carry = bytes.slice(end);
  }
}

export async function scanUtf8(chunks: AsyncIterable<Uint8Array>): Promise<Utf8Scan> {
  const scan = new Utf8Scan();
  for await (const chunk of chunks) scan.push(chunk);
  return scan.end();
}

/**
 * A byte's place as a person finds it: `a.csv:row 3, column cliente.razon_social` in a CSV
 * (the physical line, and the header's name of the cell it falls in), `a.json:line 3, column 17`.
 */
export async function placeOfByte(
  file: string,
  chunks: AsyncIterable<Uint8Array>,
  at: number,
  csv: boolean,
): Promise<Message> {
  let line = 1;
  let seen = 0;
  let header: Buffer | undefined;
  let current: Buffer[] = [];
  for await (const chunk of chunks) {
    const part = Buffer.from(chunk.subarray(0, Math.max(0, at - seen)));
    let start = 0;
    for (let nl = part.indexOf(10); nl >= 0; nl = part.indexOf(10, nl + 1)) {
      if (line === 1) header = Buffer.concat([...current, part.subarray(start, nl)]);
      line++;
      current = [];
      start = nl + 1;
    }
    current.push(part.subarray(start));
    seen += chunk.length;
    if (seen >= at) break;
  }
  const before = Buffer.concat(current).toString("latin1");
  if (!csv) return concat(`${file}:`, msg("line {line}, column {column}", { line, column: before.length + 1 }));
  const head = (header ?? Buffer.concat(current))
    .toString("latin1")
    .replace(/^\xEF\xBB\xBF/, "")
    .replace(/\r$/, "");
  const delimiter = detectDelimiter(head);
  let field = 0;
  let quoted = false;
  for (const c of before) {
    if (c === '"') quoted = !quoted;
    else if (c === delimiter && !quoted) field++;
  }
  const name = head.split(delimiter)[field]?.replace(/^"|"$/g, "").trim();
  return cellPlace(file, line, line === 1 ? undefined : name || undefined);
}
