/**
 * Where a run keeps its vouchers between reading them and sending them. Every voucher is read and
 * validated before the first is sent (a batch goes whole or not at all), and lanes send in date
 * order, not file order; so all of them must be kept somewhere meanwhile. The first few thousand
 * stay in memory as they are; past that they go, as JSON lines, to a temporary file that is
 * unlinked as soon as it is opened: it holds customer data, and no crash can leave it behind.
 */

import { randomBytes } from "node:crypto";
import { readSync } from "node:fs";
import { type FileHandle, open, unlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FacturarError } from "../errors.js";
import { msg } from "../i18n/message.js";
import type { Envelope } from "../voucher/schema.js";

/** Vouchers kept as objects before the rest go to disk: a typical run never touches the disk. */
const IN_MEMORY = 2000;
/** Bytes gathered before one write to the spill file. */
const WRITE_CHUNK = 1 << 20;

export class SpillError extends FacturarError {
  constructor(dir: string, cause: Error) {
    super(
      msg("cannot keep this run's vouchers in {dir}: {message}", {
        dir,
        message: (cause as NodeJS.ErrnoException).code ?? cause.message,
      }),
      "unavailable",
      "spill.unwritable",
      msg(
        "a run of many vouchers keeps them in a temporary file while it works: make room there or make it writable, or point TMPDIR elsewhere",
      ),
    );
  }
}

/** Envelopes by default; any JSON value (a voucher's warnings) the same way. */
export class EnvelopeStore<T = Envelope> {
  private readonly held: T[] = [];
  /** Byte offset and length in the spill file of each voucher past IN_MEMORY. */
  private readonly offsets: number[] = [];
  private readonly lengths: number[] = [];
  private file?: FileHandle;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private written = 0;
  private readonly dir: string;

  constructor(private readonly inMemory = IN_MEMORY) {
    this.dir = tmpdir();
  }

  get size(): number {
    return this.held.length + this.offsets.length;
  }

  /** Keeps a voucher; returns its slot. */
  async add(envelope: T): Promise<number> {
    const slot = this.size;
    if (this.held.length < this.inMemory) {
      this.held.push(envelope);
      return slot;
    }
    const line = Buffer.from(JSON.stringify(envelope));
    this.offsets.push(this.written + this.pendingBytes);
    this.lengths.push(line.length);
    this.pending.push(line);
    this.pendingBytes += line.length;
    if (this.pendingBytes >= WRITE_CHUNK) await this.flush();
    return slot;
  }

  /** Writes what is still gathered: every voucher is added; from now on they are only read. */
  async seal(): Promise<void> {
    if (this.pendingBytes > 0) await this.flush();
  }

  /** The voucher in `slot`, as it was added (after seal). */
  async get(slot: number): Promise<T> {
    if (slot < this.held.length) return this.held[slot] as T;
    const i = slot - this.held.length;
    const bytes = Buffer.alloc(this.lengths[i] as number);
    try {
      // Synchronous: a few hundred bytes from the page cache cost less than a trip to the thread pool.
      readSync((this.file as FileHandle).fd, bytes, 0, bytes.length, this.offsets[i] as number);
    } catch (error) {
      throw new SpillError(this.dir, error as Error);
    }
    return JSON.parse(bytes.toString("utf8")) as T;
  }

  async close(): Promise<void> {
    this.pending = [];
    await this.file?.close().catch(() => {});
    this.file = undefined;
  }

  private async flush(): Promise<void> {
    const chunk = Buffer.concat(this.pending);
    this.pending = [];
    this.pendingBytes = 0;
    try {
      this.file ??= await this.create();
      let done = 0;
      while (done < chunk.length) {
        const { bytesWritten } = await this.file.write(chunk, done, chunk.length - done, this.written + done);
        done += bytesWritten;
      }
    } catch (error) {
      if (error instanceof SpillError) throw error;
      throw new SpillError(this.dir, error as Error);
    }
    this.written += chunk.length;
  }

  private async create(): Promise<FileHandle> {
    const path = join(this.dir, `facturar-vouchers-${process.pid}-${randomBytes(6).toString("hex")}`);
    try {
      const handle = await open(path, "wx+", 0o600);
      // Unlinked at once: the open handle keeps it until this process ends, however it ends.
      await unlink(path);
      return handle;
    } catch (error) {
      throw new SpillError(this.dir, error as Error);
    }
  }
}
