// PROVISIONAL: replaced by the durable branch's module at merge.
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { isAlive } from "../process.js";

export interface LockOwner {
  pid: number;
  start?: string;
  boot?: string;
  [extra: string]: unknown;
}

export class LockBusyError extends Error {
  constructor(
    readonly path: string,
    readonly holder: LockOwner,
  ) {
    super(`${path} is held by process ${holder.pid}`);
  }
}

export interface HeldLock {
  readonly path: string;
  update(extra: Record<string, unknown>): void;
  release(): void;
}

export function acquireLock(path: string, extra: Record<string, unknown> = {}): HeldLock {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, "wx", 0o600);
      writeSync(fd, JSON.stringify({ pid: process.pid, ...extra }));
      closeSync(fd);
      return {
        path,
        update() {},
        release() {
          try {
            unlinkSync(path);
          } catch {}
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = readLockHolder(path);
      if (holder && holder.pid !== process.pid) throw new LockBusyError(path, holder);
      try {
        unlinkSync(path);
      } catch {}
    }
  }
  throw new LockBusyError(path, { pid: 0 });
}

export function readLockHolder(path: string): LockOwner | undefined {
  try {
    const owner = JSON.parse(readFileSync(path, "utf8")) as LockOwner;
    return owner.pid > 0 && isAlive(owner.pid) ? owner : undefined;
  } catch {
    return undefined;
  }
}
