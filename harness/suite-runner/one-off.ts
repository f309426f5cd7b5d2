// The plain SuiteRunner (suite-runner.ts), `apc certify`'s: a vitest instance and its fork workers
// for one certification, ended with it.
import type { TestOutcome } from '../report/compliance.ts';
import { OutcomeCollector } from './outcome-collector.ts';
import { runFiles } from './suite-files.ts';
import type { SuiteRunner } from './suite-runner.ts';
import { runToEnd, suiteVitest, withoutVitestSignals } from './suite-vitest.ts';

export const oneOffRunner: SuiteRunner = {
  async run(options) {
    const files = runFiles(options.interfaces, options.ids);
    if (files.length === 0 || options.ids.length === 0) return { outcomes: [], errors: [], stopped: false };
    // A worker beyond one per file would start for nothing.
    const workers = Math.max(1, Math.min(options.workers, files.length));
    const collector = new OutcomeCollector(options.redactor, options.listener);
    const vitest = await withoutVitestSignals(() => suiteVitest(options, workers, [collector]));
    let endedBeforeStop: TestOutcome[] | undefined;
    const stop = options.stop?.then(() => {
      endedBeforeStop = [...collector.outcomes];
    });
    await runToEnd(vitest, vitest.start(files), stop, () => endedBeforeStop !== undefined);
    // After a stop, only the tests that ended before it count: those cut short judged nothing.
    if (endedBeforeStop) return { outcomes: endedBeforeStop, errors: [], stopped: true };
    return { outcomes: collector.outcomes, errors: collector.errors, stopped: false };
  },
};
