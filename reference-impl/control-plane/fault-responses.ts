// Fault switches that change error bodies after they are made (faults.md).
import type { FastifyInstance } from 'fastify';
import type { FaultCheck } from './faults.ts';

function detailOf(payload: unknown): unknown {
  try {
    return (JSON.parse(String(payload)) as { detail?: unknown }).detail;
  } catch {
    return undefined;
  }
}

export function installFaultResponses(app: FastifyInstance, faults: FaultCheck): void {
  if (!faults('cp.not-found-plain-text') && !faults('cp.validation-as-400')) return;
  app.addHook('onSend', async (_request, reply, payload) => {
    if (reply.statusCode === 404 && faults('cp.not-found-plain-text')) {
      // FAULT cp.not-found-plain-text: 404 bodies are plain text, not `{detail}`.
      reply.type('text/plain; charset=utf-8');
      return String(detailOf(payload) ?? 'Not Found');
    }
    if (reply.statusCode === 422 && faults('cp.validation-as-400')) {
      // FAULT cp.validation-as-400: schema violations answered 400 with a string detail.
      const detail = detailOf(payload);
      const text = Array.isArray(detail) ? detail.map((d: { msg?: unknown }) => String(d.msg)).join('; ') : String(detail);
      reply.code(400);
      return JSON.stringify({ detail: text });
    }
    return payload;
  });
}
