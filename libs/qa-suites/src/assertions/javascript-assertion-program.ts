/**
 * The runner of custom (JavaScript) assertions, as the source of a Node program with no
 * dependencies. The API never runs assertion code itself: the run engine writes this program into
 * the sandbox and runs it there (time, memory and network limits are the sandbox's), in one of two
 * modes:
 *
 * - `node <program> --serve <directory>`: resident, one per sandbox container. A client names a
 *   request on the FIFO `<directory>/in` (one id per line), having written `q-<id>.json` and made
 *   the FIFO `r-<id>`; the answer is one JSON line on `r-<id>`: `{ "results": [...] }` or
 *   `{ "error": "..." }`. Node starts once per container instead of once per cell (≈ 70 ms).
 * - `node <program> <requestFile>`: one request, the results array printed as one JSON line; a bad
 *   request exits 2 with the reason on stderr.
 *
 * Request (JSON): `{ "output": <parsed answer>, "checks": [{ "code": "…" }], "timeoutMs": 1000 }`.
 * Results: `[{ "passed": true|false, "message": string|null, "durationMs": number }]`, one per
 * check, in order.
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
const net = require('node:net');
const path = require('node:path');
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

function newContext() {
  return vm.createContext(Object.create(null), {
    codeGeneration: { strings: false, wasm: false },
    microtaskMode: 'afterEvaluate',
  });
}

// A context made while the resident runner waits for work (making one takes about a millisecond);
// never used by more than one check.
let spareContext;

function takeContext() {
  const context = spareContext || newContext();
  spareContext = undefined;
  return context;
}

function runCheck(code, outputText, timeoutMs) {
  const startedAt = performance.now();
  const finish = (passed, message) => ({ passed, message: clip(message), durationMs: Math.round((performance.now() - startedAt) * 100) / 100 });
  const context = takeContext();
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

function parseRequest(text) {
  const request = JSON.parse(text);
  if (!request || !Array.isArray(request.checks) || !request.checks.every((check) => check && typeof check.code === 'string'))
    throw new Error('the request needs "checks": [{ "code": "..." }]');
  return request;
}

function judgeRequest(request) {
  const timeoutMs = Number.isInteger(request.timeoutMs) && request.timeoutMs > 0 ? request.timeoutMs : DEFAULT_TIMEOUT_MS;
  const outputText = JSON.stringify(request.output === undefined ? null : request.output);
  return request.checks.map((check) => runCheck(check.code, outputText, timeoutMs));
}

function messageOf(error) {
  return error && error.message ? error.message : String(error);
}

function judgeFile(requestFile) {
  let request;
  try {
    request = parseRequest(fs.readFileSync(requestFile, 'utf8'));
  } catch (error) {
    process.stderr.write('cannot read the request: ' + messageOf(error) + '\n');
    process.exit(2);
  }
  process.stdout.write(JSON.stringify(judgeRequest(request)) + '\n');
}

// ---- resident mode: one process per container answers every cell's request ----

const REQUEST_ID = /^[A-Za-z0-9-]{1,64}$/;
/**
 * How long a client that sent its id may take to open its reply pipe. It does so right after, but
 * a loaded machine can stall a shell for a while; a client that was killed (its command cancelled)
 * never comes, and the queue waits this long once.
 */
const REPLY_OPEN_WAIT_MS = 5000;

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Opens the client's reply pipe for writing once its reader is there. A non-blocking open fails
 * (ENXIO) until then; the blocking open after it returns at once. The reply pipe is open before the
 * checks run, so a process that dies mid-check (out of memory) ends the client's read at once.
 */
async function openReply(file) {
  const startedAt = performance.now();
  for (;;) {
    try {
      const probe = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
      const reply = fs.openSync(file, fs.constants.O_WRONLY);
      fs.closeSync(probe);
      return reply;
    } catch (error) {
      if (!error || error.code !== 'ENXIO' || performance.now() - startedAt > REPLY_OPEN_WAIT_MS) return undefined;
      await sleep(1);
    }
  }
}

function removeQuietly(file) {
  try {
    fs.unlinkSync(file);
  } catch (error) {}
}

async function answer(directory, id) {
  const requestFile = path.join(directory, 'q-' + id + '.json');
  const replyFile = path.join(directory, 'r-' + id);
  let text;
  try {
    text = fs.readFileSync(requestFile, 'utf8');
  } catch (error) {
    removeQuietly(replyFile);
    return;
  }
  removeQuietly(requestFile);
  const reply = await openReply(replyFile);
  removeQuietly(replyFile);
  if (reply === undefined) return;
  let line;
  try {
    line = JSON.stringify({ results: judgeRequest(parseRequest(text)) });
  } catch (error) {
    line = JSON.stringify({ error: 'cannot read the request: ' + messageOf(error) });
  }
  try {
    fs.writeSync(reply, line + '\n');
  } catch (error) {
    // The client went away (its command was cancelled or timed out): nobody to tell.
  }
  fs.closeSync(reply);
  setImmediate(() => {
    if (spareContext === undefined) spareContext = newContext();
  });
}

/**
 * Serves requests named on the FIFO '<directory>/in': one id per line; the request is
 * 'q-<id>.json', the verdicts go to the FIFO 'r-<id>' as one JSON line. Requests are answered one
 * at a time, in order. The pid file is written once the FIFO is read, so a client that finds it
 * can write.
 */
function serve(directory) {
  const inbox = fs.openSync(path.join(directory, 'in'), fs.constants.O_RDWR | fs.constants.O_NONBLOCK);
  const stream = new net.Socket({ fd: inbox, readable: true, writable: false });
  stream.setEncoding('utf8');
  let pending = '';
  let queue = Promise.resolve();
  stream.on('data', (chunk) => {
    pending += chunk;
    let newline = pending.indexOf('\n');
    while (newline >= 0) {
      const id = pending.slice(0, newline).trim();
      pending = pending.slice(newline + 1);
      if (REQUEST_ID.test(id)) queue = queue.then(() => answer(directory, id));
      newline = pending.indexOf('\n');
    }
  });
  spareContext = newContext();
  fs.writeFileSync(path.join(directory, 'pid'), process.pid + '\n');
}

if (process.argv[2] === '--serve' && process.argv[3]) serve(process.argv[3]);
else if (process.argv[2]) judgeFile(process.argv[2]);
else {
  process.stderr.write('usage: node <program> <requestFile> | node <program> --serve <directory>\n');
  process.exit(2);
}
`;
