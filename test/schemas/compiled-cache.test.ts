// The validators kept on disk (schemas/compiled-cache.ts) judge as those compiled in the process:
// the same verdict and the same problems, word for word, for every schema, on values of every shape.
import fc from 'fast-check';
import { rmSync } from 'node:fs';
import { afterAll, expect, test } from 'vitest';
import { cachedValidators, cacheFile } from '../../schemas/compiled-cache.ts';
import { newLoader, schemaNames, schemas } from '../../schemas/index.ts';

const key = `test-${process.pid}-${Date.now()}`;
afterAll(() => rmSync(cacheFile(key), { force: true }));

test('the code read back from the cache judges every schema as the compiled validators do', () => {
  const ids = Object.fromEntries(schemaNames.map((name) => [name, (schemas[name] as { $id: string }).$id]));
  const loader = newLoader('all');
  const compiled = cachedValidators(key, loader.formats, ids, () => loader);
  const read = cachedValidators(key, loader.formats, ids, () => {
    throw new Error('the file written by the first call should have been read, not compiled again');
  });
  // The first call compiled (its validators keep their source) and wrote the file; the second read it.
  expect(compiled?.['Deployment']?.source).toBeDefined();
  expect(read?.['Deployment']?.source).toBeUndefined();
  const values = [{}, [], null, 'text', 0, ...fc.sample(fc.anything({ maxDepth: 3, withNullPrototype: false }), { seed: 7, numRuns: 40 })];
  let failed = 0;
  for (const name of schemaNames) {
    for (const value of values) {
      const verdict = compiled![name]!(value);
      expect({ name, verdict: read![name]!(value), errors: read![name]!.errors }).toEqual({ name, verdict, errors: compiled![name]!.errors });
      if (!verdict) failed += 1;
    }
  }
  // Broken values were among them, so problems were compared too.
  expect(failed).toBeGreaterThan(schemaNames.length);
});
