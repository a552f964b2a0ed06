/**
 * The trust model (README "Security"): credentials, base_url and configs that run code come only
 * from the user's config folder, an explicit --config / FACTURAR_CONFIG, or the environment. A
 * config found by searching from the working folder (a downloaded or unzipped folder, a cloned
 * repository) may only choose among the user's profiles and set non-secret defaults.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freshUser, ROOT, runCli, tempDir, userConfig } from "../helpers.js";
import { type Loopback, serveLoopback } from "../loopback.js";
import { sandboxEnv, startSandboxProcess } from "../sandbox-process.js";

const servers: Loopback[] = [];
afterAll(() => {
  for (const s of servers) s.close();
});

/** A service that answers every call with a plain success, and keeps the bodies it was sent. */
async function recordingService() {
  const bodies: string[] = [];
  const service = await serveLoopback((_req, res, body) => {
    bodies.push(body);
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: "N", errores: [], facturacion: "OK" }));
  });
  servers.push(service);
  return { ...service, bodies };
}

/** A folder the user downloaded and unzipped: theirs, like any file they fetch. */
function downloadedFolder(home: string): string {
  const dir = join(home, "Descargas", "cliente");
  mkdirSync(dir, { recursive: true });
  return dir;
}

const CREDENTIALS = { usertoken: "u-real-0123456789abcdef", apikey: "54321", apitoken: "a-real-0123456789abcdef" };

describe("a config found in the working folder", () => {
  it("cannot point the user's profile at another server, nor read a credential from another file", async () => {
    const real = await recordingService();
    const attacker = await recordingService();
    const u = freshUser("facturar-trust-");
    userConfig(u.env, { default_profile: "real", profiles: { real: { base_url: real.baseUrl, ...CREDENTIALS } } });
    mkdirSync(join(u.home, ".ssh"));
    writeFileSync(join(u.home, ".ssh", "id_ed25519"), "PRIVATE-KEY-CONTENT-0123456789");
    const folder = downloadedFolder(u.home);
    const planted = join(folder, ".facturarrc.json");
    writeFileSync(
      planted,
      JSON.stringify({
        profiles: { real: { base_url: attacker.baseUrl, usertoken: { file: "~/.ssh/id_ed25519" } } },
      }),
    );

    const run = await runCli(["status"], { cwd: folder, env: u.env });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(planted);
    expect(run.stderr).toMatch(/may not set base_url, usertoken/);
    expect(attacker.bodies).toEqual([]);
    expect(real.bodies).toEqual([]);
    expect(run.stdout + run.stderr).not.toContain("PRIVATE-KEY-CONTENT");

    // Outside the folder, the user's own profile works as before.
    const home = await runCli(["--json", "status"], { cwd: u.home, env: u.env });
    expect(home.code, home.stderr).toBe(0);
    expect(real.bodies.length).toBeGreaterThan(0);
    expect(real.bodies.join("")).toContain(CREDENTIALS.usertoken);
    expect(attacker.bodies).toEqual([]);
  });

  it("that runs code is never run: refused, naming the file; cosmiconfig's own .config/config.js is not read", async () => {
    const u = freshUser("facturar-trust-");
    const folder = downloadedFolder(u.home);
    const pwned = join(u.home, "PWNED");
    const payload = `require("node:fs").writeFileSync(${JSON.stringify(pwned)}, "ran"); module.exports = { profiles: {} };`;

    // cosmiconfig reads a "meta config" from the working folder's .config/ when it is set up:
    // not a facturar config at all, and nothing facturar runs.
    mkdirSync(join(folder, ".config"));
    writeFileSync(join(folder, ".config", "config.js"), payload);
    const meta = await runCli(["--json", "status"], { cwd: folder, env: u.env });
    expect(meta.code, meta.stderr).toBe(0);
    expect(JSON.parse(meta.stdout)).toMatchObject({ profile: "sandbox" });
    expect(existsSync(pwned)).toBe(false);

    for (const name of ["facturar.config.js", ".facturarrc.cjs", "facturar.config.mjs"]) {
      const file = join(folder, name);
      writeFileSync(file, name.endsWith(".mjs") ? payload.replace("module.exports =", "export default") : payload);
      const run = await runCli(["status"], { cwd: folder, env: u.env });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(`refusing to run ${file}`);
      expect(run.stderr).toMatch(/--config/);
      expect(existsSync(pwned), name).toBe(false);
      rmSync(file);
    }
  });

  it("chooses among the user's own profiles and sets non-secret defaults (pdf_dir), and status says so", async () => {
    const u = freshUser("facturar-trust-");
    userConfig(u.env, {
      profiles: { cliente: { base_url: "sandbox", pdf_dir: "~/pdfs-de-siempre" } },
    });
    const folder = downloadedFolder(u.home);
    writeFileSync(
      join(folder, ".facturarrc.json"),
      JSON.stringify({ default_profile: "cliente", profiles: { cliente: { pdf_dir: "./comprobantes" } } }),
    );
    const status = await runCli(["--json", "status"], { cwd: folder, env: u.env });
    expect(status.code, status.stderr).toBe(0);
    // Which files set the run is told: the user's own, and the folder's.
    expect(JSON.parse(status.stdout)).toMatchObject({
      profile: "cliente",
      sandbox: true,
      config_files: [join(u.env.XDG_CONFIG_HOME, "facturar", "config.json"), join(folder, ".facturarrc.json")],
    });
    const shown = await runCli(["status"], { cwd: folder, env: u.env });
    expect(shown.stdout).toContain(`settings from ${join(folder, ".facturarrc.json")}`);

    const sample = join(folder, "venta.json");
    writeFileSync(sample, readFileSync(join(ROOT, "samples", "factura-b-dni.json")));
    const issued = await runCli(["--json", "issue", "venta.json"], { cwd: folder, env: u.env });
    expect(issued.code, issued.stderr).toBe(0);
    const pdf = JSON.parse(issued.stdout.trim().split("\n")[0] as string).pdf as string;
    expect(pdf.startsWith(join(folder, "comprobantes"))).toBe(true);
    expect(existsSync(pdf)).toBe(true);

    // A profile the user never defined cannot be made up there.
    writeFileSync(
      join(folder, ".facturarrc.json"),
      JSON.stringify({ default_profile: "otro", profiles: { otro: { pdf_dir: "./x" } } }),
    );
    const unknown = await runCli(["status"], { cwd: folder, env: u.env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/\.facturarrc\.json.*profile "otro", which your configuration does not define/);
  });

  it("is trusted when the user names it: --config and FACTURAR_CONFIG", async () => {
    const real = await recordingService();
    const u = freshUser("facturar-trust-");
    const folder = downloadedFolder(u.home);
    const mine = join(folder, "mi-config.json");
    writeFileSync(
      mine,
      JSON.stringify({ default_profile: "p", profiles: { p: { base_url: real.baseUrl, ...CREDENTIALS } } }),
    );
    chmodSync(mine, 0o600);
    const flag = await runCli(["--config", "mi-config.json", "--json", "status"], { cwd: folder, env: u.env });
    expect(flag.code, flag.stderr).toBe(0);
    expect(JSON.parse(flag.stdout)).toMatchObject({ profile: "p" });
    const seen = real.bodies.length;
    expect(seen).toBeGreaterThan(0);
    const fromEnv = await runCli(["--json", "status"], { cwd: u.home, env: { ...u.env, FACTURAR_CONFIG: mine } });
    expect(fromEnv.code, fromEnv.stderr).toBe(0);
    expect(JSON.parse(fromEnv.stdout)).toMatchObject({ profile: "p" });
    expect(real.bodies.length).toBeGreaterThan(seen);
  });
});

describe("document links from a service that is not on this machine", () => {
  it("are not followed to loopback: the voucher stays issued, its documents missing, nothing asked of local services", async () => {
    const dir = tempDir("facturar-public-");
    const made = spawnSync(
      "openssl",
      ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=api.facturas.test"].concat([
        "-addext",
        "subjectAltName=DNS:api.facturas.test",
        "-keyout",
        "key.pem",
        "-out",
        "cert.pem",
      ]),
      { cwd: dir, encoding: "utf8" },
    );
    if (made.status !== 0) throw new Error(`openssl could not make a test certificate: ${made.stderr}`);
    // A local service the link points at (a router's page, a database's HTTP port, …).
    const local = await recordingService();
    const sandbox = await startSandboxProcess();
    const upstream = new URL(sandbox.baseUrl).origin;
    // The service, known to the CLI as https://api.facturas.test: the sandbox behind TLS, its links
    // rewritten to the local service.
    const front = createHttpsServer(
      { key: readFileSync(join(dir, "key.pem")), cert: readFileSync(join(dir, "cert.pem")) },
      (req, res) => {
        let body = "";
        req.on("data", (d) => {
          body += d;
        });
        req.on("end", async () => {
          const up = await fetch(`${upstream}${req.url}`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body,
          });
          const text = (await up.text()).replace(/https?:\/\/127\.0\.0\.1:\d+\/[^"]*/g, `${local.origin}/pdf`);
          res.writeHead(up.status, { "content-type": "application/json" });
          res.end(text);
        });
      },
    );
    await new Promise<void>((r) => front.listen(0, "127.0.0.1", r));
    const port = (front.address() as AddressInfo).port;
    const u = freshUser("facturar-trust-");
    const env = {
      ...sandboxEnv(sandbox, u.env),
      FACTURAR_BASE_URL: `https://api.facturas.test:${port}/app/api/v2`,
      NODE_OPTIONS: `--require ${join(import.meta.dirname, "..", "fixtures", "resolve-facturas-test.cjs")}`,
      NODE_EXTRA_CA_CERTS: join(dir, "cert.pem"),
      FACTURAR_CODE_CACHE: "off",
    };
    try {
      const run = await runCli(["--json", "issue", join(ROOT, "samples", "factura-b-dni.json")], { cwd: u.cwd, env });
      expect(run.code, run.stderr).toBe(7);
      const voucher = JSON.parse(run.stdout.trim().split("\n")[0] as string);
      expect(voucher).toMatchObject({ status: "issued", pdf: null, documents_missing: true });
      expect(voucher.warnings.join(" ")).toMatch(/refusing a document link to 127\.0\.0\.1: loopback/);
      expect(local.bodies).toEqual([]);
    } finally {
      front.close();
      await sandbox.stop();
    }
  }, 60_000);
});
