/**
 * The documents of a batch, end to end (issue #27): a run downloads them beside its lanes, a few
 * at a time, and a run killed while they are still downloading leaves them for the next run,
 * whatever that run's input, which fetches them. The built CLI against the sandbox as a real
 * process, behind a relay on loopback that holds the document downloads while the test wishes.
 */
import { spawn } from "node:child_process";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BIN, baseVoucher, freshUser, journalStates, ndjson, runCli, startCli, tempDir } from "../helpers.js";
import { serveLoopback } from "../loopback.js";
import { type RunningSandbox, sandboxEnv, startSandboxProcess } from "../sandbox-process.js";

const closing: (() => unknown)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

/**
 * A relay in front of the sandbox: API calls go through as they are, with the document links in
 * the answers pointed at the relay; document downloads wait while `hold` is set (a service that
 * is slow to serve them), then go through too.
 */
async function documentRelay(s: RunningSandbox) {
  const upstream = new URL(s.baseUrl);
  const state = { hold: true, held: 0, baseUrl: "" };
  const waiting: (() => void)[] = [];
  const relay = await serveLoopback(async (req, res, body) => {
    const document = req.method === "GET";
    if (document && state.hold) {
      state.held++;
      await new Promise<void>((go) => waiting.push(go));
      if (res.destroyed) return;
    }
    const up = await fetch(`${upstream.origin}${req.url}`, {
      method: req.method ?? "POST",
      ...(document ? {} : { headers: { "content-type": "application/json" }, body }),
    });
    const bytes = Buffer.from(await up.arrayBuffer());
    const reply = document ? bytes : Buffer.from(bytes.toString("utf8").split(upstream.host).join(relayHost));
    res.writeHead(up.status, { "content-type": up.headers.get("content-type") ?? "application/json" });
    res.end(reply);
  });
  const relayHost = new URL(relay.origin).host;
  state.baseUrl = relay.baseUrl;
  closing.push(relay.close);
  return {
    state,
    release() {
      state.hold = false;
      for (const go of waiting.splice(0)) go();
    },
  };
}

function vouchers(dir: string, name: string, refs: string[]): string {
  const path = join(dir, name);
  writeFileSync(
    path,
    JSON.stringify(
      refs.map((ref) => {
        const raw = baseVoucher();
        raw.comprobante.external_reference = ref;
        return raw;
      }),
    ),
  );
  return path;
}

describe("documents downloading when the run is killed", () => {
  it("SIGKILL with downloads in flight and more waiting: the next run, of other vouchers, fetches every one", async () => {
    const s = await startSandboxProcess();
    closing.push(() => s.stop());
    const relay = await documentRelay(s);
    const user = freshUser("facturar-docs-kill-");
    const env = { ...sandboxEnv(s, user.env), FACTURAR_BASE_URL: relay.state.baseUrl };
    const out = join(user.cwd, "pdf");
    const refs = Array.from({ length: 30 }, (_, i) => `DK-${i + 1}`);
    const first = startCli(
      ["--json", "issue", "--rate", "0", "--batch-size", "5", "--out", out, vouchers(user.cwd, "night.json", refs)],
      { cwd: user.cwd, env },
    );
    // Killed once the lanes have issued past the downloads in flight: some wait for a slot, some are downloading.
    const issued = () =>
      [...journalStates(user.env.XDG_STATE_HOME).values()].filter((state) => state === "issued").length;
    for (let i = 0; i < 1000 && !(issued() >= 20 && relay.state.held >= 4); i++)
      await new Promise((done) => setTimeout(done, 20));
    expect(relay.state.held).toBeGreaterThanOrEqual(4);
    expect(issued()).toBeGreaterThanOrEqual(20);
    first.child.kill("SIGKILL");
    const killed = await first.done;
    expect(killed.signal).toBe("SIGKILL");
    const issuedBefore = issued();
    // Nothing was saved: every document still downloading when the run died.
    expect(existsSync(out) ? readdirSync(out).filter((f) => f.endsWith(".pdf")) : []).toEqual([]);
    relay.release();
    // The next night: other vouchers. The earlier run's documents are fetched all the same.
    const next = await runCli(
      ["--json", "issue", "--rate", "0", "--out", join(user.cwd, "other"), vouchers(user.cwd, "next.json", ["DK-NEW"])],
      { cwd: user.cwd, env },
    );
    expect(next.code, next.stderr).toBe(0);
    expect(ndjson(next.stdout).map((r) => r.status)).toEqual(["issued"]);
    const saved = next.stderr
      .split("\n")
      .filter((l) => /the documents an earlier run could not save are saved now/.test(l));
    expect(saved).toHaveLength(issuedBefore);
    const files = readdirSync(out).filter((f) => f.endsWith(".pdf"));
    expect(files.filter((f) => !f.endsWith("-ticket.pdf"))).toHaveLength(issuedBefore);
    expect(files.filter((f) => f.endsWith("-ticket.pdf"))).toHaveLength(issuedBefore);
  }, 120_000);
});

describe("the sandbox's renderer", () => {
  /** What Node's module loader says a `facturar sandbox` process loaded before it said it listens. */
  async function loadedBeforeListening(args: string[]): Promise<string> {
    const child = spawn(process.execPath, [BIN, "--json", "sandbox", "--port", "0", "--data-dir", tempDir(), ...args], {
      env: { ...process.env, NODE_DEBUG: "module" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    await new Promise((listening) => child.stdout.once("data", listening));
    const before = stderr;
    child.kill("SIGTERM");
    await new Promise((ended) => child.on("close", ended));
    return before;
  }

  it("is loaded before listening where arrivals are timed (--like-production), at the first download elsewhere", async () => {
    // Loading it at the first download held the sandbox's one thread while API requests arrived.
    expect(await loadedBeforeListening(["--like-production"])).toMatch(/load "[^"]*node_modules\/pdfkit\//);
    expect(await loadedBeforeListening([])).not.toMatch(/load "[^"]*pdfkit/);
  }, 60_000);
});
