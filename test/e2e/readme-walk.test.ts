/**
 * Every command the README shows runs here as written (#25 item 15): each ```console block is a
 * scene played on a fresh home against the embedded sandbox, its commands in order, through bash
 * (so quotes and redirections are the reader's), with `facturar` on PATH as after `npm install -g`
 * and `npx facturar` the same. Each command must end as the block says (0, or what an `echo $?`
 * after it prints), and each line the block shows after a command must be among what it printed.
 * The commands that cannot run so (an interactive guide, a server left running) are named below
 * with the test that runs them.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, freshUser, ROOT } from "../helpers.js";

const README = readFileSync(join(ROOT, "README.md"), "utf8");

/**
 * Commands run elsewhere, each with the file that runs it and what in that file shows it does: a
 * terminal's guide, a server left running, the package installed, the suite itself.
 */
const ELSEWHERE: Record<string, [file: string, evidence: string]> = {
  "npx facturar init": ["test/e2e/spanish.test.ts", 'inTerminal(["init"]'],
  "npx facturar issue --interactive": ["test/e2e/guided.test.ts", '["issue", "--interactive"'],
  "npx facturar sandbox --port 8080": ["test/e2e/sandbox.test.ts", '"sandbox", "--port"'],
  "npm pack": ["test/e2e/package.test.ts", '"pack"'],
  "npm install -g .": ["test/e2e/package.test.ts", '"install"'],
  "npm install -g ./facturar-0.1.0.tgz": ["test/e2e/package.test.ts", '"install"'],
  "echo 'source <(facturar completion bash)' >> ~/.bashrc": [
    "test/e2e/completion.test.ts",
    "source <(facturar completion bash)",
  ],
  "npm test": [".ci/run", "npm test"],
  "npx vitest run test/unit": ["package.json", '"vitest'],
};

/** The sh blocks' commands run by the set-up test below. */
const SET_UP = [
  "npm ci && npx facturar issue samples/factura-b-dni.json",
  "facturar --version",
  "npx facturar query --ref <ref>",
];

function runsElsewhere(command: string): boolean {
  const where = ELSEWHERE[command];
  if (!where) return false;
  expect(readFileSync(join(ROOT, where[0]), "utf8"), `${command}: run by ${where[0]}`).toContain(where[1]);
  return true;
}

interface Step {
  command: string;
  shown: string[];
  exit: number;
}

/** The console blocks, each a list of commands with what the README shows after each. */
function scenes(): { line: number; steps: Step[] }[] {
  const found: { line: number; steps: Step[] }[] = [];
  for (const m of README.matchAll(/^```console\n([\s\S]*?)^```$/gm)) {
    const line = README.slice(0, m.index).split("\n").length;
    const steps: Step[] = [];
    let continued = false;
    for (const text of (m[1] as string).trimEnd().split("\n")) {
      const last = steps.at(-1);
      if (continued && last) {
        last.command += `\n${text}`;
        continued = text.endsWith("\\");
      } else if (text.startsWith("$ echo $?")) {
        if (last) last.exit = Number.NaN; // the next line says it
      } else if (text.startsWith("$ ")) {
        steps.push({ command: text.slice(2), shown: [], exit: 0 });
        continued = text.endsWith("\\");
      } else if (last && Number.isNaN(last.exit)) last.exit = Number(text);
      else last?.shown.push(text);
    }
    found.push({ line, steps });
  }
  return found;
}

/**
 * Spaces as the README aligns them are not what is compared, nor whether a path is whole (not on
 * a terminal, as here) or relative to the working folder (on one, as the README shows some).
 */
const squeeze = (text: string) => text.replaceAll("/home/ana/work/", "").replace(/\s+/g, " ").trim();

/** A shown line is in the output: whole, or up to each `…` the README abbreviates with. */
function printed(output: string, shown: string): boolean {
  const parts = squeeze(shown)
    .split("…")
    .map((p) => p.trim())
    .filter(Boolean);
  const out = squeeze(output);
  let from = 0;
  for (const part of parts) {
    const at = out.indexOf(part, from);
    if (at < 0) return false;
    from = at + part.length;
  }
  return true;
}

/** A fresh home whose working folder has the samples, and `facturar` on PATH. */
function home() {
  const u = freshUser("facturar-readme-");
  symlinkSync(join(ROOT, "samples"), join(u.cwd, "samples"));
  const bin = join(u.home, "bin");
  mkdirSync(bin);
  const shim = join(bin, "facturar");
  writeFileSync(shim, `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(shim, 0o755);
  writeFileSync(join(bin, "npx"), `#!/bin/sh\n[ "$1" = facturar ] && shift\nexec "${shim}" "$@"\n`);
  chmodSync(join(bin, "npx"), 0o755);
  const env = { ...process.env, ...u.env, CI: "", PATH: `${bin}:${process.env.PATH}` };
  return { ...u, env };
}

function run(command: string, u: ReturnType<typeof home>) {
  const r = spawnSync("bash", ["-c", command], { cwd: u.cwd, env: u.env, encoding: "utf8", timeout: 60_000 });
  // The README's paths are a user's, /home/ana/work: here, this home's.
  return { code: r.status, output: `${r.stdout}${r.stderr}`.replaceAll(u.cwd, "/home/ana/work") };
}

describe("the README, as a reader runs it", () => {
  it("names every command of its sh blocks: run in a scene below or by the test named here", () => {
    const commands = [...README.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].flatMap((m) =>
      (m[1] as string)
        .split("\n")
        .map((l) => l.replace(/\s+#.*$/, "").trim())
        .filter((l) => l !== "" && !l.startsWith("#")),
    );
    for (const command of commands) expect(runsElsewhere(command) || SET_UP.includes(command), command).toBe(true);
  });

  it("the set-up: a sample issued against the embedded sandbox, its PDF saved; found again by reference", () => {
    const u = home();
    // `npm ci` is CI's own first step (.ci/run).
    const issued = run((SET_UP[0] as string).replace("npm ci && ", ""), u);
    expect(issued.code, issued.output).toBe(0);
    expect(existsSync(join(u.cwd, "comprobantes", "FACTURA_B-00679-00000001.pdf"))).toBe(true);
    const found = run("npx facturar query --ref FB-2026-0001", u);
    expect(found.code, found.output).toBe(0);
    expect(found.output).toMatch(/FACTURA B +00679-00000001/);
    expect(run("facturar --version", u).output).toMatch(/^\d+\.\d+\.\d+/);
  });

  for (const scene of scenes()) {
    const first = scene.steps[0]?.command ?? "";
    // A scene that starts a server (and talks to it with curl) is the named test's.
    const elsewhere = first in ELSEWHERE;
    it(`README line ${scene.line}: ${scene.steps.map((s) => s.command.split("\n")[0]).join(" ; ")}`, () => {
      if (elsewhere) {
        expect(runsElsewhere(first)).toBe(true);
        return;
      }
      const u = home();
      for (const step of scene.steps) {
        const command = step.command.replace(/\s+#[^'"]*$/, "");
        const r = run(command, u);
        expect(r.code, `${command}\n${r.output}`).toBe(step.exit);
        for (const line of step.shown)
          expect(printed(r.output, line), `${command} shows:\n${line}\n\ngot:\n${r.output}`).toBe(true);
      }
    }, 120_000);
  }
});
