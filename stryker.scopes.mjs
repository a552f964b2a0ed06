// What each mutation scope mutates, and the in-process tests that exercise it.
export const SCOPES = {
  ids: { mutate: ["src/voucher/ids.ts"], tests: ["test/unit/ids.test.ts", "test/unit/rules.test.ts"] },
  totals: { mutate: ["src/voucher/totals.ts"], tests: ["test/unit/totals.test.ts", "test/unit/rules.test.ts"] },
  decimal: { mutate: ["src/voucher/decimal.ts"], tests: ["test/unit/decimal.test.ts", "test/unit/totals.test.ts"] },
  // The tax rules: the unit tests that check vouchers through validateEnvelope (directly or via `check`).
  rules: {
    mutate: ["src/voucher/rules.ts"],
    tests: [
      "test/unit/rules.test.ts",
      "test/unit/readable.test.ts",
      "test/unit/notes.test.ts",
      "test/unit/schema.test.ts",
      "test/unit/totals.test.ts",
      "test/unit/ids.test.ts",
      "test/unit/text.test.ts",
      "test/unit/templates.test.ts",
      "test/unit/csv.test.ts",
    ],
  },
  voucher: {
    mutate: ["src/voucher/**/*.ts"],
    tests: [
      "test/unit/ids.test.ts",
      "test/unit/totals.test.ts",
      "test/unit/decimal.test.ts",
      "test/unit/rules.test.ts",
      "test/unit/schema.test.ts",
      "test/unit/notes.test.ts",
      "test/unit/readable.test.ts",
      "test/unit/templates.test.ts",
    ],
  },
  // src/voucher/ but for the modules with scopes of their own (ids, totals, decimal, rules).
  "voucher-rest": {
    mutate: [
      "src/voucher/schema.ts",
      "src/voucher/notes.ts",
      "src/voucher/readable.ts",
      "src/voucher/dates.ts",
      "src/voucher/codes.ts",
      "src/voucher/text.ts",
      "src/voucher/qr.ts",
      "src/voucher/validate.ts",
      "src/voucher/vat-book.ts",
      "src/voucher/exchange.ts",
      "src/voucher/path.ts",
      "src/voucher/json-schema.ts",
    ],
    tests: [
      "test/unit/schema.test.ts",
      "test/unit/notes.test.ts",
      "test/unit/readable.test.ts",
      "test/unit/text.test.ts",
      "test/unit/templates.test.ts",
      "test/unit/rules.test.ts",
      "test/unit/totals.test.ts",
      "test/unit/csv.test.ts",
      "test/unit/vat-book.test.ts",
      "test/unit/dates-qr.test.ts",
      "test/unit/schema-fields.test.ts",
      "test/unit/codes.test.ts",
      "test/unit/code-tables.test.ts",
      "test/unit/voucher-modules.test.ts",
      "test/unit/notes-answer.test.ts",
      "test/unit/validate.test.ts",
      "test/unit/readable-limits.test.ts",
    ],
  },
  // The exactly-once core: protocol layer, issuer, lanes, journal.
  core: {
    mutate: [
      "src/api/protocol.ts",
      "src/batch/issue.ts",
      "src/batch/run.ts",
      "src/batch/plan.ts",
      "src/batch/checks.ts",
      "src/batch/lanes.ts",
      "src/batch/journal.ts",
    ],
    tests: ["test/unit/exactly-once.test.ts", "test/unit/journal.test.ts"],
  },
  // A run (run.ts, plan.ts, checks.ts, lanes.ts): the exactly-once tests drive runLanes against the
  // embedded service's logic; lanes.test.ts drives runLanes with scripted steps, issue-files.test.ts
  // issueFiles end to end in-process.
  run: {
    mutate: ["src/batch/run.ts", "src/batch/plan.ts", "src/batch/checks.ts", "src/batch/lanes.ts"],
    tests: ["test/unit/exactly-once.test.ts", "test/unit/lanes.test.ts", "test/unit/issue-files.test.ts"],
  },
  // What run.ts and issue.ts were split into (outcome, plan, checks, lanes, documents): the outcome
  // tests settle answers by hand, the issuer and exactly-once tests drive issue.ts through them,
  // lanes.test.ts drives runLanes, issue-files.test.ts issueFiles in-process. Run a file at a time with --mutate.
  split: {
    mutate: [
      "src/batch/outcome.ts",
      "src/batch/plan.ts",
      "src/batch/checks.ts",
      "src/batch/lanes.ts",
      "src/batch/documents.ts",
    ],
    tests: [
      "test/unit/outcome.test.ts",
      "test/unit/issuer.test.ts",
      "test/unit/exactly-once.test.ts",
      "test/unit/lanes.test.ts",
      "test/unit/issue-files.test.ts",
      "test/unit/plan.test.ts",
    ],
  },
  // outcome.ts alone with its fast tests (milliseconds a test): the split scope's lanes and
  // exactly-once tests take seconds a mutant for settle()'s common paths (8 minutes for 311 of 444).
  outcome: {
    mutate: ["src/batch/outcome.ts"],
    tests: ["test/unit/outcome.test.ts", "test/unit/issuer.test.ts"],
  },
  // The lane scheduler alone with its fast tests: runLanes against a scripted issuer (milliseconds a
  // test); the issueFiles runs (issue-files.test.ts) and the exactly-once tests take seconds a mutant.
  lanes: { mutate: ["src/batch/lanes.ts"], tests: ["test/unit/lanes.test.ts"] },
  // A voucher's documents (saveDocument against scripted downloads) and the pool they download
  // through (Slots), milliseconds a test; issuer.test.ts saves documents through both.
  documents: {
    mutate: ["src/batch/documents.ts"],
    tests: ["test/unit/batch-documents.test.ts", "test/unit/issuer.test.ts"],
  },
  // The issuer alone (src/batch/issue.ts), driven in-process: the exactly-once tests and its own.
  issue: {
    mutate: ["src/batch/issue.ts"],
    tests: ["test/unit/issuer.test.ts", "test/unit/exactly-once.test.ts"],
  },
  // The typed protocol alone: fake transports answering canned bodies, milliseconds a test.
  protocol: {
    mutate: ["src/api/protocol.ts"],
    tests: ["test/unit/protocol.test.ts", "test/unit/service-batches.test.ts"],
  },
  // The client's request path and retry policy: scripted transports, a loopback server, the issuer in-process.
  client: {
    mutate: ["src/api/client.ts"],
    tests: [
      "test/unit/client.test.ts",
      "test/unit/client-spacing.test.ts",
      "test/unit/download.test.ts",
      "test/unit/download-spacing.test.ts",
      "test/unit/download-moment.test.ts",
      "test/unit/protocol.test.ts",
    ],
  },
  // The journal's own tests, in milliseconds: the exactly-once tests (seconds a mutant) kill none of their survivors.
  journal: { mutate: ["src/batch/journal.ts"], tests: ["test/unit/journal.test.ts"] },
  // The durable log under the journal and the sandbox's state; the journal's tests drive it too.
  "append-log": {
    mutate: ["src/durable/append-log.ts"],
    tests: ["test/unit/append-log.test.ts", "test/unit/journal.test.ts"],
  },
};
