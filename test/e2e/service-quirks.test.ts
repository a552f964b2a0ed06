/**
 * Never twice, never lost, against what the real service may do (reference §6.7, §6.8, §12), and
 * what it allows: a running sandbox stores the vouchers, and a hostile relay of our own
 * (test/hostile-relay.ts) changes what the client hears. One rule is under test: a voucher's
 * outcome is read only from an answer that names it, and its absence is concluded only from
 * asking the service for its reference once the settle window has passed. Each case was a
 * voucher issued twice, or lost, or wrongly told, before that rule.
 */
import { spawn, spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { argentinaToday, clockFrom, formatDay } from "../../src/voucher/dates.js";
import { BIN, ENGLISH, freshUser, ndjson, ROOT, runCli, startCli } from "../helpers.js";
import { hostileRelay, issuingCalls, type Relay, type Rewritten } from "../hostile-relay.js";
import { type RunningSandbox, sandboxEnv, startSandboxProcess } from "../sandbox-process.js";

const SAMPLE = join(ROOT, "samples", "factura-b-dni.json");
/** Days as the CLIs and sandboxes the tests start count them (FACTURAR_TODAY, vitest.config.ts). */
const inDays = (n: number) => formatDay(argentinaToday(clockFrom(process.env)()) + n);

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function sandbox(args: string[] = []): Promise<RunningSandbox> {
  const s = await startSandboxProcess({ args });
  cleanups.push(() => s.stop());
  return s;
}

async function relayed(s: RunningSandbox, answer: Parameters<typeof hostileRelay>[1]): Promise<Relay> {
  const relay = await hostileRelay(s, answer);
  cleanups.push(() => relay.close());
  return relay;
}

/** A user whose env-only profile points at `baseUrl` with the sandbox's first point of sale. */
function userAt(s: RunningSandbox, baseUrl = s.baseUrl, extra: Record<string, string> = {}) {
  const user = freshUser("facturar-quirks-");
  const env = {
    ...sandboxEnv(s, user.env),
    FACTURAR_BASE_URL: baseUrl,
    FACTURAR_SETTLE_WINDOW: "0.3",
    FACTURAR_RETRY_BACKOFF: "0.01",
    ...extra,
  };
  return {
    user,
    env,
    issue: (args: string[]) => runCli(["--json", ...args], { cwd: user.cwd, env }),
    /** The sample under each of `refs`, dated today, in one file, issued with `command` (no PDFs). */
    batch: (refs: string[], command = "issue") =>
      runCli(
        [
          "--json",
          command,
          "--no-pdf",
          file(
            user.cwd,
            "lote.json",
            refs.map((ref) => sample(ref)),
          ),
        ],
        {
          cwd: user.cwd,
          env,
        },
      ),
    forgetJournal: () => rmSync(join(user.home, "state"), { recursive: true, force: true }),
  };
}

/** Every voucher the sandbox holds under a reference (queued ones too), as the service lists them. */
async function heldUnder(s: RunningSandbox, ref: string): Promise<any[]> {
  const r = await s.call("facturacion/consulta_avanzada", {
    busqueda_tipo: "EXT_REF",
    pagina: 0,
    limite: 1000,
    comprobante: { external_reference: ref, operacion: "V" },
  });
  return r.body.error === "N" ? r.body.comprobantes : [];
}

async function counts(s: RunningSandbox, refs: string[]): Promise<number[]> {
  return Promise.all(refs.map(async (ref) => (await heldUnder(s, ref)).length));
}

/** The sample voucher under `ref`, dated `fecha` (unless undefined), changed by `change`. */
function sample(ref: string, fecha: string | undefined = inDays(0), change: (raw: any) => void = () => {}): any {
  const raw = JSON.parse(readFileSync(SAMPLE, "utf8"));
  delete raw.$schema;
  raw.comprobante.external_reference = ref;
  if (fecha !== undefined) {
    raw.comprobante.fecha = fecha;
    raw.comprobante.vencimiento = fecha;
  }
  change(raw);
  return raw;
}

function file(dir: string, name: string, vouchers: any[]): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(vouchers.length === 1 ? vouchers[0] : vouchers));
  return path;
}

const byRef = (stdout: string) => new Map(ndjson(stdout).map((r) => [r.external_reference as string, r]));

describe("1. references of digits only, which the service may echo as numbers", () => {
  it("one the service cannot give back intact is refused before anything is sent; one it can is issued once", async () => {
    const s = await sandbox();
    // Every issuing answer is lost after the sandbox stored the voucher: only lookups can tell.
    const relay = await relayed(s, async ({ method, forward }) => {
      if (method !== "facturacion/nuevo") return undefined;
      await forward();
      return "drop";
    });
    const u = userAt(s, relay.baseUrl);
    for (const ref of ["00777", "12345678901234567890", "1e5"]) {
      const r = await u.issue(["issue", "--no-pdf", file(u.user.cwd, `${ref}.json`, [sample(ref)])]);
      expect(r.code, r.stderr).toBe(3);
      expect(ndjson(r.stdout)[0]).toMatchObject({
        status: "invalid",
        error_details: [expect.objectContaining({ code: "external_reference.numeric" })],
      });
    }
    expect(issuingCalls(relay)).toEqual([]);
    // 777 comes back as 777: the lost answer is settled by asking, and the voucher is issued once.
    const path = file(u.user.cwd, "777.json", [sample("777")]);
    const first = await u.issue(["issue", "--no-pdf", path]);
    expect(first.code, first.stderr).toBe(0);
    expect(ndjson(first.stdout)[0]).toMatchObject({ status: "issued", reconciled: true });
    u.forgetJournal();
    const again = await u.issue(["issue", "--no-pdf", path]);
    expect(again.code, again.stderr).toBe(0);
    expect(ndjson(again.stdout)[0]).toMatchObject({ status: "skipped-duplicate" });
    expect(await counts(s, ["777"])).toEqual([1]);
  }, 60_000);
});

describe("1b. a voucher issued elsewhere under a reference of digits, echoed as a number", () => {
  it("query --ref 00777 and credit-note --ref 00777 find it, and the note is issued once", async () => {
    const s = await sandbox();
    // Issued by another program (the web panel, a script), which did not refuse 00777.
    const pv = s.pointsOfSale[0]?.punto_venta;
    const stored = await s.call(
      "facturacion/nuevo",
      sample("00777", inDays(0), (raw) => (raw.comprobante.punto_venta = pv)),
    );
    expect(stored.body.error, JSON.stringify(stored.body)).toBe("N");
    const u = userAt(s);
    const query = await u.issue(["query", "--ref", "00777"]);
    expect(query.code, query.stderr).toBe(0);
    expect(query.stdout).toMatch(/"external_reference":(777|"00777")/);
    const note = await u.issue(["credit-note", "--ref", "00777", "--no-pdf"]);
    expect(note.code, note.stderr).toBe(0);
    expect(ndjson(note.stdout)[0]).toMatchObject({ status: "issued" });
    const again = await u.issue(["credit-note", "--ref", "00777", "--no-pdf"]);
    expect(again.code, again.stderr).toBe(0);
    expect(ndjson(again.stdout)[0]).toMatchObject({ status: "skipped-duplicate" });
  }, 60_000);

  it("beside one of ours under 777 (both echoed 777): each gets its own credit note, named after the reference asked (777-NC1, 00777-NC1)", async () => {
    const s = await sandbox();
    const pv = s.pointsOfSale[0]?.punto_venta;
    const u = userAt(s);
    expect((await u.issue(["issue", "--no-pdf", file(u.user.cwd, "777.json", [sample("777")])])).code).toBe(0);
    const stored = await s.call(
      "facturacion/nuevo",
      sample("00777", inDays(0), (raw) => (raw.comprobante.punto_venta = pv)),
    );
    expect(stored.body.error, JSON.stringify(stored.body)).toBe("N");
    const ours = await u.issue(["credit-note", "--ref", "777", "--no-pdf"]);
    expect(ours.code, ours.stderr).toBe(0);
    expect(ndjson(ours.stdout)[0]).toMatchObject({ status: "issued", external_reference: "777-NC1" });
    const theirs = await u.issue(["credit-note", "--ref", "00777", "--no-pdf"]);
    expect(theirs.code, theirs.stderr).toBe(0);
    expect(ndjson(theirs.stdout)[0]).toMatchObject({ status: "issued", external_reference: "00777-NC1" });
  }, 60_000);
});

describe("2. a listing by date proves presence, never absence", () => {
  it("a file whose dates changed since it was issued, the journal lost: nothing issued again", async () => {
    const s = await sandbox();
    const u = userAt(s);
    const refs = ["LD-1", "LD-2"];
    const yesterday = file(u.user.cwd, "lote.json", [sample("LD-1", inDays(-1)), sample("LD-2", inDays(-1))]);
    expect((await u.issue(["issue", "--no-pdf", yesterday])).code).toBe(0);
    u.forgetJournal();
    const today = file(u.user.cwd, "lote.json", [sample("LD-1"), sample("LD-2")]);
    const r = await u.issue(["issue", "--no-pdf", today]);
    expect(r.code, r.stderr).toBe(0);
    expect([...byRef(r.stdout).values()].map((x) => x.status)).toEqual(["skipped-duplicate", "skipped-duplicate"]);
    expect(await counts(s, refs)).toEqual([1, 1]);
  }, 60_000);

  it("a queued voucher the queue issued under another date: found by its reference, not issued again", async () => {
    // The queue waits while the vouchers are queued and one is moved; then it runs.
    const paused = await sandbox(["--queue-interval", "3600000"]);
    const u = userAt(paused);
    const path = file(u.user.cwd, "cola.json", [sample("QD-1"), sample("QD-2")]);
    const queued = await u.issue(["issue-queued", "--no-pdf", path]);
    expect(queued.code, queued.stderr).toBe(0);
    // Moved to yesterday at the service (another machine, the web app), then issued by the queue.
    const moved = await paused.call("facturacion/cambiar_fecha_encolado", {
      external_reference: "QD-1",
      fecha: inDays(-1),
      vencimiento: inDays(-1),
    });
    expect(moved.body.error, JSON.stringify(moved.body)).toBe("N");
    await paused.stop();
    const port = new URL(paused.baseUrl).port;
    const s = await startSandboxProcess({ dataDir: paused.dataDir, args: ["--queue-interval", "100", "--port", port] });
    cleanups.push(() => s.stop());
    expect(s.baseUrl).toBe(paused.baseUrl);
    for (let i = 0; i < 200; i++) {
      const states = await Promise.all(
        ["QD-1", "QD-2"].map(async (ref) => (await heldUnder(s, ref))[0]?.comprobante.status),
      );
      if (states.every((st) => st === "EMITIDO")) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect((await heldUnder(s, "QD-1"))[0]?.comprobante).toMatchObject({ status: "EMITIDO", fecha: inDays(-1) });
    // The same file, now instantly (the journal says queued): the listing of its date lacks
    // QD-1; asked for by its reference, it is there.
    const r = await u.issue(["issue", "--no-pdf", path]);
    expect(r.code, r.stderr).toBe(0);
    expect([...byRef(r.stdout).values()].map((x) => x.status)).toEqual(["skipped-duplicate", "skipped-duplicate"]);
    expect(await counts(s, ["QD-1", "QD-2"])).toEqual([1, 1]);
  }, 60_000);
});

/** faketime: a Debian package (.ci/run installs it); it moves the wall clock of one process. */
function hasFaketime(): boolean {
  return spawnSync("faketime", ["-f", "+0", "true"], { stdio: "ignore" }).status === 0;
}

describe("3. a wall clock that steps between a crash and the next run", () => {
  it.runIf(hasFaketime() || process.env.CI)(
    "killed mid-send, run again ten minutes later by the wall clock: still asked until stored, one voucher",
    async () => {
      expect(hasFaketime(), "faketime is needed (apt-get install faketime; .ci/run installs it)").toBe(true);
      // The sandbox stores each voucher 6 s after it arrives.
      const s = await sandbox(["--fault", "slow-commit=6000"]);
      const relay = await relayed(s, () => undefined);
      const u = userAt(s, relay.baseUrl, { FACTURAR_SETTLE_WINDOW: "60" });
      const path = file(u.user.cwd, "uno.json", [sample("CLK-1")]);
      const first = startCli(["--json", "issue", "--no-pdf", path], { cwd: u.user.cwd, env: u.env });
      for (let i = 0; i < 500 && !issuingCalls(relay).length; i++) await new Promise((r) => setTimeout(r, 20));
      expect(issuingCalls(relay)).toEqual(["facturacion/nuevo"]);
      first.child.kill("SIGKILL");
      await first.done;
      // An NTP step, a resumed virtual machine: the wall clock jumps; the monotonic clock does not.
      const again = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn("faketime", ["-f", "+10m", process.execPath, BIN, "--json", "issue", "--no-pdf", path], {
          cwd: u.user.cwd,
          env: { ...process.env, ...ENGLISH, ...u.env, FAKETIME_DONT_FAKE_MONOTONIC: "1" },
        });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (d) => (stdout += d));
        child.stderr.on("data", (d) => (stderr += d));
        child.on("close", (code) => resolve({ code, stdout, stderr }));
      });
      expect(again.code, again.stderr).toBe(0);
      expect(ndjson(again.stdout)[0]).toMatchObject({ external_reference: "CLK-1", reconciled: true });
      expect(issuingCalls(relay)).toEqual(["facturacion/nuevo"]);
      expect(await counts(s, ["CLK-1"])).toEqual([1]);
    },
    60_000,
  );
});

/** A `lotes` answer rewritten by `change` from the sandbox's own, after the sandbox did `forwarded` of the request. */
function lotesRewrite(
  change: (answer: any, sent: string[]) => Rewritten,
  forwarded: (requests: any[]) => any[] = (r) => r,
  once = true,
) {
  let done = false;
  return async ({ method, request, forward }: Parameters<Parameters<typeof hostileRelay>[1]>[0]) => {
    if (!/^facturacion\/lotes(_encola)?$/.test(method) || (once && done)) return undefined;
    done = true;
    const sent = request.requests.map((r: any) => r.comprobante.external_reference as string);
    const upstream = await forward({ ...request, requests: forwarded(request.requests) });
    return change(JSON.parse(upstream.text), sent);
  };
}

describe("4. batch items matched by reference, never by position", () => {
  it("items in another order, one of them for a voucher the service did not store: each told its own outcome, none lost", async () => {
    const s = await sandbox();
    // The service stores the first two; the third's item is an error. The items come back reversed.
    const relay = await relayed(
      s,
      lotesRewrite(
        (answer, sent) => {
          const refused = { error: "S", errores: ["Rechazado por la autoridad"], external_reference: sent[2] };
          return { text: JSON.stringify({ ...answer, error: "S", response: [refused, ...answer.response].reverse() }) };
        },
        (requests) => requests.slice(0, 2),
      ),
    );
    const u = userAt(s, relay.baseUrl);
    const refs = ["RO-1", "RO-2", "RO-3"];
    const first = await u.batch(refs);
    const told = byRef(first.stdout);
    expect(refs.map((ref) => told.get(ref)?.status)).toEqual(["issued", "issued", "rejected"]);
    const numbers = await Promise.all(
      refs.slice(0, 2).map(async (ref) => (await heldUnder(s, ref))[0]?.comprobante.numero),
    );
    expect(refs.slice(0, 2).map((ref) => told.get(ref)?.numero)).toEqual(numbers);
    expect(first.code).toBe(7);
    // The rejected one is sent again by the next run; the others are not.
    const again = await u.batch(refs);
    expect(again.code, again.stderr).toBe(0);
    expect(await counts(s, refs)).toEqual([1, 1, 1]);
  }, 60_000);

  it("an item for a reference that was not sent: the answer is lost, each voucher asked about, none issued twice", async () => {
    const s = await sandbox();
    const relay = await relayed(
      s,
      lotesRewrite((answer) => {
        const [a, b] = answer.response;
        return { text: JSON.stringify({ ...answer, response: [a, { ...b, external_reference: "OTRO-9" }] }) };
      }),
    );
    const u = userAt(s, relay.baseUrl);
    const refs = ["EX-1", "EX-2"];
    const r = await u.batch(refs);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/item 1 names OTRO-9, which was not sent; asking the service about each voucher/);
    expect([...byRef(r.stdout).values()].map((x) => [x.status, x.reconciled])).toEqual([
      ["issued", true],
      ["issued", true],
    ]);
    expect(await counts(s, refs)).toEqual([1, 1]);
  }, 60_000);
});

describe("5. an answer that names no voucher is no proof that nothing was stored", () => {
  const refs = ["RW-1", "RW-2", "RW-3", "RW-4"];

  /** `refs` in one batch through a relay that lets the sandbox store the first two, then answers `rewrite`. */
  async function twoStoredThen(rewrite: Rewritten, command = "issue", sandboxArgs: string[] = []) {
    const s = await sandbox(sandboxArgs);
    const relay = await relayed(
      s,
      lotesRewrite(
        () => rewrite,
        (requests) => requests.slice(0, 2),
      ),
    );
    const u = userAt(s, relay.baseUrl);
    const r = await u.batch(refs, command);
    return { s, r, told: byRef(r.stdout) };
  }

  it("error S naming row 2 with no items, after the service stored the rows before it: asked about, not sent twice", async () => {
    const refusal = "El comprobante de la fila 2 (comenzando en 0) es invalido.";
    const { s, r, told } = await twoStoredThen({
      text: JSON.stringify({ error: "S", errores: [refusal], response: [] }),
    });
    expect(refs.map((ref) => told.get(ref)?.status)).toEqual(["issued", "issued", "rejected", "issued"]);
    // The batch's row 2 told as the voucher's place in the file sent.
    expect(told.get("RW-3")?.errors).toEqual([
      expect.stringMatching(/^El comprobante de \/\S+\/lote\.json\[2\] es invalido\.$/),
    ]);
    expect(r.code).toBe(7);
    expect(await counts(s, refs)).toEqual([1, 1, 0, 1]);
  }, 60_000);

  it("an HTTP 400 naming a row after the service stored half: the others asked about, that one rejected, the rest sent", async () => {
    const { s, told } = await twoStoredThen({
      status: 400,
      text: JSON.stringify({ error: "S", errores: ["Fila 3 (comenzando en 0): dato invalido"] }),
    });
    expect(refs.map((ref) => told.get(ref)?.status)).toEqual(["issued", "issued", "issued", "rejected"]);
    expect(await counts(s, refs)).toEqual([1, 1, 1, 0]);
  }, 60_000);

  it("error PARCIAL, or an HTTP 400 naming no row, with no items after storing half: every voucher issued once", async () => {
    for (const rewrite of [
      { text: JSON.stringify({ error: "PARCIAL", errores: ["Procesado parcialmente"], response: [] }) },
      { status: 400, text: JSON.stringify({ error: "S", errores: ["Solicitud invalida"] }) },
    ]) {
      const { s, r, told } = await twoStoredThen(rewrite);
      expect(r.code, r.stderr).toBe(0);
      expect(refs.map((ref) => told.get(ref)?.status)).toEqual(["issued", "issued", "issued", "issued"]);
      expect(await counts(s, refs)).toEqual([1, 1, 1, 1]);
    }
  }, 90_000);

  it("lotes_encola's documented partial answer with no items: the two it queued are found queued, the others queued once", async () => {
    const partial =
      "El lote se procesara parcialmente ya que contiene errores en alguno de sus requests. Se enviaron a procesar: 4 requests y se aceptaron procesar: 2.";
    const { s, r, told } = await twoStoredThen(
      { text: JSON.stringify({ error: "S", errores: [partial], response: [] }) },
      "issue-queued",
      ["--queue-interval", "3600000"],
    );
    expect(r.code, r.stderr).toBe(0);
    expect(refs.map((ref) => told.get(ref)?.status)).toEqual(["queued", "queued", "queued", "queued"]);
    expect(await counts(s, refs)).toEqual([1, 1, 1, 1]);
  }, 60_000);
});

describe("6. a reference reused with other content", () => {
  it("is a conflict: not ok, its own status, exit 3, named in the summary, with what to do; nothing sent", async () => {
    const s = await sandbox();
    const relay = await relayed(s, () => undefined);
    const u = userAt(s, relay.baseUrl);
    const path = file(u.user.cwd, "venta.json", [sample("RU-1")]);
    expect((await u.issue(["issue", "--no-pdf", path])).code).toBe(0);
    file(u.user.cwd, "venta.json", [
      sample("RU-1", inDays(0), (raw) => {
        raw.comprobante.detalle[0].producto.precio_unitario_sin_iva = 90000;
        raw.comprobante.total = 127413;
      }),
    ]);
    for (const journal of ["kept", "lost"]) {
      if (journal === "lost") u.forgetJournal();
      const calls = issuingCalls(relay).length;
      const r = await u.issue(["issue", "--no-pdf", path]);
      expect(r.code, `${journal}: ${r.stderr}`).toBe(3);
      expect(ndjson(r.stdout)[0]).toMatchObject({
        ok: false,
        status: "conflict",
        error_details: [expect.objectContaining({ code: "reference.reused" })],
      });
      expect(ndjson(r.stdout)[0].hint).toMatch(/give the new voucher its own external_reference/);
      expect(issuingCalls(relay)).toHaveLength(calls);
      const human = await runCli(["issue", "--no-pdf", path], { cwd: u.user.cwd, env: u.env });
      expect(human.stderr).toMatch(/1 not sent: their reference was used before for another voucher/);
    }
    expect(await counts(s, ["RU-1"])).toEqual([1]);
  }, 60_000);

  it("credit-note --ref R --amount X when R's note exists for another amount: a conflict that says --new issues another", async () => {
    const u = freshUser("facturar-quirks-");
    const run = (args: string[]) => runCli(["--json", ...args], { cwd: u.cwd, env: u.env });
    expect((await run(["issue", "--no-pdf", SAMPLE])).code).toBe(0);
    const first = await run(["credit-note", "--ref", "FB-2026-0001", "--amount", "1000", "--no-pdf"]);
    expect(first.code, first.stderr).toBe(0);
    const other = await run(["credit-note", "--ref", "FB-2026-0001", "--amount", "2000", "--no-pdf"]);
    expect(other.code, other.stderr).toBe(3);
    expect(ndjson(other.stdout)[0]).toMatchObject({ status: "conflict", external_reference: "FB-2026-0001-NC1" });
    expect(ndjson(other.stdout)[0].hint).toMatch(
      /is for another amount or items: nothing sent; --new issues another note/,
    );
    const added = await run(["credit-note", "--ref", "FB-2026-0001", "--amount", "2000", "--no-pdf", "--new"]);
    expect(added.code, added.stderr).toBe(0);
    expect(ndjson(added.stdout)[0]).toMatchObject({ status: "issued", external_reference: "FB-2026-0001-NC2" });
  }, 60_000);
});

describe("7. note references that cannot collide", () => {
  it("two invoices whose long references differ in their last characters each get their own credit note", async () => {
    const u = freshUser("facturar-quirks-");
    const run = (args: string[]) => runCli(["--json", ...args], { cwd: u.cwd, env: u.env });
    const stem = `VENTA-${"X".repeat(245)}`;
    const refs = [`${stem}AAAA`, `${stem}BBBB`];
    const path = join(u.cwd, "largas.json");
    writeFileSync(path, JSON.stringify(refs.map((ref) => sample(ref, undefined))));
    expect((await run(["issue", "--no-pdf", path])).code).toBe(0);
    const notes = [];
    for (const ref of refs) {
      const r = await run(["credit-note", "--ref", ref, "--no-pdf"]);
      expect(r.code, r.stderr).toBe(0);
      notes.push(ndjson(r.stdout)[0]);
    }
    expect(notes.map((n) => n.status)).toEqual(["issued", "issued"]);
    expect(notes[0].external_reference).not.toBe(notes[1].external_reference);
    expect(notes.map((n) => n.external_reference.length)).toEqual([255, 255]);
  }, 60_000);
});

describe("8. answers that would break the reader", () => {
  for (const [name, mangle] of [
    [
      "nested 200,000 levels deep",
      (text: string) => text.replace(/^\{/, `{"detalle":${"[".repeat(200_000)}${"]".repeat(200_000)},`),
    ],
    [
      "with a key given twice (error N, then S)",
      (text: string) => text.replace(/^\{/, '{"error":"S","errores":["x"],'),
    ],
  ] as const) {
    it(`an issuing answer ${name}, after the voucher was stored: a lost answer, settled by asking`, async () => {
      const s = await sandbox();
      const relay = await relayed(s, async ({ method, forward }) => {
        if (method !== "facturacion/nuevo") return undefined;
        return { text: mangle((await forward()).text) };
      });
      const u = userAt(s, relay.baseUrl);
      const r = await u.issue(["issue", "--no-pdf", "--verbose", file(u.user.cwd, "uno.json", [sample("DEEP-1")])]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).not.toMatch(/internal error|Maximum call stack|\n\s+at /);
      expect(ndjson(r.stdout)[0]).toMatchObject({ status: "issued", reconciled: true });
      expect(await counts(s, ["DEEP-1"])).toEqual([1]);
    }, 60_000);
  }
});

describe("4b. a single answer that does not name this voucher surely", () => {
  it("an answer naming another voucher (two answers crossed on the way): a lost answer, asked about, issued once", async () => {
    const s = await sandbox();
    let captured: string | undefined;
    let swap = false;
    const relay = await relayed(s, async ({ method, forward }) => {
      if (method !== "facturacion/nuevo") return undefined;
      if (swap) {
        swap = false;
        return { text: captured as string };
      }
      const up = await forward();
      captured ??= up.text;
      return up;
    });
    const u = userAt(s, relay.baseUrl);
    expect((await u.issue(["issue", "--no-pdf", file(u.user.cwd, "otro.json", [sample("OTRO-1")])])).code).toBe(0);
    expect(JSON.parse(captured as string).external_reference).toBe("OTRO-1");
    swap = true;
    const r = await u.issue(["issue", "--no-pdf", file(u.user.cwd, "sr.json", [sample("SR-1")])]);
    expect(r.code, r.stderr).toBe(0);
    const told = ndjson(r.stdout)[0];
    // Not stored by the crossed call: asked about, found absent once the window passed, sent again.
    expect(told.status).toBe("issued");
    expect(told.comprobante_nro).not.toBe(JSON.parse(captured as string).comprobante_nro);
    expect(issuingCalls(relay)).toEqual(["facturacion/nuevo", "facturacion/nuevo", "facturacion/nuevo"]);
    expect(await counts(s, ["SR-1", "OTRO-1"])).toEqual([1, 1]);
  }, 60_000);

  it("error PARCIAL to one voucher after the service stored it: not a refusal; asked about, issued", async () => {
    const s = await sandbox();
    const relay = await relayed(s, async ({ method, forward }) => {
      if (method !== "facturacion/nuevo") return undefined;
      await forward();
      return { text: JSON.stringify({ error: "PARCIAL", errores: ["Procesado parcialmente"] }) };
    });
    const u = userAt(s, relay.baseUrl);
    const r = await u.issue(["issue", "--no-pdf", file(u.user.cwd, "p.json", [sample("PA-1")])]);
    expect(r.code, r.stderr).toBe(0);
    expect(ndjson(r.stdout)[0]).toMatchObject({ status: "issued", reconciled: true });
    expect(await counts(s, ["PA-1"])).toEqual([1]);
  }, 60_000);
});

describe("an HTTP status that does not say nothing was done", () => {
  // A proxy's 408 or 499, or a 409, can come after the service stored the voucher: the answer
  // names nothing, so it is a lost answer, asked about, never taken as "not sent".
  for (const status of [408, 409, 499])
    it(`HTTP ${status} to an issuing call after the voucher was stored: asked about, issued once, exit 0`, async () => {
      const s = await sandbox();
      const relay = await relayed(s, async ({ method, forward }) => {
        if (method !== "facturacion/nuevo") return undefined;
        await forward();
        return { status, text: "{}" };
      });
      const u = userAt(s, relay.baseUrl);
      const r = await u.issue(["issue", "--no-pdf", file(u.user.cwd, "uno.json", [sample(`S${status}-1`)])]);
      expect(r.code, r.stderr).toBe(0);
      expect(ndjson(r.stdout)[0]).toMatchObject({ status: "issued", reconciled: true });
      expect(await counts(s, [`S${status}-1`])).toEqual([1]);
    }, 60_000);

  it("HTTP 404 to an issuing call (a wrong base URL): nothing sent, the run stops and says where to look", async () => {
    const s = await sandbox();
    const relay = await relayed(s, ({ method }) =>
      method === "facturacion/nuevo" ? { status: 404, text: "<html>not here</html>" } : undefined,
    );
    const u = userAt(s, relay.baseUrl);
    const r = await u.issue(["issue", "--no-pdf", file(u.user.cwd, "uno.json", [sample("S404-1")])]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("/app/api/v2");
    expect(await counts(s, ["S404-1"])).toEqual([0]);
  }, 60_000);
});

describe("9. facturar pdf on the documented regenerar_pdf answer", () => {
  it("a plain-http link to a public host is refused in words: exit 6, no internal error", async () => {
    const s = await sandbox();
    const relay = await relayed(s, async ({ method, forward }) => {
      if (method !== "facturacion/regenerar_pdf") return undefined;
      const answer = JSON.parse((await forward()).text);
      return {
        text: JSON.stringify({ ...answer, comprobante_pdf_url: "http://www.prueba.com/comprobantes/00000074.pdf" }),
      };
    });
    const u = userAt(s, relay.baseUrl);
    expect((await u.issue(["issue", "--no-pdf", file(u.user.cwd, "uno.json", [sample("PDF-1")])])).code).toBe(0);
    const r = await runCli(["pdf", "--ref", "PDF-1"], { cwd: u.user.cwd, env: u.env });
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toMatch(/refusing a plain-http document link to www\.prueba\.com/);
    expect(r.stderr).not.toMatch(/internal error|please report/);
  }, 60_000);
});

describe("what an adversarial review found", () => {
  it("issue-queued --wait over a queued voucher with other content: a conflict, not followed as if it were this one", async () => {
    const s = await sandbox(["--queue-interval", "3600000"]);
    const u = userAt(s);
    const path = file(u.user.cwd, "cola.json", [sample("QW-1")]);
    expect((await u.issue(["issue-queued", "--no-pdf", path])).code).toBe(0);
    u.forgetJournal();
    file(u.user.cwd, "cola.json", [
      sample("QW-1", inDays(0), (raw) => {
        raw.comprobante.detalle[0].producto.precio_unitario_sin_iva = 90000;
        raw.comprobante.total = 127413;
      }),
    ]);
    const r = await u.issue(["issue-queued", "--no-pdf", "--wait", "--timeout", "5", path]);
    expect(r.code, r.stderr).toBe(3);
    expect(ndjson(r.stdout)[0]).toMatchObject({ status: "conflict", ok: false });
    expect(await counts(s, ["QW-1"])).toEqual([1]);
  }, 60_000);

  it("the same credit note asked again the next day: already issued, not a conflict", async () => {
    const u = freshUser("facturar-quirks-");
    const run = (args: string[], env: Record<string, string> = {}) =>
      runCli(["--json", ...args], { cwd: u.cwd, env: { ...u.env, ...env } });
    expect((await run(["issue", "--no-pdf", SAMPLE])).code).toBe(0);
    const note = ["credit-note", "--ref", "FB-2026-0001", "--amount", "1000", "--no-pdf"];
    expect((await run(note)).code).toBe(0);
    const tomorrow = await run(note, { FACTURAR_TODAY: inDays(1) });
    expect(tomorrow.code, tomorrow.stderr).toBe(0);
    expect(ndjson(tomorrow.stdout)[0]).toMatchObject({
      status: "skipped-duplicate",
      external_reference: "FB-2026-0001-NC1",
    });
  }, 60_000);

  it("a key given twice once its control characters are out (error N, then error\\u0007 S): a lost answer, asked about", async () => {
    const s = await sandbox();
    const relay = await relayed(s, async ({ method, forward }) => {
      if (method !== "facturacion/nuevo") return undefined;
      const { text } = await forward();
      return { text: text.replace(/\}\s*$/, ',"error\\u0007":"S","errores\\u0007":["Rechazado: dato invalido"]}') };
    });
    const u = userAt(s, relay.baseUrl);
    const r = await u.issue(["issue", "--no-pdf", file(u.user.cwd, "uno.json", [sample("DK-1")])]);
    expect(r.code, r.stderr).toBe(0);
    expect(ndjson(r.stdout)[0]).toMatchObject({ status: "issued", reconciled: true });
    expect(await counts(s, ["DK-1"])).toEqual([1]);
  }, 60_000);

  it("the authority down for one item of a batch: a later item the answer names issued is told issued", async () => {
    const s = await sandbox();
    const relay = await relayed(
      s,
      lotesRewrite((answer, sent) => {
        const down = { error: "S", errores: ["AFIP no esta disponible en este momento"], external_reference: sent[1] };
        const response = [...answer.response];
        response[1] = down;
        return { text: JSON.stringify({ ...answer, error: "S", response }) };
      }),
    );
    const u = userAt(s, relay.baseUrl);
    const refs = ["MW-1", "MW-2", "MW-3"];
    const r = await u.batch(refs);
    expect(r.code, r.stderr).toBe(6);
    const told = byRef(r.stdout);
    expect(refs.map((ref) => told.get(ref)?.status)).toEqual(["issued", "held", "issued"]);
    expect(told.get("MW-3")?.numero).toBe((await heldUnder(s, "MW-3"))[0]?.comprobante.numero);
  }, 60_000);

  it("a refusal naming a customer's document number is that voucher's, not its lane's: the rest asked about and sent", async () => {
    const s = await sandbox();
    const relay = await relayed(s, async ({ method }) =>
      method === "facturacion/lotes"
        ? {
            text: JSON.stringify({
              error: "S",
              errores: ["fila 1 (comenzando en 0): el numero de documento del cliente es invalido"],
              response: [],
            }),
          }
        : undefined,
    );
    const u = userAt(s, relay.baseUrl);
    const refs = ["FL-1", "FL-2", "FL-3"];
    const r = await u.batch(refs);
    const told = byRef(r.stdout);
    expect(refs.map((ref) => told.get(ref)?.status)).toEqual(["issued", "rejected", "issued"]);
    expect(r.code).toBe(7);
    expect(await counts(s, refs)).toEqual([1, 0, 1]);
  }, 60_000);

  it("a refusal by its row in the batch (Fila 1, counted from 0) is told by the voucher's rows in the user's file", async () => {
    const s = await sandbox();
    let refused = false;
    // The first batch is the first lane's, FACTURA A: its second voucher is LOTE-20261120-006, rows 140-151.
    const relay = await relayed(s, async ({ method }) => {
      if (method !== "facturacion/lotes" || refused) return undefined;
      refused = true;
      return {
        text: JSON.stringify({
          error: "S",
          errores: ["Fila 1 (comenzando en 0): el numero de documento del cliente es invalido"],
          response: [],
        }),
      };
    });
    const u = userAt(s, relay.baseUrl);
    writeFileSync(join(u.user.cwd, "nightly.csv"), readFileSync(join(ROOT, "samples", "batch-nightly.csv")));
    const r = await runCli(["--json", "issue", "--no-pdf", "nightly.csv"], { cwd: u.user.cwd, env: u.env });
    expect(r.code).toBe(7);
    const told = byRef(r.stdout).get("LOTE-20261120-006") as Record<string, unknown>;
    expect(told.status).toBe("rejected");
    expect(told.errors).toEqual(["nightly.csv:rows 140-151: el numero de documento del cliente es invalido"]);
    expect(told.error_details).toEqual([
      expect.objectContaining({
        text: "nightly.csv:rows 140-151: el numero de documento del cliente es invalido",
        place: "nightly.csv:rows 140-151",
      }),
    ]);
    expect(r.stderr).not.toMatch(/comenzando en 0/);
    expect(r.stderr).toMatch(/nightly\.csv:rows 140-151: el numero de documento/);
  }, 60_000);
});
