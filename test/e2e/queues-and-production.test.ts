/**
 * What the real service requires before it takes queued vouchers, and what it tells the user
 * (issue #24, part B): a point of sale without a webhook URL has `nuevo_encola` and `lotes_encola`
 * refused at once (reference §6.7 "Prerequisites", §12 "Webhooks"), and the run says how to fix it.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { freshUser, inTerminal, ndjson, ROOT, runCli } from "../helpers.js";
import { hostileRelay, issuingCalls, type Relay } from "../hostile-relay.js";
import { type RunningSandbox, sandboxEnv, startSandboxProcess } from "../sandbox-process.js";

const SAMPLE = join(ROOT, "samples", "factura-b-dni.json");

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

/** The sample under each of `refs`, in one file in `dir`. */
function vouchers(dir: string, refs: string[]): string {
  const list = refs.map((ref) => {
    const raw = JSON.parse(readFileSync(SAMPLE, "utf8"));
    delete raw.$schema;
    raw.comprobante.external_reference = ref;
    return raw;
  });
  const path = join(dir, `${refs[0]}.json`);
  writeFileSync(path, JSON.stringify(list.length === 1 ? list[0] : list));
  return path;
}

/** What the service answers a queued call at a point of sale with no webhook URL: an error at once, nothing queued. */
const NO_WEBHOOK = "Tu CUIT+PDV no posee una direccion de webhook valida. El comprobante no se procesara.";

const HINT =
  /queued issuing needs a webhook URL on the point of sale: set it in the service's web panel \(Mi espacio de trabajo > CUITs \/ PDV[^)]*\); `issue-queued --wait` polls the service, but does not replace the webhook/;

describe("a point of sale without a webhook URL", () => {
  it("the service's refusal of nuevo_encola stops the run with the hint, and nothing is sent again", async () => {
    const s = await sandbox();
    const relay = await relayed(s, ({ method, request }) =>
      method === "facturacion/nuevo_encola"
        ? {
            text: JSON.stringify({
              error: "S",
              errores: [NO_WEBHOOK],
              error_cod: [],
              error_details: [],
              external_reference: request.comprobante.external_reference,
            }),
          }
        : undefined,
    );
    const u = freshUser("facturar-webhook-");
    const env = { ...sandboxEnv(s, u.env), FACTURAR_BASE_URL: relay.baseUrl, FACTURAR_SETTLE_WINDOW: "0.3" };
    const r = await runCli(["--json", "issue-queued", "--batch-size", "1", vouchers(u.cwd, ["WH-1", "WH-2"])], {
      cwd: u.cwd,
      env,
    });
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toContain(NO_WEBHOOK);
    expect(r.stderr).toMatch(HINT);
    // The first was refused; the second, which would be refused alike, was not sent.
    expect(issuingCalls(relay)).toEqual(["facturacion/nuevo_encola"]);
    expect(ndjson(r.stdout).map((v) => [v.external_reference, v.status])).toEqual([
      ["WH-1", "held"],
      ["WH-2", "held"],
    ]);
  });

  it("the service's refusal of a lotes_encola batch is no lost answer: nothing is asked about or sent again", async () => {
    const s = await sandbox();
    const relay = await relayed(s, ({ method }) =>
      method === "facturacion/lotes_encola"
        ? {
            text: JSON.stringify({ error: "S", errores: [NO_WEBHOOK], error_cod: [], error_details: [], response: [] }),
          }
        : undefined,
    );
    const u = freshUser("facturar-webhook-");
    const env = { ...sandboxEnv(s, u.env), FACTURAR_BASE_URL: relay.baseUrl, FACTURAR_SETTLE_WINDOW: "0.3" };
    const r = await runCli(["issue-queued", vouchers(u.cwd, ["WB-1", "WB-2", "WB-3"])], { cwd: u.cwd, env });
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toMatch(HINT);
    expect(r.stderr).not.toMatch(/asking the service about each voucher/);
    // Asked about before the send (as every run does), never after it.
    expect(relay.methods.slice(relay.methods.indexOf("facturacion/lotes_encola"))).toEqual([
      "facturacion/lotes_encola",
    ]);
  });
});

describe("the sandbox's webhook setting", () => {
  /** The queued vouchers the sandbox holds under a reference. */
  async function queuedUnder(s: RunningSandbox, ref: string): Promise<number> {
    const r = await s.call("facturacion/consulta_avanzada", {
      busqueda_tipo: "EXT_REF",
      pagina: 0,
      limite: 1000,
      comprobante: { external_reference: ref, operacion: "V" },
    });
    return r.body.error === "N" ? r.body.comprobantes.length : 0;
  }

  it("like production, it refuses queued calls for a point of sale without one, and takes them with one", async () => {
    const strict = await sandbox(["--like-production"]);
    const u = freshUser("facturar-webhook-");
    const refused = await runCli(["issue-queued", vouchers(u.cwd, ["LP-1"])], {
      cwd: u.cwd,
      env: sandboxEnv(strict, u.env),
    });
    expect(refused.code, refused.stderr).toBe(4);
    expect(refused.stderr).toMatch(/refuses queued vouchers at this point of sale: .*webhook/);
    expect(refused.stderr).toMatch(HINT);
    // The sandbox's own refusal says how to give it one.
    expect(refused.stderr).toMatch(/Sandbox: iniciala con --webhook URL, o FACTURAR_SANDBOX_WEBHOOK/);
    const batch = await runCli(["issue-queued", vouchers(u.cwd, ["LB-1", "LB-2"])], {
      cwd: u.cwd,
      env: sandboxEnv(strict, u.env),
    });
    expect(batch.code, batch.stderr).toBe(4);
    expect(batch.stderr).toMatch(HINT);
    for (const ref of ["LP-1", "LB-1", "LB-2"]) expect(await queuedUnder(strict, ref)).toBe(0);
    // The same with the point of sale's webhook set: queued, one alone (nuevo_encola) and a batch (lotes_encola).
    const hooked = await sandbox(["--like-production", "--webhook", "https://example.com/hooks/facturar"]);
    const v = freshUser("facturar-webhook-");
    const one = await runCli(["issue-queued", vouchers(v.cwd, ["LP-1"])], {
      cwd: v.cwd,
      env: sandboxEnv(hooked, v.env),
    });
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout).toMatch(/ref LP-1 {2}queued/);
    const two = await runCli(["issue-queued", vouchers(v.cwd, ["LB-1", "LB-2"])], {
      cwd: v.cwd,
      env: sandboxEnv(hooked, v.env),
    });
    expect(two.code, two.stderr).toBe(0);
    expect(two.stderr).toMatch(/2 queued/);
  });

  it("the embedded sandbox: FACTURAR_SANDBOX_FAULTS=webhook-required, and FACTURAR_SANDBOX_WEBHOOK per point of sale", async () => {
    const u = freshUser("facturar-webhook-");
    const strict = { ...u.env, FACTURAR_SANDBOX_FAULTS: "webhook-required" };
    const refused = await runCli(["issue-queued", vouchers(u.cwd, ["EM-1"])], { cwd: u.cwd, env: strict });
    expect(refused.code, refused.stderr).toBe(4);
    expect(refused.stderr).toMatch(HINT);
    // Another point of sale's webhook is not this one's.
    const elsewhere = { ...strict, FACTURAR_SANDBOX_WEBHOOK: "680=https://example.com/hooks/680" };
    expect((await runCli(["issue-queued", vouchers(u.cwd, ["EM-1"])], { cwd: u.cwd, env: elsewhere })).code).toBe(4);
    const hooked = { ...strict, FACTURAR_SANDBOX_WEBHOOK: "679=https://example.com/hooks/679" };
    const queued = await runCli(["issue-queued", vouchers(u.cwd, ["EM-1"])], { cwd: u.cwd, env: hooked });
    expect(queued.code, queued.stderr).toBe(0);
    expect(queued.stdout).toMatch(/ref EM-1 {2}queued/);
    // Not a URL the service would take: a usage error, nothing started.
    const bad = await runCli(["issue-queued", vouchers(u.cwd, ["EM-2"])], {
      cwd: u.cwd,
      env: { ...strict, FACTURAR_SANDBOX_WEBHOOK: "679=ftp://example.com/x" },
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/FACTURAR_SANDBOX_WEBHOOK: .*https:\/\//);
  });
});

describe("told before the first run", () => {
  it("issue-queued --help says the point of sale needs a webhook URL, and that --wait does not replace it", async () => {
    const u = freshUser("facturar-webhook-");
    const en = await runCli(["issue-queued", "--help"], { cwd: u.cwd, env: u.env });
    expect(en.code).toBe(0);
    expect(en.stdout).toMatch(/webhook URL/);
    expect(en.stdout).toMatch(/--wait\s+follows\s+them\s+by\s+polling;\s+it\s+does\s+not\s+replace\s+the\s+webhook/);
    const es = await runCli(["--lang", "es", "issue-queued", "--help"], { cwd: u.cwd, env: u.env });
    expect(es.stdout).toMatch(/URL\s+de\s+webhook/);
    expect(es.stdout).toMatch(/no\s+reemplaza\s+al\s+webhook/);
  });
});

describe("facturar init --production", () => {
  const NEXT_STEP =
    /next step: .*development plan \(API DEV\).*re-synchroni[sz]e .*numbering .*from ARCA, in the service's web panel.*`facturar --profile prod next-number --type "FACTURA B"`/s;

  it("ends saying the numbering must be re-synchronised from ARCA after the development plan, and how to check it", async () => {
    const s = await sandbox();
    const pv = s.pointsOfSale[0] as (typeof s.pointsOfSale)[number];
    const u = freshUser("facturar-init-prod-");
    const env = { ...u.env, P_USER: pv.usertoken, P_KEY: pv.apikey, P_TOKEN: pv.apitoken };
    const args = (...more: string[]) => [
      "init",
      "--name",
      "prod",
      "--base-url",
      s.baseUrl,
      "--usertoken-env",
      "P_USER",
      "--apikey-env",
      "P_KEY",
      "--apitoken-env",
      "P_TOKEN",
      "--punto-venta",
      String(pv.punto_venta),
      ...more,
    ];
    const checked = await runCli(args("--production"), { cwd: u.cwd, env });
    expect(checked.code, checked.stderr).toBe(0);
    expect(checked.stderr).toMatch(NEXT_STEP);
    // Said last: after the profile's check.
    expect(checked.stdout).toMatch(/prod: .* answers, invoicing OK/);
    const unchecked = await runCli(args("--production", "--no-check"), { cwd: u.cwd, env });
    expect(unchecked.stderr).toMatch(NEXT_STEP);
    // The command it names runs as written.
    const next = await runCli(["--profile", "prod", "next-number", "--type", "FACTURA B"], { cwd: u.cwd, env });
    expect(next.code, next.stderr).toBe(0);
    expect(next.stdout).toMatch(/next FACTURA B at point of sale 679: 00679-00000001/);
    // Not production: nothing to re-synchronise; its next step is the first voucher.
    const notProduction = await runCli(args("--no-production", "--no-check"), { cwd: u.cwd, env });
    expect(notProduction.stderr).not.toMatch(/re-synchroni/);
    expect(notProduction.stderr).toMatch(/next step: .*issue --interactive/);
    // Written elsewhere (--file), the command names that file; and a failed check still tells the step.
    const elsewhere = await runCli(args("--production", "--no-check", "--file", "otra.json"), { cwd: u.cwd, env });
    expect(elsewhere.stderr).toContain(`--config ${join(u.cwd, "otra.json")}`);
    const down = await runCli(
      [
        ...args("--production", "--file", "caida.json").map((a) =>
          a === s.baseUrl ? "http://127.0.0.1:1/app/api/v2" : a,
        ),
      ],
      { cwd: u.cwd, env: { ...env, FACTURAR_RETRY_BACKOFF: "0.01" } },
    );
    expect(down.code).toBe(6);
    expect(down.stderr).toMatch(/next step: .*re-synchroni[sz]e/s);
  });
});

describe("whether the customer was e-mailed, and the voucher's pages (envio_x_mail, micrositios)", () => {
  /** The sample under `ref`, e-mailed to `email` (or not e-mailed), in its own file in `dir`. */
  function mailedVoucher(dir: string, ref: string, email?: string): string {
    const raw = JSON.parse(readFileSync(SAMPLE, "utf8"));
    delete raw.$schema;
    raw.comprobante.external_reference = ref;
    if (email) Object.assign(raw.cliente, { email, envia_por_mail: "S" });
    const path = join(dir, `${ref}.json`);
    writeFileSync(path, JSON.stringify(raw));
    return path;
  }

  it("issue says which vouchers were e-mailed and to whom; --json has the fields, e-mailed or not", async () => {
    const u = freshUser("facturar-mailed-");
    const files = [mailedVoucher(u.cwd, "ML-1", "a@example.com,b@example.com"), mailedVoucher(u.cwd, "ML-2")];
    const human = await runCli(["issue", "--no-pdf", "--batch-size", "1", ...files], { cwd: u.cwd, env: u.env });
    expect(human.code, human.stderr).toBe(0);
    const blocks = human.stdout.split(/\n(?=\S)/);
    expect(blocks[0]).toMatch(/ref ML-1 {2}issued\n[\s\S]*\n {4}e-mailed to a@example\.com, b@example\.com(\n|$)/);
    expect(blocks[1]).toMatch(/ref ML-2 {2}issued/);
    expect(blocks[1]).not.toMatch(/e-mailed/);
    const v = freshUser("facturar-mailed-");
    const json = await runCli(
      [
        "--json",
        "issue",
        "--no-pdf",
        mailedVoucher(v.cwd, "MJ-1", "a@example.com,b@example.com"),
        mailedVoucher(v.cwd, "MJ-2"),
      ],
      { cwd: v.cwd, env: v.env },
    );
    const [mailed, notMailed] = ndjson(json.stdout);
    expect(mailed).toMatchObject({
      external_reference: "MJ-1",
      envio_x_mail: true,
      envio_x_mail_direcciones: ["a@example.com", "b@example.com"],
      micrositios: { cliente: null, descarga: null },
    });
    expect(notMailed).toMatchObject({ external_reference: "MJ-2", envio_x_mail: false, envio_x_mail_direcciones: [] });
  });

  it("read from what the real service may send: S in any case, ; between addresses, pages, blanks and odd values", async () => {
    const s = await sandbox();
    const odd: Record<string, Record<string, unknown>> = {
      "OD-1": {
        envio_x_mail: " s ",
        envio_x_mail_direcciones: " a@example.com; b@example.com ,",
        micrositios: { cliente: "https://servicios.example/c/1", descarga: "" },
      },
      // The lotes page's items: "" for both.
      "OD-2": { envio_x_mail: "", envio_x_mail_direcciones: "", micrositios: "url-del-micrositio" },
      "OD-3": { envio_x_mail: undefined, envio_x_mail_direcciones: undefined, micrositios: undefined },
    };
    odd["OD-4"] = odd["OD-1"] as Record<string, unknown>;
    const relay = await relayed(s, async ({ method, request, forward }) => {
      if (method !== "facturacion/nuevo") return undefined;
      const answer = JSON.parse((await forward()).text);
      return { text: JSON.stringify({ ...answer, ...odd[request.comprobante.external_reference] }) };
    });
    const u = freshUser("facturar-mailed-");
    const env = { ...sandboxEnv(s, u.env), FACTURAR_BASE_URL: relay.baseUrl };
    const files = ["OD-1", "OD-2", "OD-3"].map((ref) => mailedVoucher(u.cwd, ref, "a@example.com"));
    const json = await runCli(["--json", "issue", "--no-pdf", "--batch-size", "1", ...files], { cwd: u.cwd, env });
    expect(json.code, json.stderr).toBe(0);
    expect(ndjson(json.stdout).map((r) => [r.envio_x_mail, r.envio_x_mail_direcciones, r.micrositios])).toEqual([
      [true, ["a@example.com", "b@example.com"], { cliente: "https://servicios.example/c/1", descarga: null }],
      [null, [], { cliente: null, descarga: null }],
      [null, [], { cliente: null, descarga: null }],
    ]);
    const v = freshUser("facturar-mailed-");
    const human = await runCli(["issue", "--no-pdf", mailedVoucher(v.cwd, "OD-4", "a@example.com")], {
      cwd: v.cwd,
      env: { ...env, ...v.env, FACTURAR_BASE_URL: relay.baseUrl },
    });
    expect(human.stdout).toMatch(/\n {4}e-mailed to a@example\.com, b@example\.com\n/);
    expect(human.stdout).toMatch(/\n {4}customer's page: https:\/\/servicios\.example\/c\/1(\n|$)/);
  });

  it("query --ref tells it too: the pages the service lists, and the e-mail this machine's journal saw sent", async () => {
    const s = await sandbox();
    const relay = await relayed(s, async ({ method, forward }) => {
      if (method !== "facturacion/consulta_avanzada") return undefined;
      const answer = JSON.parse((await forward()).text);
      for (const item of answer.comprobantes ?? [])
        item.comprobante.micrositios = {
          cliente: "https://servicios.example/c/9",
          descarga: "https://servicios.example/d/9",
        };
      return { text: JSON.stringify(answer) };
    });
    const u = freshUser("facturar-mailed-");
    const env = { ...sandboxEnv(s, u.env), FACTURAR_BASE_URL: relay.baseUrl };
    const issued = await runCli(["issue", "--no-pdf", mailedVoucher(u.cwd, "QR-1", "a@example.com")], {
      cwd: u.cwd,
      env,
    });
    expect(issued.code, issued.stderr).toBe(0);
    const query = await runCli(["query", "--ref", "QR-1"], { cwd: u.cwd, env });
    expect(query.code, query.stderr).toBe(0);
    expect(query.stdout).toMatch(/\n {2}FACTURA B 00679-00000001: e-mailed to a@example\.com(\n|$)/);
    expect(query.stdout).toMatch(
      /\n {2}FACTURA B 00679-00000001: customer's page: https:\/\/servicios\.example\/c\/9 {3}download page: https:\/\/servicios\.example\/d\/9(\n|$)/,
    );
    // Another machine (no journal): the service's listing does not say it was e-mailed (reference §6.9).
    const other = freshUser("facturar-mailed-");
    const elsewhere = await runCli(["query", "--ref", "QR-1"], {
      cwd: other.cwd,
      env: { ...env, ...other.env, FACTURAR_BASE_URL: relay.baseUrl },
    });
    expect(elsewhere.stdout).not.toMatch(/e-mailed/);
    expect(elsewhere.stdout).toMatch(/customer's page: https:\/\/servicios\.example\/c\/9/);
  });
});

describe("the registry's double-encoded UTF-8 (reference §6.3: clientes/afip-info)", () => {
  const ENTER = "\r";
  const DOWN = "\u001b[B";
  /** The sandbox's registry record, its name and first activity as the real one may send them. */
  async function mangling(s: RunningSandbox, name: string): Promise<Relay> {
    return relayed(s, async ({ method, forward }) => {
      if (method !== "clientes/afip-info") return undefined;
      const answer = JSON.parse((await forward()).text);
      answer.razon_social = name;
      // The official example: INFORMÁTICA's Á as U+00C3 U+0081 (Latin-1 read, encoded again).
      answer.actividad = [{ descripcion: "SERVICIOS DE INFORM\u00c3\u0081TICA", id: "620100", periodo: "201311" }];
      return { text: JSON.stringify(answer) };
    });
  }

  it("facturar cuit shows the names repaired, and a correct name as it came", async () => {
    const s = await sandbox();
    const u = freshUser("facturar-mojibake-");
    const mangled = await mangling(s, "MUÃ‘OZ MARIA");
    const r = await runCli(["cuit", "27334445556"], {
      cwd: u.cwd,
      env: { ...sandboxEnv(s, u.env), FACTURAR_BASE_URL: mangled.baseUrl },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^MUÑOZ MARIA {2}CUIT 27334445556\n/);
    expect(r.stdout).toMatch(/activity: 620100 SERVICIOS DE INFORMÁTICA\n/);
    const json = await runCli(["--json", "cuit", "27334445556"], {
      cwd: u.cwd,
      env: { ...sandboxEnv(s, u.env), FACTURAR_BASE_URL: mangled.baseUrl },
    });
    expect(JSON.parse(json.stdout)).toMatchObject({ razon_social: "MUÑOZ MARIA" });
    const right = await mangling(s, "PEÑA MARIA");
    const untouched = await runCli(["cuit", "27334445556"], {
      cwd: u.cwd,
      env: { ...sandboxEnv(s, u.env), FACTURAR_BASE_URL: right.baseUrl },
    });
    expect(untouched.stdout).toMatch(/^PEÑA MARIA {2}CUIT 27334445556\n/);
  });

  it("issue --interactive offers the repaired name as the customer's, and issues it so", async () => {
    const s = await sandbox();
    const mangled = await mangling(s, "MUÃ‘OZ MARIA");
    const u = freshUser("facturar-mojibake-");
    const env = { ...process.env, ...sandboxEnv(s, u.env), FACTURAR_BASE_URL: mangled.baseUrl, CI: "" };
    const screen = await inTerminal(["issue", "--interactive", "--no-pdf"], { cwd: u.cwd, env }, [
      [/Voucher type/, `${DOWN}${ENTER}`],
      [/CUIT number/, `27334445556${ENTER}`],
      // The registry's name, taken as offered.
      [/Customer's name/, ENTER],
      [/Customer's VAT condition/, ENTER],
      [/Customer's address/, ENTER],
      [/Customer's e-mail/, ENTER],
      [/Sale condition/, ENTER],
      [/Item 1: description/, `Cafe 1 kg${ENTER}`],
      [/Quantity/, `1${ENTER}`],
      [/Unit price without VAT/, `100${ENTER}`],
      [/VAT rate/, ENTER],
      [/Add another item\?/, ENTER],
      [/Voucher date/, ENTER],
      [/Reference/, `MOJI-1${ENTER}`],
      [/Issue it\?/, ENTER],
      [/Save it as a JSON file/, `y${ENTER}`],
      [/\? File/, `moji.json${ENTER}`],
    ]);
    expect(screen).toMatch(/registry: MUÑOZ MARIA, MONOTRIBUTO/);
    expect(screen).toMatch(/EXIT=0/);
    expect(JSON.parse(readFileSync(join(u.cwd, "moji.json"), "utf8")).cliente).toMatchObject({
      razon_social: "MUÑOZ MARIA",
    });
    const held = await s.call("facturacion/consulta_avanzada", {
      busqueda_tipo: "EXT_REF",
      pagina: 0,
      limite: 1000,
      comprobante: { external_reference: "MOJI-1", operacion: "V" },
    });
    expect(held.body.comprobantes[0].cliente.razon_social).toBe("MUÑOZ MARIA");
  }, 60_000);
});
