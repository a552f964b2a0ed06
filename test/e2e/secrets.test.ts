/**
 * Credentials: they travel in the request body and nowhere else. Nothing the tool prints or
 * writes holds them (stdout, stderr, --verbose logs, the report, the journal, the ceiling cache,
 * document names); a config file with a literal secret that others can read draws a warning;
 * plain http is refused anywhere but loopback, before anything connects.
 */
import {
  appendFileSync,
  chmodSync,
  chownSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { freshUser, journalStates, ndjson, ROOT, runCli, tempDir, userConfig } from "../helpers.js";
import { startSandboxProcess } from "../sandbox-process.js";

/** Every file under a folder, as text, with its name. */
function everything(dir: string): string {
  let text = "";
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name);
    text += `${path}\n`;
    if (entry.isFile() && statSync(path).size < 5_000_000) text += readFileSync(path, "latin1");
  }
  return text;
}

describe("secrets", () => {
  it("never appear in output, --verbose logs, reports, the journal or file names, even through faults", async () => {
    const sbx = await startSandboxProcess({
      args: ["--fault", "drop-after-commit=0.2", "--fault", "error5xx=0.2", "--fault", "ratelimit=0.05"],
    });
    const pv = sbx.pointsOfSale[0] as NonNullable<(typeof sbx.pointsOfSale)[number]>;
    const u = freshUser("facturar-secrets-");
    const env: Record<string, string> = {
      ...u.env,
      FACTURAR_BASE_URL: sbx.baseUrl,
      FACTURAR_USERTOKEN: pv.usertoken,
      FACTURAR_APIKEY: pv.apikey,
      FACTURAR_APITOKEN: pv.apitoken,
      // This sandbox stores before it answers: a lookup soon after a lost answer is final.
      FACTURAR_SETTLE_WINDOW: "0.5",
    };
    // Without a point of sale the service would refuse every voucher: refused here, nothing sent.
    const noPoint = await runCli(["issue", join(ROOT, "samples", "batch-nightly.csv")], { cwd: u.cwd, env });
    expect(noPoint.code).toBe(2);
    expect(noPoint.stderr).toMatch(/no point of sale: the voucher names none and profile default has no punto_venta/);
    expect(noPoint.stderr).toMatch(/FACTURAR_PUNTO_VENTA/);
    env.FACTURAR_PUNTO_VENTA = String(pv.punto_venta);
    const run = (args: string[], more: Record<string, string> = {}) =>
      runCli(args, { cwd: u.cwd, env: { ...env, ...more } });
    const csv = join(ROOT, "samples", "batch-nightly.csv");
    const faulty = await run(["--verbose", "issue", "--report", "report.csv", "--out", "pdfs", csv]);
    expect(faulty.stderr).toMatch(/POST http:\/\/127\.0\.0\.1:\d+\/app\/api\/v2\/facturacion\/(nuevo|lotes)/);
    // Through the faults a voucher that met three in a row ends not issued, or unknown when the
    // service could not even be asked; a document may be missing. The exit code says which.
    const statuses = readFileSync(join(u.cwd, "report.csv"), "utf8")
      .trim()
      .split("\n")
      .slice(1)
      .map((line) => line.split(",")[2]);
    expect(statuses.length).toBeGreaterThan(10);
    if (statuses.includes("unknown")) expect(faulty.code).toBe(8);
    // A service that kept failing stopped the run (the rest held, told "stopped:"): exit 6 says so.
    else if (/stopped:/.test(faulty.stderr)) expect(faulty.code).toBe(6);
    else if (statuses.every((s) => s === "issued")) expect([0, 7]).toContain(faulty.code);
    else expect(faulty.code).toBe(7);
    // The same service without faults (same data, same address): from here every exit code is known.
    const port = new URL(sbx.baseUrl).port;
    await sbx.stop();
    const calm = await startSandboxProcess({ dataDir: sbx.dataDir, args: ["--port", port] });
    // One voucher the journal holds as unknown: `journal --reconcile` must ask the service about it.
    const [journalFile] = readdirSync(join(u.home, "state", "facturar")).filter((f) => f.endsWith(".jsonl"));
    const unknown = { ref: "LOTE-20261120-001", state: "unknown", mode: "instant", at: new Date().toISOString() };
    appendFileSync(join(u.home, "state", "facturar", journalFile as string), `${JSON.stringify(unknown)}\n`);
    const results = [
      faulty,
      await run(["--verbose", "journal", "--reconcile"]),
      await run(["--verbose", "--json", "issue", "--report", "again.csv", csv]),
      await run(["--verbose", "--json", "query", "--ref", "LOTE-20261120-001"]),
      await run(["--verbose", "ceiling"]),
      await run(["--verbose", "status"], { FACTURAR_APITOKEN: "not-the-token-0123456789" }),
    ];
    await calm.stop();
    expect(results.map((r) => r.code)).toEqual([faulty.code, 0, 0, 0, 0, 5]);
    // The reconcile asked, and the unknown voucher is issued in the journal now.
    expect(results[1]?.stderr).toMatch(/POST \S+\/facturacion\/consulta_avanzada/);
    expect(journalStates(u.env.XDG_STATE_HOME).get("LOTE-20261120-001")).toBe("issued");
    expect(ndjson(results[2]?.stdout ?? "").every((r) => ["issued", "skipped-duplicate"].includes(r.status))).toBe(
      true,
    );
    expect(ndjson(results[3]?.stdout ?? "")[0]).toMatchObject({ external_reference: "LOTE-20261120-001" });

    const printed = results.map((r) => `${r.stdout}\n${r.stderr}`).join("\n");
    // The user's whole home: the work folder (report, PDFs), the journal, the ceiling cache.
    const written = everything(u.home);
    expect(written).toMatch(/journal-[0-9a-f]{20}\.jsonl/);
    expect(written).toMatch(/report\.csv/);
    for (const secret of [pv.usertoken, pv.apitoken, "not-the-token-0123456789"]) {
      expect(printed).not.toContain(secret);
      expect(written).not.toContain(secret);
    }
    // The apikey is five digits, which amounts and numbers may contain by chance: never beside its name.
    const apikeyShown = new RegExp(`apikey\\W{0,6}${pv.apikey}`);
    expect(printed).not.toMatch(apikeyShown);
    expect(written).not.toMatch(apikeyShown);
    // What --verbose shows of a request instead.
    expect(printed).toMatch(/"usertoken":"\*\*\*","apikey":"\*\*\*","apitoken":"\*\*\*"/);
  }, 120_000);

  it("a config with literal secrets others can read draws a warning; mode 0600 or references do not", async () => {
    const sbx = await startSandboxProcess();
    const pv = sbx.pointsOfSale[0] as NonNullable<(typeof sbx.pointsOfSale)[number]>;
    const u = freshUser("facturar-secrets-");
    let config = "";
    const profile = (credentials: Record<string, unknown>) => {
      config = userConfig(u.env, { default_profile: "p", profiles: { p: { base_url: sbx.baseUrl, ...credentials } } });
    };
    const status = () => runCli(["status"], { cwd: u.cwd, env: { ...u.env, APITOKEN: pv.apitoken } });

    profile({ usertoken: pv.usertoken, apikey: pv.apikey, apitoken: { env: "APITOKEN" } });
    chmodSync(config, 0o644);
    const readable = await status();
    expect(readable.code).toBe(0);
    expect(readable.stderr).toMatch(
      /holds literal credentials \(usertoken, apikey\) and other users can read it: chmod 600/,
    );
    expect(readable.stderr).not.toContain(pv.usertoken);

    chmodSync(config, 0o600);
    expect((await status()).stderr).not.toMatch(/literal credentials/);

    writeFileSync(join(u.home, "usertoken"), pv.usertoken);
    profile({ usertoken: { file: "~/usertoken" }, apikey: { env: "APIKEY" }, apitoken: { env: "APITOKEN" } });
    chmodSync(config, 0o644);
    const references = await runCli(["status"], {
      cwd: u.cwd,
      env: { ...u.env, APITOKEN: pv.apitoken, APIKEY: pv.apikey },
    });
    expect(references.code).toBe(0);
    expect(references.stderr).not.toMatch(/literal credentials/);
    await sbx.stop();
  }, 60_000);

  it("a config in a folder above, outside home and outside the project, is not read; one that runs code must be the user's own", async () => {
    const shared = tempDir("facturar-shared-");
    const u = freshUser("facturar-cfg-");
    const elsewhere = { ...u.env, FACTURAR_RETRY_BACKOFF: "0.01" };
    // Someone else's config in a shared folder, choosing a profile.
    writeFileSync(join(shared, ".facturarrc.json"), JSON.stringify({ default_profile: "p" }));
    mkdirSync(join(shared, "sub"));
    const below = await runCli(["--json", "status"], { cwd: join(shared, "sub"), env: elsewhere });
    expect(below.code, below.stderr).toBe(0);
    expect(JSON.parse(below.stdout)).toMatchObject({ profile: "sandbox", sandbox: true });
    // Inside a project (a package.json above), the project's config is found from its subfolders.
    writeFileSync(join(shared, "package.json"), "{}");
    const inProject = await runCli(["status"], { cwd: join(shared, "sub"), env: elsewhere });
    expect(inProject.code).toBe(2);
    expect(inProject.stderr).toMatch(/sets profile "p", which your configuration does not define/);
    // A config that runs code, in the user's config folder but owned by another user: refused before it runs.
    const code = join(u.env.XDG_CONFIG_HOME, "facturar", "config.mjs");
    mkdirSync(dirname(code), { recursive: true });
    writeFileSync(code, 'console.error("CODE RAN"); export default { profiles: {} };');
    chownSync(code, 12345, 12345);
    const foreign = await runCli(["status"], { cwd: u.cwd, env: elsewhere });
    expect(foreign.code).toBe(2);
    expect(foreign.stderr).toMatch(/refusing to run .*config\.mjs: another user owns it or can write it/);
    expect(foreign.stderr).not.toMatch(/CODE RAN/);
    // The same config, the user's own and writable by nobody else: it runs, and its profile is used.
    chownSync(code, process.getuid?.() ?? 0, process.getgid?.() ?? 0);
    chmodSync(code, 0o600);
    writeFileSync(
      code,
      'console.error("CODE RAN"); export default { default_profile: "mine", profiles: { mine: { base_url: "sandbox" } } };',
    );
    const own = await runCli(["--json", "status"], { cwd: u.cwd, env: elsewhere });
    expect(own.code, own.stdout).toBe(0);
    expect(own.stderr).toMatch(/CODE RAN/);
    expect(JSON.parse(own.stdout)).toMatchObject({ profile: "mine", sandbox: true });
    // Named exports only: refused, never read as an empty configuration (the sandbox instead).
    writeFileSync(code, 'export const profiles = { mine: { base_url: "https://127.0.0.1:9/app/api/v2" } };');
    const named = await runCli(["status"], { cwd: u.cwd, env: elsewhere });
    expect(named.code).toBe(2);
    expect(named.stderr).toMatch(/config\.mjs has no default export: write export default \{ profiles: … \}/);
    writeFileSync(code, "await 0; export default { profiles: {} };");
    const awaiting = await runCli(["status"], { cwd: u.cwd, env: elsewhere });
    expect(awaiting.code).toBe(2);
    expect(awaiting.stderr).toMatch(/config\.mjs uses top-level await, which a configuration file cannot/);
  });

  it("a config file another user owns or can write is refused, whatever its format; HOME=/ is no home", async () => {
    const shared = tempDir("facturar-planted-");
    const u = freshUser("facturar-cfg-");
    const creds = { FACTURAR_USERTOKEN: "u-0123456789", FACTURAR_APIKEY: "12345", FACTURAR_APITOKEN: "a-0123456789" };
    const evil = { default_profile: "evil", profiles: { evil: { base_url: "http://127.0.0.1:9/app/api/v2" } } };
    mkdirSync(join(shared, "job"));
    // A package.json planted in a shared folder, world-writable and someone else's.
    const pkg = join(shared, "package.json");
    writeFileSync(pkg, JSON.stringify({ name: "x", facturar: evil }));
    chownSync(pkg, 65534, 65534);
    chmodSync(pkg, 0o666);
    const planted = await runCli(["status"], { cwd: join(shared, "job"), env: { ...u.env, ...creds } });
    expect(planted.code, planted.stderr).toBe(2);
    expect(planted.stderr).toContain(`refusing to use ${pkg}: another user owns it or others can write it`);
    // Owned by this user but writable by others: refused too.
    chownSync(pkg, process.getuid?.() ?? 0, process.getgid?.() ?? 0);
    const writable = await runCli(["status"], { cwd: join(shared, "job"), env: { ...u.env, ...creds } });
    expect(writable.code).toBe(2);
    expect(writable.stderr).toContain(`refusing to use ${pkg}`);
    // A package.json of someone else's that holds no facturar settings is not a config: no refusal.
    writeFileSync(pkg, "{}");
    chownSync(pkg, 65534, 65534);
    const unrelated = await runCli(["--json", "status"], { cwd: join(shared, "job"), env: u.env });
    expect(unrelated.code, unrelated.stderr).toBe(0);
    expect(JSON.parse(unrelated.stdout)).toMatchObject({ profile: "sandbox" });
    // The same in the user's config folder, as an rc file with no extension.
    const rc = join(u.cwd, ".facturarrc");
    writeFileSync(rc, JSON.stringify(evil));
    chmodSync(rc, 0o646);
    const rcWritable = await runCli(["status"], { cwd: u.cwd, env: { ...u.env, ...creds } });
    expect(rcWritable.code).toBe(2);
    expect(rcWritable.stderr).toContain(`refusing to use ${rc}`);
    // HOME=/ (cron, systemd, docker): every folder is not "inside home", so a config above the
    // working directory (and outside any project) is not read.
    const noHome = tempDir("facturar-nohome-");
    mkdirSync(join(noHome, "job"));
    writeFileSync(join(noHome, ".facturarrc.json"), JSON.stringify(evil));
    chmodSync(join(noHome, ".facturarrc.json"), 0o600);
    for (const home of ["/", ""]) {
      const cron = await runCli(["--json", "status"], { cwd: join(noHome, "job"), env: { ...u.env, HOME: home } });
      expect(cron.code, cron.stderr).toBe(0);
      expect(JSON.parse(cron.stdout)).toMatchObject({ profile: "sandbox", sandbox: true });
    }
  });

  it("refuses plain http off loopback from a profile, the environment or init, before connecting", async () => {
    const u = freshUser("facturar-secrets-");
    const creds = { FACTURAR_USERTOKEN: "u-0123456789", FACTURAR_APIKEY: "12345", FACTURAR_APITOKEN: "a-0123456789" };
    for (const url of [
      "http://example.com/app/api/v2",
      "http://10.0.0.1/app/api/v2",
      "http://127.0.0.1.nip.io/app/api/v2",
    ]) {
      // Refused before connecting: exit 2 with the policy's words (a failed connection is exit 6).
      const fromEnv = await runCli(["status"], { cwd: u.cwd, env: { ...u.env, ...creds, FACTURAR_BASE_URL: url } });
      expect(fromEnv.code).toBe(2);
      expect(fromEnv.stderr).toMatch(/only https is allowed \(plain http only to loopback\)/);
      expect(fromEnv.stderr).not.toContain("0123456789");
    }
    userConfig(u.env, {
      profiles: {
        lan: { base_url: "http://192.168.1.10/app/api/v2", usertoken: "u-1", apikey: "1", apitoken: "a-1" },
      },
    });
    expect((await runCli(["--profile", "lan", "status"], { cwd: u.cwd, env: u.env })).code).toBe(2);
    const init = await runCli(["init", "--name", "x", "--base-url", "http://example.com/app/api/v2", "--no-check"], {
      cwd: u.cwd,
      env: u.env,
    });
    expect(init.code).toBe(2);
    expect(init.stderr).toMatch(/refusing http:\/\/example\.com/);
  });
});
