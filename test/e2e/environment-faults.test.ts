/**
 * The environment's faults, tried with real processes: output paths that would destroy an input
 * or cannot be written, state folders that cannot be written, an unwritable stderr, files that
 * cannot grow. Each is a clear message naming the path, with its documented exit code, and
 * whatever could be known up front is refused before anything is sent.
 */
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { freshUser, journalText, ndjson, ROOT, runCli } from "../helpers.js";

const BIN_JS = join(ROOT, "bin", "facturar.js");

/** Mount namespaces (root in CI): a folder made read-only for one run, a real EROFS. */
const CAN_MOUNT = spawnSync("unshare", ["-m", "true"]).status === 0;

/** Runs the CLI with `dir` mounted read-only over itself, in a mount namespace of its own. */
function readOnly(dir: string, cwd: string, env: Record<string, string>, args: string[]) {
  const script = 'mount --bind "$RO" "$RO" && mount -o remount,bind,ro "$RO" && exec "$NODE" "$BIN" "$@"';
  return spawnSync("unshare", ["-m", "bash", "-c", script, "bash", ...args], {
    cwd,
    env: { ...env, RO: dir, NODE: process.execPath, BIN: BIN_JS },
    encoding: "utf8",
  });
}

const NIGHTLY = join(ROOT, "samples", "batch-nightly.csv");
const ONE = join(ROOT, "samples", "factura-b-dni.json");

describe("the environment's faults", () => {
  it("a --report or --qr that is an input is a usage error, and the input is left whole", async () => {
    const u = freshUser("facturar-report-input-");
    const input = join(u.cwd, "nightly.csv");
    copyFileSync(NIGHTLY, input);
    const original = readFileSync(input, "utf8");
    symlinkSync(input, join(u.cwd, "link.csv"));
    for (const [report, given] of [
      ["nightly.csv", "nightly.csv"],
      ["./nightly.csv", "nightly.csv"],
      [input, "nightly.csv"],
      ["link.csv", "nightly.csv"],
      ["../work/nightly.csv", "./nightly.csv"],
    ] as const) {
      const run = await runCli(["issue", "--no-pdf", "--report", report, given], { cwd: u.cwd, env: u.env });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(`--report ${report} is the input ${given}: writing it would destroy it`);
      expect(readFileSync(input, "utf8")).toBe(original);
    }
    // Standard input redirected from the report's file.
    const piped = spawnSync(
      "bash",
      [
        "-c",
        `'${process.execPath}' '${join(ROOT, "bin", "facturar.js")}' issue --no-pdf --report nightly.csv - < nightly.csv`,
      ],
      { cwd: u.cwd, env: u.env, encoding: "utf8" },
    );
    expect(piped.status, piped.stderr).toBe(2);
    expect(piped.stderr).toContain("--report nightly.csv is the input -");
    expect(readFileSync(input, "utf8")).toBe(original);
    // --qr ticket writes ticket.png: an input of that name is refused too.
    writeFileSync(join(u.cwd, "ticket.png"), "not a voucher");
    const qr = await runCli(["issue", "--no-pdf", "--qr", "ticket", ONE, "ticket.png"], { cwd: u.cwd, env: u.env });
    expect(qr.code).toBe(2);
    expect(qr.stderr).toContain("--qr ticket would overwrite the input ticket.png");
    expect(journalText(u.env.XDG_STATE_HOME)).toBe("");
  });

  it("an --out that cannot be a folder is refused before anything is sent; with --no-pdf it is not used", async () => {
    const u = freshUser("facturar-out-");
    writeFileSync(join(u.cwd, "existing.csv"), "x");
    for (const [out, why] of [
      ["existing.csv", "--out existing.csv: it is not a folder"],
      ["existing.csv/pdfs", `--out existing.csv/pdfs: ${join(u.cwd, "existing.csv")} is not a folder`],
    ] as const) {
      const run = await runCli(["issue", "--out", out, ONE], { cwd: u.cwd, env: u.env });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(why);
      expect(journalText(u.env.XDG_STATE_HOME)).toBe("");
    }
    const fine = await runCli(["issue", "--out", join(u.cwd, "new", "pdfs"), ONE], { cwd: u.cwd, env: u.env });
    expect(fine.code, fine.stderr).toBe(0);
    const noPdf = await runCli(["issue", "--no-pdf", "--allow-duplicate", "--out", "existing.csv", ONE], {
      cwd: u.cwd,
      env: u.env,
    });
    expect(noPdf.code, noPdf.stderr).toBe(0);
  });

  it.skipIf(!existsSync("/proc/self"))(
    "an --out that root's access rights allow but no file can go in (/proc, /sys) is refused before sending, at once",
    async () => {
      const u = freshUser("facturar-out-");
      // /proc hung a recursive mkdir for ever (100 % CPU, deaf to SIGTERM) after the voucher was issued.
      for (const out of ["/proc/facturar-nope/pdfs", "/sys/facturar-nope"]) {
        const run = await runCli(["issue", "--out", out, ONE], { cwd: u.cwd, env: u.env });
        expect(run.code, run.stderr).toBe(2);
        // As root the try says so; as anyone else, access rights already do.
        expect(run.stderr).toMatch(new RegExp(`--out ${out}: it cannot be (written|created)`));
        expect(journalText(u.env.XDG_STATE_HOME)).toBe("");
      }
    },
    30_000,
  );

  it("a sandbox.log already there, readable by others, is made 0600 when the sandbox opens it", async () => {
    const u = freshUser("facturar-log-mode-");
    const log = join(u.env.XDG_DATA_HOME, "facturar", "sandbox", "sandbox.log");
    mkdirSync(dirname(log), { recursive: true });
    writeFileSync(log, "", { mode: 0o644 });
    chmodSync(log, 0o644);
    const run = await runCli(["status"], { cwd: u.cwd, env: u.env });
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(log, "utf8")).toContain("apitoken");
    expect(statSync(log).mode & 0o777).toBe(0o600);
  });

  it("a state folder that cannot be written: `ceiling` answers and warns, naming the path and the cause", async () => {
    const u = freshUser("facturar-ceiling-state-");
    writeFileSync(u.env.XDG_STATE_HOME, "a file where the state folder should be");
    const run = await runCli(["ceiling"], { cwd: u.cwd, env: u.env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Final-consumer identification ceiling: \$ [\d,.]+/);
    expect(run.stderr).toContain(
      `the ceiling is not kept for the day: ${join(u.env.XDG_STATE_HOME, "facturar", "ceiling.json")} cannot be written (ENOTDIR`,
    );
  });

  it.skipIf(!CAN_MOUNT)(
    "on a read-only file system: the sandbox folder exits 6 (2 as --data-dir), the journal's says EROFS, never an internal error",
    () => {
      const u = freshUser("facturar-readonly-");
      expect(readOnly(u.home, u.cwd, u.env, []).status).toBe(0);
      // The embedded sandbox's folder exists, read-only.
      expect(spawnSync(process.execPath, [BIN_JS, "status"], { cwd: u.cwd, env: u.env }).status).toBe(0);
      const sandbox = join(u.env.XDG_DATA_HOME, "facturar", "sandbox");
      for (const args of [["status"], ["--json", "issue", "--no-pdf", ONE]]) {
        const run = readOnly(sandbox, u.cwd, u.env, args);
        expect(run.status, run.stderr).toBe(6);
        expect(`${run.stdout}${run.stderr}`).toContain(
          `the sandbox data folder ${sandbox} cannot be used: EROFS: a read-only file system`,
        );
        expect(run.stderr).not.toMatch(/internal error/);
      }
      const flag = readOnly(sandbox, u.cwd, u.env, ["sandbox", "--data-dir", sandbox]);
      expect(flag.status, flag.stderr).toBe(2);
      expect(flag.stderr).toContain(`the sandbox data folder ${sandbox} cannot be used: EROFS`);
      // The journal's folder cannot be made on a read-only file system: EROFS, not ENOENT.
      const state = join(u.home, "readonly-state");
      mkdirSync(state);
      const journal = readOnly(state, u.cwd, { ...u.env, XDG_STATE_HOME: join(state, "deeper") }, [
        "issue",
        "--no-pdf",
        ONE,
      ]);
      expect(journal.status, journal.stderr).toBe(6);
      expect(journal.stderr).toMatch(/the journal .*deeper\/facturar\/journal-.*\.jsonl cannot be used: EROFS/);
      const ceiling = readOnly(state, u.cwd, { ...u.env, XDG_STATE_HOME: join(state, "deeper") }, ["ceiling"]);
      expect(ceiling.status, ceiling.stderr).toBe(0);
      expect(ceiling.stderr).toMatch(/ceiling\.json cannot be written \(EROFS: a read-only file system\)/);
    },
    60_000,
  );

  it("standard error on a full device stops the run with exit 6, told on stdout (a JSON line under --json)", () => {
    const u = freshUser("facturar-stderr-full-");
    const full = openSync("/dev/full", "w");
    try {
      const human = spawnSync(process.execPath, [BIN_JS, "--verbose", "issue", "--no-pdf", NIGHTLY], {
        cwd: u.cwd,
        env: u.env,
        stdio: ["ignore", "pipe", full],
        encoding: "utf8",
      });
      expect(human.status, human.stdout).toBe(6);
      expect(human.stdout).toContain("standard error cannot be written (ENOSPC)");
      // The results still go to stdout: every voucher is told.
      expect(human.stdout).toMatch(/ref LOTE-20261120-001 .*(not sent|issued)/);
      const json = spawnSync(process.execPath, [BIN_JS, "--json", "issue", "--no-pdf", ONE], {
        cwd: u.cwd,
        env: u.env,
        stdio: ["ignore", "pipe", full],
        encoding: "utf8",
      });
      expect(json.status, json.stdout).toBe(6);
      const lines = ndjson(json.stdout);
      expect(lines.filter((line) => line.error?.code === "output.unwritable")).toHaveLength(1);
      // Every line is JSON, and the voucher has its result line too.
      expect(lines.filter((line) => line.status !== undefined)).toHaveLength(1);
    } finally {
      closeSync(full);
    }
  });

  it("standard output on a full device stops the batch with exit 6; what was sent is in the journal, never sent again", () => {
    const u = freshUser("facturar-stdout-full-");
    const full = openSync("/dev/full", "w");
    try {
      const run = spawnSync(process.execPath, [BIN_JS, "issue", "--no-pdf", NIGHTLY], {
        cwd: u.cwd,
        env: u.env,
        stdio: ["ignore", full, "pipe"],
        encoding: "utf8",
      });
      expect(run.status, run.stderr).toBe(6);
      expect(run.stderr).toContain(
        "standard output cannot be written (ENOSPC): stopping; the vouchers in flight settle, nothing new is sent",
      );
      // Nothing lost: every voucher sent is issued in the journal (none left sending or unknown).
      const states = [...journalText(u.env.XDG_STATE_HOME).matchAll(/"state":"([a-z-]+)"/g)].map((m) => m[1]);
      expect(states.length).toBeGreaterThan(0);
      expect(states.filter((s) => s !== "sending" && s !== "issued")).toEqual([]);
    } finally {
      closeSync(full);
    }
    // The next run sends only what the first did not, each once: 24 vouchers, every one issued.
    const again = spawnSync(process.execPath, [BIN_JS, "--json", "issue", "--no-pdf", NIGHTLY], {
      cwd: u.cwd,
      env: u.env,
      encoding: "utf8",
    });
    expect(again.status, again.stderr).toBe(0);
    const results = ndjson(again.stdout);
    expect(results).toHaveLength(24);
    expect(results.every((r) => r.status === "issued" || r.status === "skipped-duplicate")).toBe(true);
    expect(new Set(results.map((r) => `${r.comprobante_tipo} ${r.comprobante_nro}`)).size).toBe(24);
  });

  it("under `ulimit -f`, the embedded sandbox that cannot store says so with its path and cause", () => {
    const u = freshUser("facturar-sandbox-efbig-");
    const run = spawnSync("bash", ["-c", 'ulimit -f 16; exec "$NODE" "$BIN" issue --no-pdf "$CSV" 2>&1'], {
      cwd: u.cwd,
      env: { ...u.env, NODE: process.execPath, BIN: BIN_JS, CSV: NIGHTLY, FACTURAR_RETRY_BACKOFF: "0.01" },
      encoding: "utf8",
      maxBuffer: 1 << 26,
    });
    const log = join(u.env.XDG_DATA_HOME, "facturar", "sandbox", "sandbox.log");
    expect(run.stdout).toContain(`the embedded sandbox stopped: cannot write ${log}: EFBIG`);
    expect(run.stdout).not.toMatch(/internal error|at .*\.js:\d+:\d+/);
    expect([6, 8], run.stdout.slice(-2000)).toContain(run.status);
  }, 60_000);
});
