/**
 * An append-only log of text lines that is durable or says so (design.md "Never twice, never
 * lost"). One module for every such file (the sandbox's state, the client's journal), so that
 * the rules live in one place:
 *
 * - Opening truncates a torn tail, on disk, before anything is appended: a last fragment without
 *   "\n" (a write cut by a crash or a full disk), or a last line the caller's `isRecord` rejects.
 *   Without that, the next record would be glued to the fragment and lost on the next replay.
 *   A bad line with good lines after it is not a crash's doing: it is an error (CorruptLogError)
 *   unless the caller asks to skip it.
 * - Appending writes every byte or fails: `write` may write fewer bytes than asked (a disk
 *   filling up, `ulimit -f`, where Node gets a short count and then EFBIG because it ignores
 *   SIGXFSZ), so it loops, and a write of 0 bytes or an error ends it. A failed append truncates
 *   the file back to its size before the append, so no partial record stays behind, and rejects
 *   with DurableWriteError, which names the file and the cause.
 * - With `sync`, the append resolves only after fdatasync (the data and the size needed to read
 *   it back). After a failed fsync nothing the kernel held can be trusted (its dirty pages may
 *   have been dropped), so the log refuses every later append; so it does when it could not cut
 *   a failed append back. Reopening (a restart) replays what is really on disk.
 * - Appends are serialized: callers may call concurrently; each append is one write (or more
 *   only when the system writes short), so group commit costs one write and one fsync per group.
 */

import { type FileHandle, open, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { WordedError } from "../errors.js";
import { msg, type Text } from "../i18n/message.js";

/** A durable write did not happen: the file holds nothing of it (or the log refuses to go on). */
export class DurableWriteError extends WordedError {
  readonly path: string;
  readonly code?: string;
  constructor(path: string, cause: Text, code?: string, options?: { cause?: unknown }) {
    super(msg("cannot write {path}: {cause}", { path, cause }), options);
    this.path = path;
    if (code !== undefined) this.code = code;
  }
}

/** A line that is not a record, with good lines after it: not a torn write, so not dropped. */
export class CorruptLogError extends WordedError {
  readonly path: string;
  readonly line: number;
  constructor(path: string, line: number) {
    super(msg("{path}: line {value} is corrupt", { path, value: line }));
    this.path = path;
    this.line = line;
  }
}

/** The system calls an append makes; replaceable to inject faults (short writes, ENOSPC). */
export interface LogIo {
  /** Writes `length` bytes of `buffer` from `offset` at the end of the file; returns how many it wrote. */
  write(handle: FileHandle, buffer: Buffer, offset: number, length: number): Promise<number>;
  /** fdatasync. */
  sync(handle: FileHandle): Promise<void>;
}

const SYSTEM_IO: LogIo = {
  write: async (handle, buffer, offset, length) => (await handle.write(buffer, offset, length)).bytesWritten,
  sync: (handle) => handle.datasync(),
};

export interface AppendLogOptions {
  /** Mode of a file created by open (default 0o600). */
  mode?: number;
  /**
   * Whether a complete line is a record. Called exactly once per complete non-empty line, in
   * order, before open resolves (so a caller may keep what it parses there), with the line's
   * byte offset and length in the file (without its "\n"). Without it every complete line is a
   * record.
   */
  isRecord?: (line: string, at: number, length: number) => boolean;
  /** Skip a bad line in the middle instead of throwing CorruptLogError. */
  skipCorrupt?: boolean;
  /** Return the records' lines from open (default); a caller that keeps what isRecord parsed says false. */
  keepLines?: boolean;
  /** Fault injection (tests): replaces the write and fsync calls. */
  io?: Partial<LogIo>;
}

const NEWLINE = 0x0a;
const READ_CHUNK = 1 << 20;

function errorText(error: unknown): { text: string; code?: string } {
  const e = error as NodeJS.ErrnoException;
  if (typeof e?.code === "string") return { text: e.message, code: e.code };
  return { text: e instanceof Error ? e.message : String(error) };
}

export class AppendLog {
  /** The file's size after the last complete append: where a failed one is cut back to. */
  private size: number;
  private tail: Promise<unknown> = Promise.resolve();
  /** Set when the file can no longer be trusted to end at `size`: every append fails with it. */
  private broken?: DurableWriteError;
  private handle?: FileHandle;
  private readonly io: LogIo;

  private constructor(
    readonly path: string,
    handle: FileHandle,
    size: number,
    io: LogIo,
  ) {
    this.handle = handle;
    this.size = size;
    this.io = io;
  }

  /**
   * Opens (creating with `mode`, default 0o600) and reads the log. A torn tail (a final fragment
   * without "\n", or a final line that `isRecord` rejects) is truncated away on disk. A bad line
   * in the middle throws CorruptLogError unless `skipCorrupt`. Returns the complete non-empty
   * lines that are records, without "\n".
   */
  static async open(path: string, opts: AppendLogOptions = {}): Promise<{ log: AppendLog; lines: string[] }> {
    const created = !(await exists(path));
    // O_APPEND: every write goes to the end, wherever a truncation left it; reads start at 0.
    const mode = opts.mode ?? 0o600;
    const handle = await open(path, "a+", mode);
    try {
      // The mode applies to a new file only: one already there, wider (a sandbox.log of an older
      // version at 0644, holding credentials), is narrowed. Someone else's file is left alone.
      if (((await handle.stat()).mode & 0o777 & ~mode) !== 0)
        await handle.chmod(mode).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== "EPERM") throw error;
        });
      const { lines, keep, size } = await AppendLog.scan(path, handle, opts);
      if (keep < size) {
        await handle.truncate(keep);
        await handle.datasync();
      }
      if (created) await syncDirectory(dirname(path));
      return { log: new AppendLog(path, handle, keep, { ...SYSTEM_IO, ...opts.io }), lines };
    } catch (error) {
      await handle.close().catch(() => {});
      throw error;
    }
  }

  /**
   * Reads the records a chunk at a time (a journal of a million vouchers is never one string);
   * `keep` is the length of the part to keep (the torn tail cut off). Also for a reader that
   * does not append (nothing is cut then).
   */
  static async scan(
    path: string,
    handle: FileHandle,
    opts: AppendLogOptions,
  ): Promise<{ lines: string[]; keep: number; size: number }> {
    const lines: string[] = [];
    const isRecord = opts.isRecord;
    const chunk = Buffer.alloc(READ_CHUNK);
    let carry = Buffer.alloc(0);
    /** File offset of carry[0]. */
    let carryAt = 0;
    let size = 0;
    let lineNumber = 0;
    /** A line that was not a record: fine only if it turns out to be the last one (a torn write). */
    let suspect: { line: number; at: number } | undefined;
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, size);
      if (bytesRead === 0) break;
      size += bytesRead;
      const bytes =
        carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, bytesRead)]) : chunk.subarray(0, bytesRead);
      let from = 0;
      for (let nl = bytes.indexOf(NEWLINE, from); nl !== -1; nl = bytes.indexOf(NEWLINE, from)) {
        lineNumber++;
        const at = carryAt + from;
        if (nl > from) {
          // Something follows the suspect line: it was a bad line in the middle.
          if (suspect) {
            if (!opts.skipCorrupt) throw new CorruptLogError(path, suspect.line);
            suspect = undefined;
          }
          const line = bytes.toString("utf8", from, nl);
          if (!isRecord || isRecord(line, at, nl - from)) {
            if (opts.keepLines !== false) lines.push(line);
          } else suspect = { line: lineNumber, at };
        }
        from = nl + 1;
      }
      // Copied: `chunk` is reused by the next read.
      carry = Buffer.from(bytes.subarray(from));
      carryAt += from;
    }
    // Everything after the last "\n" is a fragment: never acknowledged, dropped.
    let keep = carryAt;
    if (suspect) {
      // The last line is not a record and nothing follows it: a torn write (its newline made
      // it, or a crash left garbage ending in one). Cut it and what follows it.
      if (keep === size) keep = suspect.at;
      else if (!opts.skipCorrupt) throw new CorruptLogError(path, suspect.line);
    }
    return { lines, keep, size };
  }

  /**
   * Appends `text` (one or more complete lines, each ending "\n"): every byte, or none of it
   * (the file is cut back and DurableWriteError thrown). With `sync`, fsynced before resolving.
   * Resolves to the byte offset in the file where `text` begins.
   */
  append(text: string, opts: { sync: boolean }): Promise<number> {
    const run = this.tail.then(() => this.write(text, opts.sync));
    this.tail = run.catch(() => {});
    return run;
  }

  private async write(text: string, sync: boolean): Promise<number> {
    if (this.broken) throw this.broken;
    const handle = this.handle;
    if (!handle) throw new DurableWriteError(this.path, msg("the log is closed"));
    if (text.length === 0) return this.size;
    if (!text.endsWith("\n")) throw new TypeError(`AppendLog.append: the text must end with "\\n" (${this.path})`);
    const buffer = Buffer.from(text, "utf8");
    const start = this.size;
    let written = 0;
    let synced = false;
    try {
      while (written < buffer.length) {
        let n: number;
        try {
          n = await this.io.write(handle, buffer, written, buffer.length - written);
        } catch (error) {
          const { text: cause, code } = errorText(error);
          throw new DurableWriteError(
            this.path,
            msg("{cause} ({written} of {total} bytes written)", { cause, written, total: buffer.length }),
            code,
            { cause: error },
          );
        }
        if (!(n > 0)) {
          throw new DurableWriteError(
            this.path,
            msg("short write: {written} of {total} bytes written", { written, total: buffer.length }),
          );
        }
        written += n;
      }
      if (sync) {
        synced = true;
        try {
          await this.io.sync(handle);
        } catch (error) {
          const { text: cause, code } = errorText(error);
          throw new DurableWriteError(this.path, msg("fsync failed: {cause}", { cause }), code, { cause: error });
        }
      }
    } catch (error) {
      const failure = error as DurableWriteError;
      // Cut the partial record away, and make the cut durable, so that a restart never finds it.
      let rolledBack = false;
      try {
        await handle.truncate(start);
        await handle.datasync();
        rolledBack = true;
      } catch {
        // a read-only or vanished file: the log cannot go on (see below)
      }
      if (!rolledBack || synced) this.broken = failure;
      throw failure;
    }
    this.size = start + buffer.length;
    return start;
  }

  /** Waits for the appends under way, then closes the file; later appends fail. */
  async close(): Promise<void> {
    await this.tail;
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close();
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}

/** Makes a new file's directory entry durable (best effort: not every system can fsync a folder). */
async function syncDirectory(dir: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, "r");
    await handle.sync();
  } catch {
    // Windows and some file systems refuse: nothing more can be done there
  } finally {
    await handle?.close().catch(() => {});
  }
}
