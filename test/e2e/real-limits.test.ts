/**
 * The real service's limits (reference §11): a sandbox that asks for 100 ms between requests and
 * sits 80 ms away (`--like-production`), and a CLI that, with default flags, batches a lane's
 * vouchers and spaces every request with one limiter, so that a user never sees a 429.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FaultSpecError, parseFaults } from "../../src/sandbox/faults.js";
import { freshUser, ndjson, ROOT, runCli, TODAY } from "../helpers.js";
import { type RunningSandbox, sandboxEnv, startSandboxProcess } from "../sandbox-process.js";

const sandboxes: RunningSandbox[] = [];
afterEach(async () => {
  for (const s of sandboxes.splice(0)) await s.stop();
});

async function likeProduction(): Promise<RunningSandbox> {
  const s = await startSandboxProcess({ args: ["--like-production"] });
  sandboxes.push(s);
  return s;
}

/** An env-only profile at a running sandbox: a service at a URL, so 100 ms apart by default. */
function envFor(s: RunningSandbox) {
  const user = freshUser("facturar-limits-");
  return {
    user,
    env: sandboxEnv(s, user.env),
  };
}

/** `count` vouchers of the sample, FACTURA B, each its own reference. */
function vouchers(dir: string, prefix: string, count: number): string {
  const raw = JSON.parse(readFileSync(join(ROOT, "samples", "factura-b-dni.json"), "utf8"));
  const list = Array.from({ length: count }, (_, i) => ({
    ...raw,
    comprobante: { ...raw.comprobante, external_reference: `${prefix}-${i}` },
  }));
  const path = join(dir, `${prefix}.json`);
  writeFileSync(path, JSON.stringify(list));
  return path;
}

/** Two lanes: FACTURA B (the sample) and FACTURA M, `count` of each. */
function twoLanes(dir: string, prefix: string, count: number): string {
  const b = JSON.parse(readFileSync(vouchers(dir, `${prefix}B`, count), "utf8"));
  const m = JSON.parse(readFileSync(join(ROOT, "samples", "factura-m.json"), "utf8"));
  const ms = Array.from({ length: count }, (_, i) => ({
    ...m,
    comprobante: { ...m.comprobante, external_reference: `${prefix}M-${i}` },
  }));
  const path = join(dir, `${prefix}.json`);
  writeFileSync(path, JSON.stringify([...b, ...ms]));
  return path;
}

/** Service calls by method, from --verbose request lines. */
function calls(stderr: string): Record<string, number> {
  const count: Record<string, number> = {};
  for (const m of stderr.matchAll(/^POST \S+\/app\/api\/v2\/(\S+)/gm))
    count[m[1] as string] = (count[m[1] as string] ?? 0) + 1;
  return count;
}

describe("the spacing fault", () => {
  it("parses as whole milliseconds beside latency", () => {
    expect(parseFaults(["latency=80,spacing=100"])).toMatchObject({ latency: 80, spacing: 100 });
    expect(() => parseFaults(["spacing=fast"])).toThrow(FaultSpecError);
    expect(() => parseFaults(["spacing=-1"])).toThrow(FaultSpecError);
  });

  it("answers 429 with Retry-After to API requests closer than the spacing, across connections; documents are not counted", async () => {
    const s = await likeProduction();
    // Five at once, each on its own connection: one is let through, the others come too soon.
    const burst = await Promise.all(Array.from({ length: 5 }, () => s.call("estado_servicios/alertas")));
    const refused = burst.filter((r) => r.status === 429);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(burst.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(1);
    for (const r of refused) {
      expect(r.headers.get("retry-after")).toBe("1");
      expect(r.body).toMatchObject({ error: "S" });
    }
    // A voucher, once its turn comes (asked until let through).
    const sample = JSON.parse(readFileSync(join(ROOT, "samples", "factura-b-dni.json"), "utf8"));
    // The service wants the dates the tool fills in for the samples.
    const raw = {
      ...sample,
      comprobante: {
        ...sample.comprobante,
        fecha: TODAY,
        vencimiento: TODAY,
        punto_venta: s.pointsOfSale[0]?.punto_venta,
      },
    };
    let issued: Awaited<ReturnType<RunningSandbox["call"]>> | undefined;
    for (let i = 0; i < 50 && issued?.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 150));
      issued = await s.call("facturacion/nuevo", raw);
    }
    expect(issued?.body).toMatchObject({ error: "N" });
    const { comprobante_pdf_url: pdf, comprobante_ticket_url: ticket } = (issued as { body: unknown }).body as {
      comprobante_pdf_url: string;
      comprobante_ticket_url: string;
    };
    // Downloads beside an API call and each other: never refused for spacing.
    const [a, b, c] = await Promise.all([fetch(pdf), fetch(ticket), fetch(pdf), s.call("estado_servicios/alertas")]);
    for (const r of [a, b, c]) expect(r?.status).toBe(200);
  });
});

describe("default flags under --like-production", () => {
  it("two lanes go through lotes, every request spaced by one limiter: all issued, no 429 shown", async () => {
    const s = await likeProduction();
    const { user, env } = envFor(s);
    // 25 of each type: a batch of 20 and one of 5 per lane.
    const first = await runCli(["--json", "issue", "--no-pdf", twoLanes(user.cwd, "LP", 25)], { env, cwd: user.cwd });
    expect(first.stderr).not.toMatch(/429|too many|rate/i);
    expect(first.code).toBe(0);
    const results = ndjson(first.stdout);
    expect(results).toHaveLength(50);
    expect(results.every((r) => r.status === "issued")).toBe(true);

    // The same again, asked to tell its calls: one date listing (the check), four batches.
    const second = await runCli(["--verbose", "--json", "issue", "--no-pdf", twoLanes(user.cwd, "LQ", 25)], {
      env,
      cwd: user.cwd,
    });
    expect(second.code).toBe(0);
    expect(ndjson(second.stdout).filter((r) => r.status === "issued")).toHaveLength(50);
    const made = calls(second.stderr);
    expect(made["facturacion/lotes"]).toBeGreaterThanOrEqual(4);
    expect(made["facturacion/nuevo"]).toBeUndefined();
    expect(made["facturacion/consulta_avanzada"]).toBeGreaterThanOrEqual(1);
    // Anything on stderr besides the request log, and the dates the vouchers leave out, is
    // something the user was told.
    const told = second.stderr
      .split("\n")
      .filter((l) => l && !/^(POST |\s+\d{3} in |retrying |\d+ issued$)/.test(l) && !/\[date\.default\]/.test(l));
    expect(told).toEqual([]);
  }, 120_000);

  it("--batch-size 1 sends one by one through nuevo; a lone voucher goes through nuevo too", async () => {
    const s = await likeProduction();
    const { user, env } = envFor(s);
    const one = await runCli(
      ["--verbose", "--json", "issue", "--no-pdf", "--batch-size", "1", vouchers(user.cwd, "OB", 3)],
      {
        env,
        cwd: user.cwd,
      },
    );
    expect(one.code).toBe(0);
    // (A 429 the user never saw is a request made twice: at least one per voucher.)
    expect(calls(one.stderr)["facturacion/nuevo"]).toBeGreaterThanOrEqual(3);
    expect(calls(one.stderr)["facturacion/lotes"]).toBeUndefined();
    const lone = await runCli(["--verbose", "--json", "issue", "--no-pdf", vouchers(user.cwd, "LN", 1)], {
      env,
      cwd: user.cwd,
    });
    expect(lone.code).toBe(0);
    expect(calls(lone.stderr)["facturacion/nuevo"]).toBeGreaterThanOrEqual(1);
    expect(calls(lone.stderr)["facturacion/lotes"]).toBeUndefined();
    const bad = await runCli(["issue", "--batch-size", "0", vouchers(user.cwd, "BZ", 1)], { env, cwd: user.cwd });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--batch-size takes a whole number from 1 to 20, not "0"/);
  }, 120_000);

  it("spaces its own requests 100 ms apart: two lanes one by one meet at most a stray 429", async () => {
    const s = await likeProduction();
    const { user, env } = envFor(s);
    const r = await runCli(
      ["--verbose", "--json", "issue", "--no-pdf", "--batch-size", "1", twoLanes(user.cwd, "SP", 6)],
      {
        env,
        cwd: user.cwd,
      },
    );
    expect(r.code, r.stderr.slice(-2000)).toBe(0);
    // Unspaced, the two lanes and their lookups (one per voucher, some 25 requests in all) collide on
    // nearly every request. Spaced, a 429 is a timer that fired late on a busy machine: one in
    // twelve requests at most, as when a run made half as many.
    const requests = r.stderr.match(/^POST /gm)?.length ?? 0;
    const refused = r.stderr.match(/^\s+429 in /gm)?.length ?? 0;
    expect(requests).toBeGreaterThanOrEqual(24);
    expect(refused).toBeLessThanOrEqual(Math.floor(requests / 12));
  }, 120_000);

  it("the embedded sandbox with a spacing fault: the client spaces by it, and nothing is shown", async () => {
    const user = freshUser("facturar-limits-embedded-");
    const env = { ...user.env, FACTURAR_SANDBOX_FAULTS: "spacing=100" };
    const done = await runCli(["--json", "issue", "--no-pdf", twoLanes(user.cwd, "EM", 12)], { env, cwd: user.cwd });
    expect(done.stderr).not.toMatch(/429|too many|rate/i);
    expect(done.code).toBe(0);
    expect(ndjson(done.stdout).filter((r) => r.status === "issued")).toHaveLength(24);
  }, 120_000);
});
