/** Child processes run the build (they cannot load TypeScript): the path of a built module, checked to be fresh. */
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../helpers.js";

/** `rel` is a module's path under dist/, e.g. "durable/lock.js". */
export function builtModule(rel: string): string {
  const built = join(ROOT, "dist", rel);
  const source = join(ROOT, "src", rel.replace(/\.js$/, ".ts"));
  if (!existsSync(built) || statSync(built).mtimeMs < statSync(source).mtimeMs)
    throw new Error(`${built} is missing or older than its source: run npm run build first`);
  return built;
}
