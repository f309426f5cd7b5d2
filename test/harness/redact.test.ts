import { describe, expect, test } from 'vitest';
import { Redactor, REDACTED } from '../../harness/redact.ts';
import { toCurl } from '../../harness/http/curl.ts';
import type { Exchange } from '../../harness/http/exchange.ts';

describe('Redactor', () => {
  test('replaces every registered secret wherever it appears', () => {
    const r = new Redactor();
    r.add('sk-live-123456');
    expect(r.text('key=sk-live-123456; again sk-live-123456')).toBe(`key=${REDACTED}; again ${REDACTED}`);
  });

  test('registers the values of secrets arrays found anywhere in a body', () => {
    const r = new Redactor();
    r.addFromBody({ name: 'd', secrets: [{ name: 'OPENAI_KEY', value: 'hunter2-secret' }], nested: { secrets: [{ name: 'X', value: 'other-value' }] } });
    expect(r.text('{"value":"hunter2-secret","v":"other-value"}')).toBe(`{"value":"${REDACTED}","v":"${REDACTED}"}`);
    expect(r.text('OPENAI_KEY')).toBe('OPENAI_KEY');
  });

  test('also catches the JSON-escaped form of a secret', () => {
    const r = new Redactor();
    r.add('a"quoted\\secret');
    expect(r.text(JSON.stringify({ v: 'a"quoted\\secret' }))).toBe(`{"v":"${REDACTED}"}`);
  });

  test('ignores values too short to be secrets, and regex metacharacters are literal', () => {
    const r = new Redactor();
    r.add('ab', 'x.y*z+(1)');
    expect(r.text('ab xAyyz x.y*z+(1)')).toBe(`ab xAyyz ${REDACTED}`);
  });

  test('with thousands of secrets (a kept suite worker collects them), every one is replaced, a longer one whole', () => {
    const r = new Redactor();
    const many = Array.from({ length: 1_600 }, (_, i) => `secret-${String(i).padStart(5, '0')}`);
    // The longest holds a short one that sorts into another of the patterns.
    r.add(...many, `${many[1_599]}-and-more`);
    expect(r.text(`a ${many[0]} b ${many[799]} c ${many[1_599]}-and-more d ${many[1_599]} e`)).toBe(
      `a ${REDACTED} b ${REDACTED} c ${REDACTED} d ${REDACTED} e`,
    );
  });

  test('redacts deep values without touching the input', () => {
    const r = new Redactor();
    r.add('topsecret');
    const input = { a: ['topsecret', 1, null], b: { c: 'x topsecret' } };
    expect(r.value(input)).toEqual({ a: [REDACTED, 1, null], b: { c: `x ${REDACTED}` } });
    expect(input.a[0]).toBe('topsecret');
  });
});

describe('curl rendering', () => {
  const exchange: Exchange = {
    interface: 'control-plane',
    request: {
      method: 'POST',
      url: 'http://127.0.0.1:8100/v2/deployments',
      headers: { 'X-Api-Key': 'key-that-must-not-show', 'Content-Type': 'application/json', 'X-Tenant-Id': 't1' },
      body: JSON.stringify({ name: "it's", secrets: [{ name: 'A', value: 'curl-secret-value' }] }),
    },
    startedAt: new Date(0).toISOString(),
    durationMs: 1,
  };

  test('renders a runnable line with the key as a shell variable and secrets redacted', () => {
    const redactor = new Redactor();
    redactor.add('curl-secret-value');
    const line = toCurl(exchange, redactor);
    expect(line).toContain(`curl -sS -X POST 'http://127.0.0.1:8100/v2/deployments'`);
    expect(line).toContain('"X-Api-Key: $APC_API_KEY"');
    expect(line).not.toContain('key-that-must-not-show');
    expect(line).not.toContain('curl-secret-value');
    expect(line).toContain(`'X-Tenant-Id: t1'`);
    // A single quote in the body is closed, escaped and reopened for the shell.
    expect(line).toContain(`it'\\''s`);
  });
});
