/**
 * Paths a run will write, known before it starts (`--report`, `--qr`, `--out`): checked before
 * anything is opened for writing or sent, so a bad one costs nothing, least of all the input.
 */
import { accessSync, constants, fstatSync, realpathSync, type Stats, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { UsageError } from "../errors.js";
import { t } from "../i18n/index.js";

function statOf(path: string): Stats | undefined {
  try {
    return path === "-" ? fstatSync(0) : statSync(path);
  } catch {
    return undefined;
  }
}

/** The same file (dev and inode, through links and `./`); `-` is standard input when it is a file. */
function sameFile(a: Stats | undefined, b: Stats | undefined): boolean {
  return a !== undefined && b !== undefined && a.isFile() && b.isFile() && a.dev === b.dev && a.ino === b.ino;
}

/** The path with its folder's links resolved, for names not written yet. */
function canonical(path: string): string {
  const full = resolve(path);
  try {
    return join(realpathSync(dirname(full)), basename(full));
  } catch {
    return full;
  }
}

/** `--report` naming an input would truncate it before it is read. */
export function checkReportIsNoInput(report: string, inputs: string[]): void {
  const target = statOf(report);
  for (const input of inputs)
    if (sameFile(target, statOf(input)) || (input !== "-" && canonical(input) === canonical(report)))
      throw new UsageError(
        t("--report {path} is the input {input}: writing it would destroy it", { path: report, input }),
        t("give --report another file"),
      );
}

/** `--qr NAME` writes NAME.png, or NAME-<number>.png for several: none of them may be an input. */
export function checkQrIsNoInput(qr: string, inputs: string[]): void {
  const base = canonical(qr.replace(/\.png$/i, ""));
  for (const input of inputs) {
    if (input === "-") continue;
    const path = canonical(input);
    if (path.startsWith(base) && /^(-\d+)?\.png$/i.test(path.slice(base.length)))
      throw new UsageError(
        t("--qr {path} would overwrite the input {input}", { path: qr, input }),
        t("give --qr another name"),
      );
  }
}

/**
 * A folder the run will create or write into (`--out`): it is a folder that can be written, or
 * the nearest that exists above it is. Read-only filesystems say EROFS here, even to root.
 */
export function checkWritableFolderTree(folder: string, flag: string): void {
  const fail = (why: string): never => {
    throw new UsageError(t("{flag} {path}: {why}", { flag, path: folder, why }));
  };
  let dir = resolve(folder);
  for (;;) {
    const info = statOf(dir);
    if (info) {
      if (!info.isDirectory())
        fail(dir === resolve(folder) ? t("it is not a folder") : t("{path} is not a folder", { path: dir }));
      try {
        accessSync(dir, constants.W_OK | constants.X_OK);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
        fail(
          dir === resolve(folder)
            ? t("it cannot be written ({code})", { code })
            : t("it cannot be created: {path} cannot be written ({code})", { path: dir, code }),
        );
      }
      return;
    }
    const parent = dirname(dir);
    if (parent === dir) return;
    dir = parent;
  }
}
