// The one test for "a JSON object" (not null, not an array), shared by the harness, the
// generators, the suites and the reference implementation.
export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
