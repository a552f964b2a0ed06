/**
 * scripts/check-words.mjs (in `npm run lint`): a message of the core put where it would be
 * stringified ("[object Object]") instead of said is named, file and line.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "..");
const SCRIPT = join(ROOT, "scripts/check-words.mjs");
const temp = mkdtempSync(join(tmpdir(), "facturar-words-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** A project of one source file beside a message type like src/i18n/message.ts's. */
function check(code: string) {
  const root = mkdtempSync(join(temp, "p-"));
  mkdirSync(join(root, "src"), { recursive: true });
  writeFileSync(
    join(root, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { strict: true, target: "es2022", module: "nodenext", noEmit: true },
      include: ["src"],
    }),
  );
  writeFileSync(
    join(root, "src", "words.ts"),
    [
      "export interface Message { readonly template: string }",
      "export type Text = string | Message;",
      "/** chalk's and console's shape: any number of anything, stringified. */",
      "export declare function paint(...text: unknown[]): string;",
      "export declare function log(...data: any[]): void;",
      "export declare function say(text: Text): string;",
      "export declare const error: Text;",
      code,
      "",
    ].join("\n"),
  );
  return spawnSync(process.execPath, [SCRIPT, root], { encoding: "utf8" });
}

describe("check-words", () => {
  it("passes a message said first", () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a template literal
    const run = check("export const ok = [paint(say(error)), `${say(error)}`];\nlog(say(error));");
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });

  it("names a message in a template literal, and one handed to a function that stringifies anything", () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a template literal
    const run = check("export const bad = `${error}`;\nexport const painted = paint(error);\nlog('x', error);");
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("src/words.ts:8: error");
    expect(run.stderr).toContain("src/words.ts:9: paint(error)");
    expect(run.stderr).toContain("src/words.ts:10: log('x', error)");
  });
});
