/** The append-only log: torn tails cut on open, short writes never leave a partial record, appends serialized. */
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { AppendLog, CorruptLogError, DurableWriteError, type LogIo } from "../../src/durable/append-log.js";
import { ROOT } from "../helpers.js";
import { tempDir } from "../sandbox-process.js";
import { builtModule } from "./built.js";

const isJson = (line: string) => {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
};

const realWrite = async (h: FileHandle, b: Buffer, o: number, l: number) => (await h.write(b, o, l)).bytesWritten;

function errno(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: injected`), { code });
}

describe("AppendLog.open", () => {
  it("truncates a final fragment without a newline, on disk, and the next append reads back", async () => {
    const path = join(tempDir(), "log.jsonl");
    writeFileSync(path, '{"n":1}\n{"n":2}\n{"n":3,"tor');
    const { log, lines } = await AppendLog.open(path, { isRecord: isJson });
    expect(lines).toEqual(['{"n":1}', '{"n":2}']);
    expect(readFileSync(path, "utf8")).toBe('{"n":1}\n{"n":2}\n');
    await log.append('{"n":3}\n', { sync: true });
    await log.close();
    const again = await AppendLog.open(path, { isRecord: isJson });
    expect(again.lines).toEqual(['{"n":1}', '{"n":2}', '{"n":3}']);
    await again.log.close();
  });

  it("truncates a final line that isRecord rejects (and blank lines after it)", async () => {
    const path = join(tempDir(), "log.jsonl");
    writeFileSync(path, '{"n":1}\n{"n":2\n\n\n');
    const { log, lines } = await AppendLog.open(path, { isRecord: isJson });
    expect(lines).toEqual(['{"n":1}']);
    expect(readFileSync(path, "utf8")).toBe('{"n":1}\n');
    await log.append('{"n":2}\n{"n":3}\n', { sync: false });
    await log.close();
    expect((await AppendLog.open(path, { isRecord: isJson })).lines).toEqual(['{"n":1}', '{"n":2}', '{"n":3}']);
  });

  it("a file of only a fragment becomes empty; a missing one is created with mode 0600", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "torn"), '{"n":');
    expect((await AppendLog.open(join(dir, "torn"))).lines).toEqual([]);
    expect(statSync(join(dir, "torn")).size).toBe(0);
    const fresh = await AppendLog.open(join(dir, "new"));
    expect(fresh.lines).toEqual([]);
    expect(statSync(join(dir, "new")).mode & 0o777).toBe(0o600);
    await fresh.log.close();
  });

  it("a bad line in the middle is CorruptLogError naming the line, and the file is left alone; skipCorrupt skips it", async () => {
    const path = join(tempDir(), "log.jsonl");
    const text = '{"n":1}\n\n{"n":2\n{"n":3}\n{"n":4,';
    writeFileSync(path, text);
    const error = await AppendLog.open(path, { isRecord: isJson }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CorruptLogError);
    expect(error).toMatchObject({ path, line: 3 });
    expect((error as Error).message).toContain(`${path}: line 3`);
    expect(readFileSync(path, "utf8")).toBe(text);
    const { log, lines } = await AppendLog.open(path, { isRecord: isJson, skipCorrupt: true });
    expect(lines).toEqual(['{"n":1}', '{"n":3}']);
    // The torn tail still goes; the skipped middle line stays where it is.
    expect(readFileSync(path, "utf8")).toBe('{"n":1}\n\n{"n":2\n{"n":3}\n');
    await log.close();
  });
});

describe("AppendLog.append", () => {
  it("loops on short writes until every byte is written", async () => {
    const path = join(tempDir(), "log.jsonl");
    const calls: number[] = [];
    const io: Partial<LogIo> = {
      write: (h, b, o, l) => {
        calls.push(l);
        return realWrite(h, b, o, Math.min(l, 7));
      },
    };
    const { log } = await AppendLog.open(path, { io });
    const text = '{"record":"one"}\n{"record":"two"}\n';
    await log.append(text, { sync: true });
    await log.close();
    expect(readFileSync(path, "utf8")).toBe(text);
    expect(calls.length).toBe(Math.ceil(Buffer.byteLength(text) / 7));
  });

  it("a write of 0 bytes after a partial one fails with DurableWriteError and leaves nothing of the record", async () => {
    const path = join(tempDir(), "log.jsonl");
    let budget = Number.POSITIVE_INFINITY;
    const io: Partial<LogIo> = {
      write: async (h, b, o, l) => {
        const n = Math.min(l, budget);
        budget -= n;
        return n === 0 ? 0 : realWrite(h, b, o, n);
      },
    };
    const { log } = await AppendLog.open(path, { io });
    await log.append('{"n":1}\n', { sync: true });
    budget = 10; // the disk holds 10 more bytes
    const record = '{"n":2,"padding":"xxxxxxxxxxxxxxxxxxxx"}\n';
    const error = await log.append(record, { sync: true }).catch((e) => e);
    expect(error).toBeInstanceOf(DurableWriteError);
    expect(error.path).toBe(path);
    expect(error.message).toContain(`short write: 10 of ${record.length} bytes written`);
    expect(readFileSync(path, "utf8")).toBe('{"n":1}\n');
    // Space again: the log goes on from the last whole record.
    budget = Number.POSITIVE_INFINITY;
    await log.append('{"n":3}\n', { sync: true });
    await log.close();
    expect(readFileSync(path, "utf8")).toBe('{"n":1}\n{"n":3}\n');
  });

  it("an error mid-record (ENOSPC, EFBIG) is a DurableWriteError with its code; the file is cut back", async () => {
    const path = join(tempDir(), "log.jsonl");
    let fail: string | undefined;
    const io: Partial<LogIo> = {
      write: async (h, b, o, l) => {
        if (fail && l < 20) throw errno(fail);
        return realWrite(h, b, o, fail ? Math.min(l, 15) : l);
      },
    };
    const { log } = await AppendLog.open(path, { io });
    await log.append("first\n", { sync: false });
    for (const code of ["ENOSPC", "EFBIG"]) {
      fail = code;
      const error = await log.append(`${"y".repeat(30)}\n`, { sync: true }).catch((e) => e);
      expect(error).toBeInstanceOf(DurableWriteError);
      expect(error.code).toBe(code);
      expect(error.message).toContain(path);
      expect(error.message).toContain(code);
      expect(error.message).toContain("15 of 31 bytes written");
      expect(readFileSync(path, "utf8")).toBe("first\n");
    }
    await log.close();
  });

  it("after a failed fsync it refuses every later append (the kernel's pages cannot be trusted)", async () => {
    const path = join(tempDir(), "log.jsonl");
    let syncFails = false;
    const io: Partial<LogIo> = {
      sync: async (h) => {
        if (syncFails) throw errno("EIO");
        await h.datasync();
      },
    };
    const { log } = await AppendLog.open(path, { io });
    await log.append("a\n", { sync: true });
    syncFails = true;
    await expect(log.append("b\n", { sync: true })).rejects.toMatchObject({ code: "EIO" });
    expect(readFileSync(path, "utf8")).toBe("a\n");
    syncFails = false;
    await expect(log.append("c\n", { sync: true })).rejects.toBeInstanceOf(DurableWriteError);
    expect(readFileSync(path, "utf8")).toBe("a\n");
    await log.close();
  });

  it("concurrent appends do not interleave, even when each is written in many short pieces", async () => {
    const path = join(tempDir(), "log.jsonl");
    const io: Partial<LogIo> = {
      // A short write that yields to the event loop: unserialized appends would interleave here.
      write: async (h, b, o, l) => {
        await new Promise((r) => setImmediate(r));
        return realWrite(h, b, o, Math.min(l, 97));
      },
    };
    const { log } = await AppendLog.open(path, { io });
    const groups = Array.from({ length: 60 }, (_, g) =>
      Array.from({ length: 3 }, (_, i) => JSON.stringify({ g, i, pad: "z".repeat(100 + g * 7) })),
    );
    await Promise.all(groups.map((lines, g) => log.append(`${lines.join("\n")}\n`, { sync: g % 2 === 0 })));
    await log.close();
    const { lines } = await AppendLog.open(path, { isRecord: isJson });
    expect(lines).toEqual(groups.flat());
  });

  it("refuses text that does not end in a newline (it would glue the next record to it)", async () => {
    const { log } = await AppendLog.open(join(tempDir(), "log"));
    await expect(log.append("no newline", { sync: false })).rejects.toThrow(TypeError);
    await expect(log.append("no newline", { sync: false })).rejects.toThrow('the text must end with "\\n"');
    await log.close();
  });

  // It runs the build in a child process: Stryker's mutants are not there (and its sources, newer than dist/, fail the check).
  it.skipIf(process.env.STRYKER_SCOPE)(
    "under ulimit -f (short write, then EFBIG): every acknowledged record is there and nothing partial",
    async () => {
      const module = pathToFileURL(builtModule("durable/append-log.js")).href;
      const path = join(tempDir(), "log.jsonl");
      // Records of 300 bytes, appended in groups of 1 to 5, until the 8 KiB limit refuses one.
      const script = `
      const { AppendLog } = await import(${JSON.stringify(module)});
      const { log } = await AppendLog.open(${JSON.stringify(path)});
      let n = 0;
      for (let round = 0; ; round++) {
        const group = [];
        for (let i = 0; i <= round % 5; i++) group.push(JSON.stringify({ n: n + i, pad: "p".repeat(280) }).padEnd(299) );
        try {
          await log.append(group.map((l) => l + "\\n").join(""), { sync: true });
        } catch (error) {
          console.log(JSON.stringify({ acknowledged: n, name: error.name, code: error.code, message: error.message }));
          break;
        }
        n += group.length;
      }
      await log.close();
    `;
      const run = spawnSync(
        "bash",
        ["-c", 'ulimit -f 8; exec "$0" --input-type=module -e "$1"', process.execPath, script],
        {
          cwd: ROOT,
          encoding: "utf8",
        },
      );
      expect(run.stderr).toBe("");
      const result = JSON.parse(run.stdout);
      expect(result).toMatchObject({ name: "DurableWriteError", code: "EFBIG" });
      expect(result.message).toContain(path);
      expect(result.acknowledged).toBeGreaterThan(10);
      const text = readFileSync(path, "utf8");
      expect(text.endsWith("\n")).toBe(true);
      const lines = text.slice(0, -1).split("\n");
      expect(lines.map((l) => JSON.parse(l).n)).toEqual(Array.from({ length: result.acknowledged }, (_, i) => i));
      expect(statSync(path).size).toBeLessThanOrEqual(8 * 1024);
    },
  );
});

describe("AppendLog, what it reads and where", () => {
  it("narrows a wider file to the mode, and never widens a narrower one", async () => {
    const dir = tempDir();
    const cases: [number, number][] = [
      [0o644, 0o640],
      [0o600, 0o600],
    ];
    for (const [before, after] of cases) {
      const path = join(dir, `log-${before.toString(8)}`);
      writeFileSync(path, "a\n");
      chmodSync(path, before);
      await (await AppendLog.open(path, { mode: 0o640 })).log.close();
      expect(statSync(path).mode & 0o777).toBe(after);
    }
  });

  it("reads lines across its read chunks whole, each at its byte offset", async () => {
    const path = join(tempDir(), "log.jsonl");
    // About 2.6 MB: lines cross the 1 MiB chunks, some of them in a multi-byte character.
    const records = Array.from({ length: 5000 }, (_, i) => JSON.stringify({ i, pad: "ñ".repeat(i % 500) }));
    writeFileSync(path, `${records.join("\n")}\n{"i":5000,"pad":"ñ`);
    const seen: [string, number, number][] = [];
    const { log, lines } = await AppendLog.open(path, {
      isRecord: (line, at, length) => seen.push([line, at, length]) > 0,
    });
    let at = 0;
    const expected = records.map((line) => {
      const length = Buffer.byteLength(line);
      const where: [string, number, number] = [line, at, length];
      at += length + 1;
      return where;
    });
    expect(seen).toEqual(expected);
    expect(lines).toEqual(records);
    expect(statSync(path).size).toBe(at);
    expect(await log.append("next\n", { sync: false })).toBe(at);
    await log.close();
  });

  it("with keepLines false returns no lines, and still shows each one to isRecord", async () => {
    const path = join(tempDir(), "log.jsonl");
    writeFileSync(path, '{"n":1}\n{"n":2}\n');
    const seen: string[] = [];
    const { log, lines } = await AppendLog.open(path, { keepLines: false, isRecord: (line) => seen.push(line) > 0 });
    expect(lines).toEqual([]);
    expect(seen).toEqual(['{"n":1}', '{"n":2}']);
    await log.close();
  });

  it("a bad last line with a fragment after it is corrupt, not torn; skipCorrupt cuts only the fragment", async () => {
    const path = join(tempDir(), "log.jsonl");
    const text = '{"n":1}\n{"n":2\n{"n":3';
    writeFileSync(path, text);
    await expect(AppendLog.open(path, { isRecord: isJson })).rejects.toMatchObject({
      name: "CorruptLogError",
      line: 2,
    });
    expect(readFileSync(path, "utf8")).toBe(text);
    const { log, lines } = await AppendLog.open(path, { isRecord: isJson, skipCorrupt: true });
    expect(lines).toEqual(['{"n":1}']);
    expect(readFileSync(path, "utf8")).toBe('{"n":1}\n{"n":2\n');
    await log.close();
  });
});

describe("AppendLog.append, offsets and ends", () => {
  it("resolves to the byte offset where its text begins, after a reopen too; empty text writes nothing", async () => {
    const path = join(tempDir(), "log.jsonl");
    const { log } = await AppendLog.open(path);
    expect(await log.append("ñandú\n", { sync: true })).toBe(0);
    expect(await log.append("b\nc\n", { sync: false })).toBe(8);
    expect(await log.append("", { sync: true })).toBe(12);
    await log.close();
    const again = await AppendLog.open(path);
    expect(again.lines).toEqual(["ñandú", "b", "c"]);
    expect(await again.log.append("", { sync: false })).toBe(12);
    expect(await again.log.append("d\n", { sync: false })).toBe(12);
    await again.log.close();
    expect(readFileSync(path, "utf8")).toBe("ñandú\nb\nc\nd\n");
  });

  it("close waits for the appends under way; an append after it fails, naming the file", async () => {
    const path = join(tempDir(), "log.jsonl");
    const io: Partial<LogIo> = {
      write: async (h, b, o, l) => {
        await new Promise((r) => setImmediate(r));
        return realWrite(h, b, o, Math.min(l, 3));
      },
    };
    const { log } = await AppendLog.open(path, { io });
    const pending = log.append("one\ntwo\n", { sync: true });
    await log.close();
    expect(await pending).toBe(0);
    expect(readFileSync(path, "utf8")).toBe("one\ntwo\n");
    const late = log.append("three\n", { sync: false });
    await expect(late).rejects.toBeInstanceOf(DurableWriteError);
    await expect(late).rejects.toThrow(`cannot write ${path}: the log is closed`);
  });

  it("a failure without an errno code is told in its own words, with no code", async () => {
    const path = join(tempDir(), "log.jsonl");
    let thrown: unknown;
    const { log } = await AppendLog.open(path, {
      io: {
        write: async () => {
          throw thrown;
        },
      },
    });
    thrown = "a string thrown";
    let error = await log.append("x\n", { sync: false }).catch((e) => e);
    expect(error).toBeInstanceOf(DurableWriteError);
    expect(error.name).toBe("DurableWriteError");
    expect(error.message).toBe(`cannot write ${path}: a string thrown (0 of 2 bytes written)`);
    expect(error.code).toBeUndefined();
    expect(error.cause).toBe(thrown);
    thrown = new Error("an error");
    error = await log.append("x\n", { sync: false }).catch((e) => e);
    expect(error.message).toBe(`cannot write ${path}: an error (0 of 2 bytes written)`);
    expect(error.code).toBeUndefined();
    thrown = Object.assign(new Error("EIO: i/o error"), { code: "EIO" });
    error = await log.append("x\n", { sync: false }).catch((e) => e);
    expect(error.message).toBe(`cannot write ${path}: EIO: i/o error (0 of 2 bytes written)`);
    expect(error.code).toBe("EIO");
    thrown = undefined;
    error = await log.append("x\n", { sync: false }).catch((e) => e);
    expect(error.message).toBe(`cannot write ${path}: undefined (0 of 2 bytes written)`);
    await log.close();
  });

  it("a failed fsync names its cause; a failed append it cannot cut back breaks the log for good", async () => {
    const path = join(tempDir(), "log.jsonl");
    let syncError: unknown;
    let cutFails = false;
    const io: Partial<LogIo> = {
      write: async (h, b, o, l) => {
        if (cutFails) {
          // A file that cannot be cut back (gone read-only): the partial record may stay.
          h.truncate = async () => {
            throw errno("EROFS");
          };
          await realWrite(h, b, o, 1);
          throw errno("ENOSPC");
        }
        return realWrite(h, b, o, l);
      },
      sync: async (h) => {
        if (syncError) throw syncError;
        await h.datasync();
      },
    };
    const { log } = await AppendLog.open(path, { io });
    await log.append("a\n", { sync: true });
    syncError = "no sync";
    const syncFailure = await log.append("b\n", { sync: true }).catch((e) => e);
    expect(syncFailure.message).toBe(`cannot write ${path}: fsync failed: no sync`);
    expect(syncFailure.cause).toBe("no sync");
    await log.close();

    const other = await AppendLog.open(path, { io });
    syncError = undefined;
    cutFails = true;
    const failure = await other.log.append("c\n", { sync: false }).catch((e) => e);
    expect(failure).toMatchObject({ code: "ENOSPC" });
    cutFails = false;
    await expect(other.log.append("d\n", { sync: false })).rejects.toBe(failure);
    await other.log.close();
  });
});

describe("AppendLog, what reaches the disk", () => {
  /** The methods of Node's FileHandle, to watch the calls the log makes. */
  async function fileHandlePrototype(dir: string) {
    const probe = await open(join(dir, "probe"), "w");
    await probe.close();
    return Object.getPrototypeOf(probe) as FileHandle;
  }

  it("syncs a new file's folder once; fdatasyncs a sync append only; opens an intact log without cutting it", async () => {
    const dir = tempDir();
    const proto = await fileHandlePrototype(dir);
    const sync = vi.spyOn(proto, "sync");
    const datasync = vi.spyOn(proto, "datasync");
    const truncate = vi.spyOn(proto, "truncate");
    try {
      const path = join(dir, "log");
      const { log } = await AppendLog.open(path);
      expect([sync.mock.calls.length, datasync.mock.calls.length, truncate.mock.calls.length]).toEqual([1, 0, 0]);
      await log.append("a\n", { sync: false });
      expect(datasync).toHaveBeenCalledTimes(0);
      await log.append("b\n", { sync: true });
      expect(datasync).toHaveBeenCalledTimes(1);
      await log.close();
      await log.close();
      for (const spy of [sync, datasync, truncate]) spy.mockClear();
      const again = await AppendLog.open(path);
      expect([sync.mock.calls.length, datasync.mock.calls.length, truncate.mock.calls.length]).toEqual([0, 0, 0]);
      expect(again.lines).toEqual(["a", "b"]);
      await again.log.close();
    } finally {
      for (const spy of [sync, datasync, truncate]) spy.mockRestore();
    }
  });

  it.skipIf(!existsSync("/proc/self/fd"))(
    "leaves no file descriptor open once closed, the folder's included",
    async () => {
      const dir = tempDir();
      const descriptors = () => readdirSync("/proc/self/fd").length;
      const before = descriptors();
      const { log } = await AppendLog.open(join(dir, "new"));
      await log.append("a\n", { sync: true });
      await log.close();
      expect(descriptors()).toBe(before);
    },
  );

  it("calls the injected sync only for a sync append", async () => {
    let syncs = 0;
    const { log } = await AppendLog.open(join(tempDir(), "log"), {
      io: {
        sync: async (h) => {
          syncs++;
          await h.datasync();
        },
      },
    });
    await log.append("a\n", { sync: false });
    expect(syncs).toBe(0);
    await log.append("b\n", { sync: true });
    expect(syncs).toBe(1);
    await log.close();
  });

  it("leaves a wider file it may not chmod (someone else's) as it is; any other chmod failure fails the open", async () => {
    const dir = tempDir();
    const chmod = vi.spyOn(await fileHandlePrototype(dir), "chmod");
    try {
      const path = join(dir, "log");
      writeFileSync(path, "a\n");
      chmodSync(path, 0o644);
      chmod.mockRejectedValueOnce(errno("EPERM"));
      const { log, lines } = await AppendLog.open(path);
      expect(lines).toEqual(["a"]);
      expect(statSync(path).mode & 0o777).toBe(0o644);
      await log.close();
      chmod.mockRejectedValueOnce(errno("EIO"));
      await expect(AppendLog.open(path)).rejects.toMatchObject({ code: "EIO" });
    } finally {
      chmod.mockRestore();
    }
  });

  it("a bad line with whole lines after it is corrupt: nothing is cut, with skipCorrupt or without", async () => {
    const path = join(tempDir(), "log.jsonl");
    const text = '{"n":1}\n{"n":2\n{"n":3}\n';
    writeFileSync(path, text);
    await expect(AppendLog.open(path, { isRecord: isJson })).rejects.toMatchObject({
      name: "CorruptLogError",
      line: 2,
    });
    const { log, lines } = await AppendLog.open(path, { isRecord: isJson, skipCorrupt: true });
    expect(lines).toEqual(['{"n":1}', '{"n":3}']);
    await log.close();
    expect(readFileSync(path, "utf8")).toBe(text);
  });
});
