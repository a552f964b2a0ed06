/**
 * A test compares the core's messages (src/i18n/message.ts) with the words a reader gets from
 * them, in the current language: `expect(finding.message).toBe("row 4")` where the core holds
 * `msg("row {row}", { row: 4 })`. Deep equality, `toBe`, `toMatch`, `toContain` and
 * `expect.stringMatching` say a message first when it meets a string or a pattern; two messages
 * still compare as data. Only the messages facturar made (isOurs): an object parsed from the
 * CLI's output or a file that merely looks like one ({"template": …} where a script expects
 * words) stays an object, and fails against the words it should have been.
 */
import { StringContaining, StringMatching } from "@vitest/expect";
import { chai, expect } from "vitest";
import { say } from "../src/i18n/index.js";
import { isOurs } from "../src/i18n/message.js";

expect.addEqualityTesters([
  (a: unknown, b: unknown) => {
    if (isOurs(a) && typeof b === "string") return say(a) === b;
    if (typeof a === "string" && isOurs(b)) return a === say(b);
    return undefined;
  },
]);

type Method = (this: Chai.AssertionStatic, ...args: unknown[]) => unknown;
for (const name of ["toBe", "toMatch", "toContain"]) {
  chai.util.overwriteMethod(
    chai.Assertion.prototype,
    name,
    (original: Method) =>
      function (this: Chai.AssertionStatic, ...args: unknown[]) {
        const received: unknown = chai.util.flag(this, "object");
        const against = args[0];
        if (typeof against === "string" || against instanceof RegExp) {
          if (isOurs(received)) chai.util.flag(this, "object", say(received));
          else if (Array.isArray(received) && received.some(isOurs))
            chai.util.flag(
              this,
              "object",
              received.map((x) => (isOurs(x) ? say(x) : x)),
            );
        }
        return original.apply(this, args);
      },
  );
}

for (const Matcher of [StringMatching, StringContaining]) {
  const match = Matcher.prototype.asymmetricMatch;
  Matcher.prototype.asymmetricMatch = function (this: InstanceType<typeof Matcher>, other: unknown) {
    return match.call(this, (isOurs(other) ? say(other) : other) as string);
  };
}
