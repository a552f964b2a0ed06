/**
 * How bin/facturar.js starts the CLI: the bundle dist/cli.cjs (scripts/bundle.mjs) compiled with
 * V8's code cache, kept between runs. Node 20 keeps no compiled code of ours between runs (Node
 * 22's module.enableCompileCache does), and compiling the bundle's functions anew was most of
 * what `issue` cost beyond Node's own start (bench/startup.mjs). One cache per command, made at
 * the end of the command's first run, so it holds the functions that command ran.
 * Without the bundle (a build by tsc alone) it imports dist/cli.js, as before.
 */

import { createHash } from "node:crypto";
import {
  closeSync,
  constants,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { basename, dirname, isAbsolute, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Script } from "node:vm";
import { commandWordAt } from "./command-word.js";
import { tuneHeap } from "./heap.js";

const BUNDLE = fileURLToPath(new URL("./cli.cjs", import.meta.url));
/** The bundle's first line: `//facturar-bundle <hash of the rest> <its commands, comma-separated>`. */
const HEADER = /^\/\/facturar-bundle ([0-9a-f]{16,64}) ([a-z,-]*)\n/;
/** What the bundle's text is compiled inside (a CommonJS module's function); its length shifts
 * every position V8 reports, which scripts/coverage.mjs takes back. */
export const WRAPPER = "(function (exports, require, module, __filename, __dirname) {";
/** Caches of other builds made this long ago are removed when another one is written. */
const STALE_MS = 30 * 86_400_000;

export async function launch(argv: string[]): Promise<void> {
  // Stack traces of internal errors, mapped to src/ through the bundle's source map: Node reads a
  // module's map as it loads it, and a vm script's not at all, so --verbose loads it plainly.
  const verbose = argv.includes("--verbose") || argv.includes("-v");
  if (verbose) process.setSourceMapsEnabled(true);
  const bundle = readBundle();
  // A build by tsc alone: the modules one by one.
  if (bundle === undefined) return (await import("./cli.js")).main(argv);
  const cli = verbose ? createRequire(BUNDLE)(BUNDLE) : cached(bundle.source, bundle.identity, argv);
  return (cli as typeof import("./cli.js")).main(argv);
}

/**
 * The bundle's text, and the file it was read from as it was then. V8 checks only that a cache
 * was made for a source of the same length: a bundle edited in place (a patch, a hand fix) keeps
 * its header and may keep its length, and its old bytecode would run. A cache names the file it
 * was made from; both come from one open file, so they cannot describe two different ones.
 */
function readBundle(): { source: string; identity: string } | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(BUNDLE, "r");
    const stat = fstatSync(fd);
    return { source: readFileSync(fd, "utf8"), identity: `${stat.size}:${stat.mtimeMs}:${stat.ino}:${stat.dev}` };
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The bundle's exports, compiled from the code cache when there is a good one. */
function cached(source: string, identity: string, argv: string[]): unknown {
  // V8 accepts a cache only under the flags it was made with: cli.ts changes the heap's when it
  // loads, so it is set first, and the cache made at exit sees the same flags.
  tuneHeap();
  const file = cacheFile(source, argv);
  const cachedData = file ? readTrusted(file, identity) : undefined;
  const script = new Script(`${WRAPPER}${source}\n})`, {
    filename: BUNDLE,
    cachedData,
  });
  if (file && (!cachedData || script.cachedDataRejected)) {
    process.once("exit", () => writeCache(file, identity, () => script.createCachedData()));
  }
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(BUNDLE), module, BUNDLE, dirname(BUNDLE));
  return module.exports;
}

/** Where this bundle's cache for this command line is kept; none where nowhere fits. */
function cacheFile(source: string, argv: string[]): string | undefined {
  const [, build, names = ""] = HEADER.exec(source) ?? [];
  const dir = cacheDir();
  if (!build || !dir) return undefined;
  const words = argv.slice(2);
  const word = words[commandWordAt(words)] ?? "";
  // `_`: no command (--version, the program's help) or an unknown one.
  const command = names.split(",").includes(word) ? word : "_";
  // Node options change V8's flags, which a cache must match: runs with and without them (a
  // NODE_OPTIONS in one environment only) keep a cache each instead of rewriting one in turn.
  const options = [...process.execArgv, process.env.NODE_OPTIONS ?? ""].join(" ").trim();
  const variant = options ? `-${createHash("sha256").update(options).digest("hex").slice(0, 8)}` : "";
  return join(dir, `${build}-${process.version}-${process.arch}${variant}-${command}.v8`);
}

/**
 * FACTURAR_CODE_CACHE: `off`, or the folder to use. By default the package's own
 * node_modules/.cache when it has node_modules (a clone; tests and benches share it), else the
 * user's cache folder; none without a home (cron with HOME=/).
 */
function cacheDir(): string | undefined {
  const chosen = process.env.FACTURAR_CODE_CACHE;
  if (chosen === "off") return undefined;
  if (chosen && isAbsolute(chosen)) return chosen;
  const root = fileURLToPath(new URL("..", import.meta.url));
  try {
    if (statSync(join(root, "node_modules")).isDirectory()) return join(root, "node_modules", ".cache", "facturar");
  } catch {
    // Installed: the dependencies are beside the package, not in it.
  }
  const xdg = process.env.XDG_CACHE_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, "facturar");
  let home = process.env.HOME;
  try {
    home ||= homedir();
  } catch {
    return undefined;
  }
  return home && isAbsolute(home) && home !== "/" ? join(home, ".cache", "facturar") : undefined;
}

/** Our own first line of a cache file: the format, a digest of the V8 data after it, the bundle's identity. */
const MAGIC = "facturar-code-cache 1";

function digest(data: Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}

/**
 * A cache file as V8 will run it: only a regular file (not a link) of this user's or root's that
 * nobody else may write, since a planted one would be run as code; made for this very bundle
 * file; and whole: V8 does not checksum the data it deserialises (bytes damaged in place crash
 * it), so the file carries a digest of its data, checked first.
 */
function readTrusted(file: string, identity: string): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
    const stat = fstatSync(fd);
    const uid = process.getuid?.();
    if (!stat.isFile()) return undefined;
    if (uid !== undefined && stat.uid !== uid && stat.uid !== 0) return undefined;
    if (process.platform !== "win32" && (stat.mode & 0o022) !== 0) return undefined;
    const content = readFileSync(fd);
    const end = content.indexOf(10);
    const [magic, sum, madeFor] = content.subarray(0, Math.max(end, 0)).toString("latin1").split(" | ");
    if (end < 0 || magic !== MAGIC || madeFor !== identity) return undefined;
    const data = content.subarray(end + 1);
    return sum === digest(data) ? data : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Written whole under another name, then renamed: a reader sees the old file or the new one. */
function writeCache(file: string, identity: string, made: () => Buffer): void {
  const dir = dirname(file);
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const data = made();
    const first = Buffer.from(`${[MAGIC, digest(data), identity].join(" | ")}\n`, "latin1");
    writeFileSync(temporary, Buffer.concat([first, data]), { mode: 0o600, flag: "wx" });
    renameSync(temporary, file);
  } catch {
    // A cache is an optimisation: a full disk or a read-only folder costs only speed.
    try {
      unlinkSync(temporary);
    } catch {}
    return;
  }
  removeStale(dir, file, Date.now() - STALE_MS);
}

/** Caches of other builds, and leftovers of killed writers, made over a month ago. */
function removeStale(dir: string, kept: string, before: number): void {
  const build = basename(kept).split("-")[0] as string;
  try {
    for (const name of readdirSync(dir)) {
      if (name.startsWith(`${build}-`) && !name.endsWith(".tmp")) continue;
      const path = join(dir, name);
      if (statSync(path).mtimeMs < before) unlinkSync(path);
    }
  } catch {
    // Another run removing the same files, or a folder not ours to clean.
  }
}
