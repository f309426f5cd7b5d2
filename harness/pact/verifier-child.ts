// The child process of verifier-process.ts: reads a job (a pact and the verify options) from
// standard input, verifies it here, where Pact's native verifier may print what it likes to a
// standard output the parent captures, and writes the answer as JSON to file descriptor 3.
import { readFileSync, writeSync } from 'node:fs';
import { profileSecrets } from '../profile/profile.ts';
import { redactor } from '../redact.ts';
import type { VerifyAnswer, VerifyJob } from './verifier-process.ts';
import { ContractsError, verifyHere } from './verify.ts';

const job = JSON.parse(readFileSync(0, 'utf8')) as VerifyJob;
redactor.add(...profileSecrets(job.options.profile));
let answer: VerifyAnswer;
try {
  answer = { results: await verifyHere(job.pact, job.options) };
} catch (error) {
  const contracts = error instanceof ContractsError;
  const text = contracts || !(error instanceof Error) ? String(error instanceof Error ? error.message : error) : (error.stack ?? error.message);
  answer = { error: redactor.text(text), contracts };
}
writeSync(3, JSON.stringify(answer));
// The verifier's native threads may outlive the verification: the answer is written, so end here.
process.exit(0);
