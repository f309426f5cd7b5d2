// Operation sequences (spec 2, 3): random runs of create, PATCH (with and without revision
// triggers, valid and not), read, revisions listing and delete, each step checked against the pure
// model of generators/control-plane/model.ts.
import fc from 'fast-check';
import { controlPlaneSequences, CP_SEQUENCES, newSequence } from '../../generators/control-plane/commands.ts';
import { requirement, type Check, type TargetProfile, byLimit } from '../../harness/conformance/index.ts';
import { creates, deleteWithProject, generatorContext, refusedWaits } from './support/steps.ts';
import { httpControlPlane } from './support/http-api.ts';

/**
 * Sequences and their length: where the run's creates are limited fewer and shorter, and none creates a second
 * deployment. Where each PATCH to a deployment with a revision in progress waits for it, a
 * sequence makes at most a few such waits, and twice as many sequences run (CP_SEQUENCES.refused).
 */
function sequenceSize(p: TargetProfile): { runs: number; maxCommands: number } {
  const runs = p.busyPatch === 'refused' ? CP_SEQUENCES.refused.runs(p.runs) : CP_SEQUENCES.runs(p.runs);
  return byLimit(p, { unlimited: { runs, maxCommands: CP_SEQUENCES.maxCommands }, limited: CP_SEQUENCES.limited });
}
const waitsAllowed = (p: TargetProfile) => (p.busyPatch === 'refused' ? CP_SEQUENCES.refused.waits : undefined);

requirement(
  'CP-SEQ-001',
  async (t: Check) => {
    const ctx = generatorContext(t, 'seq');
    const size = sequenceSize(t.profile);
    await t.property(
      controlPlaneSequences(ctx, size.maxCommands, byLimit(t.profile, { unlimited: true, limited: false }), waitsAllowed(t.profile)),
      async (sequence) => {
        const api = httpControlPlane(t);
        // A mismatch fails the rule it breaks, which blocks CP-SEQ-001: the sequence is how it was found.
        // The message stays the same from seed to seed; the sequence itself is the failure's input.
        await t.expectModelAgrees(() => fc.asyncModelRun(() => newSequence(api), sequence.commands), {
          foundBy: 'a command sequence, the failure\'s input',
          // Each sequence cleans up after itself, tracing projects included, so the target holds at most one sequence's deployments.
          after: async () => {
            for (const id of api.created) await deleteWithProject(t, id);
          },
        });
      },
      // Each sequence waits for its revisions before PATCHing: the sequences run side by side.
      { numRuns: size.runs, sideBySide: true },
    );
  },
  {
    title: 'Sequences of create, PATCH, read, revisions listing and delete agree with the model of sections 2 and 3',
    // Each step of a sequence (its first create and up to maxCommands more) makes at most one deployment or one revision.
    // Where the run's creates are limited one sequence on one deployment: its create, then at most one revision a step.
    // The sequences run side by side. Where PATCHes are accepted while a revision is in progress none
    // waits for a revision; where they are refused, a sequence makes at most refusedWaits waits.
    cost: (p) => {
      const { runs, maxCommands } = sequenceSize(p);
      const steps = runs * (1 + maxCommands);
      return refusedWaits(creates(byLimit(p, { unlimited: steps, limited: runs }), steps), CP_SEQUENCES.refused.waits);
    },
  },
);
