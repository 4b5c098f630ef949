/**
 * The runner of custom (JavaScript) assertions, as the source of a Node program with no
 * dependencies. The API never runs assertion code itself: the run engine writes this program and a
 * request file into the sandbox and runs `node <program> <requestFile>` there (time, memory and
 * network limits are the sandbox's).
 *
 * Request file (JSON): `{ "output": <parsed answer>, "checks": [{ "code": "…" }], "timeoutMs": 1000 }`.
 * Prints one JSON line: `[{ "passed": true|false, "message": string|null, "durationMs": number }]`,
 * one per check, in order. A bad request exits 2 with the reason on stderr.
 *
 * Each check is the body of a function of `output` returning true, false or `{ pass, message }`.
 * It runs in a fresh `node:vm` context (no `require`, `process`, timers or network
 * objects) with `timeoutMs`. The output is parsed inside that context, so nothing in reach belongs
 * to the runner's realm (a host object's `constructor.constructor` would hand out the runner's
 * `Function`, and with it `process`). Promise jobs run inside the timeout too
 * (`microtaskMode: 'afterEvaluate'`), and only a string (the verdict as JSON, made inside the
 * context) comes back out, so no getter or proxy of the check's runs outside the timeout.
 * `vm` is not a security boundary against a determined attacker: the sandbox is; this keeps
 * honest mistakes (a loop, a throw) to one check's verdict.
 */
export const JAVASCRIPT_ASSERTION_PROGRAM: string = String.raw`'use strict';
const fs = require('node:fs');
const vm = require('node:vm');
const { performance } = require('node:perf_hooks');

const DEFAULT_TIMEOUT_MS = 1000;
const MAX_MESSAGE_CHARACTERS = 2000;

// Runs inside each check's context before the check: turns whatever the check returned (or threw)
// into a JSON string, with the built-ins captured before the check could replace them.
const VERDICT_HELPER = [
  '(function () {',
  '  "use strict";',
  '  const stringify = JSON.stringify;',
  '  const parse = JSON.parse;',
  '  const StringOf = String;',
  '  const isArray = Array.isArray;',
  '  function describe(value) {',
  '    if (value === null) return "null";',
  '    if (value === undefined) return "undefined (no return?)";',
  '    if (isArray(value)) return "an array";',
  '    if (typeof value === "string") return "a string";',
  '    if (typeof value === "number") return "the number " + StringOf(value);',
  '    return "a value of type " + typeof value;',
  '  }',
  '  function verdict(passed, message) { return stringify({ passed: passed, message: message }); }',
  '  return function judge(check, outputText) {',
  '    let result;',
  '    try {',
  '      result = check(parse(outputText));',
  '    } catch (error) {',
  '      let text;',
  '      try {',
  '        text = error instanceof Error ? error.name + ": " + error.message : "threw " + StringOf(error);',
  '      } catch (_) { text = "threw a value that cannot be shown"; }',
  '      return verdict(false, text);',
  '    }',
  '    if (result === true) return verdict(true, null);',
  '    if (result === false) return verdict(false, "returned false");',
  '    if (result !== null && typeof result === "object" && typeof result.then === "function")',
  '      return verdict(false, "returned a Promise: a check returns true, false or { pass, message } synchronously");',
  '    if (result !== null && typeof result === "object" && !isArray(result)) {',
  '      const pass = result.pass;',
  '      const message = result.message;',
  '      if (typeof pass !== "boolean")',
  '        return verdict(false, "returned an object whose \\"pass\\" is " + describe(pass) + ", not true or false");',
  '      if (message !== undefined && message !== null && typeof message !== "string")',
  '        return verdict(false, "returned an object whose \\"message\\" is " + describe(message) + ", not a string");',
  '      return verdict(pass, typeof message === "string" ? message : pass ? null : "returned pass: false");',
  '    }',
  '    return verdict(false, "returned " + describe(result) + " instead of true, false or { pass, message }");',
  '  };',
  '})()',
].join('\n');

function clip(message) {
  if (typeof message !== 'string') return null;
  return message.length > MAX_MESSAGE_CHARACTERS ? message.slice(0, MAX_MESSAGE_CHARACTERS - 1) + '\u2026' : message;
}

function runCheck(code, outputText, timeoutMs) {
  const startedAt = performance.now();
  const finish = (passed, message) => ({ passed, message: clip(message), durationMs: Math.round((performance.now() - startedAt) * 100) / 100 });
  const context = vm.createContext(Object.create(null), {
    codeGeneration: { strings: false, wasm: false },
    microtaskMode: 'afterEvaluate',
  });
  let check;
  try {
    check = vm.compileFunction(code, ['output'], { parsingContext: context });
  } catch (error) {
    return finish(false, 'the code does not compile: ' + (error && error.message ? error.message : String(error)));
  }
  try {
    const judge = vm.runInContext(VERDICT_HELPER, context, { timeout: timeoutMs });
    context.__judge = judge;
    context.__check = check;
    context.__outputText = outputText;
    const verdictText = vm.runInContext('__judge(__check, __outputText)', context, { timeout: timeoutMs });
    if (typeof verdictText !== 'string') return finish(false, 'the check did not produce a verdict');
    const verdict = JSON.parse(verdictText);
    if (typeof verdict.passed !== 'boolean') return finish(false, 'the check did not produce a verdict');
    return finish(verdict.passed, verdict.message);
  } catch (error) {
    if (error && error.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return finish(false, 'timed out after ' + timeoutMs + ' ms');
    return finish(false, 'the check failed: ' + (error && error.message ? error.message : String(error)));
  }
}

function main() {
  const requestFile = process.argv[2];
  if (!requestFile) {
    process.stderr.write('usage: node <program> <requestFile>\n');
    process.exit(2);
  }
  let request;
  try {
    request = JSON.parse(fs.readFileSync(requestFile, 'utf8'));
  } catch (error) {
    process.stderr.write('cannot read the request: ' + (error && error.message ? error.message : String(error)) + '\n');
    process.exit(2);
  }
  if (!request || !Array.isArray(request.checks) || !request.checks.every((check) => check && typeof check.code === 'string')) {
    process.stderr.write('the request needs "checks": [{ "code": "..." }]\n');
    process.exit(2);
  }
  const timeoutMs = Number.isInteger(request.timeoutMs) && request.timeoutMs > 0 ? request.timeoutMs : DEFAULT_TIMEOUT_MS;
  const outputText = JSON.stringify(request.output === undefined ? null : request.output);
  const results = request.checks.map((check) => runCheck(check.code, outputText, timeoutMs));
  process.stdout.write(JSON.stringify(results) + '\n');
}

main();
`;
