/**
 * The core's words in the reader's language, end to end (#27): what the built CLI says under
 * LANG=es_AR.UTF-8 and LANG=C when the words come from an environment variable, from the journal
 * written under another language, or from a journal line someone edited by hand.
 */
import { describe, expect, it } from "vitest";
import { currentBoot } from "../../src/durable/lock.js";
import { freshUser, inTerminal, ndjson, runCli, SPANISH, userConfig, userWithJournal } from "../helpers.js";

const ENTER = "\r";
const DOWN = "\u001b[B";

describe("the core's words where the reader reads them", () => {
  it("says a bad FACTURAR_SANDBOX_FAULTS in Spanish under a Spanish locale", async () => {
    const u = freshUser("facturar-words-faults-");
    const bad = await runCli(["status"], {
      cwd: u.cwd,
      env: { ...u.env, ...SPANISH, FACTURAR_SANDBOX_FAULTS: "bogus=1" },
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('FACTURAR_SANDBOX_FAULTS: falla desconocida "bogus"');
    const english = await runCli(["status"], {
      cwd: u.cwd,
      env: { ...u.env, FACTURAR_SANDBOX_FAULTS: "latency=abc" },
    });
    expect(english.stderr).toContain(
      'FACTURAR_SANDBOX_FAULTS: latency takes whole milliseconds, e.g. latency=200; got "latency=abc"',
    );
  });

  it("keeps what journal --reconcile found as data: written under Spanish, read in English", async () => {
    const u = await userWithJournal("facturar-words-reconcile-");
    // Sent long ago in this boot, and never stored: the service has nothing under it.
    u.append(
      JSON.stringify({
        ref: "LOST-1",
        state: "unknown",
        mode: "instant",
        tipo: "FACTURA B",
        punto_venta: 679,
        sent_mono: 0,
        boot: currentBoot(),
        at: "2026-11-20T10:00:00.000Z",
      }),
    );
    const reconciled = await u.run(["journal", "--reconcile"], SPANISH);
    expect(reconciled.code, reconciled.stderr).toBe(0);
    expect(reconciled.stdout).toMatch(/retenido\s+LOST-1/);
    const read = await u.run(["--json", "journal", "--ref", "LOST-1"]);
    expect(ndjson(read.stdout)[0]).toMatchObject({ status: "held", errors: ["not at the service"] });
    const spanish = await u.run(["--json", "journal", "--ref", "LOST-1"], SPANISH);
    expect(ndjson(spanish.stdout)[0]).toMatchObject({ errors: ["no está en el servicio"] });
  });

  it("says why init refuses a base URL, as it is typed, in Spanish under a Spanish locale", async () => {
    const u = freshUser("facturar-words-init-");
    const env = { ...process.env, ...u.env, ...SPANISH, CI: "" };
    const screen = await inTerminal(["init", "--name", "remoto", "--no-check"], { cwd: u.cwd, env }, [
      [/¿Qué servicio\?/, `${DOWN}${ENTER}`],
      [/URL base de la API/, `http://example.com${ENTER}`],
      // The refusal, in whichever language it comes: then the user gives up.
      [/se rechaza http|refusing http/, "\u0003"],
    ]);
    expect(screen).toMatch(/se rechaza http:\/\/example\.com: las credenciales viajan en el cuerpo/);
    expect(screen).not.toMatch(/refusing http/);
  });

  it("says what is wrong in the configuration file in the reader's language, zod's own words included", async () => {
    const u = freshUser("facturar-words-config-");
    userConfig(u.env, { default_profile: "x", profiles: { x: { base_url: 5 } } });
    const spanish = await runCli(["status"], { cwd: u.cwd, env: { ...u.env, ...SPANISH } });
    expect(spanish.code).toBe(2);
    expect(spanish.stderr).toMatch(
      /config\.json: profiles\.x\.base_url: Entrada inválida: se esperaba texto, recibido número/,
    );
    const english = await runCli(["status"], { cwd: u.cwd, env: u.env });
    expect(english.stderr).toMatch(
      /config\.json: profiles\.x\.base_url: Invalid input: expected string, received number/,
    );
  });
});
