/**
 * One HTTP exchange with the service: TLS 1.2 at least, no redirects followed (a redirect would
 * carry the credentials elsewhere), a deadline for the whole exchange, and a cap on what a server
 * may send back.
 */

import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { t } from "../i18n/index.js";

export interface HttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** Why an exchange produced no response: the caller decides what that means for a voucher. */
export class TransportError extends Error {
  constructor(
    message: string,
    /** `timeout`, `dropped` (connection closed or reset), `refused`, `too-large`, `redirect`, `other` */
    readonly kind: "timeout" | "dropped" | "refused" | "too-large" | "redirect" | "other",
    /** Whether any of the request may have reached the server. */
    readonly maybeDelivered: boolean,
  ) {
    super(message);
  }
}

const httpAgent = new HttpAgent({ keepAlive: true, maxSockets: 16 });
const httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: 16, minVersion: "TLSv1.2" });

export const MAX_RESPONSE_BYTES = 20 * 1024 * 1024;

export interface HttpOptions {
  method: "GET" | "POST";
  body?: string;
  headers?: Record<string, string>;
  timeoutMs: number;
  maxBytes?: number;
}

export function exchange(url: URL, opts: HttpOptions): Promise<HttpResponse> {
  const secure = url.protocol === "https:";
  const send = secure ? httpsRequest : httpRequest;
  const maxBytes = opts.maxBytes ?? MAX_RESPONSE_BYTES;
  return new Promise((resolve, reject) => {
    let settled = false;
    let sent = false;
    const finish = (error: TransportError | undefined, response?: HttpResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      if (error) reject(error);
      else resolve(response as HttpResponse);
    };
    const req = send(
      url,
      {
        method: opts.method,
        agent: secure ? httpsAgent : httpAgent,
        headers: {
          ...(opts.body !== undefined
            ? { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(opts.body) }
            : {}),
          ...opts.headers,
        },
        ...(secure ? { minVersion: "TLSv1.2" as const } : {}),
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          res.resume();
          finish(
            new TransportError(
              t("the server answered with a redirect ({status}) to {location}; not followed", {
                status,
                location: res.headers.location ?? "?",
              }),
              "redirect",
              true,
            ),
          );
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            req.destroy();
            finish(
              new TransportError(
                t("the answer is larger than {mb} MB; refused", { mb: Math.round(maxBytes / 1024 / 1024) }),
                "too-large",
                true,
              ),
            );
            return;
          }
          chunks.push(chunk);
        });
        res.on("end", () => finish(undefined, { status, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on("error", () =>
          finish(new TransportError(t("the connection broke while the answer arrived"), "dropped", true)),
        );
        res.on("aborted", () =>
          finish(new TransportError(t("the connection broke while the answer arrived"), "dropped", true)),
        );
      },
    );
    const deadline = setTimeout(() => {
      req.destroy();
      finish(
        new TransportError(
          t("no complete answer within {seconds} s", { seconds: Math.round(opts.timeoutMs / 1000) }),
          "timeout",
          sent,
        ),
      );
    }, opts.timeoutMs);
    req.on("error", (error: NodeJS.ErrnoException) => {
      const refused = error.code === "ECONNREFUSED" || error.code === "ENOTFOUND" || error.code === "EAI_AGAIN";
      finish(
        new TransportError(
          refused
            ? t("cannot connect to {host} ({code})", { host: url.host, code: String(error.code) })
            : t("the connection failed ({code})", { code: error.code ?? error.message }),
          refused ? "refused" : "dropped",
          !refused && sent,
        ),
      );
    });
    req.on("finish", () => {
      sent = true;
    });
    req.end(opts.body);
  });
}
