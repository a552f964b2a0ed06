/**
 * The local journal (design.md "Never twice, never lost"): the service is the source of truth,
 * the journal is its memory. One append-only file per ACCOUNT in `$XDG_STATE_HOME/facturar` —
 * the service's address, the point of sale and a hash of the usertoken, never a profile's name
 * and never the token — so two profile names for one account share it and another service never
 * does. `sending` is fsynced before every send; a torn tail is truncated on open; a lock refuses
 * a second run on the same journal.
 */

import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ServiceVoucher } from "../api/protocol.js";
import { AppendLog, DurableWriteError } from "../durable/append-log.js";
import { acquireLock, type HeldLock, LockBusyError } from "../durable/lock.js";
import { FacturarError } from "../errors.js";
import { t } from "../i18n/index.js";
import { voucherNumber } from "../voucher/codes.js";

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
  errors?: string[];
  observations?: string[];
  /** Where the voucher came from: `file.csv:rows 2-5`. */
  source?: string;
  /** The content sent under this reference (see contentDigest). */
  digest?: string;
  /** When it was last sent: the service may still be processing it for a while after. */
  sent_at?: string;
  /** Read from a journal of the time journals were kept per profile name: a hint, to be checked with the service. */
  legacy?: boolean;
}

/** Who the journal belongs to. */
export interface AccountKey {
  /** The service's normalised base URL, or `sandbox:<data folder>` for the embedded one. */
  service: string;
  punto_venta: number | undefined;
  usertoken: string;
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
      t("the journal {path} cannot be used: {message}", { path, message: cause.message }),
      "unavailable",
      "journal.unwritable",
      t(
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
      t(
        "another facturar run (process {pid}) is issuing with profile {profile}; two runs on one journal would interleave",
        {
          pid,
          profile,
        },
      ),
      "usage",
      "journal.busy",
      t("wait for it to finish; if that process is gone, run again (its lock is then taken over)"),
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
export function settledInJournal(entry: JournalEntry | undefined): boolean {
  return entry !== undefined && entry.state === "issued" && !entry.legacy;
}

/** May this voucher have reached the service without an answer coming back? */
export function inFlight(entry: JournalEntry | undefined): boolean {
  return entry !== undefined && (entry.state === "sending" || entry.state === "unknown");
}

/** When a voucher was last sent (ms): the settle window counts from here. */
export function sentAt(entry: JournalEntry): number {
  const when = Date.parse(entry.sent_at ?? entry.at);
  return Number.isFinite(when) ? when : 0;
}

function safeName(profile: string): string {
  return profile.replace(/[^A-Za-z0-9_.-]/g, "_");
}

function parseRecord(line: string): (Partial<JournalEntry> & { t?: string }) | undefined {
  try {
    const value = JSON.parse(line);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

export interface JournalOptions {
  lock: boolean;
  /** Only to read it (`facturar journal`): nothing is created, cut or written. */
  readOnly?: boolean;
  /** The profile's name: for messages, and to read a journal kept under it by earlier versions. */
  profile: string;
}

export class Journal {
  private readonly entries = new Map<string, JournalEntry>();
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
      journal.readOnly(dir, opts.profile);
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
        skipCorrupt: true,
        isRecord: (line) => {
          const record = parseRecord(line);
          if (record) journal.apply(record);
          return record !== undefined;
        },
      });
      journal.log = log;
      if (fresh) await journal.adoptLegacy(dir, key, opts.profile);
    } catch (error) {
      journal.lock?.release();
      if (fileSystemError(error)) throw new JournalUnwritableError(path, error);
      throw error;
    }
    return journal;
  }

  /** What the journal holds (or, before there is one, an older journal of the profile), read only. */
  private readOnly(dir: string, profile: string): void {
    const read = (path: string, legacy: boolean) => {
      let text = "";
      try {
        text = readFileSync(path, "utf8");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
        throw new JournalUnwritableError(path, error as Error);
      }
      for (const line of text.split("\n")) {
        const record = parseRecord(line);
        if (record) this.apply(legacy ? { ...record, legacy: true } : record);
      }
      return true;
    };
    if (!read(this.path, false)) read(join(dir, `journal-${safeName(profile)}.jsonl`), true);
  }

  private apply(record: Partial<JournalEntry> & { t?: string }): void {
    if (typeof record.ref !== "string" || record.ref === "") return;
    const merged = { ...this.entries.get(record.ref), ...record } as JournalEntry;
    // A later word of the service ends the legacy doubt.
    if (!("legacy" in record)) delete merged.legacy;
    this.entries.set(record.ref, merged);
  }

  /**
   * Journals used to be kept per profile name, which mixed accounts. What such a journal says is
   * kept as a hint (shown by `facturar journal`, its send times honoured) but every voucher in it
   * is checked with the service before it is called issued or sent again.
   */
  private async adoptLegacy(dir: string, key: AccountKey, profile: string): Promise<void> {
    const header = { t: "account", service: key.service, punto_venta: key.punto_venta ?? null, profile };
    const lines = [JSON.stringify(header)];
    const legacy = join(dir, `journal-${safeName(profile)}.jsonl`);
    let text = "";
    try {
      text = readFileSync(legacy, "utf8");
    } catch {
      // none
    }
    const old = new Map<string, JournalEntry>();
    for (const line of text.split("\n")) {
      const entry = parseRecord(line) as JournalEntry | undefined;
      if (entry?.ref) old.set(entry.ref, { ...old.get(entry.ref), ...entry });
    }
    for (const entry of old.values()) {
      const hint = { ...entry, legacy: true };
      this.entries.set(entry.ref, hint);
      lines.push(JSON.stringify(hint));
    }
    await this.log?.append(`${lines.join("\n")}\n`, { sync: true });
  }

  get(ref: string): JournalEntry | undefined {
    return this.entries.get(ref);
  }

  all(): JournalEntry[] {
    return [...this.entries.values()];
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
    try {
      await this.log.append(written.map((entry) => `${JSON.stringify(entry)}\n`).join(""), {
        sync: entries.some((e) => e.state === "sending"),
      });
    } catch (error) {
      if (fileSystemError(error)) throw new JournalUnwritableError(this.path, error);
      throw error;
    }
    // Applied once on disk: what the journal says in memory it also says after a crash.
    for (const entry of written) this.apply(entry);
    return written.map((entry) => this.entries.get(entry.ref) as JournalEntry);
  }

  async close(): Promise<void> {
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
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

function content(envelope: { comprobante: Record<string, unknown> } & Record<string, unknown>): unknown {
  const { $schema: _s, usertoken: _u, apikey: _k, apitoken: _t, ...rest } = envelope;
  const { external_reference: _r, numero: _n, ...comprobante } = envelope.comprobante;
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
 * twice is the same voucher, and is not issued twice.
 */
export function derivedReference(envelope: { comprobante: Record<string, unknown> } & Record<string, unknown>): string {
  return `F-${contentDigest(envelope).slice(0, 24)}`;
}
