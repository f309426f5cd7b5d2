// `echo`, the conformance fixture: replies with the content of the last message and reports the
// run's effective context. Its exact behaviour is specified in ../README.md so implementers can
// write the same graph in their own framework.
import type { Graph } from '../graph.ts';

export const echo: Graph = {
  nodes: [
    {
      name: 'echo',
      run(state, run) {
        const messages = Array.isArray(state.messages) ? state.messages : [];
        const last: unknown = messages[messages.length - 1];
        const content = typeof last === 'object' && last !== null && 'content' in last ? last.content : '';
        return { messages: [{ type: 'ai', content }], context: run.context };
      },
    },
  ],
};
