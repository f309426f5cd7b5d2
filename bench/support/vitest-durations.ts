// Where `npm test`'s minutes went: vitest keeps each test file's last duration in its cache
// (node_modules/.vite/vitest/<hash>/results.json, used to order the next run), written when a run ends.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Each test file's duration in seconds from the checkout's vitest cache, longest first (none if no run was cached). */
export function fileDurations(checkout: string): { file: string; seconds: number }[] {
  const cache = join(checkout, 'node_modules', '.vite', 'vitest');
  if (!existsSync(cache)) return [];
  return (
    readdirSync(cache)
      .map((hash) => join(cache, hash, 'results.json'))
      .filter((file) => existsSync(file))
      .flatMap((file) => (JSON.parse(readFileSync(file, 'utf8')) as { results: [string, { duration?: number }][] }).results)
      // apc selftest's shared suite runs cache their suites in the same file, as `<suite>?apc-run=N`.
      .filter(([key]) => !key.includes('?'))
      .map(([key, result]) => ({ file: key.replace(/^[^:]*:/, ''), seconds: Math.round((result.duration ?? 0) / 100) / 10 }))
      .sort((a, b) => b.seconds - a.seconds)
  );
}
