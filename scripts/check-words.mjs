#!/usr/bin/env node
/**
 * Words are said, never stringified: a message of the core (src/i18n/message.ts) put into a
 * template literal, a `+`, an array's `join`, `String()`, or handed to a function that takes
 * anything and prints it (chalk's colours, console's methods) would print "[object Object]". The type checker knows which
 * expressions are messages; TypeScript itself allows objects there (and in `join`, `String()`),
 * so this script asks it.
 * Exit 1 names each file, line and expression.
 *
 *   node scripts/check-words.mjs [root]
 */
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), ".."));
const configPath = join(root, "tsconfig.json");
const config = ts.getParsedCommandLineOfConfigFile(
  configPath,
  {},
  { ...ts.sys, onUnRecoverableConfigFileDiagnostic() {} },
);
const program = ts.createProgram({
  rootNames: config.fileNames.filter((f) => f.includes("/src/")),
  options: config.options,
});
const checker = program.getTypeChecker();

/** A type that is (or may be) an object: what a template literal would turn into "[object Object]". */
function mayBeObject(type) {
  if (type.isUnion()) return type.types.some(mayBeObject);
  if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.NonPrimitive)) return false;
  // `{}` (what `unknown ?? ""` narrows to) says nothing either way.
  if ((type.flags & ts.TypeFlags.Object) !== 0 && checker.getPropertiesOfType(type).length === 0) return false;
  return (type.flags & ts.TypeFlags.Object) !== 0 && !checker.isArrayType(type);
}

/** A type that is (or may be) one of our messages: an object with a string `template`. */
function isMessage(type) {
  if (type.isUnion()) return type.types.some(isMessage);
  const template = (type.flags & ts.TypeFlags.Object) !== 0 ? type.getProperty("template") : undefined;
  return template !== undefined && (checker.getTypeOfSymbol(template).flags & ts.TypeFlags.StringLike) !== 0;
}

const found = [];
for (const file of program.getSourceFiles()) {
  if (file.isDeclarationFile || !file.fileName.startsWith(join(root, "src"))) continue;
  const report = (node) => {
    const { line } = file.getLineAndCharacterOfPosition(node.getStart());
    found.push(`${relative(root, file.fileName)}:${line + 1}: ${node.getText().slice(0, 100)}`);
  };
  const visit = (node) => {
    if (ts.isTemplateSpan(node) && mayBeObject(checker.getTypeAtLocation(node.expression))) report(node.expression);
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      // [a, message].join(", ") and String(message) stringify it too.
      if (ts.isPropertyAccessExpression(callee) && callee.name.text === "join") {
        const array = checker.getTypeAtLocation(callee.expression);
        const element = checker.isArrayType(array) ? checker.getTypeArguments(array)[0] : undefined;
        if (element && mayBeObject(element)) report(node);
      }
      if (ts.isIdentifier(callee) && callee.text === "String" && node.arguments[0]) {
        if (mayBeObject(checker.getTypeAtLocation(node.arguments[0]))) report(node);
      }
      // chalk's `c.dim(message)`, `console.error(message)`: a rest parameter of any or unknown
      // takes the message, and stringifies it. TypeScript allows it; a message there is named.
      const signature = checker.getResolvedSignature(node);
      const params = signature?.getDeclaration()?.parameters;
      const rest = params?.at(-1);
      if (rest?.dotDotDotToken) {
        const element = checker.getTypeAtLocation(rest);
        const taken = checker.isArrayType(element) ? checker.getTypeArguments(element)[0] : element;
        if (taken && taken.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown))
          for (const arg of node.arguments.slice(params.length - 1))
            if (isMessage(checker.getTypeAtLocation(arg))) {
              report(node);
              break;
            }
      }
    }
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
      const left = checker.getTypeAtLocation(node.left);
      const right = checker.getTypeAtLocation(node.right);
      const stringy = (t) => (t.flags & ts.TypeFlags.StringLike) !== 0;
      if ((stringy(left) && mayBeObject(right)) || (stringy(right) && mayBeObject(left))) report(node);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
}
if (found.length > 0) {
  console.error(`An object put into text (say() a message instead):\n${found.join("\n")}`);
  process.exit(1);
}
