/**
 * "Never twice, never lost" where the journal cannot help (issue 11), end to end: the built CLI
 * against the sandbox as a real process. Each case is a reproduction that issued a voucher twice
 * or lost one before the service became the source of truth. Throughout: at most one voucher per
 * external_reference at the service.
 */
import { appendFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Store } from "../../src/sandbox/store.js";
import { argentinaToday, clockFrom, formatDay } from "../../src/voucher/dates.js";
import { freshUser, journalFiles, journalStates, journalText, ndjson, ROOT, runCli, startCli } from "../helpers.js";
import { serveLoopback } from "../loopback.js";
import { type RunningSandbox, sandboxEnv, startSandboxProcess } from "../sandbox-process.js";

const SAMPLE = join(ROOT, "samples", "factura-b-dni.json");
const CSV = join(ROOT, "samples", "batch-nightly.csv");
const CSV_REFS = [
  ...new Set(
    readFileSync(CSV, "utf8")
      .trim()
      .split("\n")
      .slice(1)
      .map((l) => l.split(",")[0]),
  ),
].filter((r): r is string => !!r);

const sandboxes: RunningSandbox[] = [];
afterEach(async () => {
  for (const s of sandboxes.splice(0)) await s.stop();
});

async function sandbox(args: string[] = []): Promise<RunningSandbox> {
  const s = await startSandboxProcess({ args });
  sandboxes.push(s);
  return s;
}

/** The environment of an env-only profile pointed at a running sandbox. */
function envFor(s: RunningSandbox, user = freshUser("facturar-eo-")) {
  return {
    user,
    env: sandboxEnv(s, user.env),
  };
}

/** How many vouchers a running sandbox holds under a reference. */
async function held(s: RunningSandbox, ref: string): Promise<number> {
  const r = await s.call("facturacion/consulta_avanzada", {
    busqueda_tipo: "EXT_REF",
    pagina: 0,
    limite: 1000,
    comprobante: { external_reference: ref, operacion: "V" },
  });
  return r.body.error === "N" ? r.body.comprobantes.length : 0;
}

/** The embedded sandbox's store, read after the CLI has let go of it. */
async function embedded(
  home: string,
): Promise<{ held: (ref: string) => number; count: number; close(): Promise<void> }> {
  const store = await Store.open(join(home, "data", "facturar", "sandbox"));
  const pv = store.account.points_of_sale[0]?.punto_venta as number;
  return {
    held: (ref) => store.findByReference(pv, ref).length,
    count: store.count(),
    close: () => store.close(),
  };
}

function voucherFile(dir: string, name: string, change: (raw: any) => void): string {
  const raw = JSON.parse(readFileSync(SAMPLE, "utf8"));
  change(raw);
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(raw));
  return path;
}

/** Days as the CLIs and sandboxes the tests start count them (FACTURAR_TODAY, vitest.config.ts). */
const inDays = (n: number) => formatDay(argentinaToday(clockFrom(process.env)()) + n);
const today = inDays(0);

/** A fresh user whose config has two embedded-sandbox profiles: `s` (679, default) and `s680`. */
function twoPointsOfSale(prefix: string) {
  const u = freshUser(prefix);
  mkdirSync(join(u.env.XDG_CONFIG_HOME, "facturar"), { recursive: true });
  writeFileSync(
    join(u.env.XDG_CONFIG_HOME, "facturar", "config.json"),
    JSON.stringify({
      default_profile: "s",
      profiles: { s: { base_url: "sandbox" }, s680: { base_url: "sandbox", punto_venta: 680 } },
    }),
  );
  return u;
}

/** A JSON array of `n` copies of the sample, referenced `PREFIX-0`…, in the user's folder. */
function samples(cwd: string, prefix: string, n: number): string {
  const raw = JSON.parse(readFileSync(SAMPLE, "utf8"));
  const path = join(cwd, `${prefix}.json`);
  writeFileSync(
    path,
    JSON.stringify(
      Array.from({ length: n }, (_, i) => ({
        ...raw,
        comprobante: { ...raw.comprobante, external_reference: `${prefix}-${i}` },
      })),
    ),
  );
  return path;
}

/** Until a run has journaled its first send (its lock and its sandbox are up by then). */
async function untilSending(stateHome: string): Promise<void> {
  for (let i = 0; i < 250 && !journalText(stateHome).includes('"sending"'); i++)
    await new Promise((done) => setTimeout(done, 20));
}

describe("1. the same voucher twice in one run", () => {
  it("two files, or an array holding it twice: issued once, the repeat told as already issued (exit 0)", async () => {
    const u = freshUser("facturar-twice-");
    const r = await runCli(["--json", "issue", "--no-pdf", SAMPLE, SAMPLE], { cwd: u.cwd, env: u.env });
    expect(r.code, r.stderr).toBe(0);
    const results = ndjson(r.stdout);
    expect(results.map((x) => [x.external_reference, x.status, x.numero])).toEqual([
      ["FB-2026-0001", "issued", 1],
      ["FB-2026-0001", "skipped-duplicate", 1],
    ]);
    expect(results[1].hint).toMatch(/same voucher as .*factura-b-dni\.json.*sent once/);
    const raw = JSON.parse(readFileSync(SAMPLE, "utf8"));
    raw.comprobante.external_reference = "TWICE-ARRAY";
    const array = join(u.cwd, "array.json");
    writeFileSync(array, JSON.stringify([raw, raw]));
    const a = await runCli(["--json", "issue", "--no-pdf", array], { cwd: u.cwd, env: u.env });
    expect(a.code, a.stderr).toBe(0);
    expect(ndjson(a.stdout).map((x) => x.status)).toEqual(["issued", "skipped-duplicate"]);
    const store = await embedded(u.home);
    expect([store.held("FB-2026-0001"), store.held("TWICE-ARRAY"), store.count]).toEqual([1, 1, 2]);
    await store.close();
  });

  it("issue-queued with the voucher twice queues it once", async () => {
    const u = freshUser("facturar-twice-q-");
    const file = voucherFile(u.cwd, "later.json", (raw) => {
      raw.comprobante.fecha = inDays(5);
      raw.comprobante.external_reference = "TWICE-Q";
    });
    const r = await runCli(["--json", "issue-queued", "--no-pdf", file, file], { cwd: u.cwd, env: u.env });
    expect(r.code, r.stderr).toBe(0);
    expect(ndjson(r.stdout).map((x) => x.status)).toEqual(["queued", "queued"]);
    const store = await embedded(u.home);
    expect(store.held("TWICE-Q")).toBe(1);
    await store.close();
  });

  it("issue-queued run twice on one file: the second run finds it queued and sends nothing", async () => {
    const u = freshUser("facturar-twice-qq-");
    const file = voucherFile(u.cwd, "later.json", (raw) => {
      raw.comprobante.fecha = inDays(5);
      raw.comprobante.external_reference = "TWICE-QQ";
    });
    const run = () => runCli(["--json", "issue-queued", "--no-pdf", file], { cwd: u.cwd, env: u.env });
    const first = await run();
    expect(first.code, first.stderr).toBe(0);
    expect(journalStates(u.env.XDG_STATE_HOME).get("TWICE-QQ")).toBe("queued");
    const second = await run();
    expect(second.code, second.stderr).toBe(0);
    expect(ndjson(second.stdout)[0]).toMatchObject({ status: "queued", reconciled: true });
    expect(ndjson(second.stdout)[0].hint).toMatch(/already in the service's queue under TWICE-QQ/);
    const store = await embedded(u.home);
    expect(store.held("TWICE-QQ")).toBe(1);
    await store.close();
  });

  it("two different vouchers under one reference are invalid input: nothing is sent (exit 3), every voucher told", async () => {
    const u = freshUser("facturar-conflict-");
    const other = voucherFile(u.cwd, "other.json", (raw) => {
      raw.cliente.razon_social = "Otra Persona";
    });
    const third = voucherFile(u.cwd, "third.json", (raw) => {
      raw.comprobante.external_reference = "THIRD-1";
    });
    const r = await runCli(["--json", "issue", "--no-pdf", SAMPLE, other, third], { cwd: u.cwd, env: u.env });
    expect(r.code, r.stderr).toBe(3);
    const results = ndjson(r.stdout);
    expect(results[0].errors[0]).toMatch(/FB-2026-0001 is also used by .*factura-b-dni\.json, with other content/);
    // The run stops before sending: the others are told not sent, and why (#25).
    expect(results.map((x) => [x.source, x.external_reference, x.status])).toEqual([
      [other, "FB-2026-0001", "invalid"],
      [SAMPLE, "FB-2026-0001", "held"],
      [third, "THIRD-1", "held"],
    ]);
    expect(results[2]).toMatchObject({
      ok: false,
      errors: ["not sent: 1 voucher of this run is invalid; --skip-invalid sends the valid ones"],
    });
    expect(r.stderr).toContain("1 invalid, so nothing sent: 2 valid not sent either (--skip-invalid sends them)");
    expect(journalText(u.env.XDG_STATE_HOME)).toBe("");
  });
});

describe("2. a lookup that finds nothing while the service is still storing the voucher", () => {
  it("is asked again: one voucher, although the answer was lost after 1 s and storing takes 3 s", async () => {
    const s = await sandbox(["--fault", "slow-commit=3000"]);
    const { user, env } = envFor(s);
    const r = await runCli(["--json", "issue", "--no-pdf", SAMPLE], {
      cwd: user.cwd,
      env: { ...env, FACTURAR_ISSUE_TIMEOUT: "1" },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(ndjson(r.stdout)[0]).toMatchObject({ status: "issued", reconciled: true, numero: 1 });
    await new Promise((done) => setTimeout(done, 500));
    expect(await held(s, "FB-2026-0001")).toBe(1);
  }, 60_000);

  it("after a SIGKILL and an immediate run again: still one voucher", async () => {
    const s = await sandbox(["--fault", "slow-commit=3000"]);
    const { user, env } = envFor(s);
    // Through a relay, so the kill comes once the voucher has left the client, however slow the machine.
    const relay = await mangledBatches(s, undefined);
    const relayed = { ...env, FACTURAR_BASE_URL: relay.baseUrl };
    const first = startCli(["--json", "issue", "--no-pdf", SAMPLE], { cwd: user.cwd, env: relayed });
    for (let i = 0; i < 500 && !relay.methods.includes("facturacion/nuevo"); i++)
      await new Promise((done) => setTimeout(done, 20));
    expect(relay.methods).toContain("facturacion/nuevo");
    first.child.kill("SIGKILL");
    await first.done;
    const again = await runCli(["--json", "issue", "--no-pdf", SAMPLE], { cwd: user.cwd, env: relayed });
    expect(again.code, again.stderr).toBe(0);
    expect(ndjson(again.stdout)[0]).toMatchObject({ status: "skipped-duplicate", numero: 1 });
    await new Promise((done) => setTimeout(done, 500));
    expect(await held(s, "FB-2026-0001")).toBe(1);
  }, 60_000);
});

describe("2b. a second CLI using the sandbox another CLI hosts", () => {
  it("waits as long as that sandbox may take to store, whatever its own environment says", async () => {
    const u = twoPointsOfSale("facturar-attached-");
    // The first CLI hosts the embedded sandbox, which takes 3 s to store each voucher.
    const host = startCli(["--json", "issue", "--no-pdf", samples(u.cwd, "HOST", 4)], {
      cwd: u.cwd,
      env: { ...u.env, FACTURAR_SANDBOX_FAULTS: "slow-commit=3000" },
    });
    await untilSending(u.env.XDG_STATE_HOME);
    const guest = await runCli(["--json", "-p", "s680", "issue", "--no-pdf", SAMPLE], {
      cwd: u.cwd,
      env: { ...u.env, FACTURAR_ISSUE_TIMEOUT: "1" },
    });
    expect(guest.code, guest.stderr).toBe(0);
    // Answered directly or found by the lookup after its own short timeout (which, depends on
    // where the host's slow commits stand): issued, and once.
    expect(ndjson(guest.stdout)[0]).toMatchObject({ status: "issued", punto_venta: 680 });
    expect((await host.done).code).toBe(0);
    const query = await runCli(["--json", "-p", "s680", "query", "--ref", "FB-2026-0001"], {
      cwd: u.cwd,
      env: u.env,
    });
    expect(ndjson(query.stdout)).toHaveLength(1);
  }, 90_000);
});

describe("the embedded sandbox shared by two CLIs", () => {
  it("the host, done first, goes on serving until its guest is done: the guest loses nothing", async () => {
    const u = twoPointsOfSale("facturar-host-guest-");
    const env = { ...u.env, FACTURAR_SANDBOX_FAULTS: "latency=150" };
    // One by one, both: the guest (started while the host sends) outlasts the host, even on a slow machine.
    const host = startCli(["--json", "issue", "--no-pdf", "--batch-size", "1", samples(u.cwd, "HOST", 20)], {
      cwd: u.cwd,
      env,
    });
    await untilSending(u.env.XDG_STATE_HOME);
    const guest = await runCli(
      ["--json", "-p", "s680", "issue", "--no-pdf", "--batch-size", "1", samples(u.cwd, "GUEST", 40)],
      {
        cwd: u.cwd,
        env,
      },
    );
    const hosted = await host.done;
    expect(hosted.code, hosted.stderr).toBe(0);
    expect(hosted.stderr).toMatch(/waiting for process \d+, which uses this sandbox, to finish/);
    expect(guest.code, guest.stderr).toBe(0);
    expect(ndjson(guest.stdout).filter((r) => r.status === "issued")).toHaveLength(40);
  }, 90_000);
});

describe("the embedded sandbox's host killed under its guest", () => {
  for (const how of ["SIGKILL", "two SIGTERMs (stop at once)"] as const)
    it(`${how}: the guest serves the sandbox itself and finishes, nothing unknown, nothing twice`, async () => {
      const u = twoPointsOfSale("facturar-takeover-");
      const env = { ...u.env, FACTURAR_SANDBOX_FAULTS: "latency=100" };
      const host = startCli(["--json", "issue", "--no-pdf", "--batch-size", "1", samples(u.cwd, "HOST", 200)], {
        cwd: u.cwd,
        env,
      });
      await untilSending(u.env.XDG_STATE_HOME);
      const guest = startCli(
        ["--json", "-p", "s680", "issue", "--no-pdf", "--batch-size", "1", samples(u.cwd, "GUEST", 30)],
        { cwd: u.cwd, env },
      );
      // The host ends while the guest is midway: a few of the guest's results are out.
      for (let i = 0; i < 500 && journalText(u.env.XDG_STATE_HOME).split('"GUEST-').length <= 6; i++)
        await new Promise((done) => setTimeout(done, 20));
      if (how === "SIGKILL") host.child.kill("SIGKILL");
      else {
        host.child.kill("SIGTERM");
        await new Promise((done) => setTimeout(done, 50));
        host.child.kill("SIGTERM");
      }
      await host.done;
      const r = await guest.done;
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/the sandbox's host \(process \d+\) has ended: this process serves the sandbox now/);
      const results = ndjson(r.stdout);
      expect(results.filter((x) => x.status === "issued")).toHaveLength(30);
      // Once each, at the service: a second run finds every one.
      const again = await runCli(["--json", "-p", "s680", "issue", "--no-pdf", join(u.cwd, "GUEST.json")], {
        cwd: u.cwd,
        env: u.env,
      });
      expect(again.code, again.stderr).toBe(0);
      expect(
        ndjson(again.stdout)
          .map((x) => [x.status, x.numero])
          .sort((a, b) => a[1] - b[1]),
      ).toEqual(Array.from({ length: 30 }, (_, i) => ["skipped-duplicate", i + 1]));
    }, 120_000);
});

describe("3. the journal lost, or another machine", () => {
  it("a CSV issued again after its journal is deleted, and from another user's home: nothing twice", async () => {
    const s = await sandbox();
    const { user, env } = envFor(s);
    const first = await runCli(["--json", "issue", "--no-pdf", CSV], { cwd: user.cwd, env });
    expect(first.code, first.stderr).toBe(0);
    rmSync(join(user.env.XDG_STATE_HOME, "facturar"), { recursive: true });
    const again = await runCli(["--json", "issue", "--no-pdf", CSV], { cwd: user.cwd, env });
    expect(again.code, again.stderr).toBe(0);
    expect(new Set(ndjson(again.stdout).map((x) => x.status))).toEqual(new Set(["skipped-duplicate"]));
    const elsewhere = envFor(s);
    const third = await runCli(["--json", "issue", "--no-pdf", CSV], { cwd: elsewhere.user.cwd, env: elsewhere.env });
    expect(third.code, third.stderr).toBe(0);
    expect(ndjson(third.stdout)).toHaveLength(CSV_REFS.length);
    expect(new Set(ndjson(third.stdout).map((x) => x.status))).toEqual(new Set(["skipped-duplicate"]));
    for (const ref of CSV_REFS) expect(await held(s, ref), ref).toBe(1);
  }, 60_000);
});

describe("4. the journal belongs to the account, not to a profile's name", () => {
  it("a voucher issued through the embedded sandbox is still sent to another service under the same profile name", async () => {
    const s = await sandbox();
    const { user, env } = envFor(s);
    // A profile named `default` on the embedded sandbox; the environment then points `default` elsewhere.
    mkdirSync(join(user.env.XDG_CONFIG_HOME, "facturar"), { recursive: true });
    writeFileSync(
      join(user.env.XDG_CONFIG_HOME, "facturar", "config.json"),
      JSON.stringify({ default_profile: "default", profiles: { default: { base_url: "sandbox" } } }),
    );
    const local = await runCli(["--json", "issue", "--no-pdf", SAMPLE], { cwd: user.cwd, env: user.env });
    expect(ndjson(local.stdout)[0].status).toBe("issued");
    const there = await runCli(["--json", "issue", "--no-pdf", SAMPLE], { cwd: user.cwd, env });
    expect(there.code, there.stderr).toBe(0);
    expect(ndjson(there.stdout)[0].status).toBe("issued");
    expect(await held(s, "FB-2026-0001")).toBe(1);
    expect(journalFiles(user.env.XDG_STATE_HOME)).toHaveLength(2);
  }, 60_000);

  it("two profile names for one account share a journal; a profile moved to another service does not keep it", async () => {
    const one = await sandbox(["--ceiling", "1000000"]);
    const two = await sandbox(["--ceiling", "2000000"]);
    const user = freshUser("facturar-profiles-");
    const creds = (s: RunningSandbox) => {
      const pv = s.pointsOfSale[0] as NonNullable<(typeof s.pointsOfSale)[number]>;
      return { base_url: s.baseUrl, ...pv };
    };
    const config = join(user.cwd, "facturar.config.json");
    const write = (profiles: Record<string, unknown>) => writeFileSync(config, JSON.stringify({ profiles }));
    write({ a: creds(one), b: creds(one) });
    const run = (profile: string, args: string[]) =>
      runCli(["--json", "-p", profile, "-c", config, ...args], { cwd: user.cwd, env: user.env });
    const a = await run("a", ["issue", "--no-pdf", CSV]);
    expect(a.code, a.stderr).toBe(0);
    const b = await run("b", ["issue", "--no-pdf", CSV]);
    expect(b.code, b.stderr).toBe(0);
    expect(new Set(ndjson(b.stdout).map((x) => x.status))).toEqual(new Set(["skipped-duplicate"]));
    for (const ref of CSV_REFS) expect(await held(one, ref)).toBe(1);
    expect(JSON.parse((await run("a", ["ceiling"])).stdout).monto).toBe(1_000_000);
    // The same name, now another service: its vouchers are sent there, its ceiling asked there.
    write({ a: creds(two), b: creds(one) });
    const moved = await run("a", ["issue", "--no-pdf", CSV]);
    expect(moved.code, moved.stderr).toBe(0);
    expect(new Set(ndjson(moved.stdout).map((x) => x.status))).toEqual(new Set(["issued"]));
    for (const ref of CSV_REFS) expect(await held(two, ref)).toBe(1);
    expect(JSON.parse((await run("a", ["ceiling"])).stdout).monto).toBe(2_000_000);
  }, 90_000);
});

describe("5 and 6. the queue belongs to the service", () => {
  it("an errored queued voucher is reported, not replaced; re-queueing keeps it one voucher", async () => {
    const s = await sandbox(["--fault", "queue-error=1"]);
    const { user, env } = envFor(s);
    const run = (args: string[]) => runCli(["--json", ...args], { cwd: user.cwd, env });
    const queued = await run(["issue-queued", "--no-pdf", SAMPLE]);
    expect(ndjson(queued.stdout)[0].status).toBe("queued");
    for (let i = 0; i < 100; i++) {
      const found = ndjson((await run(["query", "--ref", "FB-2026-0001"])).stdout)[0];
      if (/CON ERROR/.test(found?.comprobante?.status ?? "")) break;
      await new Promise((done) => setTimeout(done, 50));
    }
    const again = await run(["issue-queued", "--no-pdf", SAMPLE]);
    expect(again.code, again.stderr).toBe(4);
    expect(ndjson(again.stdout)[0]).toMatchObject({ status: "rejected", reconciled: true });
    expect(ndjson(again.stdout)[0].hint).toMatch(/queue retry --ref FB-2026-0001|--requeue/);
    // The service's answer says only that it failed: that, and where the reason is (reference §6.9, §7).
    expect(ndjson(again.stdout)[0].errors).toEqual(["ENVIADO A PROCESAR - CON ERROR"]);
    expect(ndjson(again.stdout)[0].hint).toMatch(/webhook .*panel/);
    const listed = await runCli(["query", "--ref", "FB-2026-0001"], { cwd: user.cwd, env });
    expect(listed.stdout).toMatch(/queue error +FB-2026-0001/);
    expect(listed.stdout).toMatch(/FACTURA B \(queued\): ENVIADO A PROCESAR - CON ERROR/);
    expect(listed.stderr).toMatch(/gives no reason, only its status; .*webhook/);
    expect(await held(s, "FB-2026-0001")).toBe(1);
    const requeued = await run(["issue-queued", "--requeue", "--no-pdf", SAMPLE]);
    expect(requeued.code, requeued.stderr).toBe(0);
    expect(ndjson(requeued.stdout)[0]).toMatchObject({ status: "queued" });
    expect(ndjson(requeued.stdout)[0].hint).toMatch(/re-queued/);
    expect(await held(s, "FB-2026-0001")).toBe(1);
  }, 60_000);

  it("deleted from the queue, it is sent again; --wait follows a reference already queued", async () => {
    const s = await sandbox();
    const { user, env } = envFor(s);
    const run = (args: string[]) => runCli(["--json", ...args], { cwd: user.cwd, env });
    const later = voucherFile(user.cwd, "later.json", (raw) => {
      raw.comprobante.fecha = inDays(3);
      raw.comprobante.vencimiento = inDays(30);
      raw.comprobante.external_reference = "Q-LATER";
    });
    expect(ndjson((await run(["issue-queued", "--no-pdf", later])).stdout)[0].status).toBe("queued");
    const deleted = await run(["queue", "delete", "--ref", "Q-LATER"]);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(journalStates(user.env.XDG_STATE_HOME).get("Q-LATER")).toBe("deleted");
    expect(await held(s, "Q-LATER")).toBe(0);
    const again = await run(["issue-queued", "--no-pdf", later]);
    expect(ndjson(again.stdout)[0].status).toBe("queued");
    expect(await held(s, "Q-LATER")).toBe(1);
    // --wait on the same file follows the queued reference until the queue issues it (due today now).
    const queuedRecords = () =>
      journalText(user.env.XDG_STATE_HOME).match(/"ref":"Q-LATER","state":"queued"/g)?.length ?? 0;
    const before = queuedRecords();
    const waiting = startCli(["--json", "issue-queued", "--wait", "--timeout", "20", "--no-pdf", later], {
      cwd: user.cwd,
      env,
    });
    // It asks the service, finds the voucher queued (due in three days), journals so, and keeps asking.
    for (let i = 0; i < 500 && queuedRecords() === before; i++) await new Promise((done) => setTimeout(done, 20));
    expect(queuedRecords()).toBeGreaterThan(before);
    const moved = await s.call("facturacion/cambiar_fecha_encolado", {
      external_reference: "Q-LATER",
      fecha: today,
      vencimiento: inDays(30),
    });
    expect(moved.body.error).toBe("N");
    const waited = await waiting.done;
    expect(waited.code, waited.stderr).toBe(0);
    expect(ndjson(waited.stdout)[0]).toMatchObject({ status: "issued", numero: 1 });
    expect(await held(s, "Q-LATER")).toBe(1);
  }, 60_000);
});

describe("7. a torn journal tail", () => {
  it("is cut off on open, so the next record is not glued to it and lost", async () => {
    const u = freshUser("facturar-torn-");
    const run = (args: string[]) => runCli(["--json", ...args], { cwd: u.cwd, env: u.env });
    expect((await run(["issue", "--no-pdf", SAMPLE])).code).toBe(0);
    const [file] = journalFiles(u.env.XDG_STATE_HOME);
    appendFileSync(file as string, '{"ref":"TORN","state":"send');
    const second = voucherFile(u.cwd, "second.json", (raw) => {
      raw.comprobante.external_reference = "AFTER-TORN";
    });
    expect((await run(["issue", "--no-pdf", second])).code).toBe(0);
    const lines = readFileSync(file as string, "utf8")
      .trim()
      .split("\n");
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
    expect(lines.some((l) => l.includes('"ref":"TORN"'))).toBe(false);
    expect(journalStates(u.env.XDG_STATE_HOME).get("AFTER-TORN")).toBe("issued");
  });
});

describe("9. locks", () => {
  it("a lock whose process number now belongs to another process, or whose owner file is empty, does not block", async () => {
    const u = freshUser("facturar-lock-");
    const run = (args: string[]) => runCli(["--json", ...args], { cwd: u.cwd, env: u.env });
    expect((await run(["issue", "--no-pdf", SAMPLE])).code).toBe(0);
    const dir = join(u.env.XDG_STATE_HOME, "facturar");
    const [lock] = readdirSync(dir).filter((f) => f.endsWith(".lock"));
    const generations = readdirSync(join(dir, lock as string)).map((f) => Number.parseInt(f, 10));
    const next = Math.max(...generations) + 1;
    // Process 1 runs, but it is not the run that took this lock (another start time): after a reboot, say.
    const boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    writeFileSync(join(dir, lock as string, `${next}.lock`), JSON.stringify({ pid: 1, start: "1", boot }));
    const second = voucherFile(u.cwd, "second.json", (raw) => {
      raw.comprobante.external_reference = "AFTER-STALE-LOCK";
    });
    const r = await run(["issue", "--no-pdf", second]);
    expect(r.code, r.stderr).toBe(0);
    expect(ndjson(r.stdout)[0].status).toBe("issued");
    writeFileSync(join(dir, lock as string, `${next + 5}.lock`), "");
    const again = await run(["issue", "--no-pdf", second]);
    expect(again.code, again.stderr).toBe(0);
    expect(ndjson(again.stdout)[0].status).toBe("skipped-duplicate");
  });

  it("two runs started together on one journal: one refuses (exit 2) or they go one after the other; never two vouchers", async () => {
    const s = await sandbox();
    const { user, env } = envFor(s);
    for (let trial = 0; trial < 12; trial++) {
      const file = voucherFile(user.cwd, `race-${trial}.json`, (raw) => {
        raw.comprobante.external_reference = `RACE-${trial}`;
      });
      const both = await Promise.all(
        [0, 1].map(() => startCli(["--json", "issue", "--no-pdf", file], { cwd: user.cwd, env }).done),
      );
      const codes = both.map((r) => r.code).sort();
      expect(
        [
          [0, 0],
          [0, 2],
        ],
        JSON.stringify(both.map((r) => r.stderr)),
      ).toContainEqual(codes);
      expect(await held(s, `RACE-${trial}`), `trial ${trial}`).toBe(1);
    }
  }, 120_000);
});

describe("a voucher without a reference", () => {
  // Its reference derives from its content; the point of sale, given in the file or taken from
  // the profile, is the same voucher either way and must derive the same reference.
  it("is the same voucher whether the file names the profile's point of sale or leaves it out", async () => {
    const u = freshUser("facturar-noref-");
    const bare = voucherFile(u.cwd, "bare.json", (raw) => {
      delete raw.comprobante.external_reference;
      delete raw.comprobante.punto_venta;
    });
    const first = await runCli(["--json", "issue", "--no-pdf", bare], { cwd: u.cwd, env: u.env });
    expect(first.code, first.stderr).toBe(0);
    const [issued] = ndjson(first.stdout);
    expect(issued).toMatchObject({ status: "issued", punto_venta: 679 });
    const named = voucherFile(u.cwd, "named.json", (raw) => {
      delete raw.comprobante.external_reference;
      raw.comprobante.punto_venta = 679;
    });
    // In one run together, and in a later run alone, from a fresh journal too: never a second voucher.
    const both = await runCli(["--json", "issue", "--no-pdf", named, bare], { cwd: u.cwd, env: u.env });
    expect(ndjson(both.stdout).map((x) => [x.external_reference, x.status])).toEqual([
      [issued.external_reference, "skipped-duplicate"],
      [issued.external_reference, "skipped-duplicate"],
    ]);
    rmSync(join(u.env.XDG_STATE_HOME, "facturar"), { recursive: true });
    const again = await runCli(["--json", "issue", "--no-pdf", named], { cwd: u.cwd, env: u.env });
    expect(ndjson(again.stdout)[0]).toMatchObject({
      external_reference: issued.external_reference,
      status: "skipped-duplicate",
    });
    const store = await embedded(u.home);
    expect(store.count).toBe(1);
    await store.close();
  });
});

describe("content drift", () => {
  it("the same reference with other content is a conflict: nothing sent, exit 3, and says so", async () => {
    const u = freshUser("facturar-drift-");
    expect((await runCli(["issue", "--no-pdf", SAMPLE], { cwd: u.cwd, env: u.env })).code).toBe(0);
    const changed = voucherFile(u.cwd, "changed.json", (raw) => {
      raw.cliente.razon_social = "Otro Cliente SA";
    });
    const r = await runCli(["--json", "issue", "--no-pdf", changed], { cwd: u.cwd, env: u.env });
    expect(r.code, r.stderr).toBe(3);
    expect(ndjson(r.stdout)[0]).toMatchObject({ status: "conflict", ok: false, content_changed: true });
    const human = await runCli(["issue", "--no-pdf", changed], { cwd: u.cwd, env: u.env });
    expect(human.stdout).toMatch(/was used before for another voucher/);
    expect(human.stdout).toMatch(/reference used before for another voucher, not sent/);
    // Without the journal the service's figures tell, and keep telling on later runs.
    rmSync(join(u.env.XDG_STATE_HOME, "facturar"), { recursive: true });
    const pricier = voucherFile(u.cwd, "pricier.json", (raw) => {
      raw.comprobante.detalle[0].producto.precio_unitario_sin_iva *= 2;
      delete raw.comprobante.total;
    });
    for (let run = 0; run < 2; run++) {
      const again = await runCli(["--json", "issue", "--no-pdf", pricier], { cwd: u.cwd, env: u.env });
      expect(ndjson(again.stdout)[0], `run ${run}`).toMatchObject({
        status: "conflict",
        content_changed: true,
      });
      expect(again.code).toBe(3);
    }
  });

  it("each voucher's lines are written together, whatever the lanes' order", async () => {
    const u = freshUser("facturar-blocks-");
    const files = ["factura-b-dni", "factura-c", "factura-m", "factura-a-mixed-rates"].map((n) =>
      join(ROOT, "samples", `${n}.json`),
    );
    expect((await runCli(["issue", "--no-pdf", ...files], { cwd: u.cwd, env: u.env })).code).toBe(0);
    const again = await runCli(["issue", "--no-pdf", ...files], { cwd: u.cwd, env: u.env });
    const lines = again.stdout.trim().split("\n");
    const headers = lines.map((l, i) => [l, i] as const).filter(([l]) => l.startsWith("↷"));
    expect(headers).toHaveLength(4);
    for (const [k, [, i]] of headers.entries()) {
      expect(lines[i + 1], lines.join("\n")).toMatch(/^ {4}CAE/);
      // The hint, said once in a run, under the first voucher only; then the next voucher or the end.
      if (k === 0) expect(lines[i + 2], lines.join("\n")).toMatch(/^ {4}hint: already issued/);
      else expect(lines[i + 2] ?? "↷", lines.join("\n")).toMatch(/^↷/);
    }
    expect(lines.filter((l) => l.includes("hint:"))).toHaveLength(1);
  });
});

/** `count` one-item FACTURA B vouchers to consumers, one lane, dated today. */
function laneCsv(dir: string, prefix: string, count: number): { path: string; refs: string[] } {
  const rows = [
    "comprobante.external_reference,comprobante.tipo,comprobante.fecha,comprobante.vencimiento,comprobante.rubro,comprobante.rubro_grupo_contable,cliente.documento_tipo,cliente.documento_nro,cliente.razon_social,cliente.condicion_iva,comprobante.detalle.cantidad,comprobante.detalle.producto.descripcion,comprobante.detalle.producto.precio_unitario_sin_iva,comprobante.detalle.producto.alicuota",
  ];
  const refs: string[] = [];
  for (let i = 0; i < count; i++) {
    const ref = `${prefix}-${String(i).padStart(3, "0")}`;
    refs.push(ref);
    rows.push(
      `${ref},FACTURA B,${today},${inDays(30)},Ventas,Ventas,DNI,30123456,Cliente ${i},CF,1,Artículo ${i},${100 + i},21`,
    );
  }
  const path = join(dir, `${prefix}.csv`);
  writeFileSync(path, `${rows.join("\n")}\n`);
  return { path, refs };
}

/**
 * A proxy in front of a real sandbox that rewrites the first `lotes` answer: the service stored
 * the vouchers, the answer says less than it should.
 */
async function mangledBatches(
  s: RunningSandbox,
  mangle: ((answer: any) => any) | undefined,
  /** Answers a method itself (an HTTP status, an HTML body) instead of the sandbox. */
  instead?: (method: string) => number | undefined,
): Promise<{ baseUrl: string; methods: string[] }> {
  const upstream = new URL(s.baseUrl).origin;
  const methods: string[] = [];
  let mangled = false;
  const proxy = await serveLoopback(async (req, res, text) => {
    const method = (req.url ?? "").replace(/^.*\/api\/v2\//, "");
    methods.push(method);
    const status = instead?.(method);
    if (status !== undefined) {
      res.writeHead(status, { "content-type": "text/html" });
      res.end(`<html>${status}</html>`);
      return;
    }
    const up = await fetch(`${upstream}${req.url}`, {
      method: req.method ?? "POST",
      headers: { "content-type": "application/json" },
      ...(req.method === "POST" ? { body: text } : {}),
    });
    let body = await up.text();
    if (method === "facturacion/lotes" && !mangled && mangle) {
      mangled = true;
      body = JSON.stringify(mangle(JSON.parse(body)));
    }
    res.writeHead(up.status, { "content-type": up.headers.get("content-type") ?? "application/json" });
    res.end(body);
  });
  proxies.push(proxy);
  return { baseUrl: proxy.baseUrl, methods };
}

const proxies: { close(): void }[] = [];
afterEach(() => {
  for (const p of proxies.splice(0)) p.close();
});

describe("a batch answer that cannot be read whole", () => {
  const cases: [string, (answer: any) => any][] = [
    [
      "no response list",
      (a) => {
        delete a.response;
        return a;
      },
    ],
    [
      "an item without its outcome",
      (a) => {
        a.response[3] = {};
        return a;
      },
    ],
    [
      "one item short",
      (a) => {
        a.response.pop();
        return a;
      },
    ],
  ];
  for (const [name, mangle] of cases)
    it(`(${name}) is a lost answer: each voucher is asked about, all reported issued, none "not sent", none twice`, async () => {
      const s = await sandbox();
      const user = freshUser("facturar-mangled-");
      const { path, refs } = laneCsv(user.home, "MANGLED", 25);
      const proxy = await mangledBatches(s, mangle);
      const env = { ...sandboxEnv(s, user.env), FACTURAR_BASE_URL: proxy.baseUrl, FACTURAR_SETTLE_WINDOW: "0.3" };
      const run = await runCli(["--json", "issue", "--no-pdf", "--report", "r.csv", path], { cwd: user.cwd, env });
      expect(run.code, run.stderr).toBe(0);
      const results = ndjson(run.stdout);
      expect(results.map((r) => r.status)).toEqual(refs.map(() => "issued"));
      expect(
        results
          .slice(0, 20)
          .filter((r) => !(r.reconciled === true && r.numero > 0))
          .map((r) => [r.reconciled, r.numero]),
      ).toEqual([]);
      expect(proxy.methods.filter((m) => m === "facturacion/consulta_avanzada").length).toBeGreaterThanOrEqual(20);
      for (const ref of refs) expect(await held(s, ref), ref).toBe(1);
      const states = journalStates(user.env.XDG_STATE_HOME);
      expect(refs.filter((ref) => states.get(ref) !== "issued")).toEqual([]);
    }, 60_000);
});

describe("the authority down", () => {
  for (const batchSize of ["20", "1"])
    it(`stops the run at its first answer (--batch-size ${batchSize}): every voucher told not sent, exit 6, a hint to queue`, async () => {
      const s = await startSandboxProcess({ env: { FACTURAR_SANDBOX_FAULTS: "authority-down" } });
      sandboxes.push(s);
      const user = freshUser("facturar-afip-down-");
      const { path, refs } = laneCsv(user.home, "DOWN", 30);
      const proxy = await mangledBatches(s, undefined);
      const env = { ...sandboxEnv(s, user.env), FACTURAR_BASE_URL: proxy.baseUrl };
      const args = ["--json", "issue", "--batch-size", batchSize, "--report", "r.csv", path];
      const run = await runCli(args, { cwd: user.cwd, env });
      expect(run.code, run.stderr).toBe(6);
      expect(run.stderr).toMatch(/stopped: the tax authority's service is down: AFIP No devolvio el CAE/);
      expect(run.stderr).toMatch(/hint: .*facturar issue-queued/);
      const results = ndjson(run.stdout);
      expect(results.map((r) => r.external_reference)).toEqual(refs);
      expect(results.filter((r) => r.status !== "held")).toEqual([]);
      // One issuing call answered "down", and nothing more was sent.
      expect(proxy.methods.filter((m) => /^facturacion\/(nuevo|lotes)$/.test(m))).toHaveLength(1);
      const report = readFileSync(join(user.cwd, "r.csv"), "utf8").trim().split("\n").slice(1);
      expect(report.map((line) => line.split(",")[2])).toEqual(refs.map(() => "held"));
      const states = journalStates(user.env.XDG_STATE_HOME);
      expect([...states.values()].filter((state) => state !== "held")).toEqual([]);
    }, 60_000);
});

describe("issue-queued --wait when the service cannot be asked", () => {
  it("tells every voucher queued, and exits 6 with the reason and the command that follows them later", async () => {
    const s = await sandbox();
    const user = freshUser("facturar-unfollowed-");
    const { path, refs } = laneCsv(user.home, "UNFOLLOWED", 30);
    let queued = false;
    let askedAfter = 0;
    const proxy = await mangledBatches(s, undefined, (method) => {
      if (method.startsWith("facturacion/lotes_encola") || method === "facturacion/nuevo_encola") queued = true;
      else if (queued && method === "facturacion/consulta_avanzada") {
        askedAfter++;
        return 502;
      }
      return undefined;
    });
    const env = { ...sandboxEnv(s, user.env), FACTURAR_BASE_URL: proxy.baseUrl, FACTURAR_RETRY_BACKOFF: "0.01" };
    const args = ["--json", "issue-queued", "--no-pdf", "--wait", "--timeout", "20", path];
    const run = await runCli(args, { cwd: user.cwd, env });
    expect(run.code, run.stderr).toBe(6);
    const results = ndjson(run.stdout);
    expect(results.map((r) => r.status)).toEqual(refs.map(() => "queued"));
    expect(results[0].warnings.join(" ")).toMatch(/could not follow it: .*502/);
    expect(run.stderr).toMatch(
      /not followed: the vouchers are queued, but the service could not be asked how they ended: .*502/,
    );
    expect(run.stderr).toContain(`hint: \`facturar issue-queued --wait ${path}\` follows them later`);
    // Asked once, not once per voucher: the others are told at once.
    expect(askedAfter).toBeGreaterThan(0);
    expect(askedAfter).toBeLessThan(10);
    for (const ref of refs) expect(await held(s, ref), ref).toBe(1);
  }, 60_000);
});
