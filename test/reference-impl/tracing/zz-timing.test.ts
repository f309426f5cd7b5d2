import { it, expect } from 'vitest';
import { row, upload } from './bodies.ts';
import { startOn } from './tracing-server.ts';
it.each(['memory', 'postgres'] as const)('big upload %s', async (backend) => {
  const s = await startOn(backend);
  const rows = Array.from({ length: 20000 }, () => row());
  const body = upload({ results: rows });
  console.log('bytes', JSON.stringify(body).length);
  let t = Date.now();
  const r = await s.request('POST', '/api/v1/datasets/upload-experiment', body);
  console.log(backend, r.status, Date.now() - t, 'ms');
  t = Date.now();
  const r2 = await s.request('GET', `/api/v1/datasets/${r.body.dataset.id}`);
  console.log('get', r2.status, Date.now() - t);
  await s.close();
  expect(r.status).toBe(200);
});
