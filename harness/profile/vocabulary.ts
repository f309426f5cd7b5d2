// The spec writes neutral words (`gitforge`, `cluster_namespace`, ...) where a product name stands
// in an identifier. A target spells them its own way; the profile's vocabulary maps each neutral
// word to the target's spelling. Requests are translated on the way out, responses on the way
// back, so suites are written in the spec's words only.

export type Vocabulary = Record<string, string>;

function swap(map: Vocabulary): Vocabulary {
  return Object.fromEntries(Object.entries(map).map(([k, v]) => [v, k]));
}

function translateValue(value: unknown, map: Vocabulary): unknown {
  if (typeof value === 'string') return map[value] ?? value;
  if (Array.isArray(value)) return value.map((v) => translateValue(v, map));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [map[k] ?? k, translateValue(v, map)]));
  }
  return value;
}

/** Path segments equal to a neutral word are renamed: `/v1/integrations/gitforge/install`. */
function translatePath(path: string, map: Vocabulary): string {
  return path
    .split('/')
    .map((segment) => map[segment] ?? segment)
    .join('/');
}

export interface Translator {
  outgoingBody(body: unknown): unknown;
  incomingBody(body: unknown): unknown;
  path(path: string): string;
}

export function translator(vocabulary: Vocabulary): Translator {
  const identity = Object.keys(vocabulary).length === 0;
  const back = swap(vocabulary);
  return {
    outgoingBody: (body) => (identity ? body : translateValue(body, vocabulary)),
    incomingBody: (body) => (identity ? body : translateValue(body, back)),
    path: (path) => (identity ? path : translatePath(path, vocabulary)),
  };
}
