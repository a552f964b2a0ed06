/**
 * The local journal (design.md "Never twice, never lost"): the service is the source of truth,
 * the journal is its memory. One append-only file per ACCOUNT in `$XDG_STATE_HOME/facturar` —
 * the service's address, the point of sale and a hash of the usertoken, never a profile's name
 * and never the token — so two profile names for one account share it and another service never
 * does. `sending` is fsynced before every send; a torn tail is truncated on open; a lock refuses
 * a second run on the same journal.
 */

import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readSync } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { uptime } from "node:os";
import { join } from "node:path";
import type { AccountKey } from "../api/connection.js";
import { AppendLog, DurableWriteError } from "../durable/append-log.js";
import { diskCause, isDiskError } from "../durable/disk.js";
import { acquireLock, currentBoot, type HeldLock, LockBusyError, sameBoot } from "../durable/lock.js";
import { FacturarError } from "../errors.js";
import { msg, storedTexts, type Text } from "../i18n/message.js";
import { voucherNumber, voucherTypeInfo } from "../voucher/codes.js";
import { dayNumber } from "../voucher/dates.js";
import type { ServiceVoucher } from "../voucher/held.js";
import { DEFAULTED, defaultedFields } from "../voucher/validate.js";

/**
 * `held`: journaled ahead as sending, then not sent (its lane broke, or a stop came).
 * `queue-error`: the service's queue holds it with an error (it is re-queued, never replaced).
 * `deleted`: taken out of the service's queue; it may be sent again.
 */
export type JournalState =
  | "sending"
  | "issued"
  | "queued"
  | "queue-error"
  | "rejected"
  | "unknown"
  | "held"
  | "deleted";

export interface JournalEntry {
  ref: string;
  state: JournalState;
  at: string;
  mode: "instant" | "queued";
  tipo?: string;
  punto_venta?: number;
  numero?: number;
  comprobante_nro?: string;
  cae?: string;
  vencimiento_cae?: string;
  vencimiento_pago?: string;
  fecha?: string;
  total?: string;
  pdf?: string | null;
  ticket?: string | null;
  /** Issued, but a document could not be saved: the next run fetches it into `out_dir`. */
  documents_missing?: boolean;
  out_dir?: string;
  /** What went wrong: the service's words, or our messages as data (said by `facturar journal`). */
  errors?: Text[];
  observations?: string[];
  /** E-mailed by the service when issued, to these addresses (absent: not e-mailed, or not said). */
  envio_x_mail_direcciones?: string[];
  /** Where the voucher came from: `file.csv:rows 2-5`. */
  source?: string;
  /** The content sent under this reference (see contentDigest). */
  digest?: string;
  /** When it was last sent (wall clock, for people): the service may still be processing it for a while after. */
  sent_at?: string;
  /** The same moment on the monotonic clock (see monotonicMs), which the settle window is measured on… */
  sent_mono?: number;
  /** …valid within this boot of the machine (see currentBoot). */
  boot?: string;
  /** A purchase: its point of sale is its supplier's, so it says nothing of this account's lanes. */
  operacion?: "C";
}

export function accountId(key: AccountKey): string {
  const user = createHash("sha256").update(key.usertoken).digest("hex");
  return createHash("sha256")
    .update(`${key.service}\n${key.punto_venta ?? ""}\n${user}`)
    .digest("hex")
    .slice(0, 20);
}

/** The journal cannot be read or written (a read-only or full disk, permissions): nothing more is sent. */
export class JournalUnwritableError extends FacturarError {
  constructor(path: string, cause: Error) {
    super(
      msg("the journal {path} cannot be used: {message}", {
        path,
        message: isDiskError(cause) ? diskCause(cause, path) : cause.message,
      }),
      "unavailable",
      "journal.unwritable",
      msg(
        "free some space or fix the folder's permissions (XDG_STATE_HOME), then run again: what was sent is asked of the service",
      ),
    );
  }
}

/** Errors of the file system, as opposed to bugs. */
function fileSystemError(error: unknown): error is Error {
  return (
    error instanceof DurableWriteError ||
    (error instanceof Error &&
      typeof (error as NodeJS.ErrnoException).code === "string" &&
      /^E[A-Z]+$/.test((error as NodeJS.ErrnoException).code as string))
  );
}

export class JournalBusyError extends FacturarError {
  constructor(profile: string, pid: number) {
    super(
      msg(
        "another facturar run (process {pid}) is issuing on the journal of this account (profile {profile}); two runs on one journal would interleave",
        {
          pid,
          profile,
        },
      ),
      "usage",
      "journal.busy",
      msg("wait for it to finish; if that process is gone, run again (its lock is then taken over)"),
    );
  }
}

/** What the journal says of a voucher the service reports (one mapping, from the one classifier). */
export function entryFromService(found: ServiceVoucher, mode: "instant" | "queued"): Omit<JournalEntry, "at"> {
  const state: JournalState = found.state === "issued" ? "issued" : found.state === "queued" ? "queued" : "queue-error";
  return {
    ref: found.external_reference,
    state,
    mode: state === "issued" ? mode : "queued",
    ...(found.tipo ? { tipo: found.tipo } : {}),
    ...(found.punto_venta !== null ? { punto_venta: found.punto_venta } : {}),
    ...(found.numero !== null ? { numero: found.numero } : {}),
    ...(found.numero !== null && found.punto_venta !== null
      ? { comprobante_nro: voucherNumber(found.punto_venta, found.numero) }
      : {}),
    ...(found.cae ? { cae: found.cae } : {}),
    ...(found.vencimiento_cae ? { vencimiento_cae: found.vencimiento_cae } : {}),
    ...(found.vencimiento_pago ? { vencimiento_pago: found.vencimiento_pago } : {}),
    ...(found.fecha ? { fecha: found.fecha } : {}),
    ...(found.total ? { total: found.total } : {}),
    ...(found.observations.length ? { observations: found.observations } : {}),
    ...(state === "queue-error" ? { errors: found.errors } : {}),
  };
}

/** Settled in the journal alone: sent, and the service said issued. Anything else is asked of the service. */
export function settledInJournal(entry: Pick<JournalEntry, "state"> | undefined): boolean {
  return entry !== undefined && entry.state === "issued";
}

/** May this voucher have reached the service without an answer coming back? */
export function inFlight(entry: Pick<JournalEntry, "state"> | undefined): boolean {
  return entry !== undefined && (entry.state === "sending" || entry.state === "unknown");
}

/**
 * Milliseconds on the clock every process of one boot shares (the kernel's monotonic clock): an
 * NTP step or a resumed virtual machine moves the wall clock, never this one.
 */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint() / 1_000_000n);
}

/**
 * At least how long ago (ms) a voucher was last sent, as its `sending` entry recorded it: on the
 * monotonic clock within one boot; sent in an earlier boot, at least as long ago as this boot
 * began (the machine's uptime); journaled without it, 0. Never more than the truth, so the settle
 * window counted from it asks for longer, never less, whatever the wall clock did.
 */
export function sinceSent(
  entry: JournalEntry,
  now: () => number = monotonicMs,
  boot: string | undefined = currentBoot(),
): number {
  if (entry.sent_mono === undefined || entry.boot === undefined || boot === undefined) return 0;
  if (sameBoot(entry.boot, boot)) return Math.max(0, now() - entry.sent_mono);
  // Another boot for sure only by the kernel's boot id: boots told apart by the wall clock
  // (`t<seconds>`, where there is none) may be one boot whose clock stepped.
  if (entry.boot.startsWith("t") || boot.startsWith("t")) return 0;
  return Math.max(0, uptime() * 1000);
}

/** A new journal's first line: whose it is, for a person reading the file. */
function accountHeader(key: AccountKey, profile: string) {
  return { t: "account", service: key.service, punto_venta: key.punto_venta ?? null, profile };
}

function parseRecord(line: string): (Partial<JournalEntry> & { t?: string }) | undefined {
  try {
    const value = JSON.parse(line);
    if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
    // Said later by `facturar journal` and carried into results: only words and messages as we
    // write them; a line edited by hand is quoted, never said as a message.
    if ("errors" in value) value.errors = storedTexts(value.errors);
    return value;
  } catch {
    return undefined;
  }
}

/**
 * Where each reference's lines lie in the journal file. A number per reference in a Map; the
 * offset and length of its first two lines (most have two: sending, then the outcome) in typed
 * arrays; any more in a side list. About a hundred bytes a reference.
 */
class LineIndex {
  private readonly ids = new Map<string, number>();
  private at = new Float64Array(2048);
  /** 0: no such line (no line is empty). */
  private length = new Uint32Array(2048);
  private readonly more = new Map<number, number[]>();
  /** The state of each reference's last line (1 + its index in STATES; 0 none). */
  private last = new Uint8Array(1024);

  add(ref: string, at: number, length: number, state: number | undefined): void {
    let id = this.ids.get(ref);
    if (id === undefined) {
      id = this.ids.size;
      this.ids.set(ref, id);
      if (2 * id + 1 >= this.at.length) this.grow();
      this.last[id] = state ?? 0;
      this.at[2 * id] = at;
      this.length[2 * id] = length;
      return;
    }
    if (state !== undefined) this.last[id] = state;
    if (this.length[2 * id + 1] === 0) {
      this.at[2 * id + 1] = at;
      this.length[2 * id + 1] = length;
    } else {
      const list = this.more.get(id);
      if (list) list.push(at, length);
      else this.more.set(id, [at, length]);
    }
  }

  /** Offset, length, offset, length… of the reference's lines, oldest first. */
  of(ref: string): number[] | undefined {
    const id = this.ids.get(ref);
    if (id === undefined) return undefined;
    const where = [this.at[2 * id] as number, this.length[2 * id] as number];
    if (this.length[2 * id + 1]) where.push(this.at[2 * id + 1] as number, this.length[2 * id + 1] as number);
    where.push(...(this.more.get(id) ?? []));
    return where;
  }

  /** The last line's state code of a reference (see add), without reading it. */
  stateOf(ref: string): number | undefined {
    const id = this.ids.get(ref);
    return id === undefined ? undefined : this.last[id];
  }

  refs(): IterableIterator<string> {
    return this.ids.keys();
  }

  private grow(): void {
    const at = new Float64Array(this.at.length * 2);
    at.set(this.at);
    this.at = at;
    const length = new Uint32Array(this.length.length * 2);
    length.set(this.length);
    this.length = length;
    const last = new Uint8Array(this.last.length * 2);
    last.set(this.last);
    this.last = last;
  }
}

const STATES: readonly JournalState[] = [
  "sending",
  "issued",
  "queued",
  "queue-error",
  "rejected",
  "unknown",
  "held",
  "deleted",
];

/** Entries kept parsed, most recent first out last. */
const RECENT = 256;

export interface JournalOptions {
  lock: boolean;
  /** Only to read it (`facturar journal`): nothing is created, cut or written. */
  readOnly?: boolean;
  /** The profile's name, for messages. */
  profile: string;
  /**
   * TESTS ONLY (FACTURAR_TEST_JOURNAL_FULL_AT): the journal file behaves as on a full disk once
   * it would grow past this many bytes (a write that would cross it fails with ENOSPC), so a
   * test can fill the disk mid-run without mounting one.
   */
  fullAtBytes?: number;
}

/** The test-only variable setting JournalOptions.fullAtBytes. */
export const TEST_JOURNAL_FULL_AT = "FACTURAR_TEST_JOURNAL_FULL_AT";

/** JournalOptions.fullAtBytes from the environment, for tests; undefined when unset or not a whole number. */
export function testJournalLimit(env: NodeJS.ProcessEnv): number | undefined {
  const value = env[TEST_JOURNAL_FULL_AT] ?? "";
  // Digits only: Number() would read " " as 0, a disk full from the first byte.
  return /^\d+$/.test(value) ? Number(value) : undefined;
}

/** Writes that fail with ENOSPC past `limit` bytes of file (see JournalOptions.fullAtBytes). */
function fullDiskAt(limit: number) {
  return {
    write: async (handle: FileHandle, buffer: Buffer, offset: number, length: number) => {
      if ((await handle.stat()).size + length > limit)
        throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
      return (await handle.write(buffer, offset, length)).bytesWritten;
    },
  };
}

export class Journal {
  /**
   * Where each reference's lines are in the file: offset, length, offset, length… A journal of
   * a million vouchers costs a few dozen bytes each in memory; an entry is read back when asked.
   */
  private readonly lines = new LineIndex();
  /** Entries read back lately: a lane asks about its voucher several times. */
  private readonly recent = new Map<string, JournalEntry>();
  /** References whose documents an earlier run could not save. */
  private readonly missing = new Set<string>();
  /** The latest date issued in each lane (`pv|tipo`), from the issued entries that name it. */
  private readonly laneDays = new Map<string, number>();
  /** The file the lines are read back from. */
  private reader?: FileHandle;
  private log?: AppendLog;
  private lock?: HeldLock;

  private constructor(
    readonly path: string,
    readonly account: string,
  ) {}

  /** Opens the account's journal; with `lock`, refuses while another live run holds it. */
  static async open(dir: string, key: AccountKey, opts: JournalOptions): Promise<Journal> {
    const id = accountId(key);
    const path = join(dir, `journal-${id}.jsonl`);
    const journal = new Journal(path, id);
    if (opts.readOnly) {
      await journal.readOnly();
      return journal;
    }
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      if (opts.lock) journal.lock = acquireLock(join(dir, `journal-${id}.lock`));
    } catch (error) {
      if (error instanceof LockBusyError) throw new JournalBusyError(opts.profile, error.holder.pid);
      if (fileSystemError(error)) throw new JournalUnwritableError(path, error);
      throw error;
    }
    try {
      const fresh = !existsSync(path);
      // Each complete line is parsed once, as the log reads it; a torn last one is cut off.
      const { log } = await AppendLog.open(path, {
        mode: 0o600,
        keepLines: false,
        skipCorrupt: true,
        isRecord: (line, at, length) => journal.index(line, at, length),
        ...(opts.fullAtBytes !== undefined ? { io: fullDiskAt(opts.fullAtBytes) } : {}),
      });
      journal.log = log;
      journal.reader = await open(path, "r");
      if (fresh) await log.append(`${JSON.stringify(accountHeader(key, opts.profile))}\n`, { sync: true });
    } catch (error) {
      await journal.close().catch(() => {});
      journal.lock?.release();
      if (fileSystemError(error)) throw new JournalUnwritableError(path, error);
      throw error;
    }
    return journal;
  }

  /** What the journal holds, read only; none yet is an empty journal. */
  private async readOnly(): Promise<void> {
    try {
      this.reader = await open(this.path, "r");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
      throw new JournalUnwritableError(this.path, error as Error);
    }
    try {
      await AppendLog.scan(this.path, this.reader, {
        keepLines: false,
        skipCorrupt: true,
        isRecord: (line, at, length) => this.index(line, at, length),
      });
    } catch (error) {
      throw new JournalUnwritableError(this.path, error as Error);
    }
  }

  /** Notes where a line of `ref` lies; true when it is a record. */
  private index(line: string, at: number, length: number): boolean {
    const record = parseRecord(line);
    if (record) this.apply(record, at, length);
    return record !== undefined;
  }

  private apply(record: Partial<JournalEntry> & { t?: string }, at: number, length: number): void {
    const ref = record.ref;
    if (typeof ref !== "string" || ref === "") return;
    const state = STATES.indexOf(record.state as JournalState);
    this.lines.add(ref, at, length, state < 0 ? undefined : state + 1);
    if (
      record.state === "issued" &&
      record.fecha &&
      record.tipo &&
      record.punto_venta !== undefined &&
      record.operacion !== "C"
    ) {
      const lane = `${record.punto_venta}|${record.tipo}`;
      const day = dayNumber(record.fecha);
      if (!((this.laneDays.get(lane) ?? Number.NEGATIVE_INFINITY) >= day)) this.laneDays.set(lane, day);
    }
    if ("documents_missing" in record) {
      if (record.documents_missing) this.missing.add(ref);
      else this.missing.delete(ref);
    }
    const known = this.recent.get(ref);
    if (known) this.recent.set(ref, this.merge(known, record));
  }

  private merge(before: JournalEntry | undefined, record: Partial<JournalEntry>): JournalEntry {
    return { ...before, ...record } as JournalEntry;
  }

  /** The day of the latest voucher this journal saw issued in a lane, if any. */
  lastIssuedDay(puntoVenta: number, tipo: string): number | undefined {
    return this.laneDays.get(`${puntoVenta}|${tipo}`);
  }

  get(ref: string): JournalEntry | undefined {
    const known = this.recent.get(ref);
    if (known) return known;
    const where = this.lines.of(ref);
    if (!where || !this.reader) return undefined;
    let entry: JournalEntry | undefined;
    for (let i = 0; i < where.length; i += 2) entry = this.merge(entry, this.readLine(where[i], where[i + 1]));
    if (this.recent.size >= RECENT) this.recent.delete(this.recent.keys().next().value as string);
    this.recent.set(ref, entry as JournalEntry);
    return entry;
  }

  all(): JournalEntry[] {
    return [...this.lines.refs()].map((ref) => this.get(ref) as JournalEntry);
  }

  /** A reference's state, without reading its entry. */
  stateOf(ref: string): Pick<JournalEntry, "state"> | undefined {
    const code = this.lines.stateOf(ref);
    return code ? { state: STATES[code - 1] as JournalState } : undefined;
  }

  /** Issued vouchers whose documents an earlier run could not save. */
  withMissingDocuments(): JournalEntry[] {
    return [...this.missing]
      .map((ref) => this.get(ref) as JournalEntry)
      .filter((e) => e.state === "issued" && e.documents_missing);
  }

  private readLine(at: number | undefined, length: number | undefined): Partial<JournalEntry> {
    const bytes = Buffer.alloc(length ?? 0);
    try {
      readSync((this.reader as FileHandle).fd, bytes, 0, bytes.length, at ?? 0);
    } catch (error) {
      throw new JournalUnwritableError(this.path, error as Error);
    }
    return parseRecord(bytes.toString("utf8")) ?? {};
  }

  /**
   * Appends entries. A `sending` entry is fsynced before this resolves: it is the promise to ask
   * the service before sending again. Later states are not: if a crash loses one, the entry is
   * still `sending`, and the next run asks the service, which knows.
   */
  async record(entry: Omit<JournalEntry, "at">): Promise<JournalEntry> {
    const [full] = await this.recordAll([entry]);
    return full as JournalEntry;
  }

  /** Several entries in one write (and at most one fsync). */
  async recordAll(entries: Omit<JournalEntry, "at">[]): Promise<JournalEntry[]> {
    if (!this.log) throw new Error("the journal is closed");
    const at = new Date().toISOString();
    const written = entries.map((entry) => ({ ...entry, at }));
    const texts = written.map((entry) => JSON.stringify(entry));
    let start: number;
    try {
      start = await this.log.append(`${texts.join("\n")}\n`, { sync: entries.some((e) => e.state === "sending") });
    } catch (error) {
      if (fileSystemError(error)) throw new JournalUnwritableError(this.path, error);
      throw error;
    }
    // Applied once on disk: what the journal says in memory it also says after a crash.
    this.applyWritten(written, texts, start);
    return written.map((entry) => this.get(entry.ref) as JournalEntry);
  }

  /** Indexes records just appended as `texts`, one a line, from byte `start`. */
  private applyWritten(records: Partial<JournalEntry>[], texts: string[], start: number): void {
    let at = start;
    records.forEach((record, i) => {
      const length = Buffer.byteLength(texts[i] as string);
      this.apply(record, at, length);
      at += length + 1;
    });
  }

  async close(): Promise<void> {
    await this.reader?.close().catch(() => {});
    this.reader = undefined;
    await this.log?.close();
    this.log = undefined;
    this.lock?.release();
    this.lock = undefined;
  }
}

/** Sorted-key JSON: the same voucher always gives the same text. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      // An object's keys are unique: never equal.
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

function content(envelope: { comprobante: Record<string, unknown> } & Record<string, unknown>): unknown {
  const { $schema: _s, usertoken: _u, apikey: _k, apitoken: _t, [DEFAULTED]: _d, ...rest } = envelope;
  const { external_reference: _r, numero: _n, ...comprobante } = envelope.comprobante;
  // Dates filled in from today are not what the file says: sent again tomorrow, it is the same voucher.
  for (const field of defaultedFields(envelope)) delete comprobante[field];
  return { ...rest, comprobante };
}

/** A digest of what a voucher says (not its reference, number or credentials). */
export function contentDigest(envelope: { comprobante: Record<string, unknown> } & Record<string, unknown>): string {
  return createHash("sha256")
    .update(canonical(content(envelope)))
    .digest("hex");
}

/**
 * A reference derived from the voucher's content, for input that has none: the same file sent
 * twice is the same voucher, and is not issued twice. The point of sale is outside the digest
 * and appended once known, so a file that names the profile's point of sale and one that leaves
 * it out derive the same reference. Unknown yet (the profile is read later), the reference is
 * incomplete until withPointOfSale completes it.
 */
export function derivedReference(
  envelope: { comprobante: Record<string, unknown> } & Record<string, unknown>,
  puntoVenta: number | undefined,
): string {
  const { punto_venta, ...comprobante } = envelope.comprobante;
  const stem = `F-${contentDigest({ ...envelope, comprobante }).slice(0, 24)}`;
  const point = punto_venta ?? puntoVenta;
  return point === undefined ? stem : withPointOfSale(stem, Number(point));
}

/** Crockford's base 32: no I, L, O or U, so a code read aloud is not misheard. */
const SAYABLE = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const KIND_LETTERS: Record<string, string> = { invoice: "F", credit: "NC", debit: "ND", receipt: "R", settlement: "L" };

/**
 * A reference a person can read and say back on the phone, for a voucher typed by hand:
 * `FB-2711-7KQ3M` (its type, its day and month, five letters of its content's digest). Derived
 * from the content as derivedReference is, so the same voucher typed twice the same day gets the
 * same reference, and is not issued twice; two different ones share it once in 33 million.
 */
export function readableReference(
  envelope: { comprobante: Record<string, unknown> } & Record<string, unknown>,
): string {
  const { punto_venta: _p, ...comprobante } = envelope.comprobante;
  const digest = BigInt(`0x${contentDigest({ ...envelope, comprobante }).slice(0, 10)}`);
  let code = "";
  for (let i = 0; i < 5; i++) code += SAYABLE[Number((digest >> BigInt(5 * i)) & 31n)];
  const info = voucherTypeInfo(String(comprobante.tipo ?? ""));
  const type = info ? `${KIND_LETTERS[info.kind] ?? ""}${info.fce ? "CE" : ""}${info.class ?? ""}` : "C";
  const [day = "", month = ""] = String(comprobante.fecha ?? "").split("/");
  return [type, `${day}${month}`, code].filter(Boolean).join("-");
}

/** Completes a reference derived without its point of sale (see derivedReference). */
export function withPointOfSale(stem: string, puntoVenta: number): string {
  return `${stem}-${puntoVenta}`;
}
