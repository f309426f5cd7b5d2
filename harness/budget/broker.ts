// The run's pool, held by the certifying process and shared by all its suite workers: a small
// HTTP service on the loopback interface over one lease table (harness/budget/lease-table.ts).
// Its address reaches the workers through the run context (`poolUrl`); a path no one can guess
// keeps other local processes out, as the pooled exchanges carry what the target answered.
//
// POST <url>/lease {key, group?} answers once the key is leased to the asker: {token, value?}, which may
// be minutes later (another test holds it). POST <url>/release {token, value?, drop?}. The run's
// budget (harness/budget/ledger.ts): POST <url>/spend {deployments?, revisions?} answers
// {reservation: granted | wait | spent, created}; POST <url>/settle {reserved, created}. A worker
// that goes away while waiting leaves the queue; one that goes away holding a lease is a run being
// stopped, which ends the pool with it.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LeaseTable, type Release } from '../budget/lease-table.ts';
import { BUDGET_KINDS, BudgetLedger, type Spend } from '../budget/ledger.ts';
import type { Budget } from '../profile/profile.ts';

export interface PoolBroker {
  /** The base URL the workers lease from (run context `poolUrl`). */
  url: string;
  close(): Promise<void>;
}

async function bodyOf(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const json: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
  if (json === null || typeof json !== 'object') throw new Error('the body is not a JSON object');
  return json as Record<string, unknown>;
}

function answer(res: ServerResponse, status: number, json: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
}

/** A spend of the budget as the workers send it: counts of deployments and revisions. */
function spendOf(value: unknown): Spend {
  const counts = (value ?? {}) as Record<string, unknown>;
  const spend: Spend = {};
  for (const k of BUDGET_KINDS) {
    const n = counts[k];
    if (n !== undefined && !(Number.isInteger(n) && (n as number) >= 0)) throw new Error(`${k}: a count (0 or more) is required`);
    if (n !== undefined) spend[k] = n as number;
  }
  return spend;
}

async function handle(table: LeaseTable, ledger: BudgetLedger, prefix: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const route = req.method === 'POST' && req.url?.startsWith(`${prefix}/`) ? req.url.slice(prefix.length + 1) : undefined;
  if (route !== 'lease' && route !== 'release' && route !== 'spend' && route !== 'settle') return answer(res, 404, { error: 'not found' });
  const body = await bodyOf(req);
  if (route === 'spend') return answer(res, 200, { reservation: ledger.reserve(spendOf(body)), created: ledger.created });
  if (route === 'settle') {
    ledger.settle(spendOf(body.reserved), spendOf(body.created));
    return answer(res, 200, { created: ledger.created });
  }
  if (route === 'release') {
    if (typeof body.token !== 'string') return answer(res, 400, { error: 'token: a string is required' });
    const release: Release = { ...(body.value !== undefined ? { value: body.value } : {}), ...(body.drop === true ? { drop: true } : {}) };
    return answer(res, 200, { released: table.release(body.token, release) });
  }
  if (typeof body.key !== 'string' || body.key === '') return answer(res, 400, { error: 'key: a non-empty string is required' });
  const gone = new AbortController();
  res.on('close', () => gone.abort());
  const granted = await table.lease(body.key, gone.signal, typeof body.group === 'string' ? body.group : undefined);
  // Granted to a worker that went away meanwhile: the next in the queue gets it.
  if (res.destroyed) table.release(granted.token);
  else answer(res, 200, granted);
}

/** Starts the run's pool, with the run's budget, on a free loopback port. */
export async function startPoolBroker(budget: Budget = {}): Promise<PoolBroker> {
  const table = new LeaseTable();
  const ledger = new BudgetLedger(budget);
  const prefix = `/${randomBytes(16).toString('hex')}`;
  const server = createServer((req, res) => {
    handle(table, ledger, prefix, req, res).catch((error: unknown) => {
      if (!res.headersSent && !res.destroyed) answer(res, 400, { error: error instanceof Error ? error.message : String(error) });
    });
  });
  // A lease may be waited for as long as a test on the same deployment runs: no request deadline.
  server.requestTimeout = 0;
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${prefix}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
