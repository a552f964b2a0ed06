/** The lock: busy while a live owner holds it, stale when its owner is gone (reboot, reused pid), atomic to take over. */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { acquireLock, type HeldLock, LockBusyError, readLockHolder } from "../../src/durable/lock.js";
import { tempDir } from "../sandbox-process.js";
import { builtModule } from "./built.js";

const linux = process.platform === "linux";

/** Field 22 of /proc/<pid>/stat: the start time in ticks since boot. */
function startOf(pid: number): string {
  const text = readFileSync(`/proc/${pid}/stat`, "utf8");
  return text.slice(text.lastIndexOf(")") + 2).split(" ")[19] as string;
}

function bootId(): string {
  return readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
}

/** The pid of a process that has exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ["-e", ""]).pid as number;
}

const children: ChildProcess[] = [];
const held: HeldLock[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  for (const lock of held.splice(0)) lock.release();
});

/** A process that just lives, as another lock holder would. */
async function sleeper(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["-e", "console.log('up'); setTimeout(() => {}, 60000)"], {
    stdio: ["ignore", "pipe", "ignore"],
  });
  children.push(child);
  await new Promise((resolve) => child.stdout?.once("data", resolve));
  return child;
}

function take(path: string, extra?: Record<string, unknown>): HeldLock {
  const lock = acquireLock(path, extra);
  held.push(lock);
  return lock;
}

function busy(path: string): LockBusyError {
  try {
    take(path);
  } catch (error) {
    expect(error).toBeInstanceOf(LockBusyError);
    return error as LockBusyError;
  }
  throw new Error(`expected ${path} to be busy`);
}

/** Another process's attempt on the lock: "won" or "busy <pid>". */
function tryInChild(path: string): string {
  const module = pathToFileURL(builtModule("durable/lock.js")).href;
  const script = `
    const { acquireLock } = await import(${JSON.stringify(module)});
    try { acquireLock(${JSON.stringify(path)}); console.log("won"); }
    catch (error) { console.log(error.name === "LockBusyError" ? "busy " + error.holder.pid : "error " + error.message); }
  `;
  return spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" }).stdout.trim();
}

/** A generation folder holding one owner file, as a process that died (or never was) left it. */
function ownerFile(path: string, text: string, generation = 1): void {
  mkdirSync(path, { recursive: true });
  writeFileSync(join(path, `${generation}.lock`), text);
}

describe("acquireLock", () => {
  it("is busy while held, for this process and another; the holder's extra fields are readable", () => {
    const path = join(tempDir(), "x.lock");
    const lock = take(path, { base_url: "http://127.0.0.1:1/a" });
    const error = busy(path);
    expect(error.holder).toMatchObject({ pid: process.pid, base_url: "http://127.0.0.1:1/a" });
    expect(error.message).toContain(`is locked by process ${process.pid}`);
    expect(tryInChild(path)).toBe(`busy ${process.pid}`);
    lock.update({ base_url: "http://127.0.0.1:2/b" });
    expect(readLockHolder(path)).toMatchObject({ pid: process.pid, base_url: "http://127.0.0.1:2/b" });
    if (linux) expect(readLockHolder(path)).toMatchObject({ start: startOf(process.pid), boot: bootId() });
  });

  it("a released lock is taken, by a new generation; old generations are swept", () => {
    const path = join(tempDir(), "x.lock");
    take(path).release();
    expect(readLockHolder(path)).toBeUndefined();
    expect(tryInChild(path)).toBe("won"); // and that child exits without releasing: dead owner
    take(path);
    expect(readdirSync(path).sort()).toEqual(["3.lock"]);
  });

  it.skipIf(!linux)("an owner whose pid runs but started at another time (a reused pid) is stale", async () => {
    const other = await sleeper();
    const pid = other.pid as number;
    const path = join(tempDir(), "x.lock");
    // First the control: the same owner with its true start time holds the lock.
    ownerFile(path, JSON.stringify({ pid, start: startOf(pid), boot: bootId() }));
    expect(busy(path).holder.pid).toBe(pid);
    expect(readLockHolder(path)?.pid).toBe(pid);
    ownerFile(path, JSON.stringify({ pid, start: String(Number(startOf(pid)) - 1), boot: bootId() }));
    expect(readLockHolder(path)).toBeUndefined();
    take(path);
    expect(readLockHolder(path)?.pid).toBe(process.pid);
  });

  it.skipIf(!linux)("an owner from another boot is stale, even with a live pid and the same start", async () => {
    const other = await sleeper();
    const pid = other.pid as number;
    const path = join(tempDir(), "x.lock");
    ownerFile(path, JSON.stringify({ pid, start: startOf(pid), boot: "00000000-0000-4000-8000-000000000000" }));
    expect(readLockHolder(path)).toBeUndefined();
    take(path);
  });

  it("an owner whose process is gone is stale", () => {
    const path = join(tempDir(), "x.lock");
    ownerFile(path, JSON.stringify({ pid: deadPid() }), 7);
    expect(readLockHolder(path)).toBeUndefined();
    take(path);
    expect(readdirSync(path)).toEqual(["8.lock"]);
  });

  it("an empty or garbage owner file is not pid 0 and does not block", () => {
    for (const text of ["", "   ", "garbage", '{"pid":0}', '{"pid":"12"}', "null", "[]"]) {
      const path = join(tempDir(), "x.lock");
      ownerFile(path, text);
      expect(readLockHolder(path)).toBeUndefined();
      const lock = take(path);
      expect(readLockHolder(path)?.pid).toBe(process.pid);
      lock.release();
    }
  });

  it("a zombie (exited, not yet reaped) holds nothing", () => {
    if (!linux) return;
    // A shell whose child exits while the shell ignores it: the child stays a zombie meanwhile. The
    // child exits only once the shell has become `sleep`, which never reaps: had it exited first,
    // bash would have reaped it (a loaded machine saw /proc/<pid> gone).
    const child = 'while [ "$(cat /proc/$PPID/comm)" != sleep ]; do sleep 0.01; done';
    const shell = spawn("bash", ["-c", `bash -c '${child}' & echo $!; exec sleep 30`], {
      stdio: ["ignore", "pipe", "ignore"],
    });
    children.push(shell);
    return new Promise<void>((resolve, reject) => {
      shell.stdout?.once("data", (data: Buffer) => {
        try {
          const pid = Number(String(data).trim());
          for (let i = 0; i < 500 && !readFileSync(`/proc/${pid}/stat`, "utf8").includes(") Z "); i++)
            spawnSync("sleep", ["0.01"]);
          expect(readFileSync(`/proc/${pid}/stat`, "utf8")).toContain(") Z ");
          const path = join(tempDir(), "x.lock");
          ownerFile(path, JSON.stringify({ pid }));
          expect(readLockHolder(path)).toBeUndefined();
          resolve();
        } catch (error) {
          reject(error);
        }
      });
    });
  });

  it("readers never see a half-written owner while update rewrites it", async () => {
    const path = join(tempDir(), "x.lock");
    const lock = take(path, { n: 0, pad: "p".repeat(4000) });
    const module = pathToFileURL(builtModule("durable/lock.js")).href;
    // A reader in another process, reading as fast as it can while this one rewrites.
    const reader = spawn(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `const { readLockHolder } = await import(${JSON.stringify(module)});
         console.log("go");
         let reads = 0, missing = 0, seen = new Set();
         const end = Date.now() + 800;
         while (Date.now() < end) { const h = readLockHolder(${JSON.stringify(path)}); reads++; if (!h || h.pid !== ${process.pid} || h.pad?.length !== 4000) missing++; else seen.add(h.n); }
         console.log(JSON.stringify({ reads, missing, distinct: seen.size }));`,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    children.push(reader);
    const lines = createInterface({ input: reader.stdout as NodeJS.ReadableStream });
    const out: string[] = [];
    const done = new Promise<void>((resolve) => lines.on("close", resolve));
    lines.on("line", (line) => out.push(line));
    while (out.length === 0) await new Promise((r) => setTimeout(r, 5));
    const end = Date.now() + 700;
    let n = 0;
    while (Date.now() < end) {
      lock.update({ n: ++n, pad: "p".repeat(4000) });
      if (n % 50 === 0) await new Promise((r) => setImmediate(r));
    }
    await done;
    const result = JSON.parse(out[1] as string);
    expect(result.reads).toBeGreaterThan(100);
    expect(result.distinct).toBeGreaterThan(10); // it did read while the owner changed
    expect(result.missing).toBe(0);
  });
});

describe("a file where the lock's folder should be", () => {
  it("is no lock and is never removed: taking it is refused, saying so", () => {
    const path = join(tempDir(), "sandbox.lock");
    writeFileSync(path, "12345");
    expect(readLockHolder(path)).toBeUndefined();
    expect(() => acquireLock(path)).toThrow(`cannot take the lock ${path}: a file is where its folder should be`);
    expect(readFileSync(path, "utf8")).toBe("12345");
  });
});

describe("two processes that start together on a stale lock", () => {
  const dead = deadPid();
  /** Stale locks of every kind the takers must agree on (and a fresh folder). */
  const STALE: Record<string, (path: string) => void> = {
    "dead owner": (path) => ownerFile(path, JSON.stringify({ pid: dead }), 4),
    "reused pid": (path) =>
      ownerFile(path, JSON.stringify({ pid: process.pid, start: "1", boot: linux ? bootId() : undefined }), 2),
    "empty owner file": (path) => ownerFile(path, ""),
    released: (path) => {
      ownerFile(path, JSON.stringify({ pid: process.pid }), 3);
      writeFileSync(join(path, "3.free"), "");
    },
    none: () => {},
  };

  interface Taker {
    child: ChildProcess;
    next(): Promise<string>;
  }

  /**
   * A taker process. Per trial it gets a lock path and a start instant, spins until that instant,
   * tries once, reports, and (if it won) holds the lock until told to release it: two winners
   * would both be holding at the same time. The processes are spawned once (starting 360 node
   * processes would cost some 30 s of CPU on two cores); each trial pairs two of them.
   */
  function taker(): Taker {
    const module = pathToFileURL(builtModule("durable/lock.js")).href;
    const script = `
      const { acquireLock } = await import(${JSON.stringify(module)});
      const { createInterface } = await import("node:readline");
      let lock;
      createInterface({ input: process.stdin }).on("line", (line) => {
        const [command, path, at] = line.split(" ");
        if (command === "release") {
          lock?.release();
          lock = undefined;
          console.log("released");
          return;
        }
        while (performance.timeOrigin + performance.now() < Number(at));
        let result;
        try { lock = acquireLock(path); result = "won"; }
        catch (error) { result = error.name === "LockBusyError" ? "busy" : "error " + error.message; }
        console.log(result);
      }).on("close", () => process.exit(0));
      console.log("ready");
    `;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      stdio: ["pipe", "pipe", "inherit"],
    });
    children.push(child);
    const waiting: ((line: string) => void)[] = [];
    const early: string[] = [];
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on("line", (line) => {
      const resolve = waiting.shift();
      if (resolve) resolve(line);
      else early.push(line);
    });
    // A taker that dies answers "exited" from then on, so that the test fails instead of hanging.
    let gone: string | undefined;
    child.once("exit", (code) => {
      gone = `exited ${code}`;
      for (const resolve of waiting.splice(0)) resolve(gone);
    });
    return {
      child,
      next: () => {
        const line = early.shift() ?? gone;
        return line !== undefined ? Promise.resolve(line) : new Promise((resolve) => waiting.push(resolve));
      },
    };
  }

  it("never both win, over 180 trials", { timeout: 60_000 }, async () => {
    const takers = Array.from({ length: 6 }, taker);
    expect(await Promise.all(takers.map((t) => t.next()))).toEqual(takers.map(() => "ready"));
    const kinds = Object.keys(STALE);
    const outcomes: Record<string, number> = {};
    let twoWinners = 0;
    for (let i = 0; i < 180; i++) {
      const kind = kinds[i % kinds.length] as string;
      const path = join(tempDir(), "x.lock");
      STALE[kind]?.(path);
      const a = takers[i % takers.length] as Taker;
      const b = takers[(i + 1 + Math.floor(i / takers.length)) % takers.length] as Taker;
      const pair = a === b ? [a, takers[(i + 1) % takers.length] as Taker] : [a, b];
      const at = performance.timeOrigin + performance.now() + 15;
      for (const t of pair) t.child.stdin?.write(`take ${path} ${at}\n`);
      const results = await Promise.all(pair.map((t) => t.next()));
      const key = `${kind}: ${[...results].sort().join("+")}`;
      outcomes[key] = (outcomes[key] ?? 0) + 1;
      if (results.filter((r) => r === "won").length > 1) twoWinners++;
      for (const t of pair) t.child.stdin?.write("release\n");
      expect(await Promise.all(pair.map((t) => t.next()))).toEqual(["released", "released"]);
    }
    expect(twoWinners).toBe(0);
    // Every trial had exactly one winner and one loser, and nothing else happened.
    expect(Object.keys(outcomes).filter((key) => !key.endsWith(": busy+won"))).toEqual([]);
    expect(Object.values(outcomes).reduce((a, b) => a + b, 0)).toBe(180);
  });
});
