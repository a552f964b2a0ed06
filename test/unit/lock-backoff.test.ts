/**
 * The step the lock's safety rests on, driven in-process: a taker that, having created its
 * generation, finds a newer one beside it backs off, for the newer taker may hold the lock. Two
 * real takers never reach this step (the race test in lock.test.ts); here the file system is made
 * to show a newer generation at exactly that moment.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { tempDir } from "../helpers.js";

const between = vi.hoisted(() => ({ listings: 0, path: "", act: undefined as undefined | ((n: number) => void) }));

vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  return {
    ...fs,
    // Counts the listings of the lock's folder and lets the test act before each is read.
    readdirSync: ((path: string, ...rest: unknown[]) => {
      if (path === between.path) between.act?.(++between.listings);
      return (fs.readdirSync as (...args: unknown[]) => unknown)(path, ...rest);
    }) as typeof fs.readdirSync,
  };
});

const { acquireLock, LockBusyError } = await import("../../src/durable/lock.js");

describe("a taker that finds a newer generation after taking its own", () => {
  it("backs off: its own generation removed, the newer holder reported busy", async () => {
    const fs = await vi.importActual<typeof import("node:fs")>("node:fs");
    // This process's own owner record, as a live holder's.
    const probe = join(tempDir("facturar-lock-"), "probe");
    const own = acquireLock(probe);
    const identity = readFileSync(join(probe, "1.lock"), "utf8");
    own.release();

    const path = join(tempDir("facturar-lock-"), "lock");
    between.path = path;
    // The second listing is the one made after taking generation 1: generation 2 appears just then.
    between.act = (n) => {
      if (n === 2) fs.writeFileSync(join(path, "2.lock"), identity);
    };
    expect(() => acquireLock(path)).toThrow(LockBusyError);
    expect(existsSync(join(path, "1.lock"))).toBe(false);
    expect(existsSync(join(path, "2.lock"))).toBe(true);
    between.act = undefined;
  });
});
