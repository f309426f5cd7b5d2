// Starts the reference implementation: each interface on its own listener and base URL.
import type { FastifyInstance } from 'fastify';
import { buildAgentServerApp } from './agent-server/app.ts';
import { createContext } from './context.ts';
import { buildControlPlaneApp, SELF_HOSTED_PREFIX } from './control-plane/app.ts';
import type { ReferenceOptions, ReferenceServer } from './options.ts';
import { buildExperimentUploadApp } from './experiment-upload/app.ts';

export type { ReferenceOptions, ReferenceServer } from './options.ts';

export async function startReference(options: ReferenceOptions = {}): Promise<ReferenceServer> {
  const { ctx, close: closeContext } = createContext(options);
  const host = options.host ?? '127.0.0.1';
  const apps: FastifyInstance[] = [];
  const listen = async (app: FastifyInstance, port: number | undefined): Promise<string> => {
    apps.push(app);
    await app.listen({ host, port: port ?? 0 });
    const address = app.server.address();
    if (address === null || typeof address === 'string') throw new Error('listener has no TCP address');
    return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  };
  try {
    const experimentUpload = await buildExperimentUploadApp(ctx);
    const controlPlane = await buildControlPlaneApp(ctx);
    const agentServer = await buildAgentServerApp(ctx);
    const urls = {
      controlPlane: (await listen(controlPlane, options.ports?.controlPlane)) + (ctx.mode === 'self-hosted' ? SELF_HOSTED_PREFIX : ''),
      agentServer: await listen(agentServer, options.ports?.agentServer),
      experimentUpload: await listen(experimentUpload, options.ports?.experimentUpload),
    };
    const grant = ctx.auth.grants[0]!;
    return {
      urls,
      apiKey: grant.key,
      tenantId: grant.tenants[0]!,
      mode: ctx.mode,
      async close() {
        await Promise.all(apps.map((app) => app.close()));
        await closeContext();
      },
    };
  } catch (error) {
    await Promise.all(apps.map((app) => app.close()));
    await closeContext();
    throw error;
  }
}
