/**
 * `facturar journal` over a journal someone edited by hand: an `errors` that is not a list, or
 * holds what is not a message as the CLI writes them (a number for a template, a figure without
 * its digits, 5 000 levels of nesting, a message that would say terabytes). Every entry is still
 * listed, each such error quoted as the file holds it, in both languages and under --json.
 */
import { describe, expect, it } from "vitest";
import { ndjson, SPANISH, userWithJournal } from "../helpers.js";

describe("a journal edited by hand", () => {
  it("quotes a hand-edited or malformed message in the journal, and still lists every entry", async () => {
    const u = await userWithJournal("facturar-words-malformed-");
    const at = "2026-11-20T10:00:00.000Z";
    const rejected = (ref: string, errors: unknown) =>
      JSON.stringify({ ref, state: "rejected", mode: "instant", errors, at });
    // 5 000 messages deep, and one that says "{a}" forty times at each of seven levels (40^7 copies).
    let deep = '{"template":"leaf"}';
    for (let i = 0; i < 5000; i++) deep = `{"template":"{a}","params":{"a":${deep}}}`;
    let bomb: unknown = { template: "xxxxxxxxxx" };
    for (let i = 0; i < 7; i++) bomb = { template: "{a}".repeat(40), params: { a: bomb } };
    u.append(
      rejected("BAD-NUMBER", [{ template: 5 }]),
      rejected("BAD-PARAMS", [{ template: 5, params: {} }]),
      rejected("BAD-NESTED", [{ template: "x {a}", params: { a: { template: [] } } }]),
      rejected("BAD-FIGURE", [{ template: "f {a}", params: { a: { figure: "amount" } } }]),
      rejected("BAD-NULL", [null, 7]),
      rejected("BAD-STRING", "not an array"),
      rejected("BOMB", [bomb]),
      `{"ref":"DEEP","state":"rejected","mode":"instant","errors":[${deep}],"at":"${at}"}`,
      // A zod issue zod's Spanish cannot say (its keys are no list): its English words.
      rejected("BAD-ZOD", [
        { template: "unrecognized key", verbatim: true, zod: { code: "unrecognized_keys", keys: 5 } },
      ]),
      // One as the CLI writes it, beside them: still said in the reader's language.
      rejected("GOOD", [{ template: "not at the service" }]),
    );
    const refs = [
      "BAD-NUMBER",
      "BAD-PARAMS",
      "BAD-NESTED",
      "BAD-FIGURE",
      "BAD-NULL",
      "BAD-STRING",
      "BOMB",
      "DEEP",
      "BAD-ZOD",
      "GOOD",
    ];

    for (const env of [{}, SPANISH]) {
      const human = await u.run(["journal"], env);
      expect(human.code, human.stderr).toBe(0);
      for (const ref of refs) expect(human.stdout).toContain(ref);
      expect(human.stdout).not.toMatch(/\[object Object\]|undefined/);
      expect(human.stdout).toMatch(
        env === SPANISH ? /no se muestra: anidado demasiado hondo/ : /not shown: nested too deeply/,
      );
      // Each error on one line of its own, quoted as the file holds it.
      expect(human.stdout).toContain('{"template":5}');
      expect(human.stdout).toContain("not an array");
      expect(human.stdout.length).toBeLessThan(200_000);

      const json = await u.run(["--json", "journal"], env);
      expect(json.code, json.stderr).toBe(0);
      const entries = ndjson(json.stdout);
      for (const ref of refs) {
        const entry = entries.find((e) => e.external_reference === ref);
        expect(entry, ref).toBeDefined();
        for (const error of entry.errors) expect(typeof error, ref).toBe("string");
        for (const detail of entry.error_details) expect(typeof detail.text, ref).toBe("string");
      }
      expect(entries.find((e) => e.external_reference === "BAD-NUMBER").errors).toEqual(['{"template":5}']);
      expect(entries.find((e) => e.external_reference === "BAD-STRING").errors).toEqual(["not an array"]);
      expect(entries.find((e) => e.external_reference === "BAD-ZOD").errors).toEqual(["unrecognized key"]);
      expect(entries.find((e) => e.external_reference === "GOOD").errors).toEqual([
        env === SPANISH ? "no está en el servicio" : "not at the service",
      ]);
    }
  }, 60_000);
});

describe("a journal line holding control characters", () => {
  it("shows them written out, as every other place quoting a file does: the terminal obeys none", async () => {
    const u = await userWithJournal("facturar-words-escapes-");
    const esc = "\u001b]0;pwned\u0007\u001b[2J";
    u.append(
      JSON.stringify({
        ref: `R-${esc}`,
        state: "rejected",
        mode: "instant",
        source: `a${esc}.json`,
        errors: [`bad ${esc}`, { template: "file {file}", params: { file: esc } }],
        at: "2026-11-20T10:00:00.000Z",
      }),
    );
    const human = await u.run(["journal"]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).not.toContain("\u001b");
    expect(human.stdout).not.toContain("\u0007");
    expect(human.stdout).toContain("R-\\x1b]0;pwned\\x07\\x1b[2J");
    expect(human.stdout).toContain("a\\x1b]0;pwned");
    expect(human.stdout).toContain("bad \\x1b]0;pwned");
    expect(human.stdout).toContain("file \\x1b]0;pwned");
  });
});
