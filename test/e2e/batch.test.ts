/**
 * Cron batches with real processes: a 500-voucher CSV against a misbehaving sandbox, the CLI
 * killed with SIGKILL at random moments and run again until it is done; two runs at once; a
 * SIGTERM mid-batch. Whatever happens, each voucher ends issued exactly once, in lane order.
 */

import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Store } from "../../src/sandbox/store.js";
import { dayNumber, formatDay } from "../../src/voucher/dates.js";
import { freshUser, journalStates, journalText, ndjson, ROOT, startCli, TODAY } from "../helpers.js";
import { tempDir } from "../sandbox-process.js";

const LANES = [
  { tipo: "FACTURA A", doc: "CUIT", nro: "30712293841", cond: "RI", rate: "21" },
  { tipo: "FACTURA B", doc: "DNI", nro: "30123456", cond: "CF", rate: "21" },
  { tipo: "FACTURA M", doc: "CUIT", nro: "30712293841", cond: "RI", rate: "10.5" },
  { tipo: "FACTURA C", doc: "DNI", nro: "28765432", cond: "CF", rate: "0" },
];

/** `count` one-item vouchers spread over four lanes, with dates out of order inside each lane. */
function batchCsv(dir: string, count: number): { path: string; refs: string[] } {
  const header = [
    "comprobante.external_reference",
    "comprobante.tipo",
    "comprobante.fecha",
    "comprobante.vencimiento",
    "comprobante.rubro",
    "comprobante.rubro_grupo_contable",
    "cliente.documento_tipo",
    "cliente.documento_nro",
    "cliente.razon_social",
    "cliente.condicion_iva",
    "comprobante.detalle.cantidad",
    "comprobante.detalle.producto.descripcion",
    "comprobante.detalle.producto.precio_unitario_sin_iva",
    "comprobante.detalle.producto.alicuota",
  ];
  const rows = [header.join(",")];
  const refs: string[] = [];
  for (let i = 0; i < count; i++) {
    const lane = LANES[i % LANES.length] as (typeof LANES)[number];
    const ref = `CRASH-${String(i).padStart(4, "0")}`;
    refs.push(ref);
    const day = 16 + ((i * 7) % 5); // 16..20 November, shuffled
    rows.push(
      [
        ref,
        lane.tipo,
        `${day}/11/2026`,
        "20/12/2026",
        "Ventas",
        "Ventas",
        lane.doc,
        lane.nro,
        `Cliente ${i}`,
        lane.cond,
        "1",
        `Artículo ${i}`,
        String(100 + i),
        lane.rate,
      ].join(","),
    );
  }
  const path = join(dir, "batch.csv");
  writeFileSync(path, `${rows.join("\n")}\n`);
  return { path, refs };
}

function userEnv(home: string, faults = ""): Record<string, string> {
  return { ...process.env, ...freshUser("facturar-batch-", home).env, FACTURAR_SANDBOX_FAULTS: faults } as Record<
    string,
    string
  >;
}

function start(args: string[], env: Record<string, string>, cwd: string) {
  return startCli(args, { env, cwd });
}

/** Opens the sandbox's own store and checks: one voucher per reference, none missing, numbers in lane order. */
async function checkService(home: string, refs: string[], csv: string): Promise<void> {
  const store = await Store.open(join(home, "data", "facturar", "sandbox"));
  try {
    const pv = store.account.points_of_sale[0]?.punto_venta as number;
    const counts = refs.map((ref) => [ref, store.findByReference(pv, ref).length] as const);
    expect(counts.filter(([, n]) => n !== 1)).toEqual([]);
    expect(store.count()).toBe(refs.length);
    // Inside a lane, numbers follow the date, then the input order.
    const lines = readFileSync(csv, "utf8").trim().split("\n").slice(1);
    for (const lane of LANES) {
      const expected = lines
        .map((line, index) => ({ cells: line.split(","), index }))
        .filter((r) => r.cells[1] === lane.tipo)
        .sort((a, b) => Number(a.cells[2]?.split("/")[0]) - Number(b.cells[2]?.split("/")[0]) || a.index - b.index)
        .map((r) => r.cells[0] as string);
      const actual = [...expected].sort(
        (a, b) => (store.findByReference(pv, a)[0]?.numero ?? 0) - (store.findByReference(pv, b)[0]?.numero ?? 0),
      );
      expect(actual, lane.tipo).toEqual(expected);
    }
  } finally {
    await store.close();
  }
}

/** The sandbox holds once each of `held`, and none of the other `refs`. */
async function checkHolds(home: string, refs: string[], held: Set<string>): Promise<void> {
  const store = await Store.open(join(home, "data", "facturar", "sandbox"));
  try {
    const pv = store.account.points_of_sale[0]?.punto_venta as number;
    const wrong = refs.filter((ref) => store.findByReference(pv, ref).length !== (held.has(ref) ? 1 : 0));
    expect(wrong).toEqual([]);
  } finally {
    await store.close();
  }
}

describe("cron batches", () => {
  it("issues 500 vouchers exactly once through faults and ten SIGKILLs", async () => {
    const home = tempDir("facturar-crash-");
    const cwd = join(home, "work");
    mkdirSync(cwd);
    const { path, refs } = batchCsv(home, 500);
    // CRASH_FAULTS=error5xx=0.3,… runs the same test through a rougher service, for a longer hunt.
    const env = userEnv(home, process.env.CRASH_FAULTS ?? "drop-after-commit=0.05,error5xx=0.05,ratelimit=0.02");
    const args = ["--json", "issue", "--no-pdf", "--report", "report.csv", path];
    let kills = 0;
    for (let round = 0; round < 10; round++) {
      const run = start(args, env, cwd);
      await new Promise((r) => setTimeout(r, 300 + Math.random() * 1200));
      if (run.child.exitCode === null) {
        run.child.kill("SIGKILL");
        kills++;
      }
      await run.done;
    }
    let final: Awaited<ReturnType<typeof start>["done"]> | undefined;
    for (let attempt = 0; attempt < (process.env.CRASH_FAULTS ? 30 : 8); attempt++) {
      final = await start(args, env, cwd).done;
      if (final.code === 0) break;
    }
    expect(final?.code, final?.stderr).toBe(0);
    expect(kills).toBeGreaterThan(0);
    const results = ndjson(final?.stdout ?? "");
    expect(results).toHaveLength(500);
    expect(results.filter((r) => r.status !== "issued" && r.status !== "skipped-duplicate")).toEqual([]);
    await checkService(home, refs, path);
    // The report of the last run says what happened to every voucher.
    const report = readFileSync(join(cwd, "report.csv"), "utf8").trim().split("\n");
    expect(report).toHaveLength(501);
  }, 240_000);

  it("--batch-size keeps every lane in order through lost batches and failures, and issues each voucher once", async () => {
    const home = tempDir("facturar-lotes-");
    const cwd = join(home, "work");
    mkdirSync(cwd);
    const { path, refs } = batchCsv(home, 400);
    const env = {
      ...userEnv(home, process.env.CRASH_FAULTS ?? "drop-after-commit=0.1,error5xx=0.25"),
      // The embedded sandbox stores before it answers: a short settle window is exact here.
      FACTURAR_SETTLE_WINDOW: "0.3",
      FACTURAR_RETRY_BACKOFF: "0.02",
    };
    let final: Awaited<ReturnType<typeof start>["done"]> | undefined;
    for (let attempt = 0; attempt < 20; attempt++) {
      final = await start(["--json", "issue", "--no-pdf", "--batch-size", "5", path], env, cwd).done;
      if (final.code === 0) break;
    }
    expect(final?.code, final?.stderr.slice(-2000)).toBe(0);
    await checkService(home, refs, path);
  }, 240_000);

  it("more vouchers than a run keeps in memory (2,400; the rest wait on disk) are issued once each, in lane order", async () => {
    const home = tempDir("facturar-spill-");
    const cwd = join(home, "work");
    mkdirSync(cwd);
    const { path, refs } = batchCsv(home, 2400);
    const env = userEnv(home);
    // The embedded sandbox's plan allows 1,500 vouchers, like the service's development plan.
    await (await Store.open(join(home, "data", "facturar", "sandbox"), { quota: 10_000 })).close();
    const first = await start(["--json", "issue", "--no-pdf", "--batch-size", "20", path], env, cwd).done;
    expect(first.code, first.stderr.slice(-2000)).toBe(0);
    const results = ndjson(first.stdout);
    expect(results.map((r) => r.external_reference).sort()).toEqual([...refs].sort());
    expect(results.filter((r) => r.status !== "issued")).toEqual([]);
    await checkService(home, refs, path);
    const again = await start(["--json", "issue", "--no-pdf", path], env, cwd).done;
    expect(again.code, again.stderr.slice(-2000)).toBe(0);
    expect(ndjson(again.stdout).filter((r) => r.status !== "skipped-duplicate")).toEqual([]);
  }, 120_000);

  it("a closed pipe (`| head -1`) stops the run like a signal: in flight settles, nothing is left sending, exit 130", async () => {
    const home = tempDir("facturar-pipe-");
    const cwd = join(home, "work");
    mkdirSync(cwd);
    const { path } = batchCsv(home, 300);
    const env = userEnv(home);
    const command = `'${process.execPath}' '${join(ROOT, "bin", "facturar.js")}' issue --no-pdf '${path}' 2>err.txt | head -1; echo "\${PIPESTATUS[0]}" > code.txt`;
    const shell = spawnSync("bash", ["-c", command], { cwd, env, encoding: "utf8" });
    expect(shell.stdout.trim().split("\n")).toHaveLength(1);
    expect(readFileSync(join(cwd, "code.txt"), "utf8").trim()).toBe("130");
    expect(readFileSync(join(cwd, "err.txt"), "utf8")).toMatch(/standard output was closed: stopping/);
    const states = [...journalStates(join(home, "state")).values()];
    expect(states.filter((s) => s === "sending" || s === "unknown")).toEqual([]);
    expect(states.filter((s) => s === "issued").length).toBeGreaterThan(0);
  }, 60_000);

  it("stdout on a full device (/dev/full) stops the run the same way, exit 6, never a stack trace", async () => {
    const home = tempDir("facturar-full-");
    const cwd = join(home, "work");
    mkdirSync(cwd);
    const { path, refs } = batchCsv(home, 100);
    const env = userEnv(home);
    const bin = join(ROOT, "bin", "facturar.js");
    const issue = spawnSync(
      "bash",
      ["-c", `'${process.execPath}' '${bin}' --json issue --no-pdf '${path}' > /dev/full`],
      {
        cwd,
        env,
        encoding: "utf8",
      },
    );
    expect(issue.status, issue.stderr).toBe(6);
    expect(issue.stderr).toMatch(/standard output cannot be written \(ENOSPC\): stopping/);
    expect(issue.stderr).not.toMatch(/at .*\.js:\d+|internal error/);
    const states = [...journalStates(join(home, "state")).values()];
    expect(states.filter((s) => s === "sending" || s === "unknown")).toEqual([]);
    const query = spawnSync("bash", ["-c", `'${process.execPath}' '${bin}' query --ref ${refs[0]} > /dev/full`], {
      cwd,
      env,
      encoding: "utf8",
    });
    expect(query.status).toBe(6);
    expect(query.stderr).toMatch(/standard output cannot be written \(ENOSPC\)/);
    expect(query.stderr).not.toMatch(/at .*\.js:\d+/);
  }, 60_000);

  it("under `ulimit -f` (files that cannot grow): clear messages, the documented codes, never an internal error", async () => {
    const home = tempDir("facturar-ulimit-");
    const cwd = join(home, "work");
    mkdirSync(cwd);
    const { path } = batchCsv(home, 60);
    const env = { ...userEnv(home), FACTURAR_RETRY_BACKOFF: "0.01" };
    const bin = join(ROOT, "bin", "facturar.js");
    // The outputs go through a pipe, which the limit does not cover; the report, journal and sandbox log do.
    const run = spawnSync(
      "bash",
      [
        "-c",
        `ulimit -f 8; '${process.execPath}' '${bin}' issue --no-pdf --report r.csv '${path}' 2>&1; echo "EXIT=$?"`,
      ],
      { cwd, env, encoding: "utf8", maxBuffer: 1 << 26 },
    );
    const code = Number(/EXIT=(\d+)/.exec(run.stdout)?.[1]);
    expect([6, 8], run.stdout.slice(-3000)).toContain(code);
    expect(run.stdout).not.toMatch(/internal error|at .*\.js:\d+:\d+/);
    expect(run.stdout).toMatch(/the report r\.csv cannot take more rows \(EFBIG|cannot be used: .*EFBIG|HTTP 503/);
  }, 60_000);

  it("a journal that fills up mid-batch stops sending: exit 6 naming it, a result for every voucher, report and journal agree", async () => {
    for (const batchSize of ["20", "1"]) {
      const home = tempDir("facturar-journal-full-");
      const cwd = join(home, "work");
      mkdirSync(cwd);
      const { path, refs } = batchCsv(home, 150);
      // The test-only fault: the journal file behaves as on a full disk past 20 kB (about 40 vouchers).
      const env = { ...userEnv(home), FACTURAR_TEST_JOURNAL_FULL_AT: "20000" };
      const args = ["--json", "issue", "--batch-size", batchSize, "--report", "r.csv", path];
      const run = await start(args, env, cwd).done;
      expect(run.code, run.stderr).toBe(6);
      expect(run.stderr).toMatch(/stopped: the journal .*journal-\w+\.jsonl cannot be used: .*ENOSPC/);
      expect(run.stderr).not.toMatch(/internal error|at .*\.js:\d+/);
      const results = ndjson(run.stdout);
      expect(results.map((r) => r.external_reference).sort()).toEqual(refs);
      const issued = results.filter((r) => r.status === "issued");
      expect(issued.length).toBeGreaterThan(0);
      expect(results.filter((r) => r.status !== "issued" && r.status !== "held")).toEqual([]);
      // Held means not sent: the service holds exactly what the run says it issued.
      await checkHolds(home, refs, new Set(issued.map((r) => r.external_reference)));
      const report = readFileSync(join(cwd, "r.csv"), "utf8").trim().split("\n").slice(1);
      expect(report).toHaveLength(150);
      // The journal never says issued of what the run told not sent, nor held of what it issued;
      // `sending` is left only where the full journal could take no more (the next run asks).
      const states = journalStates(join(home, "state"));
      for (const r of results) {
        const state = states.get(r.external_reference);
        if (r.status === "held") expect([undefined, "held", "sending"]).toContain(state);
        else expect(["issued", "sending"]).toContain(state);
      }
      // Room again: the next run settles every voucher, each issued once.
      const again = await start(args, userEnv(home), cwd).done;
      expect(again.code, again.stderr).toBe(0);
      expect(ndjson(again.stdout).filter((r) => r.status !== "issued" && r.status !== "skipped-duplicate")).toEqual([]);
      await checkService(home, refs, path);
    }
  }, 120_000);

  it("refuses a second run on the same journal while the first one works", async () => {
    const home = tempDir("facturar-twice-");
    const cwd = join(home, "work");
    mkdirSync(cwd);
    const { path } = batchCsv(home, 200);
    const env = userEnv(home, "latency=20");
    // One by one: a run long enough to meet the second one.
    const first = start(["--json", "issue", "--no-pdf", "--batch-size", "1", path], env, cwd);
    // The first run holds the journal once it journals its first voucher.
    const state = join(home, "state");
    for (let i = 0; i < 400 && !journalText(state).includes('"sending"'); i++)
      await new Promise((r) => setTimeout(r, 25));
    expect(journalText(state)).toMatch(/"sending"/);
    const second = await start(["issue", "--no-pdf", path], env, cwd).done;
    expect(second.code).toBe(2);
    expect(second.stderr).toMatch(
      /another facturar run \(process \d+\) is issuing on the journal of this account \(profile sandbox\)/,
    );
    const done = await first.done;
    expect(done.code).toBe(0);
    expect(ndjson(done.stdout).filter((r) => r.status === "issued")).toHaveLength(200);
  }, 120_000);

  it("on SIGTERM lets the vouchers in flight settle, writes the report, exits 130, and the journal agrees", async () => {
    const home = tempDir("facturar-term-");
    const cwd = join(home, "work");
    mkdirSync(cwd);
    const { path, refs } = batchCsv(home, 200);
    const env = userEnv(home, "latency=30");
    // One by one, so that the signal comes while the lanes are midway.
    const run = start(
      ["--json", "issue", "--no-pdf", "--batch-size", "1", "--concurrency", "2", "--report", "report.csv", path],
      env,
      cwd,
    );
    // Stopped once a voucher is issued: some are done, most are not.
    const state = join(home, "state");
    for (let i = 0; i < 1200 && !journalText(state).includes('"issued"'); i++)
      await new Promise((r) => setTimeout(r, 25));
    expect(journalText(state)).toMatch(/"issued"/);
    run.child.kill("SIGTERM");
    const done = await run.done;
    expect(done.code).toBe(130);
    const results = ndjson(done.stdout);
    const issued = results.filter((r) => r.status === "issued").map((r) => r.external_reference);
    const held = results.filter((r) => r.status === "held");
    expect(issued.length, done.stderr.slice(-1500)).toBeGreaterThan(0);
    expect(held.length).toBeGreaterThan(0);
    expect(issued.length + held.length).toBe(200);
    const report = readFileSync(join(cwd, "report.csv"), "utf8").trim().split("\n").slice(1);
    expect(report).toHaveLength(200);
    expect(report.filter((line) => line.split(",")[2] === "issued")).toHaveLength(issued.length);
    const journal = journalStates(join(home, "state"));
    for (const ref of issued) expect(journal.get(ref), ref).toBe("issued");
    expect([...journal.values()].filter((s) => s === "sending" || s === "unknown")).toEqual([]);
    // Running again finishes the rest, exactly once.
    const rest = await start(["--json", "issue", "--no-pdf", path], userEnv(home), cwd).done;
    expect(rest.code).toBe(0);
    await checkService(home, refs, path);
  }, 120_000);
});

describe("lanes", () => {
  // Six days ahead: past the authority's window (N+5), which only the authority checks (--no-validate),
  // and only the sandbox like production (the development plan skips the authority's checks, spec §1).
  const late = formatDay(dayNumber(TODAY) + 6);
  const likeProduction = { FACTURAR_SANDBOX_FAULTS: "authority-checks" };
  it.each([
    ["one by one", ["--batch-size", "1"], /SEQ-1 failed in this lane/, { numero: 99 }, {}, {}],
    // lotes checks numero before anything, as nuevo does: the batch is refused for that row alone.
    ["batched (the default)", [], /SEQ-1 failed in this lane/, { numero: 99 }, {}, {}],
    // §6.8: the authority rejects the failing voucher of a batch and every later one.
    [
      "batched, failing at the authority",
      ["--no-validate"],
      /not processed by the service: SEQ-1, earlier in its batch, failed/,
      { fecha: late },
      { fecha: late },
      likeProduction,
    ],
  ])(
    "holds back the rest of a lane after a numbering or date error, and reports them as not sent (exit 7): %s",
    async (_, flags, why, first, rest, faults) => {
      const home = tempDir("facturar-held-");
      const cwd = join(home, "work");
      mkdirSync(cwd);
      const raw = JSON.parse(readFileSync(join(ROOT, "samples", "factura-b-dni.json"), "utf8"));
      const vouchers = [1, 2, 3].map((n) => ({
        ...raw,
        comprobante: { ...raw.comprobante, external_reference: `SEQ-${n}`, ...(n === 1 ? first : rest) },
      }));
      const other = JSON.parse(readFileSync(join(ROOT, "samples", "factura-m.json"), "utf8"));
      writeFileSync(join(cwd, "seq.json"), JSON.stringify([...vouchers, other]));
      const done = await start(
        ["--json", "issue", "--no-pdf", ...flags, "seq.json"],
        { ...userEnv(home), ...faults },
        cwd,
      ).done;
      expect(done.code).toBe(7);
      const byRef = Object.fromEntries(ndjson(done.stdout).map((r) => [r.external_reference, r]));
      expect(byRef["SEQ-1"]?.status).toBe("rejected");
      expect(byRef["SEQ-2"]).toMatchObject({ status: "held", errors: [expect.stringMatching(why)] });
      expect(byRef["SEQ-3"]?.status).toBe("held");
      expect(byRef["FM-2026-0001"]?.status).toBe("issued");
    },
  );
});
