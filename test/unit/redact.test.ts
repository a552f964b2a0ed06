/** How the service's texts are cleaned of the profile's credentials (src/api/redact.ts). */
import { describe, expect, it } from "vitest";
import { shownLocation } from "../../src/api/http.js";
import { cleanAnswer, cleanText, printable } from "../../src/api/redact.js";

const CREDENTIALS = {
  usertoken: "d7abea89fd07a9c0843c79d70dc89713",
  apikey: "81902",
  apitoken: "65e68fc7e09fea96cdffcb901fc6877c",
};

describe("redaction of the service's texts", () => {
  it("cuts tokens in any case, their pieces of 8 or more, and the apikey beside any spelling of its name", () => {
    const { usertoken: u, apitoken: a, apikey: k } = CREDENTIALS;
    const answer = cleanAnswer(
      {
        errores: [
          `token ${u.toUpperCase()}`,
          `partido ${u.slice(0, 12)}`,
          `${u.slice(12)} fin`,
          `${a.slice(0, 20)}\n${a.slice(20)}`,
        ],
        names: `api_key=${k}; "apikey":"${k}"; APIKEY:${k}; api-key ${k}; API KEY ${k}; Api.Key ${k}`,
      },
      CREDENTIALS,
    ) as { errores: string[]; names: string };
    expect(answer.errores).toEqual(["token ***", "partido ***", "*** fin", "***\n***"]);
    expect(answer.names).toBe('api_key=***; "apikey":"***"; APIKEY:***; api-key ***; API KEY ***; Api.Key ***');
  });

  it("cuts a token the service echoes as a key, at any depth, and a short token too", () => {
    const { usertoken: u, apitoken: a } = CREDENTIALS;
    const answer = cleanAnswer(
      { [u]: "valor", errores: [{ [`campo ${a.toUpperCase()}`]: 1 }], nested: { deep: { [a.slice(4, 20)]: true } } },
      CREDENTIALS,
    );
    expect(JSON.stringify(answer)).not.toMatch(new RegExp(`${u.slice(0, 8)}|${a.slice(4, 12)}`, "i"));
    expect(answer).toEqual({ "***": "valor", errores: [{ "campo ***": 1 }], nested: { deep: { "***": true } } });
    // A token shorter than the 8-character pieces is still cut whole.
    const short = { usertoken: "tok-123", apikey: "99", apitoken: "abcdefghij-short" };
    expect(cleanAnswer({ errores: ["usertoken tok-123 inválido"], [short.apitoken]: 0 }, short)).toEqual({
      errores: ["usertoken *** inválido"],
      "***": 0,
    });
  });

  it("leaves ordinary texts, numbers and the apikey's digits elsewhere alone", () => {
    const record = {
      cae: "76451234567890",
      numero: "00679-00000074",
      total: "81902.00",
      razon_social: "Distribuidora d7abe S.A.",
      detalle: "Yerba 1 kg, 819021 unidades",
    };
    expect(cleanAnswer(structuredClone(record), CREDENTIALS)).toEqual(record);
  });

  it("cleans a transport's text: control and direction characters out first, then the credentials", () => {
    const split = `${CREDENTIALS.usertoken.slice(0, 10)}\u001b[0m\u202e${CREDENTIALS.usertoken.slice(10)}`;
    expect(cleanText(`redirect to https://x/${split}`, CREDENTIALS)).toBe("redirect to https://x/***");
    expect(printable("a\u2066b\u200fc\u061cd")).toBe("abcd");
  });
});

describe("a redirect's target as it is told", () => {
  const from = new URL("https://api.example.test/app/api/v2/facturacion/nuevo");
  it("shows where it leads without its query or fragment, which may carry secrets", () => {
    expect(shownLocation(from, "https://other.example.test/login?token=abc#x")).toBe(
      "https://other.example.test/login?…",
    );
    expect(shownLocation(from, "/app/api/v3/facturacion/nuevo")).toBe(
      "https://api.example.test/app/api/v3/facturacion/nuevo",
    );
  });
  it("shows ? for none, or for a target that is no URL", () => {
    expect(shownLocation(from, undefined)).toBe("?");
    expect(shownLocation(from, "http://[::1")).toBe("?");
  });
});
