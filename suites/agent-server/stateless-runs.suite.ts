// Stateless runs (spec 1.B, 4.2): POST /runs/stream runs without a thread and keeps no state.
// A later stateless run adding no message must not see an earlier one's messages; and where
// the server points at a thread for the run (Content-Location), that thread must not hold them.
import { requirement, type Check } from '../../harness/conformance/index.ts';
import { createAssistant } from './support/assistants.ts';
import { humanInput, NO_NEW_MESSAGE, replyContent } from './support/runs.ts';
import { runEcho, tryEcho } from './support/echo-ways.ts';

requirement(
  'AS-RUN-003',
  async (t: Check) => {
    const { id } = await createAssistant(t, { context: { apc_case: 'stateless-run' } });
    const content = t.name('stateless');
    const update = await runEcho(t, { assistantId: id, input: humanInput(content) });
    t.expect(replyContent(update) === content, {
      message: 'The stateless run did not run the assistant on its input.',
      expected: `the echo node replying ${JSON.stringify(content)}`,
      seen: update,
    });
  },
  { cost: { creates: { assistants: 1, runs: 1 } }, timeout: 'stream' },
);

requirement(
  'AS-RUN-004',
  async (t: Check) => {
    const { id } = await createAssistant(t, { context: { apc_case: 'no-state' } });
    const content = t.name('forgotten');
    const first = await tryEcho(t, { assistantId: id, input: humanInput(content) }, 'AS-RUN-004');
    if ('refused' in first) t.fail(first.refused);
    const later = await runEcho(t, { assistantId: id, input: NO_NEW_MESSAGE });
    t.expect(replyContent(later) !== content, {
      message: 'A later stateless run saw the messages of an earlier one: state persisted.',
      expected: 'a reply that does not repeat the earlier run’s message',
      seen: later,
    });
    // Where the server names a thread for the run (Content-Location), that thread must not hold its messages either.
    const location = first.result.exchange.response?.headers['content-location'] ?? '';
    const thread = /\/threads\/([^/]+)\/runs\//.exec(location)?.[1];
    if (thread !== undefined) {
      // A thread that cannot be run on holds no state of the run.
      const onThread = await tryEcho(t, { assistantId: id, threadId: thread, input: NO_NEW_MESSAGE });
      if ('update' in onThread) t.cleanup(`delete thread ${thread}`, () => t.as.delete(`/threads/${thread}`));
      t.expect(!('update' in onThread) || replyContent(onThread.update) !== content, {
        message: `The stateless run's Content-Location names thread ${thread}, and that thread holds the run's messages: state persisted.`,
        expected: 'no thread holding the stateless run’s state',
        seen: 'update' in onThread ? onThread.update : undefined,
      });
    }
  },
  { cost: { creates: { assistants: 1, runs: 2 } }, timeout: 'stream' },
);
