// Runs on a thread (spec 1.B, 4.2): the run streams its results, and the thread keeps the
// outputs of its runs, and only theirs. The fixture answers with the content of the last
// message in its state, so a run adding no message shows what the thread already holds.
import { requirement, type Check } from '../../harness/conformance/index.ts';
import { createAssistant } from './support/assistants.ts';
import { createThread } from './support/threads.ts';
import { humanInput, NO_NEW_MESSAGE, replyContent } from './support/runs.ts';
import { runEcho } from './support/echo-ways.ts';

requirement(
  'AS-RUN-001',
  async (t: Check) => {
    const { id } = await createAssistant(t, { context: { apc_case: 'thread-run' } });
    const threadId = await createThread(t);
    const content = t.name('thread-run');
    const update = await runEcho(t, { assistantId: id, threadId, input: humanInput(content) });
    t.expect(replyContent(update) === content, {
      message: 'The thread run did not run the assistant on its input.',
      expected: `the echo node replying ${JSON.stringify(content)}`,
      seen: update,
    });
  },
  { cost: { creates: { assistants: 1, threads: 1, runs: 1 } }, timeout: 'stream' },
);

requirement(
  'AS-RUN-002',
  async (t: Check) => {
    const { id } = await createAssistant(t, { context: { apc_case: 'thread-state' } });
    const threadId = await createThread(t);
    const content = t.name('remembered');
    const first = await runEcho(t, { assistantId: id, threadId, input: humanInput(content) });
    // What the thread keeps is judged after a first run that ran on its input (AS-RUN-001).
    t.expect(replyContent(first) === content, { requirement: 'AS-RUN-001', message: 'The thread run did not run the assistant on its input.', expected: `the echo node replying ${JSON.stringify(content)}`, seen: first });
    const later = await runEcho(t, { assistantId: id, threadId, input: NO_NEW_MESSAGE });
    t.expect(replyContent(later) === content, {
      message: 'A second run on the thread did not see the messages of the first: the thread did not keep its outputs.',
      expected: `the echo node replying ${JSON.stringify(content)} from the thread's messages`,
      seen: later,
    });
    // Only its own runs' outputs: a new thread of the same assistant starts empty (spec 1).
    const fresh = await createThread(t);
    const onFresh = await runEcho(t, { assistantId: id, threadId: fresh, input: NO_NEW_MESSAGE });
    t.expect(replyContent(onFresh) !== content, {
      message: 'A run adding no message on a new thread saw the messages of runs on another thread of the same assistant: the new thread did not start empty.',
      expected: 'a reply that does not repeat the other thread’s message',
      seen: onFresh,
    });
  },
  { cost: { creates: { assistants: 1, threads: 2, runs: 3 } }, timeout: 'stream' },
);
