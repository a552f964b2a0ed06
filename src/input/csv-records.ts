/**
 * Records, each with the line it starts on, from streamed CSV text, parsed by csv-parse.
 *
 * csv-parse is driven through its Node stream: each chunk is written and the records it completed
 * are read back right away, synchronously, so records cost no await each (its async iterator, one
 * await per record, took about half again as long on the million-row benchmark). Lines are counted
 * here rather than taken from its `info` option: `info` builds two objects per record (it doubled
 * the parse time) and counts a CRLF inside a quoted cell, and a lone CR, as two lines and one.
 * Parsing in a worker thread was tried and not kept: faster only with a core to spare (bench/README.md).
 */
import { CsvError, type Parser, parse } from "csv-parse";
import { WordedError } from "../errors.js";
import { msg, type Text } from "../i18n/message.js";

export class CsvSyntaxError extends WordedError {
  constructor(
    message: Text,
    /** Physical line where the record with the problem starts (1-based). */
    readonly line: number,
  ) {
    super(message);
  }
}

export type RecordHandler = (fields: string[], line: number) => void;

export class CsvRecordReader {
  private readonly parser: Parser;
  /** Physical line the next record starts on. */
  private line = 1;
  /** A high surrogate that ended the last chunk, held until its pair arrives. */
  private held = "";
  /** Whether a quote has been seen: until one is, no cell can hold a line break. */
  private quoted = false;

  constructor(
    delimiter: string,
    private readonly onRecord: RecordHandler,
  ) {
    this.parser = parse({
      delimiter,
      bom: true,
      // A lone CR is text, as in RFC 4180; CRLF and LF end a record wherever they are mixed.
      record_delimiter: ["\r\n", "\n"],
      // Rows with another number of cells are the caller's to report, with its own message.
      relax_column_count: true,
      // Empty lines come through as [""] so that they are counted; the caller skips them.
      skip_empty_lines: false,
    });
    // Errors are read from `errored` after each write; a listener keeps the event from throwing.
    this.parser.on("error", () => {});
  }

  /** Parses a chunk, handing on every record it completes before returning. */
  push(text: string): void {
    let chunk = this.held + text;
    this.held = "";
    const last = chunk.charCodeAt(chunk.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) {
      this.held = chunk.slice(-1);
      chunk = chunk.slice(0, -1);
    }
    if (chunk.length === 0) return;
    if (!this.quoted) this.quoted = chunk.includes('"');
    this.parser.write(Buffer.from(chunk, "utf8"));
    this.drain();
  }

  /** The last record, which may have no line break after it. */
  async end(): Promise<void> {
    if (this.held) this.parser.write(Buffer.from(this.held, "utf8"));
    this.drain();
    const finished = new Promise<void>((resolve) => {
      this.parser.once("finish", resolve);
      this.parser.once("error", () => resolve());
    });
    this.parser.end();
    // The final record is pushed on `finish`, which Node may or may not reach synchronously.
    if (!this.parser.writableFinished && !this.parser.errored) await finished;
    this.drain();
  }

  private drain(): void {
    const parser = this.parser;
    for (let record: string[] | null = parser.read(); record !== null; record = parser.read()) {
      const line = this.line;
      let lines = 1;
      if (this.quoted)
        for (const field of record)
          for (let at = field.indexOf("\n"); at >= 0; at = field.indexOf("\n", at + 1)) lines++;
      this.line += lines;
      this.onRecord(record, line);
    }
    const error = parser.errored;
    if (error) throw this.syntaxError(error);
  }

  private syntaxError(error: Error): Error {
    if (!(error instanceof CsvError)) return error;
    // A record that fails is the one after the last record read, so it starts on `this.line`.
    const cell = Number(error.column ?? 0) + 1;
    switch (error.code) {
      case "CSV_QUOTE_NOT_CLOSED":
        return new CsvSyntaxError(msg("a quoted cell is never closed"), this.line);
      case "INVALID_OPENING_QUOTE":
        return new CsvSyntaxError(
          msg("a quote inside an unquoted cell (cell {cell}); quote the whole cell", { cell }),
          this.line,
        );
      case "CSV_INVALID_CLOSING_QUOTE":
        return new CsvSyntaxError(
          msg("text after a closing quote (cell {cell}); quote the whole cell", { cell }),
          this.line,
        );
      default:
        return new CsvSyntaxError(error.message, this.line);
    }
  }
}
