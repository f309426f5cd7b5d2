// Entry point of the `apc` command. Each command's module is imported when it runs, so
// `apc help` or `apc --version` loads neither vitest nor the reference implementation.
import type { CommandIo } from './command.ts';
import { withStopSignals } from '../run/run-stop.ts';
import { CERTIFY_USAGE, CLEANUP_USAGE, CONTRACTS_USAGE, INIT_USAGE, MAIN_USAGE, REPORT_USAGE, SELFTEST_USAGE, SERVE_USAGE } from './usage.ts';
import { harnessVersion } from '../version.ts';
import { closest } from '../closest.ts';
import { apcCommand } from '../apc-command.ts';

/** The commands, for a mistyped one's "did you mean". */
const COMMANDS = ['certify', 'init', 'cleanup', 'serve', 'report', 'contracts', 'selftest', 'help'];

function stopSignal(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}

export async function main(argv: string[], io: CommandIo = defaultIo()): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'certify':
      return withStopSignals(async (stop) => (await import('./certify.ts')).certify(rest, io, stop));
    case 'init':
      return (await import('./init.ts')).init(rest, io);
    case 'cleanup':
      return (await import('./cleanup.ts')).cleanup(rest, io);
    case 'serve':
      return (await import('./serve.ts')).serve(rest, io, stopSignal());
    case 'report':
      return (await import('./report.ts')).report(rest, io);
    case 'contracts':
      return (await import('./contracts.ts')).contracts(rest, io);
    case 'selftest':
      return withStopSignals(async (stop) => (await import('./selftest.ts')).selftest(rest, io, stop));
    case '--version':
    case '-v':
      io.out.write(`${harnessVersion()}\n`);
      return 0;
    case undefined:
    case 'help':
    case '--help':
    case '-h': {
      const topics: Record<string, string> = { certify: CERTIFY_USAGE, init: INIT_USAGE, serve: SERVE_USAGE, report: REPORT_USAGE, contracts: CONTRACTS_USAGE, cleanup: CLEANUP_USAGE, selftest: SELFTEST_USAGE };
      io.out.write(topics[rest[0] ?? ''] ?? MAIN_USAGE);
      return 0;
    }
    default: {
      const near = closest(command, COMMANDS, 1)[0];
      io.err.write(`apc: unknown command "${command}".${near ? ` Did you mean \`${apcCommand()} ${near}\`?` : ''}\n\n${MAIN_USAGE}`);
      return 2;
    }
  }
}

function defaultIo(): CommandIo {
  // Output piped into a reader that stopped (`apc selftest --list | head`): stop writing, not crash.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
    });
  }
  return {
    out: { write: (text) => void process.stdout.write(text) },
    err: { write: (text) => void process.stderr.write(text) },
    env: process.env,
  };
}
