/** `facturar init`: by flags for scripts, and by prompts in a real (pseudo) terminal. */
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { freshUser, inTerminal, ndjson, ROOT, runCli } from "../helpers.js";

const ENTER = "\r";
const DOWN = "\u001b[B";

describe("facturar init", () => {
  it("writes a profile from flags, mode 0600, checks it, and the next commands use it", async () => {
    const u = freshUser("facturar-init-");
    const r = await runCli(["--json", "init", "--name", "dev", "--sandbox", "--pdf-dir", "pdfs", "--default"], {
      cwd: u.cwd,
      env: u.env,
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: true, profile: "dev", base_url: "sandbox", status: "OK" });
    const file = join(u.env.XDG_CONFIG_HOME, "facturar", "config.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({
      profiles: { dev: { base_url: "sandbox", pdf_dir: join(u.cwd, "pdfs") } },
      default_profile: "dev",
    });
    const issued = await runCli(["--json", "issue", join(ROOT, "samples", "factura-b-dni.json")], {
      cwd: u.cwd,
      env: u.env,
    });
    expect(ndjson(issued.stdout)[0].pdf).toMatch(/\/pdfs\/FACTURA_B-00679-00000001\.pdf$/);
    // A real service's profile needs its three credentials; without a terminal, init says which flags.
    const noCreds = await runCli(
      ["init", "--name", "prod", "--base-url", "https://api.example.com/app/api/v2", "--no-check"],
      { cwd: u.cwd, env: u.env },
    );
    expect(noCreds.code).toBe(2);
    expect(noCreds.stderr).toMatch(/--usertoken, --usertoken-env or --usertoken-file/);
    const withRefs = await runCli(
      [
        "init",
        "--name",
        "prod",
        "--base-url",
        "https://api.example.com/app/api/v2",
        "--usertoken-env",
        "PROD_USER",
        "--apikey",
        "123",
        "--apitoken-file",
        "~/.secrets/prod",
        "--punto-venta",
        "3",
        "--production",
        "--no-default",
        "--no-check",
      ],
      { cwd: u.cwd, env: u.env },
    );
    expect(withRefs.code).toBe(0);
    expect(withRefs.stderr).not.toMatch(/shows the secret/);
    // A secret given as a flag value is accepted, with a warning: it was visible in `ps`.
    const literal = await runCli(
      [
        "init",
        "--name",
        "flagged",
        "--base-url",
        "https://api.example.com/app/api/v2",
        "--usertoken",
        "u-0123456789",
        "--apikey",
        "123",
        "--apitoken",
        "a-0123456789",
        "--no-default",
        "--no-check",
      ],
      { cwd: u.cwd, env: u.env },
    );
    expect(literal.code).toBe(0);
    expect(literal.stderr).toMatch(/--usertoken VALUE shows the secret to every user of this machine/);
    expect(literal.stderr).toMatch(/--apitoken VALUE shows the secret/);
    expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({
      default_profile: "dev",
      profiles: {
        prod: {
          usertoken: { env: "PROD_USER" },
          apikey: "123",
          apitoken: { file: "~/.secrets/prod" },
          punto_venta: 3,
          production: true,
        },
      },
    });
    expect(
      (
        await runCli(["init", "--base-url", "http://api.example.com/app/api/v2", "--no-check"], {
          cwd: u.cwd,
          env: u.env,
        })
      ).code,
    ).toBe(2);
  });

  it("ends saying the next step, the first voucher, whose commands run as told", async () => {
    const u = freshUser("facturar-init-next-");
    const r = await runCli(["init", "--name", "dev", "--sandbox", "--default"], { cwd: u.cwd, env: u.env });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      'next step: `facturar issue --interactive` asks for a voucher, shows its totals and issues it; or `facturar template "FACTURA B" > factura.json` writes one to fill in, then `facturar issue factura.json`',
    );
    // A profile that is not the default names itself; unchecked, the step is told all the same; in Spanish too.
    const other = await runCli(["--lang", "es", "init", "--name", "pv3", "--sandbox", "--no-default", "--no-check"], {
      cwd: u.cwd,
      env: u.env,
    });
    expect(other.code).toBe(0);
    expect(other.stderr).toContain(
      "siguiente paso: `facturar --profile pv3 issue --interactive` te pide un comprobante",
    );
    expect(other.stderr).toContain("`facturar --profile pv3 issue factura.json`");
    // The template's file, filled in, is what `issue` takes (its CUIT and items are examples already).
    const template = await runCli(["template", "FACTURA B"], { cwd: u.cwd, env: u.env });
    expect(template.code).toBe(0);
    writeFileSync(join(u.cwd, "factura.json"), template.stdout);
    expect((await runCli(["issue", "factura.json"], { cwd: u.cwd, env: u.env })).code).toBe(0);
  });

  it("asks on a terminal: name, service, credentials hidden, and checks the result", async () => {
    const u = freshUser("facturar-init-tty-");
    const env = { ...process.env, ...u.env, CI: "" };
    const screen = await inTerminal(["init"], { cwd: u.cwd, env }, [
      [/Profile name/, `mi-perfil${ENTER}`],
      [/Which service\?/, ENTER],
      [/Folder for PDFs/, ENTER],
      [/Use mi-perfil by default\?/, `y${ENTER}`],
    ]);
    expect(screen).toMatch(/wrote profile mi-perfil to .*config\.json \(the default profile\)/);
    expect(screen).toMatch(/✔ mi-perfil: embedded sandbox answers, invoicing OK/);
    expect(screen).toMatch(/EXIT=0/);
    // Enter at the PDF folder writes none: each run saves into ./comprobantes where it runs.
    const written = JSON.parse(readFileSync(join(u.env.XDG_CONFIG_HOME, "facturar", "config.json"), "utf8"));
    expect(written.profiles["mi-perfil"]).not.toHaveProperty("pdf_dir");

    const secret = "s3cr3t-typed-not-shown";
    const hosted = await inTerminal(["init", "--name", "remoto", "--no-check", "--no-default"], { cwd: u.cwd, env }, [
      [/Which service\?/, `${DOWN}${ENTER}`],
      [/Base URL of the API/, ENTER],
      [/How should usertoken be kept\?/, ENTER],
      [/Value of usertoken/, `${secret}${ENTER}`],
      [/How should apikey be kept\?/, `${DOWN}${ENTER}`],
      [/Variable holding apikey/, ENTER],
      [/How should apitoken be kept\?/, `${DOWN}${DOWN}${ENTER}`],
      [/File holding apitoken/, ENTER],
      [/Point of sale/, `3${ENTER}`],
      [/Folder for PDFs/, ENTER],
      [/Is this production/, `y${ENTER}`],
    ]);
    expect(hosted).toMatch(/EXIT=0/);
    expect(hosted).not.toContain(secret);
    const config = JSON.parse(readFileSync(join(u.env.XDG_CONFIG_HOME, "facturar", "config.json"), "utf8"));
    expect(config.default_profile).toBe("mi-perfil");
    expect(config.profiles.remoto).toMatchObject({
      base_url: "https://www.tusfacturas.app/app/api/v2",
      usertoken: secret,
      apikey: { env: "FACTURAR_REMOTO_APIKEY" },
      apitoken: { file: "~/.secrets/remoto-apitoken" },
      punto_venta: 3,
      production: true,
    });
  });
});
