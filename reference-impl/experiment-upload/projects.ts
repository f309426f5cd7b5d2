// Tracing projects (spec 1.A: creating a deployment creates a tracing project with the same
// name). A project is a session without a reference dataset, listed by GET /api/v1/sessions.
// Session names are unique per tenant across projects and experiments, as on the real platform.
import { randomUUID } from 'node:crypto';
import type { TracingProjects } from '../context.ts';
import { conflict } from '../http-errors.ts';
import { formatMicros, nowMicros } from './datetime.ts';
import { sessionStats } from './statistics.ts';
import type { UploadStore } from './store.ts';

export function tracingProjects(store: UploadStore): TracingProjects {
  return {
    async createProject(tenantId, name, within) {
      await store.transaction(tenantId, async (tx) => {
        const existing = await tx.sessionByName(name);
        if (existing) {
          throw conflict(`A ${existing.kind === 'project' ? 'tracing project' : 'experiment'} named "${name}" already exists in this workspace (session ${existing.id}); choose another name.`);
        }
        const start = nowMicros();
        await tx.insertSession({
          id: randomUUID(),
          tenantId,
          kind: 'project',
          name,
          description: null,
          start,
          end: null,
          extra: null,
          referenceDatasetId: null,
          testRunNumber: null,
          sessionFeedback: [],
          stats: sessionStats([], []),
          statsDueAtMs: 0,
          createdAt: formatMicros(start),
        });
      }, within);
    },
    async deleteProject(tenantId, name) {
      await store.transaction(tenantId, async (tx) => {
        const existing = await tx.sessionByName(name);
        if (existing?.kind === 'project') await tx.deleteSession(existing.id);
      });
    },
  };
}
