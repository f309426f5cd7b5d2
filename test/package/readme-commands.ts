// Every shell command README.md shows, and how the tests hold it true: run, cheaply, by
// readme-commands.test.ts (a one-requirement certification, a plan, a listing), or only parsed by
// readme-truths.test.ts, with the reason it cannot run here (a real platform's URL, a server left
// running, minutes of CPU) and what is checked instead (its flags are in `apc help`, its npm
// script exists). A README command in neither list fails readme-truths.test.ts: add it here.

/** A command run as the README's, made cheap: argv (npm or node first) in the checkout, `reports` a fresh folder. */
export interface Run {
  run: (reports: string) => string[];
  /** What its output must show, beside exit code 0. */
  prints: RegExp;
}
/** A command only parsed, and why. */
export interface Parsed {
  parsed: string;
}
export type Way = Run | Parsed;

const APC = ['node', 'bin/apc.mjs'];

/** Keyed by the command as shellCommands() reads it from the README. */
export const README_COMMANDS: Record<string, Way> = {
  'npm ci': { parsed: 'these tests run in an installed checkout: npm ci is what installed it' },
  'npm run certify': {
    run: (reports) => ['npm', 'run', '--silent', 'certify', '--', '--requirements', 'CP-READ-001', '--quiet', '--reports', reports],
    prints: /^verdict: PASSED/m,
  },
  'npm test': { parsed: 'the suite these tests belong to' },
  'npm pack': { parsed: 'test/package/package-files.test.ts packs the project (--dry-run); .ci/run packs and installs it (scripts/packed-install.sh)' },
  'cd ~/my-service': { parsed: "a placeholder for the user's own project" },
  'npm install --save-dev ../agent-platform-conformance/agent-platform-conformance-0.1.0.tgz': {
    parsed: ".ci/run installs the packed file into an empty project (scripts/packed-install.sh); the file's name is checked against package.json",
  },
  'npx apc certify': { parsed: 'the certification npm run certify makes (package.json: node bin/apc.mjs certify), which readme-commands.test.ts runs' },
  'npx apc init --agent-server-url http://127.0.0.1:2024': { parsed: "needs the user's agent server at that URL (test/cli/init.test.ts probes the reference)" },
  'npx apc certify --profile apc-profile.yaml': { parsed: 'needs the profile apc init writes for a real target' },
  'export APC_API_KEY=...': { parsed: 'a placeholder for a real key' },
  'npx apc init --control-plane-url https://cp.example.test --agent-server-url https://agent.example.test --tracing-url https://tracing.example.test --tenant-id 6f1c2c1e-... --out target.yaml':
    { parsed: 'example URLs of a real platform' },
  'npx apc certify --profile target.yaml': { parsed: 'needs the profile of a real platform' },
  'npx apc certify --control-plane-url https://cp.example.test --agent-server-url https://agent.example.test --tracing-url https://tracing.example.test --tenant-id 6f1c2c1e-... --control-plane-mode hosted --agent-server-hosting platform':
    { parsed: 'example URLs of a real platform' },
  'npx apc certify --plan --revision-time 14m --interfaces control-plane': {
    run: () => [...APC, 'certify', '--plan', '--revision-time', '14m', '--interfaces', 'control-plane'],
    prints: /control-plane\s+\d+ test\(s\); at most \d+ deployments, \d+ revisions[^]*at 14 min per revision/,
  },
  'npx apc cleanup --profile staging.yaml --yes': { parsed: 'needs a staging target (test/cli/cleanup.test.ts cleans up after runs of the reference)' },
  'npm run contracts:consumers': { parsed: 'npm test runs the same consumer tests (contracts/*.test.ts); here it would write contracts/pacts/' },
  'npx apc contracts verify': { parsed: 'needs the pact files npm run contracts:consumers writes; npm test verifies them against the reference' },
  'npx apc contracts matrix': { parsed: 'needs the pact files npm run contracts:consumers writes' },
  'npm run contracts:publish': { parsed: 'needs a Pact Broker (PACT_BROKER_BASE_URL)' },
  'npx apc selftest --list': { run: () => [...APC, 'selftest', '--list'], prints: /^mutant\s+cp\.\S+\s+control-plane/m },
  "npx apc selftest --only 'cp.*' --kinds mutants": { parsed: 'minutes of CPU; npm test runs the full selftest (test/selftest/selftest.test.ts)' },
  'npx apc serve': { parsed: 'runs until stopped; test/cli/serve-to-certified.test.ts follows the certify line it prints to CERTIFIED' },
};

/**
 * The commands of a Markdown text's sh, bash and console blocks: continued lines joined, comments
 * and comment lines dropped, `a && b` as two commands, spaces collapsed, each once.
 */
export function shellCommands(markdown: string): string[] {
  const commands = new Set<string>();
  for (const [, block] of markdown.matchAll(/```(?:sh|bash|console)\n([^]*?)```/g)) {
    for (const line of block!.replace(/\\\n/g, ' ').split('\n')) {
      const code = line.replace(/(^|\s)#.*$/, '').trim();
      for (const command of code.split(/\s+&&\s+/)) if (command) commands.add(command.replace(/\s+/g, ' '));
    }
  }
  return [...commands];
}

export const isRun = (way: Way): way is Run => 'run' in way;
