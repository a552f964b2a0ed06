/** Opens any input the commands take: .json, .csv, or `-` for standard input. */

import { createReadStream } from "node:fs";
import { type FileHandle, mkdtemp, open, readFile, rmdir, stat, unlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TextDecoder } from "node:util";
import { InputError } from "../errors.js";
import { concat, msg } from "../i18n/message.js";
import { detectDelimiter, readCsvVouchers } from "./csv.js";
import { parseJsonVouchers } from "./json.js";
import type { ReadOptions, SourceVoucher } from "./source.js";
import { placeOfByte, scanUtf8 } from "./utf8.js";

type Kind = "json" | "csv";

function kindOf(file: string): Kind | undefined {
  const lower = file.toLowerCase();
  if (lower.endsWith(".json")) return "json";
  if (lower.endsWith(".csv") || lower.endsWith(".txt")) return "csv";
  return undefined;
}

/** JSON starts with `{` or `[`; anything else is taken for CSV. */
function sniff(text: string): Kind {
  const first = text.trimStart()[0];
  return first === "{" || first === "[" ? "json" : "csv";
}

type Encoding = "utf8" | "latin1" | "utf-16le" | "utf-16be";

/**
 * A file that starts with a UTF-16 byte order mark (what spreadsheets save as "Unicode text") is
 * read as UTF-16, whatever was asked: read as UTF-8 or Latin-1 it would be noise.
 */
function withBom(head: Uint8Array, asked: "utf8" | "latin1"): Encoding {
  if (head[0] === 0xff && head[1] === 0xfe) return "utf-16le";
  if (head[0] === 0xfe && head[1] === 0xff) return "utf-16be";
  return asked;
}

/**
 * UTF-16 saved without a byte order mark: in its first KB, nearly every other byte is NUL (the
 * high byte of Latin letters, digits and punctuation), which neither UTF-8 nor Latin-1 text has.
 */
function bomlessUtf16(head: Uint8Array): boolean {
  const n = Math.min(head.length, 1024) & ~1;
  if (n < 8) return false;
  let low = 0;
  let high = 0;
  for (let i = 0; i < n; i += 2) {
    if (head[i] !== 0 && head[i + 1] === 0) low++;
    if (head[i] === 0 && head[i + 1] !== 0) high++;
  }
  return Math.max(low, high) >= 0.9 * (n / 2);
}

/** The encoding to read with (see withBom); UTF-16 without its mark is told, not read as noise. */
function encodingOf(file: string, head: Uint8Array, asked: "utf8" | "latin1"): Encoding {
  const encoding = withBom(head, asked);
  if (encoding === asked && bomlessUtf16(head)) {
    throw new InputError(
      concat(file, ": ", msg("the file looks like UTF-16 without a byte order mark")),
      file,
      msg('save it as UTF-8, or as UTF-16 with a byte order mark (what spreadsheets call "Unicode text")'),
    );
  }
  return encoding;
}

function decoder(encoding: Encoding): TextDecoder {
  // fatal: a byte that is not UTF-8 is an error to report, not a silent U+FFFD in a voucher.
  return encoding === "latin1"
    ? new TextDecoder("latin1")
    : new TextDecoder(encoding === "utf8" ? "utf-8" : encoding, { fatal: true });
}

/** Past this, one JSON document does not fit in one string (V8's limit is about 512 MB). */
const MAX_WHOLE_FILE = 400 * 1024 * 1024;

function tooLarge(file: string, size: number): InputError {
  return new InputError(
    concat(
      file,
      `: `,
      msg("the file is {mb} MB: too large to read as one JSON document", { mb: Math.round(size / 1024 / 1024) }),
    ),
    file,
    msg("split it into several files, or export the vouchers as CSV, which is read as it streams"),
  );
}

/** The file's bytes, once more, from the start (to scan them, to find a place in them). */
type Bytes = () => AsyncIterable<Uint8Array>;

/** Not UTF-8 where it must be (asked for, or UTF-8 letters elsewhere in it): said with the place. */
async function notUtf8(file: string, bytes: Bytes, at: number, csv: boolean, mixed: boolean): Promise<InputError> {
  const place = await placeOfByte(file, bytes(), at, csv);
  return new InputError(
    concat(place, ": ", mixed ? msg("not valid UTF-8, though the rest of the file is UTF-8") : msg("not valid UTF-8")),
    file,
    mixed
      ? msg("fix that character, or save the file again as UTF-8")
      : msg(
          "if it was saved as Windows-1252 (Excel's CSV in Spanish), pass --encoding latin1, or leave --encoding out",
        ),
  );
}

/** A file read as Windows-1252, told once: on stderr as it is read, in the first voucher's warnings. */
function readAsWindows1252(file: string) {
  return {
    severity: "warning" as const,
    code: "input.encoding",
    path: [],
    message: msg(
      "not valid UTF-8 and no byte order mark: read as Windows-1252 (what Excel saves as CSV in Spanish); --encoding utf8 refuses it instead",
    ),
    at: file,
  };
}

/**
 * The encoding to read with: the asked one, a byte order mark's, or, when none was asked, UTF-8
 * unless the bytes are not UTF-8 (then Windows-1252, `fallback` true). A file that is not UTF-8
 * where UTF-8 was asked, or that mixes UTF-8 letters with bytes that are not, is refused with the
 * first bad byte's row and column.
 */
async function chooseEncoding(
  file: string,
  head: Uint8Array,
  asked: "utf8" | "latin1" | undefined,
  bytes: Bytes,
  csv: boolean,
): Promise<{ encoding: Encoding; fallback: boolean }> {
  const encoding = encodingOf(file, head, asked ?? "utf8");
  if (encoding !== "utf8") return { encoding, fallback: false };
  const scan = await scanUtf8(bytes());
  if (scan.bad === undefined) return { encoding, fallback: false };
  const bom = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf;
  if (asked === "utf8" || bom || scan.multibyte)
    throw await notUtf8(file, bytes, scan.bad, csv, asked !== "utf8" && !bom);
  return { encoding: "latin1", fallback: true };
}

async function* fromBytes(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

async function decodeAll(
  file: string,
  bytes: Uint8Array,
  asked: "utf8" | "latin1" | undefined,
  csv: (text: string) => boolean,
): Promise<{ text: string; fallback: boolean }> {
  if (bytes.length > MAX_WHOLE_FILE) throw tooLarge(file, bytes.length);
  // Where a byte is told, the kind decides how: by the name, else by the start as Latin-1 shows it.
  const isCsv = csv(new TextDecoder("latin1").decode(bytes.subarray(0, HEAD_BYTES)).replace(/^\xEF\xBB\xBF/, ""));
  const { encoding, fallback } = await chooseEncoding(file, bytes, asked, () => fromBytes(bytes), isCsv);
  try {
    return { text: decoder(encoding).decode(bytes), fallback };
  } catch {
    throw new InputError(concat(file, ": ", msg("the file starts as UTF-16 but is not valid UTF-16")), file);
  }
}

/** The first voucher of a file read as Windows-1252 carries the warning that says so. */
async function* toldFirst(
  file: string,
  fallback: boolean,
  vouchers: AsyncIterable<SourceVoucher> | Iterable<SourceVoucher>,
) {
  let first = fallback;
  for await (const voucher of vouchers) {
    if (first) {
      voucher.readerFindings = [...voucher.readerFindings, readAsWindows1252(file)];
      first = false;
    }
    yield voucher;
  }
}

async function* decodeStream(file: string, stream: AsyncIterable<Buffer>, encoding: Encoding) {
  const d = decoder(encoding);
  try {
    for await (const chunk of stream) {
      const text = d.decode(chunk, { stream: true });
      if (text) yield text;
    }
    const tail = d.decode();
    if (tail) yield tail;
  } catch (error) {
    if (error instanceof InputError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ERR_ENCODING_INVALID_ENCODED_DATA") {
      // UTF-8 was scanned before it was read: only a file changed meanwhile fails here.
      if (encoding === "utf8") throw new InputError(concat(file, ": ", msg("the file is not valid UTF-8")), file);
      throw new InputError(concat(file, ": ", msg("the file starts as UTF-16 but is not valid UTF-16")), file);
    }
    if (code) throw new InputError(concat(file, ": ", msg("cannot be read ({code})", { code })), file);
    throw error;
  }
}

/** How much of an input's start is looked at: its byte order mark, its kind, UTF-16 without a mark. */
const HEAD_BYTES = 1024;

/** The first KB of a file (see HEAD_BYTES). */
async function head(file: string): Promise<Uint8Array> {
  try {
    const handle = await open(file, "r");
    try {
      const bytes = new Uint8Array(HEAD_BYTES);
      const { bytesRead } = await handle.read(bytes, 0, HEAD_BYTES, 0);
      return bytes.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch (error) {
    // A CSV file is looked at before it streams: what stops that is told as any unreadable file is.
    const { code, message } = error as NodeJS.ErrnoException;
    throw new InputError(concat(file, ": ", msg("cannot be read ({code})", { code: code ?? message })), file);
  }
}

/** Standard input written to a file no one else can see, to be read as a file is. */
interface Spool {
  handle: FileHandle;
  size: number;
  head: Uint8Array;
  kind: Kind | undefined;
}

/**
 * Standard input, spooled as it arrives to a temporary file unlinked at once (it goes with the
 * process, whatever happens), so that it is read with a file's bounded memory: a CSV streams, and
 * JSON meets the size limit while it arrives, not after it is all in memory.
 */
async function spoolStdin(
  label: string,
  stream: NodeJS.ReadableStream,
  asked: "utf8" | "latin1",
  maxJsonBytes: number,
): Promise<Spool> {
  // A temporary folder that cannot be written (full, read-only) is said as such, with its place.
  const cannot = (error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code;
    if (!code) return error;
    return new InputError(
      concat(label, ": ", msg("cannot be written to a temporary file in {dir} ({code})", { dir: tmpdir(), code })),
      label,
      msg("free some space there, or point TMPDIR at a folder with room"),
    );
  };
  let handle: FileHandle;
  try {
    const dir = await mkdtemp(join(tmpdir(), "facturar-stdin-"));
    const path = join(dir, "stdin");
    handle = await open(path, "w+", 0o600);
    await unlink(path);
    await rmdir(dir);
  } catch (error) {
    throw cannot(error);
  }
  const spool: Spool = { handle, size: 0, head: new Uint8Array(0), kind: undefined };
  try {
    for await (const chunk of stream) {
      const bytes = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
      if (spool.head.length < HEAD_BYTES) {
        spool.head = Buffer.concat([spool.head, bytes.subarray(0, HEAD_BYTES - spool.head.length)]);
        spool.kind ??= kindFromHead(label, spool.head, asked);
      }
      spool.size += bytes.length;
      if (spool.kind === "json" && spool.size > maxJsonBytes) throw tooLargeStdin(label, maxJsonBytes);
      await handle.write(bytes, 0, bytes.length, spool.size - bytes.length).catch((error) => {
        throw cannot(error);
      });
    }
    // Only blanks in the first KB: what follows decides, as for a file.
    spool.kind ??= spool.size > spool.head.length ? "csv" : undefined;
    return spool;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** JSON or CSV by the first character that is not blank, once there is one (see sniff). */
function kindFromHead(label: string, head: Uint8Array, asked: "utf8" | "latin1"): Kind | undefined {
  const encoding = head.length >= HEAD_BYTES ? encodingOf(label, head, asked) : withBom(head, asked);
  const text = new TextDecoder(encoding === "latin1" ? "latin1" : encoding === "utf8" ? "utf-8" : encoding).decode(
    head,
  );
  return text.trim() === "" ? undefined : sniff(text);
}

function tooLargeStdin(label: string, max: number): InputError {
  return new InputError(
    concat(
      label,
      `: `,
      msg("more than {mb} MB of JSON: too large to read as one JSON document", { mb: Math.round(max / 1024 / 1024) }),
    ),
    label,
    msg("split it into several files, or export the vouchers as CSV, which is read as it streams"),
  );
}

/** All of a spool's bytes (a JSON document is parsed whole; spoolStdin bounded its size). */
async function spooled(spool: Spool): Promise<Buffer> {
  const bytes = Buffer.allocUnsafe(spool.size);
  let at = 0;
  while (at < spool.size) {
    const { bytesRead } = await spool.handle.read(bytes, at, spool.size - at, at);
    if (bytesRead === 0) break;
    at += bytesRead;
  }
  return bytes.subarray(0, at);
}

async function* fromText(text: string): AsyncGenerator<string> {
  yield text;
}

export async function* readVouchers(file: string, opts: ReadOptions = {}): AsyncGenerator<SourceVoucher> {
  const asked = opts.encoding;
  const csvOptions = {
    ...(opts.delimiter ? { delimiter: opts.delimiter } : {}),
    ...(opts.decimalComma !== undefined ? { decimalComma: opts.decimalComma } : {}),
  };
  // The decoders take a byte order mark off: no text below starts with one.
  if (file === "-") {
    const label = "<stdin>";
    const spool = await spoolStdin(
      label,
      opts.stdin ?? process.stdin,
      asked ?? "utf8",
      opts.maxJsonBytes ?? MAX_WHOLE_FILE,
    );
    try {
      if (spool.kind === undefined) throw new InputError(concat(label, ": ", msg("no input")), label);
      if (spool.kind === "json") {
        const { text, fallback } = await decodeAll(label, await spooled(spool), asked, () => false);
        yield* toldFirst(label, fallback, parseJsonVouchers(label, text));
        return;
      }
      const bytes = () => spool.handle.createReadStream({ start: 0, highWaterMark: 1 << 16, autoClose: false });
      const { encoding, fallback } = await chooseEncoding(label, spool.head, asked, bytes, true);
      const stream = bytes();
      try {
        yield* toldFirst(label, fallback, readCsvVouchers(label, decodeStream(label, stream, encoding), csvOptions));
      } finally {
        stream.destroy();
      }
    } finally {
      await spool.handle.close();
    }
    return;
  }
  const size = await inputSize(file);
  let kind = kindOf(file);
  // Told before a byte is read: reading it whole would only fail later, with the memory spent.
  if (kind === "json" && size > MAX_WHOLE_FILE) throw tooLarge(file, size);
  if (kind === "json" || kind === undefined) {
    const bytes = await readFile(file).catch((error: NodeJS.ErrnoException) => {
      throw new InputError(
        concat(file, ": ", msg("cannot be read ({code})", { code: error.code ?? error.message })),
        file,
      );
    });
    const known = kind;
    const { text, fallback } = await decodeAll(file, bytes, asked, (start) => (known ?? sniff(start)) === "csv");
    kind ??= sniff(text);
    if (kind === "json") {
      yield* toldFirst(file, fallback, parseJsonVouchers(file, text));
      return;
    }
    yield* toldFirst(file, fallback, readCsvVouchers(file, fromText(text), csvOptions));
    return;
  }
  const bytes = () => createReadStream(file, { highWaterMark: 1 << 16 });
  const { encoding, fallback } = await chooseEncoding(file, await head(file), asked, bytes, true);
  const stream = bytes();
  try {
    yield* toldFirst(file, fallback, readCsvVouchers(file, decodeStream(file, stream, encoding), csvOptions));
  } finally {
    stream.destroy();
  }
}

/** The first bytes of a file, as Latin-1 (enough to see its kind and its header's delimiter). */
async function peek(file: string): Promise<string | undefined> {
  try {
    const handle = await open(file, "r");
    try {
      const bytes = Buffer.alloc(64 * 1024);
      const { bytesRead } = await handle.read(bytes, 0, bytes.length, 0);
      return bytes.subarray(0, bytesRead).toString("latin1");
    } finally {
      await handle.close();
    }
  } catch {
    // Unreadable: reading it says why.
    return undefined;
  }
}

/**
 * The delimiter these inputs use, for what is written back (the report): that of their CSV files
 * when they agree and no JSON is among them, none otherwise (the language decides). Standard input
 * cannot be looked at before it is read, so it counts for nothing; `--delimiter` decides for every input.
 */
/** An input file's size; InputError (exit 2) when it is missing, a folder, or cannot be read. */
export async function inputSize(file: string): Promise<number> {
  try {
    const info = await stat(file);
    if (info.isDirectory()) throw new InputError(concat(file, ": ", msg("is a folder, not a voucher file")), file);
    return info.size;
  } catch (error) {
    if (error instanceof InputError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(
      concat(
        file,
        `: `,
        code === "ENOENT"
          ? msg("no such file")
          : msg("cannot be read ({code})", { code: code ?? (error as Error).message }),
      ),
      file,
    );
  }
}

export async function inputDelimiter(files: string[], opts: ReadOptions = {}): Promise<"," | ";" | undefined> {
  if (opts.delimiter) return opts.delimiter;
  const seen = new Set<string>();
  for (const file of files) {
    if (file === "-") continue;
    if (kindOf(file) === "json") {
      seen.add("json");
      continue;
    }
    const text = await peek(file);
    if (text === undefined) continue;
    const body = text.replace(/^(\xEF\xBB\xBF|\xFF\xFE|\xFE\xFF)/, "").replace(/\0/g, "");
    seen.add(sniff(body) === "json" ? "json" : detectDelimiter(body.split(/\r?\n/, 1)[0] ?? ""));
  }
  if (seen.size !== 1 || seen.has("json")) return undefined;
  return seen.has(";") ? ";" : ",";
}
