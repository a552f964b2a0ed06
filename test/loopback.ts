/** A fake service on loopback for tests: each request's body read whole, then handed over. */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Loopback {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** The API's base URL, as a profile names it. */
  baseUrl: string;
  close(): void;
}

export async function serveLoopback(
  handle: (req: IncomingMessage, res: ServerResponse, body: string) => void,
): Promise<Loopback> {
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (d) => {
      body += d;
    });
    req.on("end", () => handle(req, res, body));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    baseUrl: `${origin}/app/api/v2`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}
