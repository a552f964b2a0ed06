/**
 * Voucher dates end to end: the authority's window and lane order, judged alike by `validate`
 * and `issue`, refused by the embedded sandbox as the authority refuses them (like production:
 * the development plan skips the authority's checks, spec §1), and the README's first command
 * working whatever the day.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { argentinaToday, formatDay } from "../../src/voucher/dates.js";
import { freshUser, ndjson, ROOT, runCli, TODAY } from "../helpers.js";

const SAMPLE = join(ROOT, "samples", "factura-b-dni.json");
/** The embedded sandbox as production: with the authority's checks, its dates among them. */
const LIKE_PRODUCTION = { FACTURAR_SANDBOX_FAULTS: "authority-checks" };

function sample(change: (c: Record<string, unknown>) => void): Record<string, any> {
  const raw = JSON.parse(readFileSync(SAMPLE, "utf8"));
  change(raw.comprobante);
  return raw;
}

describe("the README's first command, any day", () => {
  it.each([
    ["today", ""],
    ["60 days ahead", formatDay(argentinaToday() + 60)],
  ])("validates and issues samples/factura-b-dni.json with the clock at %s, with its PDF", async (_, day) => {
    const user = freshUser("facturar-dates-");
    const env = { ...user.env, FACTURAR_TODAY: day };
    const expected = day || formatDay(argentinaToday());
    const validated = await runCli(["validate", SAMPLE], { env, cwd: user.cwd });
    expect(validated.code).toBe(0);
    expect(validated.stdout).toContain(`no fecha given: dated today in Argentina, ${expected}`);
    const issued = await runCli(["--json", "issue", SAMPLE], { env, cwd: user.cwd });
    expect(issued.stderr).toContain(`dated today in Argentina, ${expected}`);
    expect(issued.code).toBe(0);
    const [result] = ndjson(issued.stdout);
    expect(result).toMatchObject({ status: "issued", vencimiento_pago: expected });
    expect(existsSync(result.pdf)).toBe(true);
    // Sent again (another day, for all it knows): the same voucher, not issued twice.
    const again = ndjson((await runCli(["--json", "issue", SAMPLE], { env, cwd: user.cwd })).stdout);
    expect(again[0]?.status).toBe("skipped-duplicate");
  });
});

describe("vouchers that leave out their date", () => {
  // Dated today, they carry yesterday's date at the service if sent yesterday: a listing of
  // today's vouchers cannot tell, and must not be the only check before sending.
  it("sent again another day with the journal lost: nothing issued twice", async () => {
    const user = freshUser("facturar-undated-");
    const batch = join(user.cwd, "undated.json");
    writeFileSync(
      batch,
      JSON.stringify(
        ["UNDATED-1", "UNDATED-2", "UNDATED-3"].map((ref) =>
          sample((c) => Object.assign(c, { external_reference: ref })),
        ),
      ),
    );
    const first = await runCli(["--json", "issue", "--no-pdf", batch], {
      env: { ...user.env, FACTURAR_TODAY: "15/11/2026" },
      cwd: user.cwd,
    });
    expect(first.code, first.stderr).toBe(0);
    expect(ndjson(first.stdout).map((r) => r.status)).toEqual(["issued", "issued", "issued"]);
    rmSync(join(user.env.XDG_STATE_HOME, "facturar"), { recursive: true });
    const again = await runCli(["--json", "issue", "--no-pdf", batch], {
      env: { ...user.env, FACTURAR_TODAY: "16/11/2026" },
      cwd: user.cwd,
    });
    expect(again.code, again.stderr).toBe(0);
    expect(ndjson(again.stdout).map((r) => [r.status, r.numero])).toEqual([
      ["skipped-duplicate", 1],
      ["skipped-duplicate", 2],
      ["skipped-duplicate", 3],
    ]);
  });
});

describe("the date window", () => {
  it("issue refuses a voucher dated outside it (exit 3), as validate does, and sends nothing", async () => {
    const user = freshUser("facturar-window-");
    // 20/11/2026 is today for the tests (vitest.config.ts): 19 days back, goods take 5.
    const old = join(user.cwd, "old.json");
    writeFileSync(old, JSON.stringify(sample((c) => Object.assign(c, { fecha: "01/11/2026" }))));
    const validated = ndjson((await runCli(["--json", "validate", old], { env: user.env, cwd: user.cwd })).stdout);
    expect(validated[0].error_details).toContainEqual(
      expect.objectContaining({ code: "date.window", field: "comprobante.fecha" }),
    );
    const issued = await runCli(["--json", "issue", old], { env: user.env, cwd: user.cwd });
    expect(issued.code).toBe(3);
    expect(ndjson(issued.stdout)[0]).toMatchObject({ status: "invalid" });
    expect(issued.stdout).toMatch(
      /goods are dated within 5 days of today \(20\/11\/2026\); the authority refuses 01\/11\/2026/,
    );
    const found = await runCli(["--json", "query", "--ref", "FB-2026-0001"], { env: user.env, cwd: user.cwd });
    expect(found.code).toBe(9);
  });

  it("the sandbox like production refuses one the client did not judge (--no-validate) with the authority's 10016", async () => {
    const user = freshUser("facturar-window-sbx-");
    const ahead = join(user.cwd, "ahead.json");
    writeFileSync(ahead, JSON.stringify(sample((c) => Object.assign(c, { fecha: "01/12/2026" }))));
    const issued = await runCli(["--json", "issue", "--no-validate", ahead], {
      env: { ...user.env, ...LIKE_PRODUCTION },
      cwd: user.cwd,
    });
    expect(issued.code).toBe(4);
    const [result] = ndjson(issued.stdout);
    expect(result.status).toBe("rejected");
    expect(result.errors.join(" ")).toMatch(
      /Cod\. Error: #\d+\.10016 - Campo CbteFch debe estar comprendido en el rango N-5 y N\+5/,
    );
  });
});

describe("lane order: no date before the lane's latest voucher", () => {
  const batch = (dir: string, name: string, dates: [string, string][]) => {
    const path = join(dir, name);
    writeFileSync(
      path,
      JSON.stringify(dates.map(([ref, fecha]) => sample((c) => Object.assign(c, { external_reference: ref, fecha })))),
    );
    return path;
  };

  it("the sandbox like production refuses an earlier date; the rest of its lane is held, not sent (exit 7)", async () => {
    // Two machines on one sandbox: the second's journal knows nothing of what the first issued.
    const first = freshUser("facturar-lane-a-");
    const second = freshUser("facturar-lane-b-");
    const shared = { XDG_DATA_HOME: first.env.XDG_DATA_HOME, ...LIKE_PRODUCTION };
    const latest = batch(first.cwd, "latest.json", [["LANE-LATEST", TODAY]]);
    expect((await runCli(["issue", "--no-pdf", latest], { env: first.env, cwd: first.cwd })).code).toBe(0);
    mkdirSync(second.cwd, { recursive: true });
    const late = batch(second.cwd, "late.json", [
      ["LANE-EARLY", "18/11/2026"],
      ["LANE-NEXT-1", TODAY],
      ["LANE-NEXT-2", TODAY],
    ]);
    const run = await runCli(["--json", "issue", "--no-pdf", late], {
      env: { ...second.env, ...shared },
      cwd: second.cwd,
    });
    expect(run.code).toBe(7);
    const byRef = Object.fromEntries(ndjson(run.stdout).map((r) => [r.external_reference, r]));
    expect(byRef["LANE-EARLY"]?.status).toBe("rejected");
    expect(byRef["LANE-EARLY"]?.errors.join(" ")).toMatch(
      /10016 - El numero o fecha del comprobante no se corresponde con el proximo a autorizar/,
    );
    for (const ref of ["LANE-NEXT-1", "LANE-NEXT-2"])
      expect(byRef[ref]).toMatchObject({
        status: "held",
        // Sent in one batch (the default), the service did not process them after LANE-EARLY failed.
        errors: [expect.stringMatching(/LANE-EARLY, earlier in its batch, failed/)],
      });
    // Held, not sent: the sandbox holds only the first machine's voucher.
    const env = { ...second.env, ...shared };
    expect((await runCli(["query", "--ref", "LANE-NEXT-1"], { env, cwd: second.cwd })).code).toBe(9);
  });

  it("one by one, the authority's date-order refusal (10016) holds the rest of the lane, not sent (exit 7)", async () => {
    const first = freshUser("facturar-lane-1a-");
    const second = freshUser("facturar-lane-1b-");
    const shared = { XDG_DATA_HOME: first.env.XDG_DATA_HOME, ...LIKE_PRODUCTION };
    const latest = batch(first.cwd, "latest.json", [["ONE-LATEST", TODAY]]);
    expect((await runCli(["issue", "--no-pdf", latest], { env: first.env, cwd: first.cwd })).code).toBe(0);
    mkdirSync(second.cwd, { recursive: true });
    const late = batch(second.cwd, "late.json", [
      ["ONE-EARLY", "18/11/2026"],
      ["ONE-NEXT", TODAY],
    ]);
    const env = { ...second.env, ...shared };
    const run = await runCli(["--json", "issue", "--no-pdf", "--batch-size", "1", late], { env, cwd: second.cwd });
    expect(run.code).toBe(7);
    expect(ndjson(run.stdout).map((r) => [r.external_reference, r.status, r.errors.join(" ")])).toEqual([
      ["ONE-EARLY", "rejected", expect.stringMatching(/10016 - El numero o fecha del comprobante/)],
      ["ONE-NEXT", "held", expect.stringMatching(/ONE-EARLY failed in this lane with a numbering or date error/)],
    ]);
    expect((await runCli(["query", "--ref", "ONE-NEXT"], { env, cwd: second.cwd })).code).toBe(9);
  });

  it("issue refuses, before sending, a date earlier than what its journal saw issued in the lane (exit 3)", async () => {
    const user = freshUser("facturar-lane-journal-");
    const latest = batch(user.cwd, "latest.json", [["ORDER-LATEST", TODAY]]);
    expect((await runCli(["issue", "--no-pdf", latest], { env: user.env, cwd: user.cwd })).code).toBe(0);
    const late = batch(user.cwd, "late.json", [
      ["ORDER-EARLY", "17/11/2026"],
      ["ORDER-LATER", TODAY],
    ]);
    const run = await runCli(["--json", "issue", "--no-pdf", late], { env: user.env, cwd: user.cwd });
    expect(run.code).toBe(3);
    const [early] = ndjson(run.stdout);
    expect(early).toMatchObject({
      status: "invalid",
      external_reference: "ORDER-EARLY",
      error_details: [{ code: "date.order", field: "comprobante.fecha" }],
    });
    expect(early.errors[0]).toMatch(
      /dated 17\/11\/2026, before 20\/11\/2026, the date of the latest FACTURA B issued at point of sale 679/,
    );
    expect((await runCli(["query", "--ref", "ORDER-LATER"], { env: user.env, cwd: user.cwd })).code).toBe(9);
    // With --skip-invalid the rest go: the later date is fine.
    const skipped = await runCli(["--json", "issue", "--no-pdf", "--skip-invalid", late], {
      env: user.env,
      cwd: user.cwd,
    });
    expect(skipped.code).toBe(7);
    expect(ndjson(skipped.stdout).map((r) => [r.external_reference, r.status])).toEqual([
      ["ORDER-EARLY", "invalid"],
      ["ORDER-LATER", "issued"],
    ]);
  });
});
