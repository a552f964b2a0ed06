/**
 * Servers that misbehave, on loopback: HTML instead of JSON, huge bodies, redirects, a stalled
 * answer, document links that point elsewhere. The CLI refuses, keeps its journal true and ends
 * with the right exit code; no credential follows a redirect.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { freshUser, ndjson, ROOT, runCli } from "../helpers.js";
import { serveLoopback } from "../loopback.js";
import { tempDir } from "../sandbox-process.js";

type Handler = (method: string, body: any, req: IncomingMessage, res: ServerResponse) => void;

const servers: { close(): void }[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

async function hostile(handler: Handler): Promise<{ baseUrl: string; seen: { method: string; body: any }[] }> {
  const seen: { method: string; body: any }[] = [];
  const server = await serveLoopback((req, res, text) => {
    const method = (req.url ?? "").replace(/^\/app\/api\/v2\//, "");
    let body: any = {};
    try {
      body = JSON.parse(text || "{}");
    } catch {
      // not JSON
    }
    seen.push({ method, body });
    handler(method, body, req, res);
  });
  servers.push(server);
  return { baseUrl: server.baseUrl, seen };
}

function json(res: ServerResponse, body: unknown, status = 200): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

const CREDS = {
  FACTURAR_USERTOKEN: "user-secret-token",
  FACTURAR_APIKEY: "4242",
  FACTURAR_APITOKEN: "api-secret-token",
};

function run(baseUrl: string, args: string[], extra: Record<string, string> = {}, home = tempDir("facturar-hostile-")) {
  const { cwd, env: base } = freshUser("facturar-hostile-", home);
  const env = {
    ...base,
    FACTURAR_BASE_URL: baseUrl,
    FACTURAR_PUNTO_VENTA: "679",
    // Retries wait 10 ms, not 0.5 s doubled: these servers fail on purpose, not for a while.
    FACTURAR_RETRY_BACKOFF: "0.01",
    ...CREDS,
    ...extra,
  };
  return { home, cwd, result: runCli(args, { cwd, env }) };
}

const sample = join(ROOT, "samples", "factura-b-dni.json");

/** regenerar_pdf's answer: a fresh PDF link, no ticket. */
function regenerated(pdfUrl: string) {
  return { error: "N", errores: [], comprobante_pdf_url: pdfUrl, comprobante_ticket_url: "" };
}

/** The sample with its point of sale: a cron job with no profile puts it in the file. */
function withPointOfSale(home: string): string {
  const raw = JSON.parse(readFileSync(sample, "utf8"));
  raw.comprobante.punto_venta = 679;
  const path = join(home, "fb-679.json");
  writeFileSync(path, JSON.stringify(raw));
  return path;
}
const issued = (extra: Record<string, unknown> = {}) => ({
  error: "N",
  errores: [""],
  cae: "",
  comprobante_nro: "0000007",
  comprobante_tipo: "FACTURA B",
  vencimiento_pago: "20/12/2026",
  afip_qr: "",
  ...extra,
});

/** What the user's journals say, reference → last state (one journal per account). */
function journal(home: string): Record<string, string> {
  const dir = join(home, "state", "facturar");
  const states: Record<string, string> = {};
  for (const file of readdirSync(dir).filter((f) => /^journal-.*\.jsonl$/.test(f)))
    for (const line of readFileSync(join(dir, file), "utf8").trim().split("\n")) {
      const e = JSON.parse(line);
      if (e.ref) states[e.ref] = e.state;
    }
  return states;
}

const NOT_FOUND = { error: "S", errores: ["No se han encontrado comprobantes."] };

/** A `nuevo` success numbered `numero` at point of sale 679. */
const issuedAs = (numero: number) => issued({ comprobante_nro: `00679-${String(numero).padStart(8, "0")}` });

/** `consulta_avanzada` finding one voucher (a FACTURA B of point of sale 679 unless told). */
function found(comprobante: Record<string, unknown>) {
  return {
    error: "N",
    errores: [],
    total: 1,
    comprobantes: [{ cliente: {}, comprobante: { tipo: "FACTURA B", punto_venta: 679, ...comprobante } }],
  };
}

describe("hostile servers", () => {
  it("an HTML page where JSON belongs: the outcome is unknown (exit 8), the journal says so, nothing twice", async () => {
    let sent = false;
    const server = await hostile((method, _b, _q, res) => {
      // The service answers the check before sending; then a portal takes its place.
      if (method === "facturacion/consulta_avanzada" && !sent) return json(res, NOT_FOUND);
      if (method === "facturacion/nuevo") sent = true;
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html><body>Welcome to our portal</body></html>");
    });
    const { home, result } = run(server.baseUrl, ["--json", "issue", "--no-pdf", sample], {
      FACTURAR_PROFILE: "default",
    });
    const r = await result;
    expect(r.code, r.stderr).toBe(8);
    expect(ndjson(r.stdout)[0]).toMatchObject({ status: "unknown" });
    expect(journal(home)["FB-2026-0001"]).toBe("unknown");
    expect(server.seen.filter((s) => s.method === "facturacion/nuevo")).toHaveLength(1);
  }, 60_000);

  it("8 holds the rest of the lane: nothing after an unsettled voucher is sent before it", async () => {
    // Answers the checks, loses every issuing answer, then cannot be asked; later it works.
    let broken = true;
    let sent = false;
    let numero = 0;
    const held = new Map<string, number>();
    const server = await hostile((method, body, req, res) => {
      const ref = body?.comprobante?.external_reference;
      if (method === "facturacion/consulta_avanzada") {
        if (broken && sent) return req.socket.destroy();
        const n = held.get(ref);
        if (n === undefined) return json(res, NOT_FOUND);
        return json(res, found({ numero: n, status: "EMITIDO", external_reference: ref }));
      }
      if (method === "facturacion/nuevo") {
        sent = true;
        if (broken) return req.socket.destroy();
        held.set(ref, ++numero);
        return json(res, issuedAs(numero));
      }
      json(res, NOT_FOUND);
    });
    const home = tempDir("facturar-hostile-");
    const two = [withPointOfSale(home), join(ROOT, "samples", "factura-b-anonymous.json")];
    const issueBoth = () =>
      run(
        server.baseUrl,
        ["--json", "issue", "--no-pdf", "--batch-size", "1", ...two],
        { FACTURAR_SETTLE_WINDOW: "0.2" },
        home,
      ).result;
    const lost = await issueBoth();
    expect(lost.code, lost.stderr).toBe(8);
    expect(ndjson(lost.stdout).map((r) => [r.external_reference, r.status])).toEqual([
      ["FB-2026-0001", "unknown"],
      ["FB-2026-0002", "held"],
    ]);
    expect(ndjson(lost.stdout)[1].errors[0]).toMatch(/FB-2026-0001, earlier in this lane, is not settled/);
    expect(server.seen.filter((s) => s.method === "facturacion/nuevo")).toHaveLength(1);
    // The next run asks about the first, sends it, then the second: the lane's order.
    broken = false;
    const settled = await issueBoth();
    expect(settled.code, settled.stderr).toBe(0);
    expect(ndjson(settled.stdout).map((r) => [r.external_reference, r.numero])).toEqual([
      ["FB-2026-0001", 1],
      ["FB-2026-0002", 2],
    ]);
  }, 60_000);

  it("journal --reconcile asks the service about unknown outcomes and records what it says, number and CAE", async () => {
    let asking = false;
    let stored = false;
    const server = await hostile((method, _b, req, res) => {
      if (method === "facturacion/consulta_avanzada") {
        if (stored && !asking) return req.socket.destroy();
        if (!stored) return json(res, NOT_FOUND);
        return json(
          res,
          found({
            numero: 12,
            cae: "75123456789012 ",
            vencimiento_cae: "30/11/2026",
            status: "EMITIDO",
            external_reference: "FB-2026-0001",
          }),
        );
      }
      // Stored, and the answer lost.
      stored = true;
      req.socket.destroy();
    });
    const home = tempDir("facturar-reconcile-");
    const quick = { FACTURAR_SETTLE_WINDOW: "0.2", FACTURAR_RETRY_BACKOFF: "0.01" };
    const lost = await run(server.baseUrl, ["--json", "issue", "--no-pdf", sample], quick, home).result;
    expect(lost.code, lost.stderr).toBe(8);
    const open = await run(server.baseUrl, ["journal"], quick, home).result;
    expect(open.code).toBe(8);
    expect(open.stdout).toMatch(/unknown\s+FB-2026-0001/);
    asking = true;
    const settled = await run(server.baseUrl, ["--json", "journal", "--reconcile"], quick, home).result;
    expect(settled.code, settled.stderr).toBe(0);
    const entry = ndjson(settled.stdout).find((e) => e.external_reference === "FB-2026-0001");
    expect(entry).toMatchObject({
      status: "issued",
      numero: 12,
      comprobante_nro: "00679-00000012",
      cae: "75123456789012",
    });
    expect(server.seen.filter((s) => s.method === "facturacion/nuevo")).toHaveLength(1);
  }, 60_000);

  it("one voucher answered HTTP 400 is that voucher's result; the rest of the batch goes on (exit 7)", async () => {
    const csv = join(ROOT, "samples", "batch-nightly.csv");
    let numero = 0;
    const server = await hostile((method, body, _q, res) => {
      if (method === "facturacion/consulta_avanzada") return json(res, NOT_FOUND);
      if (body?.comprobante?.external_reference === "LOTE-20261120-004")
        return json(res, { error: "S", errores: ["Solicitud mal formada."] }, 400);
      numero++;
      json(res, issuedAs(numero));
    });
    // One by one (`nuevo`): the server answers 400 to one of them.
    const r = await run(server.baseUrl, ["--json", "issue", "--no-pdf", "--batch-size", "1", csv]).result;
    expect(r.code, r.stderr).toBe(7);
    const results = ndjson(r.stdout);
    expect(results).toHaveLength(24);
    expect(results.filter((x) => x.status !== "issued").map((x) => [x.external_reference, x.status])).toEqual([
      ["LOTE-20261120-004", "rejected"],
    ]);
    expect(results.find((x) => x.status === "rejected").errors[0]).toMatch(/HTTP 400.*Solicitud mal formada/);
  }, 60_000);

  it("maintenance starting mid-batch stops sending; every voucher gets a result and the journal agrees (exit 6)", async () => {
    const csv = join(ROOT, "samples", "batch-nightly.csv");
    let numero = 0;
    const server = await hostile((method, _b, _q, res) => {
      if (method === "facturacion/consulta_avanzada") return json(res, NOT_FOUND);
      if (method === "facturacion/topecf") return json(res, { error: "N", errores: [], monto: 10_000_000 });
      if (numero >= 5)
        return json(res, {
          error: "S",
          mantenimiento: 1,
          mantenimiento_hasta: "23/11/2026 23:00",
          errores: ["Estaremos realizando tareas de mantenimiento hasta las 23:00"],
        });
      numero++;
      json(res, issuedAs(numero));
    });
    const home = tempDir("facturar-maintenance-");
    const r = await run(
      server.baseUrl,
      ["--json", "issue", "--no-pdf", "--batch-size", "1", "--report", "report.csv", csv],
      {},
      home,
    ).result;
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toMatch(/stopped: the service is under maintenance until 23\/11\/2026 23:00/);
    const results = ndjson(r.stdout);
    expect(results).toHaveLength(24);
    expect(results.filter((x) => x.status === "issued")).toHaveLength(5);
    expect(results.filter((x) => x.status === "held")).toHaveLength(19);
    const states = journal(home);
    expect(Object.values(states).filter((x) => x === "sending" || x === "unknown")).toEqual([]);
    expect(Object.values(states).filter((x) => x === "issued")).toHaveLength(5);
    const report = readFileSync(join(home, "work", "report.csv"), "utf8")
      .trim()
      .split("\n");
    expect(report).toHaveLength(25);
  }, 60_000);

  it("an HTML page everywhere: the service cannot say whether it holds the voucher, so nothing is sent (exit 6)", async () => {
    const server = await hostile((_m, _b, _q, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html><body>Welcome to our portal</body></html>");
    });
    const { home, result } = run(server.baseUrl, ["--json", "issue", "--no-pdf", sample]);
    const r = await result;
    expect(r.code, r.stderr).toBe(6);
    expect(ndjson(r.stdout)).toMatchObject([{ status: "held", errors: [expect.stringMatching(/not a JSON object/)] }]);
    expect(server.seen.filter((s) => s.method === "facturacion/nuevo")).toHaveLength(0);
    expect(journal(home)["FB-2026-0001"]).toBeUndefined();
  }, 60_000);

  it("a service that fails every issue and holds nothing: not issued after three tries (exit 4), sent again next run", async () => {
    let failing = true;
    const server = await hostile((method, _b, _q, res) => {
      if (method === "facturacion/nuevo")
        return failing ? json(res, { error: "S", errores: ["Bad gateway"] }, 502) : json(res, issued());
      json(res, { error: "S", errores: ["No se han encontrado comprobantes."] });
    });
    const home = tempDir("facturar-hostile-");
    // This service stores nothing it did not answer: a lookup right after a lost answer is final.
    const quick = { FACTURAR_SETTLE_WINDOW: "0.2" };
    const first = await run(server.baseUrl, ["--json", "issue", "--no-pdf", sample], quick, home).result;
    expect(first.code, first.stderr).toBe(4);
    expect(ndjson(first.stdout)[0]).toMatchObject({
      status: "rejected",
      hint: expect.stringMatching(/sent 3 times without an answer, and the service holds nothing under FB-2026-0001/),
    });
    expect(server.seen.filter((s) => s.method === "facturacion/nuevo")).toHaveLength(3);
    expect(ndjson(first.stdout)[0].error_details).toEqual([
      { code: "no-answer", field: null, place: null, message: expect.any(String), text: expect.any(String) },
    ]);
    expect(journal(home)["FB-2026-0001"]).toBe("rejected");
    failing = false;
    const second = await run(server.baseUrl, ["--json", "issue", "--no-pdf", sample], quick, home).result;
    expect(second.code, second.stderr).toBe(0);
    expect(journal(home)["FB-2026-0001"]).toBe("issued");
  }, 60_000);

  it("a huge answer is cut off and refused (exit 6 for a read)", async () => {
    const server = await hostile((_m, _b, _q, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      const chunk = Buffer.alloc(1024 * 1024, 32);
      let sent = 0;
      const pump = () => {
        while (sent < 64 && res.write(chunk)) sent++;
        if (sent < 64) res.once("drain", pump);
        else res.end("{}");
      };
      pump();
    });
    const r = await run(server.baseUrl, ["status"], { FACTURAR_PROFILE: "default" }).result;
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/larger than 20 MB/);
  }, 60_000);

  it("a redirect is not followed, so the credentials go nowhere else (exit 6)", async () => {
    const elsewhere = await hostile((_m, _b, _q, res) => json(res, { error: "N" }));
    const server = await hostile((_m, _b, _q, res) => {
      res.writeHead(307, { location: `${elsewhere.baseUrl}/estado_servicios/alertas` });
      res.end();
    });
    const r = await run(server.baseUrl, ["status"], { FACTURAR_PROFILE: "default" }).result;
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/redirect \(307\).*not followed/);
    expect(elsewhere.seen).toHaveLength(0);
  }, 60_000);

  it("a redirect whose Location echoes the credentials prints, reports and journals none of them (exit 6)", async () => {
    const server = await hostile((method, body, _q, res) => {
      if (method === "facturacion/consulta_avanzada") return json(res, NOT_FOUND);
      const query = `usertoken=${body.usertoken}&apitoken=${body.apitoken}&apikey=${body.apikey}`;
      res.writeHead(302, { location: `https://evil.example/x/${body.usertoken}?${query}` });
      res.end();
    });
    const home = tempDir("facturar-redirect-echo-");
    const r = await run(server.baseUrl, ["--json", "issue", "--no-pdf", "--report", "report.csv", sample], {}, home)
      .result;
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toMatch(/redirect \(302\) to https:\/\/evil\.example\/x\/\*\*\*/);
    const report = readFileSync(join(home, "work", "report.csv"), "utf8");
    const journal = readdirSync(join(home, "state", "facturar"))
      .filter((f) => f.endsWith(".jsonl"))
      .map((f) => readFileSync(join(home, "state", "facturar", f), "utf8"))
      .join("");
    for (const text of [r.stdout, r.stderr, report, journal]) {
      expect(text).toMatch(/redirect/);
      // The query string is not shown at all, and no token is, in any case.
      expect(text).not.toMatch(/usertoken=|apitoken=|apikey=/);
      for (const secret of [CREDS.FACTURAR_USERTOKEN, CREDS.FACTURAR_APITOKEN])
        expect(text.toLowerCase()).not.toContain(secret);
    }
  }, 60_000);

  it("echoes in upper case, split across errores items, or beside the apikey's other names are cut too", async () => {
    const u = CREDS.FACTURAR_USERTOKEN;
    const a = CREDS.FACTURAR_APITOKEN;
    const k = CREDS.FACTURAR_APIKEY;
    const server = await hostile((method, _b, _q, res) =>
      method === "facturacion/consulta_avanzada"
        ? json(res, NOT_FOUND)
        : json(res, {
            error: "S",
            errores: [
              `token ${u.toUpperCase()} / ${a.toUpperCase()} rechazado`,
              `api_key=${k}; "apikey":"${k}"; APIKEY:${k}; api-key ${k}; API KEY ${k}`,
              `partido ${u.slice(0, 9)}`,
              `${u.slice(9)} fin`,
              `${a.slice(0, 8)}\u202e${a.slice(8)}`,
            ],
          }),
    );
    const home = tempDir("facturar-echo-case-");
    for (const args of [
      ["issue", "--no-pdf", sample],
      ["--json", "issue", "--no-pdf", sample],
    ]) {
      const r = await run(server.baseUrl, args, {}, home).result;
      expect(r.code, r.stderr).toBe(4);
      const printed = `${r.stdout}\n${r.stderr}`;
      expect(printed).toMatch(/rechazado/);
      expect(printed).toMatch(/partido \*\*\*/);
      expect(printed).not.toContain("\u202e");
      for (const secret of [u, a, u.slice(0, 9), u.slice(9), a.slice(0, 8)])
        expect(printed.toLowerCase()).not.toContain(secret.toLowerCase());
      expect(printed).not.toMatch(new RegExp(`api[ _-]?key\\W{0,6}${k}`, "i"));
    }
  }, 60_000);

  it("an answer that stalls halfway is a timeout: reconciled, and unknown only if the service cannot tell", async () => {
    let sent = false;
    const server = await hostile((method, _b, _q, res) => {
      if (method === "facturacion/consulta_avanzada" && !sent) return json(res, NOT_FOUND);
      if (method === "facturacion/nuevo") {
        sent = true;
        res.writeHead(200, { "content-type": "application/json" });
        res.write('{"error":"N","comprobante_nro":');
        return; // never finished
      }
      // The reconciliation finds the voucher: it was stored.
      json(res, found({ numero: 7, status: "EMITIDO", external_reference: "FB-2026-0001", comprobante_pdf_url: "" }));
    });
    const { home, result } = run(server.baseUrl, ["--json", "issue", "--no-pdf", sample], {
      FACTURAR_PROFILE: "default",
      FACTURAR_ISSUE_TIMEOUT: "1",
    });
    const r = await result;
    expect(r.code, r.stderr).toBe(0);
    expect(ndjson(r.stdout)[0]).toMatchObject({
      status: "issued",
      reconciled: true,
      numero: 7,
      comprobante_nro: "00679-00000007",
    });
    expect(r.stderr).toMatch(/no complete answer within 1 s/);
    expect(journal(home)["FB-2026-0001"]).toBe("issued");
    expect(server.seen.filter((s) => s.method === "facturacion/nuevo")).toHaveLength(1);
  }, 60_000);

  it("documents answered 429 and 503 at first are fetched again, after Retry-After, and saved", async () => {
    let gets = 0;
    const server = await hostile((method, _b, _q, res) => {
      if (method === "facturacion/consulta_avanzada") return json(res, NOT_FOUND);
      if (method === "facturacion/nuevo")
        return json(res, issued({ comprobante_pdf_url: `${server.baseUrl}/docs/7.pdf`, comprobante_ticket_url: "" }));
      gets++;
      if (gets === 1) {
        res.writeHead(429, { "retry-after": "1" });
        return res.end("slow down");
      }
      if (gets === 2) {
        res.writeHead(503);
        return res.end("busy");
      }
      res.writeHead(200, { "content-type": "application/pdf" });
      res.end("%PDF-1.4 a document");
    });
    const { cwd, result } = run(server.baseUrl, ["--json", "issue", "--out", "pdfs", sample]);
    const r = await result;
    expect(r.code, r.stderr).toBe(0);
    expect(gets).toBe(3);
    const [voucher] = ndjson(r.stdout);
    // Nothing about its documents: only the dates the sample leaves out, filled in.
    expect((voucher.warnings ?? []).filter((w: string) => !w.endsWith("[date.default]"))).toEqual([]);
    expect(voucher.pdf).toBe(join(cwd, "pdfs", "FACTURA_B-00679-00000007.pdf"));
    expect(readFileSync(voucher.pdf, "utf8")).toBe("%PDF-1.4 a document");
  }, 60_000);

  it("document links to file://, to a private address, or named to escape the folder are refused; the voucher stays issued, its documents missing (exit 7)", async () => {
    for (const link of ["file:///etc/passwd", "https://10.0.0.1/x.pdf", "https://169.254.169.254/latest/x.pdf"]) {
      const server = await hostile((method, _b, _q, res) =>
        method === "facturacion/consulta_avanzada"
          ? json(res, NOT_FOUND)
          : json(
              res,
              issued({
                comprobante_pdf_url: link,
                comprobante_ticket_url: link,
                comprobante_tipo: "../../../etc/FACTURA B",
              }),
            ),
      );
      const home = tempDir("facturar-links-");
      const { cwd, result } = run(
        server.baseUrl,
        ["--json", "issue", withPointOfSale(home)],
        { FACTURAR_PROFILE: "default" },
        home,
      );
      const r = await result;
      expect(r.code, link).toBe(7);
      const [voucher] = ndjson(r.stdout);
      expect(voucher).toMatchObject({ status: "issued", pdf: null, ticket: null, documents_missing: true });
      expect(voucher.warnings.join(" ")).toMatch(/refusing a file: document link|private|link-local/);
      expect(journal(home)["FB-2026-0001"]).toBe("issued");
      expect(() => readdirSync(join(cwd, "comprobantes"))).toThrow();
      expect(server.seen.filter((s) => s.method === "facturacion/nuevo")).toHaveLength(1);
    }
  }, 60_000);

  it("a PDF link expired by the time it is fetched (410) is renewed with regenerar_pdf: the PDF saved, the voucher issued once", async () => {
    const server = await hostile((method, _b, _q, res) => {
      if (method === "facturacion/consulta_avanzada") return json(res, NOT_FOUND);
      if (method === "facturacion/regenerar_pdf") return json(res, regenerated(`${server.baseUrl}/docs/fresh.pdf`));
      if (method === "docs/old.pdf")
        return json(res, { error: "S", errores: ["El link ha vencido: use regenerar_pdf"] }, 410);
      if (method === "docs/fresh.pdf") {
        res.writeHead(200, { "content-type": "application/pdf" });
        return res.end("%PDF-1.4 renewed");
      }
      json(res, issued({ comprobante_nro: "00679-00000001", comprobante_pdf_url: `${server.baseUrl}/docs/old.pdf` }));
    });
    const { cwd, result } = run(server.baseUrl, ["--json", "issue", "--out", "pdfs", sample]);
    const r = await result;
    expect(r.code, r.stderr).toBe(0);
    const [voucher] = ndjson(r.stdout);
    expect(voucher).toMatchObject({ status: "issued" });
    expect(voucher.documents_missing).toBeFalsy();
    expect(readFileSync(voucher.pdf, "utf8")).toBe("%PDF-1.4 renewed");
    expect(voucher.pdf.startsWith(join(cwd, "pdfs"))).toBe(true);
    const methods = server.seen.map((s) => s.method);
    expect(methods.filter((m) => m === "facturacion/nuevo")).toHaveLength(1);
    expect(methods.filter((m) => m === "facturacion/regenerar_pdf")).toHaveLength(1);
    // The expired link asked once, then the fresh one.
    expect(methods.filter((m) => m.startsWith("docs/"))).toEqual(["docs/old.pdf", "docs/fresh.pdf"]);
  });

  it("documents an earlier run could not save are listed by `facturar journal` and fetched by the next run", async () => {
    let healthy = false;
    let numero = 0;
    const server = await hostile((method, _b, _q, res) => {
      if (method === "facturacion/consulta_avanzada") return json(res, NOT_FOUND);
      if (method === "facturacion/regenerar_pdf") return json(res, regenerated(`${server.baseUrl}/docs/fresh.pdf`));
      if (method.startsWith("docs/")) {
        res.writeHead(200, { "content-type": "application/pdf" });
        return res.end("%PDF-1.4 fetched later");
      }
      numero++;
      const link = healthy ? `${server.baseUrl}/docs/${numero}.pdf` : "https://10.0.0.1/x.pdf";
      json(
        res,
        issued({ comprobante_nro: `00679-0000000${numero}`, comprobante_pdf_url: link, comprobante_ticket_url: "" }),
      );
    });
    const home = tempDir("facturar-missing-");
    const first = await run(server.baseUrl, ["--json", "issue", "--out", "pdfs", sample], {}, home).result;
    expect(first.code, first.stderr).toBe(7);
    expect(ndjson(first.stdout)[0]).toMatchObject({ status: "issued", documents_missing: true, pdf: null });
    const listed = await run(server.baseUrl, ["journal"], {}, home).result;
    expect(listed.stdout).toMatch(/documents not saved yet: the next issue run fetches them/);
    healthy = true;
    const other = withPointOfSale(home);
    const raw = JSON.parse(readFileSync(other, "utf8"));
    raw.comprobante.external_reference = "ANOTHER-ONE";
    writeFileSync(other, JSON.stringify(raw));
    const { cwd, result } = run(server.baseUrl, ["--json", "issue", "--out", "pdfs", other], {}, home);
    const second = await result;
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toMatch(/FB-2026-0001: the documents an earlier run could not save are saved now/);
    expect(readFileSync(join(cwd, "pdfs", "FACTURA_B-00679-00000001.pdf"), "utf8")).toBe("%PDF-1.4 fetched later");
    expect((await run(server.baseUrl, ["journal"], {}, home).result).stdout).not.toMatch(/documents not saved yet/);
  }, 60_000);

  it("documents saved by `facturar pdf` are no longer missing: the journal stops saying the next run fetches them", async () => {
    let healthy = false;
    const server = await hostile((method, _b, _q, res) => {
      if (method === "facturacion/consulta_avanzada") return json(res, NOT_FOUND);
      if (method === "facturacion/regenerar_pdf") return json(res, regenerated(`${server.baseUrl}/docs/fresh.pdf`));
      if (method.startsWith("docs/")) {
        res.writeHead(200, { "content-type": "application/pdf" });
        return res.end("%PDF-1.4 fetched by hand");
      }
      const link = healthy ? `${server.baseUrl}/docs/1.pdf` : "https://10.0.0.1/x.pdf";
      json(res, issued({ comprobante_nro: "00679-00000001", comprobante_pdf_url: link, comprobante_ticket_url: "" }));
    });
    const home = tempDir("facturar-missing-pdf-");
    const first = await run(server.baseUrl, ["--json", "issue", "--out", "pdfs", sample], {}, home).result;
    expect(ndjson(first.stdout)[0]).toMatchObject({ status: "issued", documents_missing: true });
    healthy = true;
    const fetched = await run(
      server.baseUrl,
      ["pdf", "--type", "FACTURA B", "--number", "1", "--pv", "679", "--out", "pdfs"],
      {},
      home,
    ).result;
    expect(fetched.code, fetched.stderr).toBe(0);
    expect((await run(server.baseUrl, ["journal"], {}, home).result).stdout).not.toMatch(/documents not saved yet/);
  }, 60_000);

  it("documents served from another host are saved (here `localhost` beside a 127.0.0.1 service)", async () => {
    const docs = await hostile((_m, _b, _q, res) => {
      res.writeHead(200, { "content-type": "application/pdf" });
      res.end("%PDF-1.4 from the document host");
    });
    const docsPort = new URL(docs.baseUrl).port;
    const server = await hostile((method, _b, _q, res) =>
      method === "facturacion/consulta_avanzada"
        ? json(res, NOT_FOUND)
        : json(
            res,
            issued({
              comprobante_pdf_url: `http://localhost:${docsPort}/files/7.pdf`,
              comprobante_ticket_url: `http://localhost:${docsPort}/files/7-ticket.pdf`,
            }),
          ),
    );
    const { result } = run(server.baseUrl, ["--json", "issue", "--out", "pdfs", sample]);
    const r = await result;
    expect(r.code, r.stderr).toBe(0);
    const [voucher] = ndjson(r.stdout);
    expect(voucher.documents_missing).toBeUndefined();
    expect(readFileSync(voucher.pdf, "utf8")).toBe("%PDF-1.4 from the document host");
    expect(readFileSync(voucher.ticket, "utf8")).toBe("%PDF-1.4 from the document host");
  }, 60_000);

  it("wrong field types in a success are reported, not trusted", async () => {
    const server = await hostile((method, _b, _q, res) =>
      method === "facturacion/consulta_avanzada"
        ? json(res, NOT_FOUND)
        : json(res, issued({ comprobante_nro: { no: "pe" }, cae: 12345, errores: "nada" })),
    );
    const r = await run(server.baseUrl, ["--json", "issue", "--no-pdf", sample], { FACTURAR_PROFILE: "default" })
      .result;
    expect(r.code).toBe(0);
    const [result] = ndjson(r.stdout);
    expect(result).toMatchObject({ status: "issued", numero: null, comprobante_nro: null, cae: "12345" });
    // The number that could not be read is told, with where to find it.
    expect(result.warnings).toContainEqual(
      expect.stringMatching(/no readable voucher number for FB-2026-0001: `facturar query --ref FB-2026-0001`/),
    );
    const human = await run(server.baseUrl, ["issue", "--no-pdf", sample], { FACTURAR_PROFILE: "default" }).result;
    expect(`${human.stdout}${human.stderr}`).toMatch(/no readable voucher number for FB-2026-0001/);
  }, 60_000);

  it("a rejection that echoes the credentials and carries terminal escapes is printed and journaled without either", async () => {
    const server = await hostile((method, _b, _q, res) =>
      method === "facturacion/consulta_avanzada"
        ? json(res, NOT_FOUND)
        : json(res, {
            error: "S",
            errores: [
              `Token ${CREDS.FACTURAR_USERTOKEN} / ${CREDS.FACTURAR_APITOKEN} rechazado (apikey ${CREDS.FACTURAR_APIKEY})\u001b]0;pwned\u0007\u001b[2J\r`,
            ],
            error_details: [{ code: "TFC-8002", text: `\u001b[31m${CREDS.FACTURAR_APITOKEN}\u001b[0m` }],
          }),
    );
    const home = tempDir("facturar-echo-");
    for (const args of [
      ["issue", "--no-pdf", sample],
      ["--json", "issue", "--no-pdf", sample],
    ]) {
      const r = await run(server.baseUrl, args, {}, home).result;
      expect(r.code, r.stderr).toBe(4);
      const printed = `${r.stdout}\n${r.stderr}`;
      expect(printed).toMatch(/rechazado/);
      for (const secret of [CREDS.FACTURAR_USERTOKEN, CREDS.FACTURAR_APITOKEN, `apikey ${CREDS.FACTURAR_APIKEY}`])
        expect(printed).not.toContain(secret);
      for (const control of ["\u001b", "\u0007", "\r"]) expect(printed).not.toContain(control);
    }
    const journal = readdirSync(join(home, "state", "facturar"))
      .filter((f) => f.endsWith(".jsonl"))
      .map((f) => readFileSync(join(home, "state", "facturar", f), "utf8"))
      .join("");
    expect(journal).toMatch(/rechazado/);
    for (const secret of [CREDS.FACTURAR_USERTOKEN, CREDS.FACTURAR_APITOKEN]) expect(journal).not.toContain(secret);
  }, 60_000);

  it("a record that echoes the request's credentials as its own fields is printed without them (query --json, --verbose)", async () => {
    // The apikey is four digits: in the decoded record it stands alone, apart from its name, so only
    // the redaction of the raw answer (apikey beside its name) can catch it.
    const server = await hostile((_m, body, _q, res) =>
      json(
        res,
        found({
          external_reference: "ECHO-1",
          numero: 7,
          fecha: "20/11/2026",
          total: "121.00",
          estado: "EMITIDO",
          usertoken: body.usertoken,
          apikey: body.apikey,
          apitoken: body.apitoken,
        }),
      ),
    );
    const r = await run(server.baseUrl, ["--verbose", "--json", "query", "--ref", "ECHO-1"]).result;
    expect(r.code, r.stderr).toBe(0);
    const [record] = ndjson(r.stdout);
    expect(record.comprobante).toMatchObject({ usertoken: "***", apikey: "***", apitoken: "***" });
    const printed = `${r.stdout}\n${r.stderr}`;
    for (const secret of [CREDS.FACTURAR_USERTOKEN, CREDS.FACTURAR_APITOKEN]) expect(printed).not.toContain(secret);
    expect(printed).not.toMatch(new RegExp(`apikey\\W{0,6}${CREDS.FACTURAR_APIKEY}`));
  }, 60_000);

  it("never sends the credentials anywhere but the body, and never prints them", async () => {
    const server = await hostile((_m, _b, _q, res) =>
      json(res, { error: "N", errores: [""], rta: "OK", facturacion: "OK" }),
    );
    const r = await run(server.baseUrl, ["--verbose", "status"], { FACTURAR_PROFILE: "default" }).result;
    expect(r.code).toBe(0);
    expect(server.seen[0]?.body).toMatchObject({
      usertoken: CREDS.FACTURAR_USERTOKEN,
      apikey: CREDS.FACTURAR_APIKEY,
      apitoken: CREDS.FACTURAR_APITOKEN,
    });
    for (const secret of Object.values(CREDS)) {
      expect(r.stdout).not.toContain(secret);
      expect(r.stderr).not.toContain(secret);
    }
  }, 60_000);

  it("pdf saves the links the voucher's query gives where regenerar_pdf is refused, by reference and by number", async () => {
    const item = {
      cliente: { razon_social: "Maria Gomez" },
      comprobante: {
        tipo: "FACTURA B",
        punto_venta: 679,
        numero: 7,
        fecha: "20/11/2026",
        total: 60500,
        status: "EMITIDO",
        cae: "76451234567890",
        external_reference: "FB-7",
        comprobante_pdf_url: "",
        comprobante_ticket_url: "",
      },
    };
    let regenerate = 0;
    const server = await hostile((method, _b, _q, res) => {
      const links = {
        comprobante_pdf_url: `${server.baseUrl}/docs/7.pdf`,
        comprobante_ticket_url: `${server.baseUrl}/docs/7-ticket.pdf`,
      };
      const held = { ...item, comprobante: { ...item.comprobante, ...links } };
      if (method === "facturacion/regenerar_pdf") {
        regenerate++;
        return json(res, { error: "S", errores: ["El metodo no esta habilitado para su plan."] });
      }
      if (method === "facturacion/consulta_avanzada")
        return json(res, { error: "N", errores: [], total: 1, comprobantes: [held] });
      if (method === "facturacion/consulta") return json(res, { error: "N", errores: [], ...held });
      res.writeHead(200, { "content-type": "application/pdf" });
      res.end(`%PDF-1.4 ${method}`);
    });
    for (const args of [
      ["--ref", "FB-7"],
      ["--type", "FACTURA B", "--number", "00679-00000007"],
    ]) {
      const { cwd, result } = run(server.baseUrl, ["--json", "pdf", "--out", "docs", ...args]);
      const r = await result;
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(
        /regenerar_pdf was refused \(El metodo no esta habilitado para su plan\.\): saving the links/,
      );
      expect(JSON.parse(r.stdout)).toEqual({
        ok: true,
        pdf: join(cwd, "docs", "FACTURA_B-00679-00000007.pdf"),
        ticket: join(cwd, "docs", "FACTURA_B-00679-00000007-ticket.pdf"),
      });
      expect(readFileSync(join(cwd, "docs", "FACTURA_B-00679-00000007-ticket.pdf"), "utf8")).toBe(
        "%PDF-1.4 docs/7-ticket.pdf",
      );
    }
    expect(regenerate).toBe(2);
  }, 60_000);

  it("pdf whose document link fails tells the service's words and exits 6, not as an internal error", async () => {
    let downloads = 0;
    const server = await hostile((method, _b, _q, res) => {
      if (method === "facturacion/regenerar_pdf") return json(res, regenerated(`${server.baseUrl}/docs/7.pdf`));
      downloads++;
      if (method === "docs/7.pdf")
        return json(res, { error: "S", errores: ["Error interno: Cannot find module 'pdfkit'"] }, 500);
      return json(res, NOT_FOUND);
    });
    const r = await run(server.baseUrl, ["pdf", "--type", "FACTURA B", "--number", "7"]).result;
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toMatch(/the link answered HTTP 500: Error interno: Cannot find module 'pdfkit'/);
    expect(r.stderr).toMatch(/hint: run the same command again later/);
    expect(r.stderr).not.toMatch(/internal error|please report/);
    expect(downloads).toBeGreaterThan(0);
    // A link that answers something other than a PDF: the same, in its words.
    const html = await hostile((method, _b, _q, res) => {
      if (method === "facturacion/regenerar_pdf") return json(res, regenerated(`${html.baseUrl}/docs/7.pdf`));
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html>login</html>");
    });
    const notPdf = await run(html.baseUrl, ["pdf", "--type", "FACTURA B", "--number", "7"]).result;
    expect([notPdf.code, notPdf.stderr]).toEqual([6, expect.stringContaining("the link did not return a PDF")]);
  }, 60_000);

  it("pdf tells the service's refusal when the query has no links either (exit 4)", async () => {
    const server = await hostile((method, _b, _q, res) =>
      method === "facturacion/regenerar_pdf"
        ? json(res, { error: "S", errores: ["No se encontro el comprobante solicitado."] })
        : json(res, NOT_FOUND),
    );
    const r = await run(server.baseUrl, ["pdf", "--type", "FACTURA B", "--number", "7"]).result;
    expect([r.code, r.stderr]).toEqual([4, expect.stringContaining("No se encontro el comprobante solicitado.")]);
  }, 60_000);

  it("qr --ref does not count what the service's answer leaves out as a mismatch, and still catches what differs", async () => {
    const qr = {
      ver: 1,
      fecha: "2026-11-20",
      cuit: 30712345678,
      ptoVta: 679,
      tipoCmp: 6,
      nroCmp: 7,
      importe: 60500,
      moneda: "PES",
      ctz: 1,
      tipoDocRec: 96,
      nroDocRec: 20123456,
      tipoCodAut: "E",
      codAut: 76451234567890,
    };
    let total = 60500;
    const server = await hostile((method, _b, _q, res) => {
      if (method !== "facturacion/consulta_avanzada") return json(res, NOT_FOUND);
      // No moneda, no customer document, no CAE: the real service leaves fields out or blank.
      const comprobante = {
        tipo: "FACTURA B",
        punto_venta: 679,
        numero: 7,
        fecha: "20/11/2026",
        total,
        cae: "",
        status: "EMITIDO",
        external_reference: "FB-7",
        afip_qr: `https://www.afip.gob.ar/fe/qr/?p=${Buffer.from(JSON.stringify(qr)).toString("base64")}`,
      };
      json(res, { error: "N", errores: [], total: 1, comprobantes: [{ cliente: {}, comprobante }] });
    });
    const r = await run(server.baseUrl, ["--json", "qr", "--ref", "FB-7"]).result;
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.ok).toBe(true);
    expect(out.checks.filter((c: { compared: boolean }) => !c.compared).map((c: { field: string }) => c.field)).toEqual(
      ["moneda", "codAut", "nroDocRec"],
    );
    const human = await run(server.baseUrl, ["qr", "--ref", "FB-7"]).result;
    expect(human.stdout).toMatch(/– moneda +QR PES {2}voucher \(not in the service's answer\)/);
    total = 60000;
    const wrong = await run(server.baseUrl, ["--json", "qr", "--ref", "FB-7"]).result;
    expect(wrong.code).toBe(3);
    expect(JSON.parse(wrong.stdout).checks.find((c: { field: string }) => c.field === "importe")).toMatchObject({
      ok: false,
      compared: true,
    });
  }, 60_000);
});
