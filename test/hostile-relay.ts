/**
 * A hostile service of our own: a relay on loopback in front of a running sandbox. The sandbox
 * does the work (it stores, numbers and lists vouchers as the real service would); the relay
 * changes what the client hears, in the shapes the reference documents or allows: items in
 * another order, references echoed as numbers, a batch that stored part of itself and answers
 * as if it stored nothing, answers that cannot be read, answers lost after the work was done.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { serveLoopback } from "./loopback.js";
import type { RunningSandbox } from "./sandbox-process.js";

/** What the relay answers instead: a body (and status), or a connection dropped after the work. */
export type Rewritten = { status?: number; text: string } | "drop";

export interface Exchange {
  /** `facturacion/lotes`, … */
  method: string;
  /** The request as the client sent it (credentials included). */
  request: any;
  /** Forwards `request` (changed, if the test wishes) to the sandbox: its status and body. */
  forward(request?: any): Promise<{ status: number; text: string }>;
}

export interface Relay {
  baseUrl: string;
  origin: string;
  /** Every method asked, in order. */
  methods: string[];
  close(): void;
}

/**
 * `answer` decides each exchange: undefined forwards it untouched. What it returns is what the
 * client gets, whatever the sandbox did.
 */
export async function hostileRelay(
  sandbox: RunningSandbox,
  answer: (exchange: Exchange) => Promise<Rewritten | undefined> | Rewritten | undefined,
): Promise<Relay> {
  const upstream = new URL(sandbox.baseUrl).origin;
  const methods: string[] = [];
  const server = await serveLoopback(async (req: IncomingMessage, res: ServerResponse, text: string) => {
    const method = (req.url ?? "").replace(/^.*\/api\/v2\//, "");
    methods.push(method);
    const forward = async (request?: unknown) => {
      const up = await fetch(`${upstream}${req.url}`, {
        method: req.method ?? "POST",
        headers: { "content-type": "application/json" },
        ...(req.method === "POST" ? { body: request === undefined ? text : JSON.stringify(request) } : {}),
      });
      return { status: up.status, text: await up.text() };
    };
    let request: any;
    try {
      request = req.method === "POST" ? JSON.parse(text) : undefined;
    } catch {
      request = undefined;
    }
    const chosen = req.method === "POST" ? await answer({ method, request, forward }) : undefined;
    if (chosen === "drop") {
      req.socket.destroy();
      return;
    }
    const reply = chosen ?? (await forward());
    res.writeHead(reply.status ?? 200, { "content-type": "application/json" });
    res.end(reply.text);
  });
  return { baseUrl: server.baseUrl, origin: server.origin, methods, close: server.close };
}

/** The issuing calls a relay saw. */
export function issuingCalls(relay: Relay): string[] {
  return relay.methods.filter((m) => /^facturacion\/(nuevo|nuevo_encola|lotes|lotes_encola)$/.test(m));
}
