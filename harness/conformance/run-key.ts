// How a suite file's id names the certification it belongs to in a shared vitest run (apc
// selftest, harness/suite-runner/batches.ts): `<suite>.suite.ts?apc-run=<key>`. Read by the suite
// workers (run-of-file.ts) and by the certifying process (to route results, to read the file).

/** The query parameter of a suite file's id that names its run in a shared vitest run. */
export const RUN_KEY = 'apc-run';

/** The file id of suite `file` for the run with `key`. */
export function fileOfRun(file: string, key: string): string {
  return `${file}?${RUN_KEY}=${encodeURIComponent(key)}`;
}

/** The run key of a suite file id, and the file's path without it. */
export function splitRunKey(fileId: string): { file: string; key?: string } {
  const at = fileId.indexOf(`?${RUN_KEY}=`);
  if (at === -1) return { file: fileId };
  return { file: fileId.slice(0, at), key: decodeURIComponent(fileId.slice(at + RUN_KEY.length + 2)) };
}
