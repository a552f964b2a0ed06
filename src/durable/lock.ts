/**
 * A lock on a file or folder that one process at a time holds (design.md "Never twice, never
 * lost", 6: two runs at once are refused; a lock left by a dead run never blocks the next one).
 *
 * Who holds it: the owner's pid, the process's start time (Linux: field 22 of /proc/<pid>/stat,
 * ticks since boot; elsewhere `ps -o lstart`) and the boot (Linux: the kernel's boot_id;
 * elsewhere the boot time derived from os.uptime()). An owner is live only if all of these still
 * match: a pid reused by another process (after a reboot, say) does not hold the lock.
 *
 * Why a folder of generations, not one file: taking over a stale single file is read → unlink →
 * create, and two takers that read the same stale owner both "win" (one unlinks the other's fresh
 * file). Here `path` is a folder of generation files:
 *   N.lock  the owner of generation N (JSON), created complete: written to a temporary file and
 *           link()ed to its name, which fails with EEXIST if the name exists, so it never
 *           appears empty or half-written, and two takers of one N cannot both create it;
 *   N.free  N was released.
 * A taker lists the folder and looks at the highest N. If N is free, or its owner is dead (or its
 * owner file is unreadable: a power cut can empty a file), it creates N+1.lock exclusively, then
 * lists again and backs off (deletes its file, starts over) if a higher generation exists. The
 * winner deletes the generations below its own. Release adds N.free and keeps N.lock, so a
 * generation's name, once created, exists until a higher generation exists; numbers only grow.
 * Hence: two takers aiming at one N are decided by link(); a taker that aimed at a lower N than
 * another saw an older folder, and the higher generation it would have to beat exists before its
 * own check and is never removed, so it backs off. Only the highest generation can win.
 */

import { randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { uptime } from "node:os";
import { join } from "node:path";
import { WordedError } from "../errors.js";
import { msg } from "../i18n/message.js";
import { isAlive } from "../process.js";

export interface LockOwner {
  pid: number;
  start?: string;
  boot?: string;
  [extra: string]: unknown;
}

export class LockBusyError extends WordedError {
  readonly path: string;
  readonly holder: LockOwner;
  constructor(path: string, holder: LockOwner) {
    super(msg("{path} is locked by process {pid}", { path, pid: holder.pid }));
    this.path = path;
    this.holder = holder;
  }
}

export interface HeldLock {
  readonly path: string;
  /** Replaces the extra fields readers see (atomically: readers never see a half-written owner). */
  update(extra: Record<string, unknown>): void;
  /** Releases the lock (once; later calls do nothing). */
  release(): void;
}

// --- who a process is ---

/** Boot times derived from the wall clock drift when the clock is set; this much is one boot. */
const BOOT_TOLERANCE_S = 120;

function linuxStat(pid: number): { state: string; start: string } | "gone" | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // No /proc (not Linux) or a hidden one: unknown. ENOENT with a /proc: no such process.
    if (code === "ENOENT" && hasProc()) return "gone";
    return undefined;
  }
  // "pid (comm) state ppid …": comm may hold spaces and parentheses; fields after it start at 3.
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  const state = fields[0];
  const start = fields[19];
  if (!state || !start || !/^\d+$/.test(start)) return undefined;
  return { state, start };
}

let procAvailable: boolean | undefined;
function hasProc(): boolean {
  if (procAvailable === undefined) {
    try {
      readFileSync("/proc/self/stat");
      procAvailable = true;
    } catch {
      procAvailable = false;
    }
  }
  return procAvailable;
}

/** Where /proc is not there (macOS, the BSDs): the start time as ps prints it, to the second. */
function psStart(pid: number): string | undefined {
  if (process.platform === "win32") return undefined;
  try {
    // Required here, where /proc is missing: elsewhere a run never loads child_process.
    const { execFileSync } = createRequire(import.meta.url)(
      "node:child_process",
    ) as typeof import("node:child_process");
    const out = execFileSync("ps", ["-o", "lstart=", "-p", String(pid)], {
      encoding: "utf8",
      env: { ...process.env, LC_ALL: "C", TZ: "UTC" },
      stdio: ["ignore", "pipe", "ignore"],
      timeout: 5_000,
    }).trim();
    return out ? `ps:${out}` : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `pid` runs, and when it started (undefined where that cannot be known). */
function inspect(pid: number): { running: boolean; start?: string } {
  const stat = linuxStat(pid);
  if (stat === "gone") return { running: false };
  if (stat) {
    // A zombie has exited: it holds nothing, it only waits for its parent.
    if (stat.state === "Z" || stat.state === "X") return { running: false };
    return { running: true, start: stat.start };
  }
  if (!isAlive(pid)) return { running: false };
  const start = hasProc() ? undefined : psStart(pid);
  return start ? { running: true, start } : { running: true };
}

let bootCache: string | undefined;
/** Which boot of the machine this is: the kernel's boot id, or (elsewhere) the second it booted as `t<seconds>`. */
export function currentBoot(): string | undefined {
  if (bootCache !== undefined) return bootCache;
  try {
    bootCache = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
  } catch {
    // Seconds since the epoch at boot: compared with a tolerance (see sameBoot), not cached.
    return `t${Math.round(Date.now() / 1000 - uptime())}`;
  }
  return bootCache;
}

export function sameBoot(a: string, b: string): boolean {
  if (a.startsWith("t") && b.startsWith("t")) {
    const x = Number(a.slice(1));
    const y = Number(b.slice(1));
    if (Number.isFinite(x) && Number.isFinite(y)) return Math.abs(x - y) <= BOOT_TOLERANCE_S;
  }
  if (a.startsWith("t") !== b.startsWith("t")) return true; // measured differently: cannot tell
  return a === b;
}

function self(): { pid: number; start?: string; boot?: string } {
  const { start } = inspect(process.pid);
  const boot = currentBoot();
  return { pid: process.pid, ...(start ? { start } : {}), ...(boot ? { boot } : {}) };
}

/** Whether the process an owner names still runs: same pid, same start, same boot. */
function isLive(owner: LockOwner): boolean {
  if (!Number.isInteger(owner.pid) || owner.pid <= 0) return false;
  const boot = currentBoot();
  if (typeof owner.boot === "string" && boot && !sameBoot(owner.boot, boot)) return false;
  const now = inspect(owner.pid);
  if (!now.running) return false;
  if (typeof owner.start === "string" && now.start && owner.start.startsWith("ps:") === now.start.startsWith("ps:"))
    return owner.start === now.start;
  return true;
}

// --- the generation files ---

const GENERATION = /^(\d+)\.(lock|free)$/;
const TEMP = /^\.tmp-(\d+)-/;

interface Listing {
  top: number;
  free: boolean;
  names: string[];
}

function list(path: string): Listing {
  const names = readdirSync(path);
  let top = 0;
  const free = new Set<number>();
  for (const name of names) {
    const m = GENERATION.exec(name);
    if (!m) continue;
    const n = Number(m[1]);
    if (n > top) top = n;
    if (m[2] === "free") free.add(n);
  }
  return { top, free: free.has(top), names };
}

function parseOwner(text: string): LockOwner | undefined {
  try {
    const owner = JSON.parse(text) as LockOwner;
    if (owner && typeof owner === "object" && Number.isInteger(owner.pid) && owner.pid > 0) return owner;
  } catch {
    // garbage
  }
  return undefined;
}

/** The owner file of generation `n`: "gone" if it vanished (a higher generation exists), undefined if unreadable. */
function readOwner(path: string, n: number): LockOwner | "gone" | undefined {
  let text: string;
  try {
    text = readFileSync(join(path, `${n}.lock`), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "gone";
    throw error;
  }
  return parseOwner(text);
}

function tempName(path: string): string {
  return join(path, `.tmp-${process.pid}-${randomBytes(6).toString("hex")}`);
}

/** Creates `name` in `path` holding `text`, complete from its first instant; false if it exists. */
function createComplete(path: string, name: string, text: string): boolean {
  const temp = tempName(path);
  writeFileSync(temp, text, { mode: 0o600, flag: "wx" });
  try {
    linkSync(temp, join(path, name));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    unlinkQuietly(temp);
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // gone already: not ours to remove
  }
}

/** Removes the generations below `own`, and temporary files of processes that are gone. */
function sweep(path: string, own: number, names: string[]): void {
  for (const name of names) {
    const gen = GENERATION.exec(name);
    if (gen && Number(gen[1]) < own) unlinkQuietly(join(path, name));
    const temp = TEMP.exec(name);
    if (temp && !isAlive(Number(temp[1]))) unlinkQuietly(join(path, name));
  }
}

// --- taking, holding, reading ---

class Held implements HeldLock {
  private released = false;

  constructor(
    readonly path: string,
    private readonly generation: number,
    private readonly identity: { pid: number; start?: string; boot?: string },
  ) {}

  update(extra: Record<string, unknown>): void {
    if (this.released) return;
    const temp = tempName(this.path);
    writeFileSync(temp, JSON.stringify({ ...extra, ...this.identity }), { mode: 0o600, flag: "wx" });
    try {
      renameSync(temp, join(this.path, `${this.generation}.lock`));
    } catch (error) {
      unlinkQuietly(temp);
      throw error;
    }
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    try {
      writeFileSync(join(this.path, `${this.generation}.free`), "", { mode: 0o600, flag: "wx" });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "EEXIST" && code !== "ENOENT") throw error;
    }
  }
}

/** Takes the lock at `path` (a folder, created if missing); throws LockBusyError while a live owner holds it. */
export function acquireLock(path: string, extra: Record<string, unknown> = {}): HeldLock {
  const identity = self();
  const text = JSON.stringify({ ...extra, ...identity });
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      mkdirSync(path, { recursive: true, mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST")
        throw new WordedError(msg("cannot take the lock {path}: a file is where its folder should be", { path }));
      throw error;
    }
    const seen = list(path);
    if (seen.top > 0 && !seen.free) {
      const owner = readOwner(path, seen.top);
      if (owner === "gone") continue;
      if (owner && isLive(owner)) throw new LockBusyError(path, owner);
    }
    const mine = seen.top + 1;
    if (!createComplete(path, `${mine}.lock`, text)) continue; // another taker got this generation
    const after = list(path);
    if (after.top > mine) {
      // A taker that saw a newer folder than ours went further: it may hold the lock.
      unlinkQuietly(join(path, `${mine}.lock`));
      continue;
    }
    sweep(path, mine, after.names);
    return new Held(path, mine, identity);
  }
  throw new WordedError(msg("could not take the lock {path}: too many processes contend for it", { path }));
}

/** The live holder of the lock at `path` with its extra fields, or undefined. */
export function readLockHolder(path: string): LockOwner | undefined {
  for (let attempt = 0; attempt < 10; attempt++) {
    let seen: Listing;
    try {
      seen = list(path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") return undefined;
      throw error;
    }
    if (seen.top === 0 || seen.free) return undefined;
    const owner = readOwner(path, seen.top);
    if (owner === "gone") continue;
    return owner && isLive(owner) ? owner : undefined;
  }
  return undefined;
}
