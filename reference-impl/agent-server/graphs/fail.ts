// `fail`: one node that always throws, so clients and the harness can see an `error` event.
import type { Graph } from '../graph.ts';

/** The error the `fail` node throws; its name is what the `error` event's `error` field carries. */
export class FixtureFailure extends Error {
  override name = 'FixtureFailure';
}

export const fail: Graph = {
  nodes: [
    {
      name: 'fail',
      run() {
        throw new FixtureFailure('The fail graph always fails: this error is deliberate.');
      },
    },
  ],
};
