// The reference implementation in a child process (`apc serve`), so that the load generator in
// the benchmark's process does not share its event loop, and its memory can be read on its own.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../harness/root.ts';

export interface Grant {
  key: string;
  tenant: string;
}

export interface LoggedRequest {
  /** ms since the epoch */
  time: number;
  method: string;
  url: string;
}

export interface ReferenceProcess {
  requestLog: LoggedRequest[];
  urls: { controlPlane: string; agentServer: string; experimentUpload: string };
  /** Two keys, one tenant each (certification checks tenant scoping with the second). */
  grants: [Grant, Grant];
  pid: number;
  /** Resident set size in MiB (Linux: /proc). */
  rssMiB(): number;
  stop(): Promise<void>;
}

/**
 * With `log`, the process writes fastify's JSON request log to stderr and `requestLog` holds its
 * "incoming request" lines (the harness-overhead benchmark counts the harness's requests in it).
 */
export async function startReferenceProcess(options: { databaseUrl?: string; log?: boolean } = {}): Promise<ReferenceProcess> {
  const grants: [Grant, Grant] = [0, 1].map(() => ({ key: `bench-${randomBytes(12).toString('hex')}`, tenant: randomUUID() })) as [Grant, Grant];
  const args = [join(ROOT, 'bin', 'apc.mjs'), 'serve', '--control-plane-port', '0', '--agent-server-port', '0', '--tracing-port', '0', '--phase-ms', '10', '--stats-delay-ms', '300'];
  for (const g of grants) args.push('--api-key', `${g.key}:${g.tenant}`);
  if (options.databaseUrl) args.push('--database-url', options.databaseUrl);
  if (options.log) args.push('--log');
  const child: ChildProcess = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', options.log ? 'pipe' : 'inherit'] });
  const requestLog: LoggedRequest[] = [];
  let partial = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop()!;
    for (const line of lines) {
      const entry = JSON.parse(line) as { msg?: string; time: number; req?: { method: string; url: string } };
      if (entry.msg === 'incoming request' && entry.req) requestLog.push({ time: entry.time, method: entry.req.method, url: entry.req.url });
    }
  });
  const output = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('Press Ctrl-C')) resolve(text);
    });
    child.once('exit', (code) => reject(new Error(`apc serve exited with ${code} before listening:\n${text}`)));
  });
  const url = (label: string) => {
    const match = new RegExp(`${label}\\s+(http\\S+)`).exec(output);
    if (!match) throw new Error(`apc serve printed no ${label} URL:\n${output}`);
    return match[1]!;
  };
  return {
    urls: { controlPlane: url('control plane'), agentServer: url('agent server'), experimentUpload: url('experiment upload') },
    grants,
    pid: child.pid!,
    requestLog,
    rssMiB() {
      const kib = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1]);
      return kib / 1024;
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
