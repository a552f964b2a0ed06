/** Shell completion: the bash script in a real bash; the zsh and fish scripts as printed. */
import { execFileSync, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, freshUser, runCli, userConfig } from "../helpers.js";

/** What bash offers after `facturar <words>`, the last word being the one typed. */
function bashComplete(cwd: string, env: Record<string, string>, words: string[]): string[] {
  const script = `
facturar() { "${process.execPath}" "${BIN}" "$@"; }
source <(facturar completion bash)
COMP_WORDS=(facturar ${words.map((w) => `'${w}'`).join(" ")})
COMP_CWORD=${words.length}
_facturar
printf '%s\\n' "\${COMPREPLY[@]}"`;
  return execFileSync("bash", ["-c", script], { cwd, env: { ...process.env, ...env }, encoding: "utf8" })
    .split("\n")
    .filter(Boolean);
}

/**
 * What an interactive bash (in a pseudo-terminal, readline's own quoting at work) runs after the
 * user types `line` (Tabs included) and Enter: `facturar` there prints each argument it gets as
 * `<arg>`, and asks the real CLI for completions.
 */
function bashTyped(cwd: string, env: Record<string, string>, line: string): Promise<string[]> {
  const rc = join(cwd, "completion.bashrc");
  writeFileSync(
    rc,
    `PS1='READY> '
facturar() {
  if [ "$1" = __complete ] || [ "$1" = completion ]; then "${process.execPath}" "${BIN}" "$@"; else printf '<%s>\\n' "$@"; fi
}
source <(facturar completion bash)
`,
  );
  return new Promise((resolve, reject) => {
    const child = spawn("script", ["-qfec", `bash --noprofile --rcfile '${rc}' -i`, "/dev/null"], {
      cwd,
      env: { ...process.env, ...env, TERM: "dumb" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let screen = "";
    let typed = false;
    child.stdout.on("data", (d) => {
      screen += d;
      // readline reads the keys one after another, running each completion before the next key.
      if (!typed && screen.includes("READY> ")) {
        typed = true;
        child.stdin.write(`${line}\n`);
      }
      if (typed && /<[^\n]*>\r?\n[\s\S]*READY> /.test(screen) && !child.stdin.writableEnded) child.stdin.end("exit\n");
    });
    const stuck = setTimeout(() => {
      child.kill();
      reject(new Error(`bash did not answer; the screen showed:\n${screen.slice(-1500)}`));
    }, 30_000);
    child.on("close", () => {
      clearTimeout(stuck);
      resolve([...screen.matchAll(/^<([^\n]*)>\r?$/gm)].map((m) => m[1] as string));
    });
  });
}

describe("facturar completion", () => {
  const u = freshUser("facturar-completion-");
  userConfig(u.env, { profiles: { pv3: { base_url: "sandbox" }, produccion: { base_url: "sandbox" } } });

  it("completes commands, flags, profile names, voucher types and actions in bash", () => {
    expect(bashComplete(u.cwd, u.env, ["iss"])).toEqual(["issue", "issue-queued"]);
    expect(bashComplete(u.cwd, u.env, ["issue", "--batch"])).toEqual(["--batch-size"]);
    expect(bashComplete(u.cwd, u.env, ["--profile", ""]).sort()).toEqual(["produccion", "pv3", "sandbox"]);
    // Unescaped: readline quotes what it inserts (-o filenames).
    expect(bashComplete(u.cwd, u.env, ["query", "--type", "FACTURA\\ C"])).toEqual(["FACTURA C"]);
    expect(bashComplete(u.cwd, u.env, ["template", "NOTA DE DEBITO M"])).toEqual(["NOTA DE DEBITO M"]);
    expect(bashComplete(u.cwd, u.env, ["queue", "re"])).toEqual(["reschedule", "retry"]);
    expect(bashComplete(u.cwd, u.env, ["completion", ""])).toEqual(["bash", "zsh", "fish"]);
    expect(bashComplete(u.cwd, u.env, ["validate", "--encoding", ""])).toEqual(["utf8", "latin1"]);
    expect(bashComplete(u.cwd, u.env, ["validate", "--delimiter", ""])).toEqual([",", ";"]);
    expect(bashComplete(u.cwd, u.env, ["validate", "--decimal", "c"])).toEqual(["comma"]);
    expect(bashComplete(u.cwd, u.env, ["--lang", ""])).toEqual(["es", "en"]);
    // A configuration that cannot be read still completes the built-in sandbox, silently.
    const broken = freshUser("facturar-complete-broken-");
    userConfig(broken.env, {});
    writeFileSync(join(broken.env.XDG_CONFIG_HOME, "facturar", "config.json"), "{ not json");
    expect(bashComplete(broken.cwd, broken.env, ["--profile", ""])).toEqual(["sandbox"]);
    // File arguments fall back to the shell's own file completion.
    writeFileSync(join(u.cwd, "lote-noviembre.csv"), "");
    expect(bashComplete(u.cwd, u.env, ["issue", "lote-"])).toEqual(["lote-noviembre.csv"]);
  });

  it("inserts voucher types as one word in an interactive bash: F<Tab>B<Tab> is FACTURA B", async () => {
    expect(await bashTyped(u.cwd, u.env, "facturar query --type F\tB\t")).toEqual(["query", "--type", "FACTURA B"]);
    expect(await bashTyped(u.cwd, u.env, "facturar query --type FACTURA\\ C\t")).toEqual([
      "query",
      "--type",
      "FACTURA C",
    ]);
    expect(await bashTyped(u.cwd, u.env, 'facturar template "NOTA DE DEBITO M\t')).toEqual([
      "template",
      "NOTA DE DEBITO M",
    ]);
    expect(await bashTyped(u.cwd, u.env, "facturar validate --delimiter \\;\t")).toEqual([
      "validate",
      "--delimiter",
      ";",
    ]);
  });

  it("prints zsh and fish scripts, and refuses other shells", async () => {
    const zsh = await runCli(["completion", "zsh"], { cwd: u.cwd, env: u.env });
    expect(zsh.stdout).toMatch(/^#compdef facturar/);
    expect(zsh.stdout).toContain("facturar __complete --shell zsh");
    const fish = await runCli(["completion", "fish"], { cwd: u.cwd, env: u.env });
    expect(fish.stdout).toContain("complete -c facturar -a '(facturar __complete --shell fish");
    expect((await runCli(["completion", "tcsh"], { cwd: u.cwd, env: u.env })).code).toBe(2);
    expect((await runCli(["--help"], { cwd: u.cwd, env: u.env })).stdout).not.toContain("__complete");
  });
});
