/**
 * The client speaks TLS 1.2 or newer to the service, whatever Node's own defaults are: a server
 * offering only TLS 1.1 is refused before any request, even with Node told to allow TLS 1.0.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshUser, runCli, tempDir } from "../helpers.js";
import { serveLoopback } from "../loopback.js";

let dir: string;
beforeAll(() => {
  dir = tempDir("facturar-tls-");
  // A certificate for 127.0.0.1, trusted by the CLI through NODE_EXTRA_CA_CERTS.
  const made = spawnSync(
    "openssl",
    ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1"].concat([
      "-addext",
      "subjectAltName=IP:127.0.0.1",
      "-keyout",
      "key.pem",
      "-out",
      "cert.pem",
    ]),
    { cwd: dir, encoding: "utf8" },
  );
  if (made.status !== 0) throw new Error(`openssl could not make a test certificate: ${made.stderr}`);
});

const servers: Server[] = [];
afterAll(() => {
  for (const s of servers) s.close();
});

/** A service speaking only these TLS versions; counts the requests that got through. */
async function service(versions: { minVersion: "TLSv1" | "TLSv1.2"; maxVersion: "TLSv1.1" | "TLSv1.3" }) {
  const seen = { requests: 0 };
  const server = createServer(
    {
      key: readFileSync(join(dir, "key.pem")),
      cert: readFileSync(join(dir, "cert.pem")),
      ...versions,
      // OpenSSL 3 offers TLS 1.1 only at security level 0.
      ciphers: "DEFAULT@SECLEVEL=0",
    },
    (_req, res) => {
      seen.requests++;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: "N", errores: [] }));
    },
  );
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { seen, baseUrl: `https://127.0.0.1:${(server.address() as AddressInfo).port}/app/api/v2` };
}

function status(baseUrl: string) {
  const { cwd, env } = freshUser("facturar-tls-user-");
  return runCli(["status"], {
    cwd,
    env: {
      ...env,
      FACTURAR_BASE_URL: baseUrl,
      FACTURAR_USERTOKEN: "u".repeat(32),
      FACTURAR_APIKEY: "1234",
      FACTURAR_APITOKEN: "t".repeat(32),
      FACTURAR_RETRY_BACKOFF: "0.01",
      NODE_EXTRA_CA_CERTS: join(dir, "cert.pem"),
      // Node itself told to accept TLS 1.0 and weak ciphers: only the client's own minimum refuses.
      NODE_OPTIONS: "--tls-min-v1.0 --tls-cipher-list=DEFAULT@SECLEVEL=0",
    },
  });
}

describe("TLS", () => {
  it("a service offering only TLS 1.1 is refused before any request is made", async () => {
    const old = await service({ minVersion: "TLSv1", maxVersion: "TLSv1.1" });
    const r = await status(old.baseUrl);
    expect(old.seen.requests).toBe(0);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(
      /no secure connection with 127\.0\.0\.1:\d+: it offers no TLS 1\.2 or newer, or no cipher in common \(EPROTO\)/,
    );
  });

  it("the same service and certificate with TLS 1.2 are reached (the refusal above is the version's)", async () => {
    const current = await service({ minVersion: "TLSv1.2", maxVersion: "TLSv1.3" });
    await status(current.baseUrl);
    expect(current.seen.requests).toBeGreaterThan(0);
  });

  it("an https address whose server speaks plain http is told as such, before any request", async () => {
    let requests = 0;
    const plain = await serveLoopback((_req, res) => {
      requests++;
      res.end("{}");
    });
    try {
      const r = await status(plain.baseUrl.replace("http://", "https://"));
      expect(r.code).toBe(6);
      expect(r.stderr).toMatch(/127\.0\.0\.1:\d+ does not answer in TLS: is its address http rather than https\?/);
      expect(requests).toBe(0);
    } finally {
      plain.close();
    }
  });
});
