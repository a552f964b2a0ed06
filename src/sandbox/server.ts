/**
 * The development-mode service over real HTTP on loopback: `facturar sandbox` runs it on its own,
 * the CLI starts it in-process for `base_url: "sandbox"`, and the tests talk to it as a client
 * would. Faults are injected here, around the service, where a network or a proxy would fail.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { FacturarError } from "../errors.js";
import { msg } from "../i18n/message.js";
import { documentName } from "../voucher/codes.js";
import { argentinaToday } from "../voucher/dates.js";
import { type Faults, NO_FAULTS, sandboxSettleWindow } from "./faults.js";
import type { Reply } from "./reply.js";
import { SandboxService } from "./service.js";
import { type PointOfSale, Store } from "./store.js";
import type { Webhooks } from "./webhooks.js";

const API_PREFIX = "/app/api/v2";
const MAX_BODY = 8 * 1024 * 1024;

export interface SandboxOptions {
  dataDir: string;
  host?: string;
  port?: number;
  faults?: Faults;
  /** How often the queue worker runs; the real service takes minutes, here about a second. */
  queueIntervalMs?: number;
  /** The plan's voucher quota (1,500 on the real development plan). */
  quota?: number;
  ceiling?: number;
  /** Exchange rates by currency code, over the defaults (rates.ts). */
  rates?: Readonly<Record<string, string>>;
  /** The points of sale's webhook URLs (webhooks.ts). */
  webhooks?: Webhooks;
  now?: () => Date;
  random?: () => number;
}

export interface Sandbox {
  baseUrl: string;
  /** API requests answered 429 because they came too soon after another (the `spacing` fault). */
  readonly spacingRefusals: number;
  pointsOfSale: PointOfSale[];
  store: Store;
  service: SandboxService;
  faults: Faults;
  /** Settles once the queue worker has stopped for good (a failed write), its last pass ended. */
  readonly queueStopped: Promise<void>;
  close(): Promise<void>;
}

function send(res: ServerResponse, reply: Reply, headers: Record<string, string> = {}): void {
  // The service is PHP: its JSON escapes slashes ("07\/08\/2015"); a JSON parser reads it the same.
  const body = JSON.stringify(reply.body).replace(/\//g, "\\/");
  res.writeHead(reply.status, { "content-type": "application/json; charset=utf-8", ...headers });
  res.end(body);
}

function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        resolve(undefined);
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The answer to everything once the store could not write: nothing in memory can be vouched for. */
function storageFailure(store: Store): Reply {
  return {
    status: 503,
    body: {
      error: "S",
      errores: [
        `Error de almacenamiento del sandbox: ${store.failure?.message ?? "escritura fallida"}. ` +
          "No atiende pedidos hasta que se lo reinicie.",
      ],
    },
  };
}

/**
 * The renderer loads at the first download (documents.ts), but its packages are looked for now:
 * an install without them fails here, before anything is issued, rather than at every download.
 */
function checkRenderer(): void {
  const require = createRequire(import.meta.url);
  for (const name of ["pdfkit", "qrcode"]) {
    try {
      require.resolve(name);
    } catch (error) {
      throw new FacturarError(
        msg("the sandbox cannot draw documents: {name} cannot be loaded ({message})", {
          name,
          message: (error as NodeJS.ErrnoException).code ?? (error as Error).message,
        }),
        "unavailable",
        "sandbox.renderer",
        msg('install facturar again (README "Install"): its dependencies are incomplete'),
      );
    }
  }
}

export async function startSandbox(opts: SandboxOptions): Promise<Sandbox> {
  checkRenderer();
  const now = opts.now ?? (() => new Date());
  const store = await Store.open(opts.dataDir, { now, ...(opts.quota !== undefined ? { quota: opts.quota } : {}) });
  const faults = { ...(opts.faults ?? NO_FAULTS) };
  // A sandbox that times arrivals (the `spacing` fault, part of --like-production) loads its
  // renderer before it listens, not at the first download: loading it held its one thread for
  // tens to hundreds of ms, an API request arriving meanwhile was stamped late, and the next one,
  // sent on time, looked too soon (a 429 the real service, whose documents are ready, never gives).
  if (faults.spacing > 0) await import("./documents.js");
  const random = opts.random ?? Math.random;
  let baseUrl = "";
  const service = new SandboxService(store, {
    faults,
    baseUrl: () => baseUrl,
    now,
    random,
    ceiling: opts.ceiling ?? 10_000_000,
    ...(opts.rates ? { rates: opts.rates } : {}),
    ...(opts.webhooks ? { webhooks: opts.webhooks } : {}),
  });
  // When the last API request that was let through arrived (the `spacing` fault), on a monotonic clock.
  let lastServed = Number.NEGATIVE_INFINITY;
  let spacingRefusals = 0;
  const documentsDir = join(opts.dataDir, "documents");
  mkdirSync(documentsDir, { recursive: true });

  async function serveDocument(res: ServerResponse, kind: "pdf" | "ticket", token: string): Promise<void> {
    const durable = store.settled();
    const link = store.link(token);
    const voucher = link && link.kind === kind ? store.byId(link.voucherId) : undefined;
    await durable;
    if (!link || !voucher) {
      send(res, { status: 404, body: { error: "S", errores: ["El comprobante solicitado no existe."] } });
      return;
    }
    if (link.day !== argentinaToday(now())) {
      send(res, {
        status: 410,
        body: {
          error: "S",
          errores: ["El link del comprobante expiro: es valido solo el dia en que se obtuvo. Use regenerar_pdf."],
        },
      });
      return;
    }
    // Rendered on first download and kept, so issuing stays fast and later downloads are cheap.
    const path = join(documentsDir, `${voucher.id}-${kind}.pdf`);
    let pdf: Buffer;
    try {
      pdf = readFileSync(path);
    } catch {
      const view = service.documentView(voucher);
      // Loaded on the first download: pdfkit takes some 50 ms of CPU to load, which a run with
      // --no-pdf, or one that only asks, never needs.
      const { renderTicketPdf, renderVoucherPdf } = await import("./documents.js");
      pdf = kind === "pdf" ? await renderVoucherPdf(view) : await renderTicketPdf(view);
      writeFileSync(`${path}.tmp`, pdf);
      renameSync(`${path}.tmp`, path);
    }
    const name = `${documentName(voucher.tipo, voucher.punto_venta, voucher.numero, kind === "ticket" ? "-ticket" : "")}.pdf`;
    res.writeHead(200, {
      "content-type": "application/pdf",
      "content-length": pdf.length,
      "content-disposition": `inline; filename="${name}"`,
    });
    res.end(pdf);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (store.failure) {
      send(res, storageFailure(store));
      return;
    }
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const document = /^\/app\/api\/v2\/comprobantes\/(pdf|ticket)\/([0-9a-f]+)\.pdf$/.exec(path);
    if (document) {
      if (req.method !== "GET") {
        send(res, { status: 405, body: { error: "S", errores: ["Metodo HTTP no permitido."] } }, { allow: "GET" });
        return;
      }
      await serveDocument(res, document[1] as "pdf" | "ticket", document[2] as string);
      return;
    }
    const method = path.startsWith(`${API_PREFIX}/`) ? path.slice(API_PREFIX.length + 1).replace(/\/$/, "") : "";
    if (!SandboxService.METHODS.includes(method)) {
      send(res, { status: 404, body: { error: "S", errores: [`El recurso ${path} no existe.`] } });
      return;
    }
    if (req.method !== "POST") {
      send(
        res,
        { status: 405, body: { error: "S", errores: ["Metodo HTTP no permitido: use POST."] } },
        { allow: "POST" },
      );
      return;
    }
    // Timed on arrival, before anything is awaited: requests are taken in the order they came.
    let tooSoon = false;
    if (faults.spacing > 0) {
      const arrived = performance.now();
      tooSoon = arrived - lastServed < faults.spacing;
      if (!tooSoon) lastServed = arrived;
    }
    const text = await readBody(req);
    if (text === undefined) {
      send(res, { status: 413, body: { error: "S", errores: ["El cuerpo del pedido es demasiado grande."] } });
      return;
    }
    let body: unknown;
    try {
      body = text.trim() === "" ? {} : JSON.parse(text);
    } catch {
      send(res, { status: 400, body: { error: "S", errores: ["El cuerpo del pedido no es un JSON valido."] } });
      return;
    }
    if (faults.latency > 0) await sleep(faults.latency);
    if (tooSoon) {
      spacingRefusals++;
      // Whole seconds, as HTTP's Retry-After has them (and the service's front end would send).
      send(
        res,
        { status: 429, body: { error: "S", errores: ["Demasiados pedidos por segundo."] } },
        { "retry-after": String(Math.max(1, Math.ceil(faults.spacing / 1000))) },
      );
      return;
    }
    if (random() < faults.dropBefore) {
      req.socket.destroy();
      return;
    }
    if (random() < faults.error5xx) {
      res.writeHead(502, { "content-type": "text/html" });
      res.end("<html><body><h1>502 Bad Gateway</h1></body></html>");
      return;
    }
    if (random() < faults.ratelimit) {
      send(
        res,
        { status: 429, body: { error: "S", errores: ["Demasiados pedidos por segundo."] } },
        { "retry-after": "1" },
      );
      return;
    }
    if (faults.maintenance) {
      send(res, service.maintenanceReply());
      return;
    }
    const pv = service.authenticate(body);
    if ("status" in pv) {
      send(res, pv);
      return;
    }
    if (faults.slowCommit > 0 && SandboxService.CHANGING.has(method)) await sleep(faults.slowCommit);
    // The reply may show state that other requests changed and have not made durable yet: it
    // waits for their commits too (a failed one turns it into a 503 below).
    const durable = store.settled();
    const reply = await service.call(method, body, pv);
    await durable;
    if (SandboxService.CHANGING.has(method) && random() < faults.dropAfterCommit) {
      // Stored and durable, but the answer never arrives: the case that makes clients issue twice.
      req.socket.destroy();
      return;
    }
    send(res, reply);
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: Error) => {
      if (res.headersSent) res.destroy();
      // A commit that failed: never an answer as if it had been stored.
      else if (store.failure) send(res, storageFailure(store));
      else send(res, { status: 500, body: { error: "S", errores: [`Error interno: ${error.message}`] } });
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, opts.host ?? "127.0.0.1", () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  baseUrl = `http://${host}:${address.port}${API_PREFIX}`;
  store.announce(baseUrl, sandboxSettleWindow(faults), faults.spacing);
  // The hosted queue works around the clock; this one only while a process runs it. Catch up
  // on what came due in between before answering anyone. If the disk fails there, the sandbox
  // still starts, answering 503 (see storageFailure) until it is restarted.
  await service.processQueue().catch((error: unknown) => {
    if (!store.failure) throw error;
  });

  let running: Promise<unknown> | undefined;
  let stopped: () => void = () => {};
  const queueStopped = new Promise<void>((resolve) => {
    stopped = resolve;
  });
  const worker = setInterval(() => {
    // A store that could not write stops issuing from the queue as well.
    if (store.failure) {
      clearInterval(worker);
      void Promise.resolve(running).then(stopped);
      return;
    }
    running ??= service
      .processQueue()
      .catch((error: unknown) => {
        if (!store.failure) throw error;
      })
      .finally(() => {
        running = undefined;
      });
  }, opts.queueIntervalMs ?? 1000);
  worker.unref();

  return {
    baseUrl,
    pointsOfSale: store.account.points_of_sale,
    store,
    service,
    faults,
    queueStopped,
    get spacingRefusals() {
      return spacingRefusals;
    },
    async close() {
      clearInterval(worker);
      await running;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await store.close();
    },
  };
}
