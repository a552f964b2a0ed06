import { execFile } from "node:child_process";
import {
  chmodSync,
  cpSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { freshUser, ROOT, runCli, tempDir } from "../helpers.js";

// bin/facturar.js compiles the bundle through a V8 code cache (src/launch.ts): one file per
// command, written at the end of its first run, read only when it is safe to run as code.
const SAMPLE = join(ROOT, "samples", "factura-b-dni.json");
const BUILD = /^\/\/facturar-bundle ([0-9a-f]+) /.exec(readFileSync(join(ROOT, "dist", "cli.cjs"), "utf8"))?.[1];

function user(cache: string) {
  const { env } = freshUser("facturar-cache-");
  return { ...env, FACTURAR_CODE_CACHE: cache };
}

function cacheOf(dir: string, command: string): string {
  const name = readdirSync(dir).find((f) => f.endsWith(`-${command}.v8`));
  if (!name) throw new Error(`no cache for ${command} in ${dir}: ${readdirSync(dir).join(", ")}`);
  return join(dir, name);
}

describe("the code cache", () => {
  it("is written by a command's first run, for this bundle, private, and used by the next run alike", async () => {
    const dir = join(tempDir(), "cache");
    const env = user(dir);
    const first = await runCli(["validate", SAMPLE], { env });
    expect(first.code).toBe(0);
    const file = cacheOf(dir, "validate");
    expect(file.slice(dir.length + 1).startsWith(`${BUILD}-${process.version}-${process.arch}-`)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const written = statSync(file).mtimeMs;
    const second = await runCli(["validate", SAMPLE], { env });
    expect(second).toEqual(first);
    // Accepted as it was: not written again.
    expect(statSync(file).mtimeMs).toBe(written);
    expect(readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("a damaged cache is rejected and rewritten; the run is as without it", async () => {
    const dir = join(tempDir(), "cache");
    const env = user(dir);
    const clean = await runCli(["validate", SAMPLE], { env });
    const file = cacheOf(dir, "validate");
    const garbage = Buffer.alloc(statSync(file).size, 7);
    writeFileSync(file, garbage);
    const run = await runCli(["validate", SAMPLE], { env });
    expect(run).toEqual(clean);
    expect(readFileSync(file).equals(garbage)).toBe(false);
  });

  it("bytes damaged in place are caught by the file's own digest, never handed to V8 (which would crash)", async () => {
    const dir = join(tempDir(), "cache");
    const env = user(dir);
    const clean = await runCli(["validate", SAMPLE], { env });
    const file = cacheOf(dir, "validate");
    const bytes = readFileSync(file);
    for (const at of [0.2, 0.4, 0.6, 0.8])
      bytes.fill(0xff, Math.floor(bytes.length * at), Math.floor(bytes.length * at) + 8);
    writeFileSync(file, bytes);
    expect(await runCli(["validate", SAMPLE], { env })).toEqual(clean);
    expect(readFileSync(file).equals(bytes)).toBe(false);
  });

  it("a bundle edited in place, same header and length, never runs the old code from the cache", async () => {
    const app = tempDir("facturar-patched-");
    cpSync(join(ROOT, "bin"), join(app, "bin"), { recursive: true });
    cpSync(join(ROOT, "dist"), join(app, "dist"), { recursive: true });
    cpSync(join(ROOT, "package.json"), join(app, "package.json"));
    symlinkSync(join(ROOT, "node_modules"), join(app, "node_modules"));
    const env = user(join(tempDir(), "cache"));
    const bin = join(app, "bin", "facturar.js");
    const summary = () =>
      new Promise<string>((resolve) =>
        execFile(process.execPath, [bin, "validate", SAMPLE], { env: { ...process.env, ...env } }, (_e, _out, err) =>
          resolve(err),
        ),
      );
    expect(await summary()).toContain("1 voucher: 1 valid");
    expect(await summary()).toContain("1 voucher: 1 valid"); // from the cache
    const bundle = join(app, "dist", "cli.cjs");
    const text = readFileSync(bundle, "utf8");
    const message = '"{n} voucher: {valid} valid, {invalid} invalid"';
    expect(text).toContain(message);
    writeFileSync(bundle, text.replaceAll(message, message.replace("valid,", "VALID,")));
    expect(await summary()).toContain("1 voucher: 1 VALID");
  });

  it("one that others may write, or a link, is never read, and is replaced by a file of our own", async () => {
    const dir = join(tempDir(), "cache");
    const env = user(dir);
    const clean = await runCli(["--version"], { env });
    const file = cacheOf(dir, "_");
    const valid = readFileSync(file);
    // Even a valid cache is refused when group or others could have written it.
    chmodSync(file, 0o666);
    expect(await runCli(["--version"], { env })).toEqual(clean);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    // A link is not followed, even to a valid cache: the link is replaced, its target untouched.
    const elsewhere = join(tempDir(), "planted.v8");
    writeFileSync(elsewhere, valid, { mode: 0o600 });
    unlinkSync(file);
    symlinkSync(elsewhere, file);
    expect(await runCli(["--version"], { env })).toEqual(clean);
    expect(lstatSync(file).isSymbolicLink()).toBe(false);
    expect(readFileSync(elsewhere).equals(valid)).toBe(true);
  });

  it("caches of other builds, and leftovers of killed writers, are removed once over a month old", async () => {
    const dir = join(tempDir(), "cache");
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const old = Date.now() / 1000 - 40 * 86_400;
    const recent = Date.now() / 1000 - 5 * 86_400;
    const files = {
      otherOld: "0123456789abcdef-v20.0.0-x64-issue.v8",
      otherRecent: "fedcba9876543210-v20.0.0-x64-issue.v8",
      leftoverOld: `${BUILD}-v20.0.0-x64-issue.v8.1234.tmp`,
      mineOld: `${BUILD}-v18.0.0-x64-query.v8`,
    };
    for (const name of Object.values(files)) writeFileSync(join(dir, name), "x");
    for (const name of [files.otherOld, files.leftoverOld, files.mineOld]) utimesSync(join(dir, name), old, old);
    utimesSync(join(dir, files.otherRecent), recent, recent);
    // Writing this command's cache cleans the folder.
    expect((await runCli(["validate", SAMPLE], { env: user(dir) })).code).toBe(0);
    const left = readdirSync(dir);
    expect(left).not.toContain(files.otherOld);
    expect(left).not.toContain(files.leftoverOld);
    // This build's own caches stay whatever their age (another Node version's), and a recent one of another build.
    expect(left).toContain(files.mineOld);
    expect(left).toContain(files.otherRecent);
    expect(left.some((f) => f.endsWith("-validate.v8"))).toBe(true);
  });

  it("a mistyped or missing command shares one cache, `_`, with --version", async () => {
    const dir = join(tempDir(), "cache");
    const env = user(dir);
    expect((await runCli(["isue"], { env })).code).toBe(2);
    expect((await runCli(["--lang", "es", "--version"], { env })).code).toBe(0);
    expect(readdirSync(dir).map((f) => f.split("-").at(-1))).toEqual(["_.v8"]);
  });

  it("nowhere to write it costs nothing but speed: no message, same outcome", async () => {
    const blocker = join(tempDir(), "a-file");
    writeFileSync(blocker, "");
    const env = user(join(blocker, "cache"));
    const run = await runCli(["validate", SAMPLE], { env });
    expect(run).toEqual(await runCli(["validate", SAMPLE], { env: { ...env, FACTURAR_CODE_CACHE: "off" } }));
    expect(run.code).toBe(0);
  });
});
