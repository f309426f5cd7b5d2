// What `npm run bench` measures, loaded by bench/bench.ts once its options are read: `--help` and
// a mistyped option answer without loading the harness, the reference and the load generator
// (about 2.3 s of CPU a run, paid by every test of the options).
export { certification } from './certification.ts';
export { feedback } from './feedback.ts';
export { feedbackPlan } from './feedback-plan.ts';
export { harnessOverhead } from './harness-overhead.ts';
export { memory } from './memory.ts';
export { peerRatios } from './peer-ratios.ts';
export { printSummary } from './print.ts';
export { revisionWaits } from './revision-waits.ts';
export { scale } from './scale.ts';
export { slowPosts } from './slow-posts.ts';
export { closeStreams, streams } from './streams.ts';
export { ASSISTANT } from './support/bodies.ts';
export { load, round } from './support/load.ts';
export { startReferenceProcess } from './support/reference-process.ts';
export { throughput } from './throughput.ts';
export { freshDatabase, startThrowawayServer } from '../test/support/postgres.ts';
