/**
 * Profiles in-process: where each setting may come from (README "Configuration", "Security") and
 * which wins. The end-to-end tests (trust, secrets) show the same to a user; these pin each rule.
 */
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadProfile } from "../../src/config/profile.js";
import { freshUser, userConfig } from "../helpers.js";

const CREDS = { usertoken: "u-0123456789", apikey: "1234", apitoken: "a-0123456789" };

function setUp(config: unknown, folder?: unknown) {
  const u = freshUser("facturar-profile-");
  const path = userConfig(u.env, config);
  if (folder !== undefined) writeFileSync(join(u.cwd, ".facturarrc.json"), JSON.stringify(folder));
  const load = (more: { profile?: string; env?: Record<string, string> } = {}) =>
    loadProfile({
      env: { ...u.env, ...more.env },
      cwd: u.cwd,
      ...(more.profile ? { profile: more.profile } : {}),
    });
  return { u, path, load };
}

describe("which setting wins", () => {
  const config = {
    default_profile: "a",
    profiles: {
      a: { base_url: "https://a.example/app/api/v2", ...CREDS, punto_venta: 3, pdf_dir: "/pdfs/a" },
      b: { base_url: "https://b.example/app/api/v2", ...CREDS, punto_venta: 4 },
    },
  };

  it("the profile: --profile > FACTURAR_PROFILE > the folder's default > the user's default", async () => {
    const { load } = setUp(config, { default_profile: "b" });
    expect((await load()).name).toBe("b");
    expect((await load({ env: { FACTURAR_PROFILE: "a" } })).name).toBe("a");
    expect((await load({ profile: "sandbox", env: { FACTURAR_PROFILE: "a" } })).name).toBe("sandbox");
    expect((await setUp(config).load()).name).toBe("a");
  });

  it("the point of sale: FACTURAR_PUNTO_VENTA > the profile's", async () => {
    expect((await setUp(config).load()).puntoVenta).toBe(3);
    expect((await setUp(config).load({ env: { FACTURAR_PUNTO_VENTA: "9" } })).puntoVenta).toBe(9);
  });

  it("pdf_dir: the folder's, from the folder; else the profile's", async () => {
    const { u, load } = setUp(config, { profiles: { a: { pdf_dir: "./comprobantes" } } });
    expect((await load()).pdfDir).toBe(join(u.cwd, "comprobantes"));
    expect((await setUp(config).load()).pdfDir).toBe("/pdfs/a");
  });

  it("base_url and credentials only from the user's config or the environment", async () => {
    const { load } = setUp(config);
    const p = await load({ env: { FACTURAR_BASE_URL: "https://env.example/app/api/v2" } });
    expect(p.baseUrl).toBe("https://env.example/app/api/v2");
    expect(p.credentials).toEqual(CREDS);
  });
});

describe("a folder's config", () => {
  it.each([
    ["base_url", { profiles: { a: { base_url: "https://evil.example/app/api/v2" } } }],
    ["usertoken", { profiles: { a: { usertoken: { file: "~/.ssh/id_ed25519" } } } }],
    ["apikey", { profiles: { sandbox: { apikey: "1" } } }],
    ["production", { profiles: { a: { production: false } } }],
    ["rate_ms", { profiles: { a: { rate_ms: 0 } } }],
    ["unknown", { unknown: 1 }],
  ])("may not set %s", async (key, folder) => {
    const { u, load } = setUp({ profiles: { a: { base_url: "sandbox" } } }, folder);
    await expect(load()).rejects.toThrow(
      `refusing ${join(u.cwd, ".facturarrc.json")}: a config found from the working folder may not set ${key}`,
    );
  });

  it("may name the built-in sandbox, or a profile the user defines, and no other", async () => {
    expect((await setUp({}, { default_profile: "sandbox" }).load()).name).toBe("sandbox");
    await expect(setUp({}, { profiles: { x: { pdf_dir: "." } } }).load()).rejects.toThrow(
      /sets profile "x", which your configuration does not define/,
    );
  });
});

describe("whose files", () => {
  it("a user config that the group may write is refused, as one anyone may write", async () => {
    for (const mode of [0o620, 0o602, 0o660]) {
      const { path, load } = setUp({ profiles: {} });
      chmodSync(path, mode);
      await expect(load(), mode.toString(8)).rejects.toThrow(`refusing to use ${path}`);
    }
    const { path, load } = setUp({ profiles: {} });
    chmodSync(path, 0o644);
    await expect(load()).resolves.toMatchObject({ name: "sandbox" });
  });

  it("a config that runs code in the working folder is refused without running", async () => {
    const u = freshUser("facturar-profile-");
    mkdirSync(join(u.cwd, ".config"));
    const code = join(u.cwd, ".config", "facturarrc.cjs");
    writeFileSync(code, "globalThis.__facturarConfigRan = true; module.exports = {};");
    await expect(loadProfile({ env: u.env, cwd: u.cwd })).rejects.toThrow(`refusing to run ${code}`);
    expect((globalThis as Record<string, unknown>).__facturarConfigRan).toBeUndefined();
  });
});

describe("review of the trust model (each a hole found by trying it)", () => {
  it("a config in a folder others may write is refused, naming the folder: its file could be swapped between check and read", async () => {
    const u = freshUser("facturar-profile-");
    const shared = join(u.home, "compartida");
    mkdirSync(shared);
    chmodSync(shared, 0o777);
    const config = join(shared, "equipo.json");
    writeFileSync(config, JSON.stringify({ profiles: {} }));
    chmodSync(config, 0o600);
    await expect(loadProfile({ env: u.env, cwd: u.cwd, config })).rejects.toThrow(
      `refusing to use ${config}: others can write the folder ${shared}`,
    );
    // A folder anyone may write but only owners may rename in (sticky, as /tmp) is no danger.
    chmodSync(shared, 0o1777);
    await expect(loadProfile({ env: u.env, cwd: u.cwd, config })).resolves.toMatchObject({ name: "sandbox" });
    // A link to a config, itself in a folder others may write, is refused the same way.
    chmodSync(shared, 0o700);
    const open = join(u.home, "abierta");
    mkdirSync(open);
    chmodSync(open, 0o777);
    symlinkSync(config, join(open, "link.json"));
    await expect(loadProfile({ env: u.env, cwd: u.cwd, config: join(open, "link.json") })).rejects.toThrow(
      `others can write the folder ${open}`,
    );
  });

  it("a folder's config may not choose a production profile, nor set punto_venta; its pdf_dir stays inside the folder", async () => {
    const config = {
      profiles: {
        prod: { base_url: "https://a.example/app/api/v2", ...CREDS, production: true },
        test: { base_url: "sandbox" },
      },
    };
    await expect(setUp(config, { default_profile: "prod" }).load()).rejects.toThrow(
      /may not choose profile "prod", a production one: give --profile prod \(or FACTURAR_PROFILE\)/,
    );
    // Named by the user, the folder's pdf_dir still applies.
    const chosen = setUp(config, { profiles: { prod: { pdf_dir: "pdfs" } } });
    expect(await chosen.load({ profile: "prod" })).toMatchObject({ name: "prod", pdfDir: join(chosen.u.cwd, "pdfs") });
    await expect(setUp(config, { profiles: { test: { punto_venta: 680 } } }).load()).rejects.toThrow(
      /may not set punto_venta/,
    );
    for (const pdfDir of ["~/.ssh", "/tmp/afuera", "../afuera", "a/../../afuera"])
      await expect(setUp(config, { profiles: { test: { pdf_dir: pdfDir } } }).load(), pdfDir).rejects.toThrow(
        /pdf_dir must be a folder inside/,
      );
  });

  it("a folder's config does not rename or configure the profile a cron job builds from the environment", async () => {
    const u = freshUser("facturar-profile-");
    writeFileSync(
      join(u.cwd, ".facturarrc.json"),
      JSON.stringify({ default_profile: "sandbox", profiles: { sandbox: { pdf_dir: "x" } } }),
    );
    const env = {
      ...u.env,
      FACTURAR_BASE_URL: "https://real.example/app/api/v2",
      FACTURAR_USERTOKEN: CREDS.usertoken,
      FACTURAR_APIKEY: CREDS.apikey,
      FACTURAR_APITOKEN: CREDS.apitoken,
    };
    const p = await loadProfile({ env, cwd: u.cwd });
    expect(p).toMatchObject({ name: "default", baseUrl: "https://real.example/app/api/v2" });
    expect(p.pdfDir).toBeUndefined();
  });

  it("FACTURAR_CONFIG must be absolute (it applies in every folder); a relative HOME is no home", async () => {
    const u = freshUser("facturar-profile-");
    writeFileSync(join(u.cwd, "cfg.json"), JSON.stringify({ profiles: {} }));
    await expect(loadProfile({ env: { ...u.env, FACTURAR_CONFIG: "cfg.json" }, cwd: u.cwd })).rejects.toThrow(
      /FACTURAR_CONFIG must be an absolute path/,
    );
    mkdirSync(join(u.cwd, ".config", "facturar"), { recursive: true });
    writeFileSync(
      join(u.cwd, ".config", "facturar", "config.json"),
      JSON.stringify({
        default_profile: "x",
        profiles: { x: { base_url: "https://evil.example/app/api/v2", ...CREDS } },
      }),
    );
    const relative = { ...u.env, HOME: ".", XDG_CONFIG_HOME: "" };
    expect((await loadProfile({ env: relative, cwd: u.cwd })).baseUrl).not.toBe("https://evil.example/app/api/v2");
  });

  it("a config found by the search that is a link is refused, and no error quotes a config's contents", async () => {
    const u = freshUser("facturar-profile-");
    writeFileSync(join(u.home, ".git-credentials"), "https://octocat:ghp_SECRET0123456789@github.com\n");
    symlinkSync(join(u.home, ".git-credentials"), join(u.cwd, ".facturarrc.json"));
    const linked = await loadProfile({ env: u.env, cwd: u.cwd }).catch((e: Error) => e);
    expect(String(linked)).toMatch(
      /refusing .*\.facturarrc\.json: a config found from the working folder may not be a link/,
    );
    expect(String(linked)).not.toContain("ghp_SECRET");
    // The user's own config, broken: told where, never what it holds.
    const own = freshUser("facturar-profile-");
    const path = userConfig(own.env, {});
    writeFileSync(path, '{"profiles": {"p": {"apitoken": "tok-SECRET-99"}} oops');
    const broken = await loadProfile({ env: own.env, cwd: own.cwd }).catch((e: Error) => e);
    expect(String(broken)).toContain(path);
    expect(String(broken)).not.toContain("tok-SECRET");
  });

  it("names every object has are no profiles: constructor, toString", async () => {
    await expect(setUp({ profiles: {} }, { default_profile: "constructor" }).load()).rejects.toThrow(
      /which your configuration does not define/,
    );
    await expect(setUp({ profiles: {} }).load({ profile: "toString" })).rejects.toThrow(/no profile named "toString"/);
  });
});
