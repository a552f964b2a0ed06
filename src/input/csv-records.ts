/**
 * Records, each with the line it starts on, from streamed CSV text, parsed by csv-parse.
 *
 * csv-parse is driven through its Node stream: each chunk is written and the records it completed
 * are read back right away, synchronously, so records cost no await each (its async iterator, one
 * await per record, took about half again as long on the million-row benchmark). Lines are counted
 * here rather than taken from its `info` option: `info` builds two objects per record (it doubled
 * the parse time) and counts a CRLF inside a quoted cell, and a lone CR, as two lines and one.
 * Its byte-by-byte parsing still costs about 4 s of CPU per million rows: a large file is parsed
 * in a worker thread (CsvRecordWorker), beside the validation (bench/README.md).
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { CsvError, type Parser, parse } from "csv-parse";
import { t } from "../i18n/index.js";

export type CsvSyntaxKind = "unclosed" | "stray-quote" | "after-quote" | "other";

export class CsvSyntaxError extends Error {
  constructor(
    readonly kind: CsvSyntaxKind,
    /** Cell of the record (1-based); csv-parse's own message for "other". */
    readonly detail: number | string,
    /** Physical line where the record with the problem starts (1-based). */
    readonly line: number,
  ) {
    super(syntaxMessage(kind, detail));
  }
}

function syntaxMessage(kind: CsvSyntaxKind, detail: number | string): string {
  switch (kind) {
    case "unclosed":
      return t("a quoted cell is never closed");
    case "stray-quote":
      return t("a quote inside an unquoted cell (cell {cell}); quote the whole cell", { cell: detail });
    case "after-quote":
      return t("text after a closing quote (cell {cell}); quote the whole cell", { cell: detail });
    default:
      return String(detail);
  }
}

export type RecordHandler = (fields: string[], line: number) => void;

/** Where records come from: csv-parse in this thread, or in a worker (see recordReader). */
export interface RecordReader {
  push(text: string): void | Promise<void>;
  end(): Promise<void>;
  close(): void;
}

export class CsvRecordReader implements RecordReader {
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

  close(): void {}

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
        return new CsvSyntaxError("unclosed", cell, this.line);
      case "INVALID_OPENING_QUOTE":
        return new CsvSyntaxError("stray-quote", cell, this.line);
      case "CSV_INVALID_CLOSING_QUOTE":
        return new CsvSyntaxError("after-quote", cell, this.line);
      default:
        return new CsvSyntaxError("other", error.message, this.line);
    }
  }
}

/** What the worker answers for each message: the records it completed, then any error. */
export interface WorkerReply {
  /** Fields joined by U+0000, records by U+0001: one string travels faster than arrays. */
  packed?: string;
  records?: string[][];
  lines: Int32Array;
  error?: { kind: CsvSyntaxKind; detail: number | string; line: number };
}

const WORKER = new URL("./csv-worker.js", import.meta.url);
/** Chunks the worker may parse ahead of the records handed on: bounded, so memory stays flat. */
const AHEAD = 8;

/**
 * csv-parse in a worker thread: a large file's parsing runs beside its validation, on the other
 * core, and the records come back a chunk at a time.
 */
class CsvRecordWorker implements RecordReader {
  private readonly worker: Worker;
  private readonly waiting: { resolve: (reply: WorkerReply) => void; reject: (error: unknown) => void }[] = [];
  private readonly replies: Promise<WorkerReply>[] = [];

  constructor(
    delimiter: string,
    private readonly onRecord: RecordHandler,
  ) {
    // Not unref'd: while the last replies are awaited nothing else may keep the process alive.
    // readCsvVouchers closes it in a finally.
    this.worker = new Worker(WORKER, { workerData: { delimiter } });
    this.worker.on("message", (reply: WorkerReply) => this.waiting.shift()?.resolve(reply));
    const fail = (error: unknown) => {
      for (const w of this.waiting.splice(0)) w.reject(error);
    };
    this.worker.on("error", fail);
    this.worker.on("exit", (code) => fail(new Error(`the CSV worker stopped (exit ${code})`)));
  }

  async push(text: string): Promise<void> {
    this.send({ text });
    while (this.replies.length > AHEAD) this.take(await (this.replies.shift() as Promise<WorkerReply>));
  }

  async end(): Promise<void> {
    this.send({ end: true });
    while (this.replies.length > 0) this.take(await (this.replies.shift() as Promise<WorkerReply>));
  }

  close(): void {
    void this.worker.terminate();
  }

  private send(message: { text?: string; end?: true }): void {
    const reply = new Promise<WorkerReply>((resolve, reject) => this.waiting.push({ resolve, reject }));
    // Awaited in turn later; a failure of the ones behind the first is not unhandled.
    reply.catch(() => {});
    this.replies.push(reply);
    this.worker.postMessage(message);
  }

  private take(reply: WorkerReply): void {
    const { lines } = reply;
    if (reply.packed !== undefined && lines.length > 0) {
      const rows = reply.packed.split("\u0001");
      for (let i = 0; i < rows.length; i++) this.onRecord((rows[i] as string).split("\u0000"), lines[i] as number);
    } else if (reply.records) {
      for (let i = 0; i < reply.records.length; i++) this.onRecord(reply.records[i] as string[], lines[i] as number);
    }
    if (reply.error) throw new CsvSyntaxError(reply.error.kind, reply.error.detail, reply.error.line);
  }
}

/** A worker for large input, when the built worker script is there (it is not under vitest). */
export function recordReader(delimiter: string, onRecord: RecordHandler, inWorker: boolean): RecordReader {
  if (inWorker && existsSync(fileURLToPath(WORKER))) return new CsvRecordWorker(delimiter, onRecord);
  return new CsvRecordReader(delimiter, onRecord);
}
