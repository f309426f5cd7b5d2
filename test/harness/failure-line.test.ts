// Every failure line says what was seen: the status and the body's detail or first bytes, in the
// terminal and in compliance.md (issue: "GET /docs failed." with the 404 only in compliance.json).
import { describe, expect, test } from 'vitest';
import { failureLine, shortSeen } from '../../harness/conformance/failure.ts';

const exchange = (response: string) => ({ curl: 'curl -sS -X GET http://t/docs', response });

describe('failureLine', () => {
  test('the status and the detail of a JSON error body', () => {
    expect(failureLine({ message: 'GET /docs failed.', seen: 'HTTP 404 {"detail":"Not Found"}', exchanges: [] })).toBe('GET /docs failed. Seen: HTTP 404 Not Found');
  });

  test('the first bytes of any other body, on one line', () => {
    const seen = `HTTP 502 <html>\n<body>${'x'.repeat(300)}</body></html>`;
    const line = failureLine({ message: 'Search failed.', seen, exchanges: [] });
    expect(line).toMatch(/^Search failed\. Seen: HTTP 502 <html> <body>x+…$/);
    expect(line.length).toBeLessThan(160);
  });

  test('a seen value that is no answer is shown as it is, shortened', () => {
    expect(failureLine({ message: 'Wrong context.', seen: '{"a":1}', exchanges: [] })).toBe('Wrong context. Seen: {"a":1}');
    expect(shortSeen({ seen: 'no response: ECONNRESET', exchanges: [] })).toBe('no response: ECONNRESET');
  });

  test('without a seen value, the last answer recorded', () => {
    const f = { message: 'Two uploads landed in different datasets.', exchanges: [exchange('HTTP 200 {"ok":true}'), exchange('HTTP 409 {"detail":"conflict"}')] };
    expect(failureLine(f)).toBe('Two uploads landed in different datasets. Seen: last answer HTTP 409 conflict');
  });

  test('only the first line of a message, and a detail that is not a string as JSON', () => {
    const f = { message: 'Invalid body.\nmore', seen: 'HTTP 422 {"detail":[{"loc":["body"],"msg":"bad"}]}', exchanges: [] };
    expect(failureLine(f)).toBe('Invalid body. Seen: HTTP 422 [{"loc":["body"],"msg":"bad"}]');
  });
});
