// A certification of a few requirements loads only the suite files that name them, and never
// leaves a selected requirement out.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { suiteFiles, suiteFilesNaming } from '../../harness/suite-runner/suite-files.ts';
import { scratchDir } from '../support/scratch.ts';

describe('suite files for a selection', () => {
  const dir = scratchDir('suite-files');
  const files = ['a.suite.ts', 'b.suite.ts'].map((name) => join(dir, name));
  writeFileSync(files[0]!, "requirement('CP-READ-001', async () => {});\nfor (const rule of ['CP-CREATE-007', 'CP-CREATE-008'] as const) {}\n");
  writeFileSync(files[1]!, 'requirement("AS-RUN-001", async () => {});\n');

  test('only the files naming a selected id, quoted', () => {
    expect(suiteFilesNaming(files, ['CP-READ-001'])).toEqual([files[0]]);
    expect(suiteFilesNaming(files, ['CP-CREATE-008', 'AS-RUN-001'])).toEqual(files);
  });

  test('a prefix of a named id is not a match (so every file runs)', () => {
    expect(suiteFilesNaming(files, ['CP-READ-00'])).toEqual(files);
  });

  test('every file when some selected id is named in none', () => {
    expect(suiteFilesNaming(files, ['CP-READ-001', 'EU-STAT-001'])).toEqual(files);
  });

  test("one requirement of this repository's suites loads fewer files than all", () => {
    const all = suiteFiles(['control-plane', 'agent-server', 'experiment-upload']);
    expect(suiteFilesNaming(all, ['CP-READ-001']).length).toBeLessThan(all.length);
  });
});
