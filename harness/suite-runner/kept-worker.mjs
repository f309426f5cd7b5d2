// A suite worker process kept between vitest runs (kept-workers.ts): what vitest's own fork worker
// does (its worker runtime, `vitest/worker`), once per run that uses this process. Each run starts
// a session with vitest's "start" message, and ends it with "stop": the session tears down
// (vitest's cleanup and the test environment's teardown) and this process waits for the next
// start, keeping the modules it loaded. Plain JavaScript: node starts it without a transform.
import { EventEmitter } from 'node:events';
import { init, runBaseTests, setupEnvironment } from 'vitest/worker';

if (!process.send) throw new Error('apc: a kept suite worker runs as a child process with an IPC channel.');
const send = process.send.bind(process);
// vitest's runtime replaces process.exit while tests run (a test may not end the worker); kept here to give it back.
const exit = process.exit.bind(process);

/** The current session's messages; undefined between sessions. */
let session;

process.on('message', (message) => {
  if (message?.__vitest_worker_request__ === true && message.type === 'start') session = startSession();
  session?.emit('message', message);
});
// The certifying process is gone: nothing will start another session.
process.on('disconnect', () => exit(0));

function startSession() {
  const messages = new EventEmitter();
  init({
    post: (response) => send(response),
    on: (callback) => messages.on('message', callback),
    off: (callback) => messages.off('message', callback),
    teardown: () => {
      messages.removeAllListeners();
      if (session === messages) session = undefined;
    },
    runTests: (state, traces) => tests('run', state, traces),
    collectTests: (state, traces) => tests('collect', state, traces),
    setup: setupEnvironment,
  });
  return messages;
}

async function tests(method, state, traces) {
  try {
    await runBaseTests(method, state, traces);
  } finally {
    process.exit = exit;
    // A file that ran here runs again when a later run gives it (with that run's contexts), not
    // answered from the module cache with no test: vitest forgets a test file before its run by
    // its path, and the files of a shared run carry their run key in a query.
    for (const { filepath } of state.ctx.files) {
      const node = state.evaluatedModules.getModuleById(filepath) ?? state.evaluatedModules.getModuleByUrl(filepath);
      if (node) state.evaluatedModules.invalidateModule(node);
    }
  }
}
