/**
 * Saving what the service hands out (PDFs, tickets, QR images): written atomically, never
 * through a symlink and never outside the chosen folder. Their names: `documentName` (voucher/codes.ts).
 */

import { constants } from "node:fs";
import { lstat, mkdir, open, rename, unlink } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { FacturarError } from "../errors.js";
import { t } from "../i18n/index.js";

export class UnsafePathError extends FacturarError {
  constructor(message: string) {
    super(message, "unavailable", "output.unsafe-path");
  }
}

/** Writes `data` to `dir/name` atomically; refuses names that leave `dir` and symlinks in the way. */
export async function writeSafely(dir: string, name: string, data: Buffer): Promise<string> {
  if (name !== basename(name) || name.startsWith(".") || !/^[A-Za-z0-9_.-]+$/.test(name)) {
    throw new UnsafePathError(t("refusing to write {name}: not a plain file name", { name: JSON.stringify(name) }));
  }
  const folder = resolve(dir);
  await mkdir(folder, { recursive: true });
  const target = join(folder, name);
  try {
    const existing = await lstat(target);
    if (existing.isSymbolicLink())
      throw new UnsafePathError(t("refusing to write {path}: it is a symbolic link", { path: target }));
    if (!existing.isFile())
      throw new UnsafePathError(t("refusing to write {path}: it is not a regular file", { path: target }));
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
