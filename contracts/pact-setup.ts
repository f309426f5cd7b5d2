// What every consumer test here shares: where pact files go, the Pact V4 instance, and how an
// interaction names the requirements (requirements/*.yaml) it relies on.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { PactV4, SpecificationVersion } from '@pact-foundation/pact';
import { inject } from 'vitest';
import { DEFAULT_PACT_DIR } from '../harness/pact/pact-files.ts';

/**
 * Pact files are written here by the consumer tests: contracts/pacts/ (not committed) for
 * `npm run contracts:consumers`, which `apc contracts verify` reads by default; under `npm test`, a
 * temporary folder of the test run (test/support/global-setup.ts), so the tests leave the checkout
 * as they found it.
 */
export const PACT_DIR = inject('pactDir') ?? DEFAULT_PACT_DIR;

/** The comment key under which an interaction lists its requirement ids, space-separated. */
export const REQUIREMENTS_COMMENT = 'requirements';

/** The file the consumer tests of this pair write. */
export function pactFile(consumer: string, provider: string): string {
  return join(PACT_DIR, `${consumer}-${provider}.json`);
}

/**
 * A new pact for the pair. Pact merges into an existing file, so the old one is removed first:
 * a renamed or deleted interaction must not linger in the contract.
 */
export function consumerPact(consumer: string, provider: string): PactV4 {
  rmSync(pactFile(consumer, provider), { force: true });
  return new PactV4({ consumer, provider, dir: PACT_DIR, spec: SpecificationVersion.SPECIFICATION_VERSION_V4, logLevel: 'warn' });
}

/** The requirement ids an interaction relies on, as an interaction comment. */
export function reliesOn(...ids: string[]): { key: string; value: string } {
  return { key: REQUIREMENTS_COMMENT, value: ids.join(' ') };
}

interface TextBodyTarget {
  interaction: { withResponseBody(body: string, contentType: string): boolean };
}

/**
 * A response body stored as text of the given content type. pact-js 16 has no text-body method
 * in its V4 builder: `body()` stores bytes with a content-type matcher, which detects an event
 * stream as text/plain and fails it; the core's text-body call, which `jsonBody()` also uses,
 * keeps the content type as given.
 */
export function textResponseBody<B>(builder: B, contentType: string, text: string): B {
  (builder as unknown as TextBodyTarget).interaction.withResponseBody(text, contentType);
  return builder;
}

interface MockServerRecord {
  pact: { mockServerMatchedSuccessfully(port: number): boolean };
}

/** How long `answered` waits for the mock server's record of what it answered. */
const RECORD_WAIT_MS = 2_000;

/**
 * An interaction's client code, then a wait until the mock server has recorded every request it
 * expected. pact's mock server (pact-js 16.3 and later) answers a request first and records the
 * match on a task of its own; `executeTest` reads the record as soon as the client code ends, so
 * on a loaded machine it reported requests it had answered as "expected but not received" (seen
 * in CI: the client had its answer; upstream, pact-foundation/pact-reference#535). The wait ends as
 * soon as the record is complete, and after two seconds at most: a request the client really did
 * not send still fails the test.
 */
export function answered<S extends { port: number }>(pact: PactV4, client: (server: S) => Promise<unknown>): (server: S) => Promise<unknown> {
  return async (server) => {
    const result = await client(server);
    const record = (pact as unknown as MockServerRecord).pact;
    const until = Date.now() + RECORD_WAIT_MS;
    while (!record.mockServerMatchedSuccessfully(server.port) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
    return result;
  };
}
