// The experiment-upload API's routes (spec 4.3, plus the reads a client needs to see what an upload made
// and the tracing project of each deployment). Every route needs `x-api-key` (app.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { tenantOf, type AuthConfig } from '../auth.ts';
import { notFound } from '../http-errors.ts';
import { createDataset, readDatasetCreate } from './dataset-create.ts';
import { formatMicros, nowMicros } from './datetime.ts';
import type { FaultCheck } from './faults.ts';
import { pathUuid, QueryReader, type Query } from './params.ts';
import type { UploadStore } from './store.ts';
import { readUpload } from './upload-request.ts';
import { storeUpload } from './upload.ts';
import { datasetView, sessionView } from './views.ts';

export interface RouteDeps {
  store: UploadStore;
  auth: AuthConfig;
  faults: FaultCheck;
  statsDelayMs: number;
}

type IdRequest = FastifyRequest<{ Params: { id: string } }>;
type QueryRequest = FastifyRequest<{ Querystring: Query }>;

export function registerRoutes(app: FastifyInstance, { store, auth, faults, statsDelayMs }: RouteDeps): void {
  const tenant = (request: FastifyRequest) => tenantOf(auth, request);

  app.post('/api/v1/datasets/upload-experiment', async (request) => {
    const tenantId = tenant(request);
    const input = readUpload(request.body, faults, formatMicros(nowMicros()));
    const { dataset, experiment } = await storeUpload(store, tenantId, input, { faults, statsDelayMs });
    const body = { dataset: datasetView(dataset), experiment: sessionView(experiment, Date.now(), faults) };
    // FAULT eu.missing-dataset-in-response: the response leaves out `dataset`.
    return faults('eu.missing-dataset-in-response') ? { experiment: body.experiment } : body;
  });

  app.post('/api/v1/datasets', async (request) => {
    const tenantId = tenant(request);
    return datasetView(await createDataset(store, tenantId, readDatasetCreate(request.body)));
  });

  app.get('/api/v1/datasets', async (request: QueryRequest) => {
    const tenantId = tenant(request);
    const query = new QueryReader(request.query);
    const filter = { name: query.string('name'), ...query.page() };
    query.done();
    return (await store.listDatasets(tenantId, filter)).map(datasetView);
  });

  app.get('/api/v1/datasets/:id', async (request: IdRequest) => {
    const tenantId = tenant(request);
    const id = pathUuid(request.params.id, 'dataset_id');
    const found = await store.getDataset(tenantId, id);
    if (!found) throw notFound(`Dataset ${id} not found.`);
    return datasetView(found);
  });

  app.delete('/api/v1/datasets/:id', async (request: IdRequest, reply) => {
    const tenantId = tenant(request);
    const id = pathUuid(request.params.id, 'dataset_id');
    await store.transaction(tenantId, async (tx) => {
      if (!(await tx.datasetById(id))) throw notFound(`Dataset ${id} not found.`);
      await tx.deleteDataset(id);
    });
    return reply.code(204).send();
  });

  app.get('/api/v1/sessions', async (request: QueryRequest) => {
    const tenantId = tenant(request);
    const query = new QueryReader(request.query);
    const filter = {
      name: query.string('name'),
      referenceDatasetId: query.uuid('reference_dataset'),
      referenceFree: query.boolean('reference_free'),
      ...query.page(),
    };
    query.done();
    const now = Date.now();
    return (await store.listSessions(tenantId, filter)).map((row) => sessionView(row, now, faults));
  });

  app.get('/api/v1/sessions/:id', async (request: IdRequest) => {
    const tenantId = tenant(request);
    const id = pathUuid(request.params.id, 'session_id');
    const found = await store.getSession(tenantId, id);
    if (!found) throw notFound(`Session ${id} not found.`);
    return sessionView(found, Date.now(), faults);
  });

  app.delete('/api/v1/sessions/:id', async (request: IdRequest, reply) => {
    const tenantId = tenant(request);
    const id = pathUuid(request.params.id, 'session_id');
    await store.transaction(tenantId, async (tx) => {
      if (!(await tx.sessionById(id))) throw notFound(`Session ${id} not found.`);
      await tx.deleteSession(id);
    });
    return reply.code(204).send();
  });
}
