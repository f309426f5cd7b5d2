// Small values of control-plane payloads: deployment names, secrets, URLs, ids.
import fc from 'fast-check';
import { matching } from '../matching.ts';
import type { Secret, SecretReference } from '../../schemas/index.ts';

// Built once: fast-check compiles a regular expression into an arbitrary in tens of
// milliseconds, and the suites make a create body's arbitrary many times in a run.
const nameSuffix = matching(/^[a-z0-9]{1,6}(-[a-z0-9]{1,4})?$/);

/**
 * Names as the real platform accepts them (lowercase letters, digits and `-`), starting with the
 * caller's run prefix so a run only ever touches what it created.
 */
export const deploymentName = (prefix: string): fc.Arbitrary<string> => nameSuffix.map((suffix) => `${prefix}-${suffix}`);

/**
 * Secrets with names no platform reserves (`APC_...`) and values distinctive enough to redact
 * safely from reports (every secret value sent is redacted wherever it appears).
 */
export const secrets: fc.Arbitrary<Secret[]> = fc.uniqueArray(
  fc.record({
    name: matching(/^APC_[A-Z][A-Z0-9_]{0,9}$/),
    value: matching(/^[A-Za-z0-9]{8,16}$/).map((v) => `sv-${v}`),
  }),
  { maxLength: 3, selector: (s) => s.name },
);

export const nonEmptySecrets: fc.Arbitrary<Secret[]> = secrets.filter((list) => list.length > 0);

export const secretReferences: fc.Arbitrary<SecretReference[]> = fc.uniqueArray(
  fc.record({
    name: matching(/^APC_REF_[A-Z0-9]{1,6}$/),
    secret_name: matching(/^[a-z][a-z0-9-]{0,10}[a-z0-9]$/),
    secret_key: matching(/^[a-z][a-z0-9_]{0,10}$/),
  }),
  { minLength: 1, maxLength: 2, selector: (r) => r.name },
);

export const uuid: fc.Arbitrary<string> = fc.uuid({ version: 4 });

/** A URL under a reserved domain, so nothing real is ever named. */
export const exampleUrl: fc.Arbitrary<string> = matching(/^[a-z][a-z0-9-]{0,10}[a-z0-9]$/).map((host) => `https://${host}.example.com`);

/** A tag ref (`refs/tags/...`, spec 2.3). */
export const tagRef: fc.Arbitrary<string> = matching(/^v[0-9]{1,2}\.[0-9]{1,2}\.[0-9]{1,2}$/).map((tag) => `refs/tags/${tag}`);

/** An object path no upload-url call handed out. */
export const arbitraryTarballPath: fc.Arbitrary<string> = fc.oneof(
  matching(/^[a-z0-9]{4,12}\.tar\.gz$/),
  matching(/^[a-z0-9]{1,8}\/[a-z0-9]{1,8}\/[a-z0-9]{4,12}\.tar\.gz$/),
  fc.constantFrom('/etc/passwd', '../../other-tenant/source.tar.gz', 'gs://bucket/source.tar.gz'),
);

/**
 * An optional nullable field: left out, sent as null, or sent with a value. The three spellings
 * of "given or not" a server must treat alike.
 */
export function optionalNullable<T>(value: fc.Arbitrary<T>): fc.Arbitrary<T | null | undefined> {
  return fc.oneof(fc.constant(undefined), fc.constant(null), value);
}

/** Drops keys whose value is undefined, so "left out" is really left out of the JSON. */
export function compact<T extends Record<string, unknown>>(record: T): T {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)) as T;
}
