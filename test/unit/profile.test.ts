/**
 * Profiles in-process: where each setting may come from (README "Configuration", "Security") and
 * which wins. The end-to-end tests (trust, secrets) show the same to a user; these pin each rule.
 */
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
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

  it("the point of sale: FACTURAR_PUNTO_VENTA > the folder's > the profile's", async () => {
    const { load } = setUp(config, { profiles: { a: { punto_venta: 7 } } });
    expect((await load()).puntoVenta).toBe(7);
    expect((await load({ env: { FACTURAR_PUNTO_VENTA: "9" } })).puntoVenta).toBe(9);
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
