// `apc certify --reference container`: the reference implementation as a container of the
// product image, configured through its environment, on free host ports, ready once the image's
// own HEALTHCHECK reports healthy. With `--database postgres` it shares a network with the
// PostgreSQL container.
import { GenericContainer, Wait } from 'testcontainers';
import { SELF_HOSTED_PREFIX } from '../../reference-impl/control-plane/app.ts';
import { databaseOf, type ReferenceLaunch, type StartedReference } from './reference-launch.ts';
import type { PostgresContainer } from './postgres-container.ts';
import { productImage } from './reference-image.ts';
import { ContainerError, firstLine, hostUrl } from './docker.ts';

/** The listeners' ports inside the container (the Dockerfile's defaults). */
const PORTS = { 'control-plane': 8100, 'agent-server': 8123, 'experiment-upload': 8200 } as const;

export async function startReferenceContainer(launch: ReferenceLaunch, database: PostgresContainer | undefined): Promise<StartedReference> {
  const image = await productImage(launch.env, launch.log);
  launch.log(`Starting the reference implementation from ${image.name}.`);
  let container = new GenericContainer(image.name)
    .withEnvironment({
      APC_REF_MODE: launch.mode,
      APC_REF_API_KEYS: launch.grants.map((g) => `${g.key}:${g.tenants.join(',')}`).join(' '),
      APC_REF_PHASE_MS: String(launch.phaseMs),
      APC_REF_STATS_DELAY_MS: String(launch.statsDelayMs),
      ...(database ? { DATABASE_URL: database.urlInNetwork } : {}),
      ...(launch.platformLike && launch.platformLike.behaviours.length > 0 ? { APC_REF_PLATFORM_LIKE: launch.platformLike.behaviours.join(','), APC_REF_TIME_SCALE: String(launch.platformLike.timeScale ?? 1) } : {}),
    })
    .withCommand(['serve', ...launch.faults.flatMap((fault) => ['--fault', fault])])
    .withExposedPorts(...Object.values(PORTS))
    .withWaitStrategy(Wait.forHealthCheck())
    .withStartupTimeout(120_000);
  if (database?.network) container = container.withNetwork(database.network);
  let started;
  try {
    started = await container.start();
  } catch (error) {
    throw new ContainerError(`The reference container (${image.name}) did not turn healthy: ${firstLine(error)}.`);
  }
  const url = (port: number) => hostUrl(started.getHost(), started.getMappedPort(port));
  return {
    urls: {
      'control-plane': url(PORTS['control-plane']) + (launch.mode === 'self-hosted' ? SELF_HOSTED_PREFIX : ''),
      'agent-server': url(PORTS['agent-server']),
      'experiment-upload': url(PORTS['experiment-upload']),
    },
    instance: { kind: 'container', image: image.name, imageId: image.id, ...databaseOf(database) },
    close: async () => void (await started.stop()),
  };
}
