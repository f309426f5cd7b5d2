// The `echo` conformance fixture (reference-impl/agent-server/README.md, "Built-in graph `echo`")
// written for LangGraph JS: state keys `messages` (appended) and `context` (replaced); one node,
// `echo`, whose update is the last message's content as an `ai` message and the run's effective
// context (LangGraph passes the assistant's context merged with the run's as `config.context`).
import { Annotation, END, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';

const State = Annotation.Root({
  ...MessagesAnnotation.spec,
  context: Annotation({ reducer: (_old, next) => next, default: () => ({}) }),
});

export const graph = new StateGraph(State)
  .addNode('echo', (state, config) => {
    const last = state.messages.at(-1);
    return { messages: [{ type: 'ai', content: last?.content ?? '' }], context: config.context ?? {} };
  })
  .addEdge(START, 'echo')
  .addEdge('echo', END)
  .compile();
