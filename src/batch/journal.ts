/**
 * The local journal that makes issuing exactly-once (design.md "Never twice, never lost"): an
 * append-only file per profile in `$XDG_STATE_HOME/facturar`, fsynced before every send. A
 * reference already `issued` is not sent again; one left `sending` or `unknown` is reconciled
 * with the service first. A lock refuses a second run on the same journal.
 */

import { createHash } from "node:crypto";
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { join } from "node:path";
import { FacturarError } from "../errors.js";
import { t } from "../i18n/index.js";
import { isAlive } from "../process.js";

/** `held`: journaled ahead as sending, then not sent (its lane broke, or a stop came): send again. */
export type JournalState = "sending" | "issued" | "queued" | "rejected" | "unknown" | "held";

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
  total?: string;
  pdf?: string | null;
  ticket?: string | null;
  errors?: string[];
  /** Where the voucher came from: `file.csv:rows 2-5`. */
  source?: string;
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

function safeName(profile: string): string {
  return profile.replace(/[^A-Za-z0-9_.-]/g, "_");
}

export class Journal {
  private readonly entries = new Map<string, JournalEntry>();
  private handle?: FileHandle;

  private constructor(
    readonly path: string,
    private readonly lockPath: string | undefined,
  ) {}

  /** Opens the profile's journal; with `lock`, refuses while another live run holds it. */
  static async open(dir: string, profile: string, opts: { lock: boolean } = { lock: true }): Promise<Journal> {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const path = join(dir, `journal-${safeName(profile)}.jsonl`);
    const lockPath = opts.lock ? join(dir, `journal-${safeName(profile)}.lock`) : undefined;
    if (lockPath) takeLock(lockPath, profile);
    const journal = new Journal(path, lockPath);
    try {
      journal.replay();
      journal.handle = await open(path, "a", 0o600);
    } catch (error) {
      journal.releaseLock();
      throw error;
    }
    return journal;
  }

  private replay(): void {
    let text: string;
    try {
      text = readFileSync(this.path, "utf8");
    } catch {
      return;
    }
    for (const line of text.split("\n")) {
      if (line.trim() === "") continue;
      try {
        const entry = JSON.parse(line) as JournalEntry;
        if (entry.ref) this.entries.set(entry.ref, { ...this.entries.get(entry.ref), ...entry });
      } catch {
        // A line torn by a crash: the entry before it still tells the truth.
      }
    }
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
    if (!this.handle) throw new Error("the journal is closed");
    const at = new Date().toISOString();
    const full = entries.map((entry) => {
      const merged: JournalEntry = { ...this.entries.get(entry.ref), ...entry, at };
      this.entries.set(entry.ref, merged);
      return merged;
    });
    await this.handle.write(entries.map((entry) => `${JSON.stringify({ ...entry, at })}\n`).join(""));
    if (entries.some((e) => e.state === "sending")) await this.handle.sync();
    return full;
  }

  async close(): Promise<void> {
    await this.handle?.close();
    this.handle = undefined;
    this.releaseLock();
  }

  private releaseLock(): void {
    if (!this.lockPath) return;
    try {
      unlinkSync(this.lockPath);
    } catch {
      // already gone
    }
  }
}

function takeLock(path: string, profile: string): void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, "wx", 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const pid = Number(readFileSync(path, "utf8").trim());
      if (pid && pid !== process.pid && isAlive(pid)) throw new JournalBusyError(profile, pid);
      // Left by a run that died: remove and try again.
      try {
        unlinkSync(path);
      } catch {
        // raced with another taker
      }
    }
  }
  throw new JournalBusyError(profile, 0);
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

/**
 * A reference derived from the voucher's content, for input that has none: the same file sent
 * twice is the same voucher, and is not issued twice.
 */
export function derivedReference(envelope: { comprobante: Record<string, unknown> } & Record<string, unknown>): string {
  const { $schema: _s, usertoken: _u, apikey: _k, apitoken: _t, ...rest } = envelope;
  const { external_reference: _r, numero: _n, ...comprobante } = envelope.comprobante;
  const digest = createHash("sha256")
    .update(canonical({ ...rest, comprobante }))
    .digest("hex");
  return `F-${digest.slice(0, 24)}`;
}
