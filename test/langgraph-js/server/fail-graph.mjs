// The `fail` fixture (reference-impl/agent-server/README.md, "Built-in graph `fail`") written for
// LangGraph JS: one node, `fail`, that always throws FixtureFailure, so a run ends with an `error`.
import { END, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';

class FixtureFailure extends Error {
  name = 'FixtureFailure';
}

export const graph = new StateGraph(MessagesAnnotation)
  .addNode('fail', () => {
    throw new FixtureFailure('The fail graph always fails: this error is deliberate.');
  })
  .addEdge(START, 'fail')
  .addEdge('fail', END)
  .compile();
