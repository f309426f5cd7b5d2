// The options of `npm run bench`, each with its help line, and how the command line is read:
// `--help` lists them all, and a mistyped one is a usage error naming the closest option (exit 2),
// not a stack trace.
import { parseArgs } from 'node:util';
import { optionProblem } from '../harness/cli/option-problem.ts';

interface BenchOption {
  type: 'string' | 'boolean';
  default?: string;
  value?: string;
  help: string;
}

export const BENCH_OPTIONS = {
  only: {
    type: 'string',
    value: 'LIST',
    help: 'some sections: certification, waits, overhead, throughput, streams, memory, scale (default all of these), feedback (npm test and the full apc selftest, minutes each) and unit (npm run test:unit alone); slow-posts (a certification of a target whose POSTs take 2 s, twice: minutes)',
  },
  old: {
    type: 'string',
    value: 'REF',
    help: 'feedback: compare this commit with --new, each in a clone of its own (npm ci first), in rounds that alternate which goes first',
  },
  new: { type: 'string', value: 'REF', default: 'HEAD', help: 'feedback: the commit compared with --old' },
  'feedback-rounds': { type: 'string', value: 'N', default: '1', help: 'feedback: rounds (each runs every command on each commit)' },
  'feedback-commands': { type: 'string', value: 'LIST', default: 'npm-test,selftest', help: 'feedback: some of npm-test, selftest, unit' },
  out: { type: 'string', value: 'FILE', help: "where the results' JSON goes (default bench/results/<date>.json in this checkout)" },
  seconds: { type: 'string', value: 'N', default: '3', help: 'length of each load measurement in seconds' },
  runs: { type: 'string', value: 'N', help: 'run streams of each kind (default 1000; 100 with a peer)' },
  scale: { type: 'string', value: 'LIST', default: '1000,10000', help: 'stored deployments and assistants of the scale rows' },
  'memory-requests': { type: 'string', value: 'N', default: '100000', help: 'requests of the memory section' },
  'certify-runs': { type: 'string', value: 'N', default: '3', help: 'runs of each timed certification (the median counts)' },
  'slow-posts-concurrency': { type: 'string', value: 'N', default: '12', help: 'the slow-posts section (POSTs 2 s late; minutes): the second run\'s --concurrency, after one with the default settings' },
  'phase-ms': { type: 'string', value: 'LIST', default: '20,250,1000', help: "the reference's revision phases of the waits section (a revision is six)" },
  'waits-targets': {
    type: 'string',
    value: 'LIST',
    default: 'accepting,budgeted,busy',
    help: 'runs of the waits section: accepting (the reference, unbudgeted), budgeted (the same within the default budget of a URL target), busy (PATCHes refused while a revision is in progress; minutes), busy-budgeted (the same within the default budget), busy-spread (the same within the budget --plan names as enough to spread the tests of the pooled deployments)',
  },
  'waits-rounds': { type: 'string', value: 'N', default: '3', help: 'rounds of the waits section (interleaved; the slope is fitted on medians)' },
  'database-url': {
    type: 'string',
    value: 'URL',
    help: 'a PostgreSQL superuser URL for the PostgreSQL figures (default APC_TEST_DATABASE_URL, else a throwaway server)',
  },
  'no-postgres': { type: 'boolean', help: 'skip the PostgreSQL figures' },
  'peer-agent-server': { type: 'string', value: 'URL', help: 'another agent server serving the echo graph, measured beside the reference' },
  'peer-api-key': { type: 'string', value: 'KEY', help: 'the x-api-key the peer wants, if any' },
  'peer-rounds': {
    type: 'string',
    value: 'N',
    default: '3',
    help: 'alternating reference/peer rounds of POST /assistants; the ratio is their median, with the spread',
  },
  help: { type: 'boolean', help: 'show this help' },
} as const satisfies Record<string, BenchOption>;

export type BenchValues = { [K in keyof typeof BENCH_OPTIONS]?: (typeof BENCH_OPTIONS)[K]['type'] extends 'boolean' ? boolean : string };

export const BENCH_USAGE = `Usage: npm run bench -- [options]

The performance figures of the harness and the reference implementation (README "Performance").

${Object.entries(BENCH_OPTIONS as Record<string, BenchOption>)
  .map(([name, o]) => `  ${`--${name}${o.value ? ` ${o.value}` : ''}`.padEnd(26)} ${o.help}${o.default !== undefined ? ` (default ${o.default})` : ''}`)
  .join('\n')}
`;

/** The command line read, or the problem with it in one line. */
export function benchArgs(argv: string[]): { values: BenchValues } | { problem: string } {
  const options = Object.fromEntries(
    Object.entries(BENCH_OPTIONS as Record<string, BenchOption>).map(([name, o]) => [
      name,
      { type: o.type, ...(o.default !== undefined ? { default: o.default } : {}) },
    ]),
  ) as Record<string, { type: 'string' | 'boolean'; default?: string }>;
  try {
    return { values: parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values as BenchValues };
  } catch (error) {
    return { problem: optionProblem(error, BENCH_OPTIONS) };
  }
}
