// Proxy rules of a target that does not check keys, shared by the interfaces' key mutants: the
// proxy puts the valid key on requests the target should have refused.
import type { ProxyRules } from '../../proxy/proxy.ts';
import type { TargetKeys } from '../subjects.ts';

/** A request without a key header is served as if it carried the valid key. */
export function missingKeyServed({ apiKey }: TargetKeys, header: string): ProxyRules {
  return { request: (r) => (r.headers[header] === undefined ? { ...r, headers: { ...r.headers, [header]: apiKey } } : r) };
}

/** A request whose key is neither tenant's is served as if it carried the valid key. */
export function anyKeyServed({ apiKey, otherApiKey }: TargetKeys, header: string): ProxyRules {
  return {
    request: (r) => {
      const key = r.headers[header];
      return key !== undefined && key !== apiKey && key !== otherApiKey ? { ...r, headers: { ...r.headers, [header]: apiKey } } : r;
    },
  };
}
