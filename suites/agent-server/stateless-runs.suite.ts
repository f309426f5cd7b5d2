// Stateless runs (spec 1.B, 4.2): POST /runs/stream runs without a thread and keeps no state.
// A later stateless run adding no message must not see an earlier one's messages; and where
// the server points at a thread for the run (Content-Location), that thread must not hold them.
import { requirement, type Check } from '../../harness/conformance/index.ts';
import { createAssistant } from './support/assistants.ts';
import { humanInput, NO_NEW_MESSAGE, replyContent, runEcho, streamRun, echoUpdate } from './support/runs.ts';

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
    const first = await streamRun(t, { assistantId: id, input: humanInput(content), streamMode: 'updates' }, 'AS-RUN-004');
    echoUpdate(t, first);
    const later = await runEcho(t, { assistantId: id, input: NO_NEW_MESSAGE });
    t.expect(replyContent(later) !== content, {
      message: 'A later stateless run saw the messages of an earlier one: state persisted.',
      expected: 'a reply that does not repeat the earlier run’s message',
      seen: later,
    });
    // Where the server names a thread for the run (Content-Location), that thread must not hold its messages either.
    const location = first.exchange.response?.headers['content-location'] ?? '';
    const thread = /\/threads\/([^/]+)\/runs\//.exec(location)?.[1];
    if (thread !== undefined) {
      const answer = await t.stream(t.as, { method: 'POST', path: `/threads/${thread}/runs/stream`, body: { assistant_id: id, input: NO_NEW_MESSAGE, stream_mode: 'updates' } });
      // A thread that cannot be run on holds no state of the run.
      const onThread = 'events' in answer ? echoUpdate(t, answer) : undefined;
      if ('events' in answer) t.cleanup(`delete thread ${thread}`, () => t.as.delete(`/threads/${thread}`));
      t.expect(onThread === undefined || replyContent(onThread) !== content, {
        message: `The stateless run's Content-Location names thread ${thread}, and that thread holds the run's messages: state persisted.`,
        expected: 'no thread holding the stateless run’s state',
        seen: onThread,
      });
    }
  },
  { cost: { creates: { assistants: 1, runs: 2 } }, timeout: 'stream' },
);
