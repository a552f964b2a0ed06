/** Telling what is wrong with a path on this machine, in the file system's words. */
import { accessSync, constants, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { concat, type Message, msg, type Text } from "../i18n/message.js";

function code(error: unknown): string | undefined {
  const value = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof value === "string" ? value : undefined;
}

/**
 * The error's code, with the real reason behind an ENOENT: a recursive `mkdir` on a read-only
 * file system says ENOENT, so the nearest folder that exists is asked (EROFS, EACCES, or a file
 * in the way: ENOTDIR).
 */
function diskCode(error: unknown, path: string): string {
  const given = code(error);
  if (given !== "ENOENT") return given ?? (error as Error).message;
  for (let dir = resolve(path); ; dir = dirname(dir)) {
    let isDirectory: boolean;
    try {
      isDirectory = statSync(dir).isDirectory();
    } catch {
      if (dirname(dir) === dir) return given;
      continue;
    }
    if (!isDirectory) return "ENOTDIR";
    try {
      accessSync(dir, constants.W_OK);
    } catch (error) {
      return code(error) ?? given;
    }
    return given;
  }
}

/** `EROFS (a read-only file system)`: the code for a search, the words for a person. */
export function diskCause(error: unknown, path: string): Text {
  const found = diskCode(error, path);
  const words: Record<string, Message> = {
    EROFS: msg("a read-only file system"),
    EACCES: msg("permission denied"),
    EPERM: msg("permission denied"),
    ENOTDIR: msg("a file is where a folder should be"),
    EEXIST: msg("a file is where a folder should be"),
    EISDIR: msg("a folder is where a file should be"),
    ENOSPC: msg("no space left on the device"),
    EDQUOT: msg("the disk quota is used up"),
    EFBIG: msg("the file cannot grow (ulimit -f?)"),
    ENOENT: msg("a folder on the way does not exist"),
  };
  const text = words[found];
  return text ? concat(`${found}: `, text) : found;
}

/** An error of the file system (an `E…` code), as opposed to a bug. */
export function isDiskError(error: unknown): error is NodeJS.ErrnoException {
  const value = code(error);
  return value !== undefined && /^E[A-Z]+$/.test(value);
}
