// PROVISIONAL: replaced by the durable branch's module at merge.
import { readFileSync, truncateSync } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";

export class DurableWriteError extends Error {
  constructor(
    readonly path: string,
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

export class CorruptLogError extends Error {
  constructor(
    readonly path: string,
    readonly line: number,
  ) {
    super(`${path}: line ${line} is corrupt`);
  }
}

export class AppendLog {
  private chain: Promise<void> = Promise.resolve();
  private constructor(
    readonly path: string,
    private handle: FileHandle,
  ) {}

  static async open(
    path: string,
    opts: { mode?: number; isRecord?: (line: string) => boolean; skipCorrupt?: boolean } = {},
  ): Promise<{ log: AppendLog; lines: string[] }> {
    let content = "";
    try {
      content = readFileSync(path, "utf8");
    } catch {}
    const parts = content.split("\n");
    const tail = parts.pop() ?? "";
    let good = Buffer.byteLength(content) - Buffer.byteLength(tail);
    const lines = parts.filter((l) => l !== "");
    const ok = opts.isRecord ?? (() => true);
    while (lines.length > 0 && !ok(lines[lines.length - 1] as string)) {
      good -= Buffer.byteLength(lines.pop() as string) + 1;
    }
    if (tail !== "" || good < Buffer.byteLength(content)) truncateSync(path, good);
    const handle = await open(path, "a", opts.mode ?? 0o600);
    return { log: new AppendLog(path, handle), lines: lines.filter(ok) };
  }

  append(text: string, opts: { sync: boolean }): Promise<void> {
    const run = this.chain.then(async () => {
      await this.handle.write(text);
      if (opts.sync) await this.handle.sync();
    });
    this.chain = run.catch(() => {});
    return run;
  }

  async close(): Promise<void> {
    await this.chain;
    await this.handle.close();
  }
}
