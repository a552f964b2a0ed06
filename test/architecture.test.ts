/**
 * The layering of ARCHITECTURE.md holds (scripts/check-imports.mjs, also run by `npm run lint`),
 * and the check says which file, which import and which rule when it does not.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "..");
const SCRIPT = join(ROOT, "scripts/check-imports.mjs");
const check = (root: string) => spawnSync(process.execPath, [SCRIPT, root], { encoding: "utf8" });

const temp = mkdtempSync(join(tmpdir(), "facturar-layers-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** A project of the given files beside this one's ARCHITECTURE.md. */
function project(files: Record<string, string>): string {
  const root = mkdtempSync(join(temp, "p-"));
  cpSync(join(ROOT, "ARCHITECTURE.md"), join(root, "ARCHITECTURE.md"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe("the layers", () => {
  it("hold in src/", () => {
    const run = check(ROOT);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });

  it("are broken by a static, a type or a dynamic import against the table, each named", () => {
    const root = project({
      "src/errors.ts": "export class E {}\n",
      "src/api/protocol.ts": 'import { E } from "../errors.js";\nexport type Service = E;\n',
      "src/batch/run.ts": "export const run = 1;\n",
      "src/voucher/held.ts": [
        'import { E } from "../errors.js";',
        'import type { Service } from "../api/protocol.js";',
        'export const later = () => import("../batch/run.js");',
        "export type X = Service | E;",
        "",
      ].join("\n"),
    });
    const run = check(root);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      'src/voucher/held.ts:2: imports ../api/protocol.js (api), but voucher may import only base (ARCHITECTURE.md, "Layers")',
    );
    expect(run.stderr).toContain(
      "src/voucher/held.ts:3: imports ../batch/run.js (batch), but voucher may import only base",
    );
    expect(run.stderr).toContain("check-imports: 2 broken rules");
  });

  it("cover every folder: a file in none is named", () => {
    const run = check(project({ "src/extra/x.ts": "export const x = 1;\n" }));
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("src/extra/x.ts: in no layer of ARCHITECTURE.md");
  });
});
