// The `echo` fixture graph (reference-impl/agent-server/README.md) written for LangGraph JS, so
// the open-source LangGraph server can serve it as a peer for `npm run bench --
// --peer-agent-server URL`. Not used by the project itself; see README "Performance".
import { END, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';

export const graph = new StateGraph(MessagesAnnotation)
  .addNode('echo', (state) => {
    const last = state.messages.at(-1);
    return { messages: [{ role: 'assistant', content: last?.content ?? '' }] };
  })
  .addEdge(START, 'echo')
  .addEdge('echo', END)
  .compile();
