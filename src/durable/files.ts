/**
 * Saving what the service hands out (PDFs, tickets, QR images): written atomically, never
 * through a symlink and never outside the chosen folder. Their names: `documentName` (voucher/codes.ts).
 */

import { constants } from "node:fs";
import { lstat, mkdir, open, rename, unlink } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { FacturarError } from "../errors.js";
import { msg, type Text } from "../i18n/message.js";

class UnsafePathError extends FacturarError {
  constructor(message: Text) {
    super(message, "unavailable", "output.unsafe-path");
  }
}

/**
 * Creates `folder` and the folders above it that are missing, one at a time from the nearest that
 * exists. Not `mkdir(…, {recursive: true})`: under /proc it loops for ever (Node retries the
 * ENOENT it takes for a missing parent), and a cron job would hang there.
 */
export async function makeFolders(folder: string): Promise<void> {
  const missing: string[] = [];
  let dir = resolve(folder);
  for (;;) {
    try {
      await lstat(dir);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    missing.unshift(dir);
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  for (const each of missing)
    await mkdir(each).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "EEXIST") throw error;
    });
}

/**
 * The folder documents will be saved in, made and tried before anything is sent: a file is
 * created in it and removed. Throws the filesystem's error (EACCES, EROFS, EPERM, ENOENT…).
 */
export async function tryFolder(folder: string): Promise<void> {
  await makeFolders(folder);
  const probe = join(resolve(folder), `.facturar-probe-${process.pid}-${Date.now()}`);
  const handle = await open(
    probe,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    0o600,
  );
  await handle.close();
  await unlink(probe);
}

/** Writes `data` to `dir/name` atomically; refuses names that leave `dir` and symlinks in the way. */
export async function writeSafely(dir: string, name: string, data: Buffer): Promise<string> {
  if (name !== basename(name) || name.startsWith(".") || !/^[A-Za-z0-9_.-]+$/.test(name)) {
    throw new UnsafePathError(msg("refusing to write {name}: not a plain file name", { name: JSON.stringify(name) }));
  }
  const folder = resolve(dir);
  await makeFolders(folder);
  const target = join(folder, name);
  try {
    const existing = await lstat(target);
    if (existing.isSymbolicLink())
      throw new UnsafePathError(msg("refusing to write {path}: it is a symbolic link", { path: target }));
    if (!existing.isFile())
      throw new UnsafePathError(msg("refusing to write {path}: it is not a regular file", { path: target }));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const temp = join(folder, `.${name}.${process.pid}.${Date.now()}.tmp`);
  // O_EXCL|O_NOFOLLOW: a link planted at the temporary name is not followed.
  const handle = await open(
    temp,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    0o644,
  );
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await unlink(temp).catch(() => {});
    throw error;
  }
  await handle.close();
  await rename(temp, target);
  return target;
}
