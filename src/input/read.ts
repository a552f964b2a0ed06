/** Opens any input the commands take: .json, .csv, or `-` for standard input. */

import { createReadStream } from "node:fs";
import { open, readFile, stat } from "node:fs/promises";
import { TextDecoder } from "node:util";
import { InputError } from "../errors.js";
import { t } from "../i18n/index.js";
import { readCsvVouchers } from "./csv.js";
import { parseJsonVouchers } from "./json.js";
import type { ReadOptions, SourceVoucher } from "./source.js";

type Kind = "json" | "csv";

function kindOf(file: string): Kind | undefined {
  const lower = file.toLowerCase();
  if (lower.endsWith(".json")) return "json";
  if (lower.endsWith(".csv") || lower.endsWith(".txt")) return "csv";
  return undefined;
}

/** JSON starts with `{` or `[`; anything else is taken for CSV. */
function sniff(text: string): Kind {
  const first = text.replace(/^\uFEFF/, "").trimStart()[0];
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
    `${file}: ${t("the file is {mb} MB: too large to read as one JSON document", { mb: Math.round(size / 1024 / 1024) })}`,
    file,
    t("split it into several files, or export the vouchers as CSV, which is read as it streams"),
  );
}

function decodeAll(file: string, bytes: Uint8Array, asked: "utf8" | "latin1"): string {
  const encoding = withBom(bytes, asked);
  if (bytes.length > MAX_WHOLE_FILE) throw tooLarge(file, bytes.length);
  try {
    return decoder(encoding).decode(bytes);
  } catch {
    if (encoding !== asked)
      throw new InputError(`${file}: ${t("the file starts as UTF-16 but is not valid UTF-16")}`, file);
    throw new InputError(
      `${file}: ${t("the file is not valid UTF-8")}`,
      file,
      t("if it was saved as Latin-1, pass --encoding latin1"),
    );
  }
}

async function* decodeStream(file: string, stream: AsyncIterable<Buffer>, encoding: Encoding) {
  const d = decoder(encoding);
  let offset = 0;
  try {
    for await (const chunk of stream) {
      const text = d.decode(chunk, { stream: true });
      offset += chunk.length;
      if (text) yield text;
    }
    const tail = d.decode();
    if (tail) yield tail;
  } catch (error) {
    if (error instanceof InputError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ERR_ENCODING_INVALID_ENCODED_DATA") {
      if (encoding !== "utf8")
        throw new InputError(`${file}: ${t("the file starts as UTF-16 but is not valid UTF-16")}`, file);
      throw new InputError(
        `${file}: ${t("the file is not valid UTF-8 (near byte {offset})", { offset })}`,
        file,
        t("if it was saved as Latin-1, pass --encoding latin1"),
      );
    }
    if (code) throw new InputError(`${file}: ${t("cannot be read ({code})", { code })}`, file);
    throw error;
  }
}

/** The first two bytes of a file (its byte order mark, if any). */
async function head(file: string): Promise<Uint8Array> {
  const handle = await open(file, "r");
  try {
    const bytes = new Uint8Array(2);
    const { bytesRead } = await handle.read(bytes, 0, 2, 0);
    return bytes.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

async function readStdin(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

async function* fromText(text: string): AsyncGenerator<string> {
  yield text;
}

export async function* readVouchers(file: string, opts: ReadOptions = {}): AsyncGenerator<SourceVoucher> {
  const encoding = opts.encoding ?? "utf8";
  const csvOptions = {
    ...(opts.delimiter ? { delimiter: opts.delimiter } : {}),
    ...(opts.decimalComma !== undefined ? { decimalComma: opts.decimalComma } : {}),
  };
  if (file === "-") {
    const label = "<stdin>";
    const text = decodeAll(label, await readStdin(opts.stdin ?? process.stdin), encoding);
    if (text.trim() === "") throw new InputError(`${label}: ${t("no input")}`, label);
    if (sniff(text) === "json") yield* parseJsonVouchers(label, text.replace(/^\uFEFF/, ""));
    else yield* readCsvVouchers(label, fromText(text), csvOptions);
    return;
  }
  let size = 0;
  try {
    const info = await stat(file);
    if (info.isDirectory()) throw new InputError(`${file}: ${t("is a folder, not a voucher file")}`, file);
    size = info.size;
  } catch (error) {
    if (error instanceof InputError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(
      `${file}: ${code === "ENOENT" ? t("no such file") : t("cannot be read ({code})", { code: code ?? (error as Error).message })}`,
      file,
    );
  }
  let kind = kindOf(file);
  // Told before a byte is read: reading it whole would only fail later, with the memory spent.
  if (kind === "json" && size > MAX_WHOLE_FILE) throw tooLarge(file, size);
  if (kind === "json" || kind === undefined) {
    const bytes = await readFile(file).catch((error: NodeJS.ErrnoException) => {
      throw new InputError(`${file}: ${t("cannot be read ({code})", { code: error.code ?? error.message })}`, file);
    });
    const text = decodeAll(file, bytes, encoding);
    kind ??= sniff(text);
    if (kind === "json") {
      yield* parseJsonVouchers(file, text.replace(/^\uFEFF/, ""));
      return;
    }
    yield* readCsvVouchers(file, fromText(text), csvOptions);
    return;
  }
  const stream = createReadStream(file, { highWaterMark: 1 << 16 });
  try {
    yield* readCsvVouchers(file, decodeStream(file, stream, withBom(await head(file), encoding)), csvOptions);
  } finally {
    stream.destroy();
  }
}
