// The order in which a run starts its suite files. Each worker runs its files one after another,
// so the file with the longest chain of revision waits must start first: started in a later round
// it adds its chain to the files before it, and on a real platform every wait is a build of
// minutes. A test that waits for revisions declares the deploy deadline, once per wait in a row
// (`timeout: 'deploy'` or `deployTimeout(n)`, harness/conformance/requirement.ts); files are ranked
// by the longest such chain they declare, and within a rank keep vitest's order (the files that
// took longest last time, else the larger ones).
import { readFileSync } from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { splitRunKey } from '../conformance/run-key.ts';

/** The most revision waits in a row that one test of the suite source declares (0: it waits for none). */
export function declaredWaits(source: string): number {
  const counted = [...source.matchAll(/deployTimeout\((\d+)\)/g)].map((m) => Number(m[1]));
  const single = /timeout: 'deploy'/.test(source) ? [1] : [];
  return Math.max(0, ...counted, ...single);
}

export class LongestWaitsFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const waits = new Map(sorted.map((file) => [file.moduleId, declaredWaits(readFileSync(splitRunKey(file.moduleId).file, 'utf8'))]));
    // Array.prototype.sort is stable: files of one rank keep vitest's order.
    return sorted.sort((a, b) => waits.get(b.moduleId)! - waits.get(a.moduleId)!);
  }
}
