// Before any suite runs, each target URL must answer something within a few seconds. A
// refused connection or a silent host ends the run with exit code 2 and a message saying what
// to check, instead of hundreds of identical failures.
import { request } from 'undici';
import type { InterfaceName } from '../profile.ts';

export interface Unreachable {
  interface: InterfaceName;
  url: string;
  problem: string;
}

export async function checkReachable(urls: Partial<Record<InterfaceName, string>>, timeoutMs = 5_000): Promise<Unreachable[]> {
  const checks = Object.entries(urls).map(async ([iface, url]): Promise<Unreachable | undefined> => {
    try {
      const response = await request(url!, { method: 'GET', signal: AbortSignal.timeout(timeoutMs) });
      await response.body.dump();
      return undefined;
    } catch (error) {
      const e = error as { name?: string; code?: string; cause?: { code?: string }; message?: string };
      const code = e.cause?.code ?? e.code;
      const problem =
        e.name === 'TimeoutError' || e.name === 'AbortError'
          ? `no answer within ${timeoutMs} ms`
          : code === 'ECONNREFUSED'
            ? 'connection refused (nothing listens there)'
            : code === 'ENOTFOUND'
              ? 'host name not found'
              : `${code ?? ''} ${e.message ?? String(error)}`.trim();
      return { interface: iface as InterfaceName, url: url!, problem };
    }
  });
  return (await Promise.all(checks)).filter((u): u is Unreachable => u !== undefined);
}
