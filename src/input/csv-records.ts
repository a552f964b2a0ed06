/**
 * RFC 4180 records from streamed text, tuned for the common case: a line without a quote is a
 * plain split. csv-parse reads byte by byte and took five seconds for the million-row
 * benchmark; this takes about one. The test suite checks it against csv-parse record by record.
 */
import { t } from "../i18n/index.js";

export class CsvSyntaxError extends Error {
  constructor(
    message: string,
    /** Physical line where the record with the problem starts (1-based). */
    readonly line: number,
  ) {
    super(message);
  }
}

export type RecordHandler = (fields: string[], line: number) => void;

const QUOTE = 34; // "
const CR = 13;
const LF = 10;

export class CsvRecordReader {
  private pending = "";
  /** Physical line number of the first line in `pending`. */
  private line = 1;
  private started = false;

  constructor(
    private readonly delimiter: string,
    private readonly onRecord: RecordHandler,
  ) {}

  /** Parse again only once `pending` is this long (see push). */
  private waitFor = 0;

  push(text: string): void {
    let buffer = this.pending + text;
    if (!this.started && buffer.length > 0) {
      this.started = true;
      if (buffer.charCodeAt(0) === 0xfeff) buffer = buffer.slice(1);
    }
    // A record still open after a large chunk (a huge quoted cell) is parsed again only once the
    // text has doubled: each pass scans it from its start, and a pass per chunk made a 300 MB
    // cell take minutes (quadratic); doubling keeps the work proportional to its size.
    if (buffer.length < this.waitFor) {
      this.pending = buffer;
      return;
    }
    this.pending = buffer.slice(this.consume(buffer, false));
    this.waitFor = this.pending.length > 1 << 16 ? this.pending.length * 2 : 0;
  }

  end(): void {
    const rest = this.pending;
    this.pending = "";
    // A final line without a line break is a record too.
    if (rest.length > 0) this.consume(`${rest}\n`, true);
  }

  /** Emits every complete record in `buffer`; returns where the unfinished tail starts. */
  private consume(buffer: string, final: boolean): number {
    let pos = 0;
    const length = buffer.length;
    // Next quote at or after pos, found once and reused: searching again on every line would
    // scan to the end of the chunk each time.
    let quoteAt = -1;
    while (pos < length) {
      const newline = buffer.indexOf("\n", pos);
      if (newline < 0) return pos;
      let end = newline;
      if (end > pos && buffer.charCodeAt(end - 1) === CR) end--;
      if (end === pos) {
        // Empty line: skipped, but counted.
        this.line++;
        pos = newline + 1;
        continue;
      }
      if (quoteAt !== Number.POSITIVE_INFINITY && quoteAt < pos) {
        quoteAt = buffer.indexOf('"', pos);
        if (quoteAt < 0) quoteAt = Number.POSITIVE_INFINITY;
      }
      if (quoteAt >= end) {
        this.onRecord(buffer.slice(pos, end).split(this.delimiter), this.line);
        this.line++;
        pos = newline + 1;
        continue;
      }
      const parsed = this.quotedRecord(buffer, pos);
      if (!parsed) {
        if (final) throw new CsvSyntaxError(t("a quoted cell is never closed"), this.line);
        return pos;
      }
      this.onRecord(parsed.fields, this.line);
      this.line += parsed.lines;
      pos = parsed.next;
    }
    return pos;
  }

  /** Character-level parse of one record that has quotes; undefined when more text is needed. */
  private quotedRecord(buffer: string, start: number): { fields: string[]; next: number; lines: number } | undefined {
    const fields: string[] = [];
    const delimiter = this.delimiter;
    const length = buffer.length;
    let lines = 1;
    let pos = start;
    for (;;) {
      if (pos < length && buffer.charCodeAt(pos) === QUOTE) {
        // Quoted field: "" is a quote, the closing quote ends it.
        let value = "";
        let from = pos + 1;
        for (;;) {
          const close = buffer.indexOf('"', from);
          if (close < 0) return undefined;
          value += buffer.slice(from, close);
          if (buffer.charCodeAt(close + 1) === QUOTE) {
            value += '"';
            from = close + 2;
            continue;
          }
          if (close + 1 >= length) return undefined; // cannot tell yet what follows
          pos = close + 1;
          break;
        }
        for (let i = 0; i < value.length; i++) if (value.charCodeAt(i) === LF) lines++;
        fields.push(value);
      } else {
        // Plain field up to the next delimiter or line end.
        let end = pos;
        while (end < length) {
          const c = buffer.charCodeAt(end);
          if (c === LF || buffer.startsWith(delimiter, end)) break;
          if (c === CR) {
            if (end + 1 >= length) return undefined;
            if (buffer.charCodeAt(end + 1) === LF) break;
          }
          if (c === QUOTE) {
            throw new CsvSyntaxError(
              t("a quote inside an unquoted cell (cell {cell}); quote the whole cell", { cell: fields.length + 1 }),
              this.line + lines - 1,
            );
          }
          end++;
        }
        if (end >= length) return undefined;
        fields.push(buffer.slice(pos, end));
        pos = end;
      }
      if (buffer.startsWith(delimiter, pos)) {
        pos += delimiter.length;
        continue;
      }
      const c = buffer.charCodeAt(pos);
      if (c === CR && buffer.charCodeAt(pos + 1) === LF) return { fields, next: pos + 2, lines };
      if (c === CR && pos + 1 >= length) return undefined;
      if (c === LF) return { fields, next: pos + 1, lines };
      throw new CsvSyntaxError(
        t("text after a closing quote (cell {cell}); quote the whole cell", { cell: fields.length }),
        this.line + lines - 1,
      );
    }
  }
}
