/** The sandbox's webhook setting (src/sandbox/webhooks.ts) and the fault that makes it matter. */
import { describe, expect, it } from "vitest";
import { LIKE_PRODUCTION, parseFaults } from "../../src/sandbox/faults.js";
import { parseWebhooks, WebhookSpecError, webhookOf } from "../../src/sandbox/webhooks.js";

describe("the points of sale's webhook URLs", () => {
  it("one for every point of sale, one for a point of sale, or none", () => {
    const set = parseWebhooks(["https://a.example/all", "680=https://b.example/680 , "]);
    expect(webhookOf(set, 680)).toBe("https://b.example/680");
    expect(webhookOf(set, 679)).toBe("https://a.example/all");
    expect(webhookOf(parseWebhooks(["679=http://127.0.0.1:9/h"]), 680)).toBeUndefined();
    expect(webhookOf(parseWebhooks([""]), 679)).toBeUndefined();
  });

  it("refuses what the service's field would not take: another scheme, no URL, over 255 characters", () => {
    for (const bad of ["ftp://a.example/x", "679=", "example.com/hook", `https://a.example/${"x".repeat(250)}`])
      expect(() => parseWebhooks([bad]), bad).toThrow(WebhookSpecError);
  });

  it("--like-production refuses queued calls without one; webhook-required is a fault of its own", () => {
    expect(parseFaults([LIKE_PRODUCTION]).webhookRequired).toBe(true);
    expect(parseFaults(["webhook-required"]).webhookRequired).toBe(true);
    expect(parseFaults([LIKE_PRODUCTION, "webhook-required=off"]).webhookRequired).toBe(false);
    expect(parseFaults([]).webhookRequired).toBe(false);
    // A name every object has is no fault's.
    expect(() => parseFaults(["toString=0.5"])).toThrow(/unknown fault "toString"/);
  });
});
