// The Pact verification of one pact in a child process (verifier-child.ts). Pact's native verifier
// writes its own account of every interaction, colours and "There were N pact failures" included,
// straight to its process's standard output; no option of it turns that off. In a child, that
// output is captured: `apc contracts verify` prints one line per interaction of its own, and the
// deliberately broken providers of the project's tests no longer print as failures. The captured
// text is shown only when the verifier could not run.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { redactor } from '../redact.ts';
import { ROOT } from '../root.ts';
import type { PactFile } from './pact-files.ts';
import { ContractsError, type InteractionResult, type VerifyOptions } from './verify.ts';

/** What the parent sends the child on its standard input (the profile holds the key: never argv). */
export interface VerifyJob {
  pact: PactFile;
  options: VerifyOptions;
}

/** What the child writes to file descriptor 3: the results, or why it could not verify. */
export type VerifyAnswer = { results: InteractionResult[] } | { error: string; contracts: boolean };

/** The last part of the verifier's own output, for a message saying why it could not run. */
const SHOWN_OUTPUT = 4_000;

export async function verifyPact(pact: PactFile, options: VerifyOptions): Promise<InteractionResult[]> {
  const tsx = import.meta.resolve('tsx');
  const child = spawn(process.execPath, ['--import', tsx, join(ROOT, 'harness', 'pact', 'verifier-child.ts')], {
    env: { ...process.env, PACT_DO_NOT_TRACK: process.env.PACT_DO_NOT_TRACK ?? 'true' },
    stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
  });
  let output = '';
  let answer = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  (child.stdio[3] as NodeJS.ReadableStream).on('data', (d: Buffer) => (answer += d.toString()));
  child.stdin!.end(JSON.stringify({ pact, options } satisfies VerifyJob));
  const code = await new Promise<number | null>((done) => child.on('close', done));
  let parsed: VerifyAnswer | undefined;
  try {
    parsed = JSON.parse(answer) as VerifyAnswer;
  } catch {
    parsed = undefined;
  }
  if (parsed && 'results' in parsed) return parsed.results;
  if (parsed?.contracts) throw new ContractsError(parsed.error);
  const why = parsed ? parsed.error : `its process ended with ${code} and no results`;
  throw new Error(redactor.text(`The Pact verifier failed for ${pact.path}: ${why}\nIts output:\n${output.slice(-SHOWN_OUTPUT)}`));
}
