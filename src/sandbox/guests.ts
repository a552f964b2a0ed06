/**
 * The embedded sandbox shared by two CLIs: one hosts it (it started it, and holds its folder), the
 * other uses it where it listens. The guest registers here while it does, and the host, when its
 * own command is done, waits for its live guests before it stops serving: a guest never loses
 * the service mid-batch.
 */
import { mkdirSync, readdirSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isAlive } from "../process.js";

const GUESTS = "guests";

/** Registers this process as a guest of the sandbox in `dataDir`; returns the way out. */
export function registerGuest(dataDir: string): () => void {
  const dir = join(dataDir, GUESTS);
  const path = join(dir, String(process.pid));
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(path, "");
  } catch {
    // Not registered: the host may stop under this run, which then reports what it could not send.
    return () => {};
  }
  return () => {
    try {
      unlinkSync(path);
    } catch {
      // already gone
    }
  };
}

/** The processes using the sandbox now (registrations of dead ones are removed). */
function liveGuests(dataDir: string): number[] {
  const dir = join(dataDir, GUESTS);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const live: number[] = [];
  for (const name of names) {
    const pid = Number(name);
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) live.push(pid);
    else {
      try {
        unlinkSync(join(dir, name));
      } catch {
        // raced with its owner
      }
    }
  }
  return live;
}

/** Waits while guests use the sandbox; tells once who it waits for. */
export async function waitForGuests(dataDir: string, tell: (pids: number[]) => void, pollMs = 100): Promise<void> {
  let told = false;
  for (let guests = liveGuests(dataDir); guests.length > 0; guests = liveGuests(dataDir)) {
    if (!told) tell(guests);
    told = true;
    await new Promise((r) => setTimeout(r, pollMs));
  }
}
