// PostgreSQL in a container for `--database postgres`: the public postgres image by default, or
// APC_POSTGRES_IMAGE (scripts/build-local-images.sh builds one where no registry is reachable).
// Both start the same way: POSTGRES_PASSWORD, port 5432, ready when pg_isready answers over TCP
// (the public image's first-start server listens on its socket only).
import { randomBytes } from 'node:crypto';
import { GenericContainer, Network, Wait, type StartedNetwork } from 'testcontainers';
import { redactor as processRedactor, type Redactor } from '../redact.ts';
import { ContainerError, dockerClient, firstLine } from './docker.ts';

export const DEFAULT_POSTGRES_IMAGE = 'postgres:15';
/** Its name on the network it shares with the reference container. */
const ALIAS = 'apc-postgres';

export interface PostgresContainer {
  image: string;
  /** For a process on the Docker host. */
  urlFromHost: string;
  /** For a container on `network`. */
  urlInNetwork: string;
  network: StartedNetwork | undefined;
  stop(): Promise<void>;
}

export async function startPostgresContainer(
  env: NodeJS.ProcessEnv,
  onNetwork: boolean,
  log: (line: string) => void,
  redactor: Redactor = processRedactor,
): Promise<PostgresContainer> {
  await dockerClient();
  const image = env.APC_POSTGRES_IMAGE ?? DEFAULT_POSTGRES_IMAGE;
  const password = randomBytes(12).toString('hex');
  redactor.add(password);
  log(`Starting PostgreSQL (${image}) in a container.`);
  const network = onNetwork ? await new Network().start() : undefined;
  try {
    let container = new GenericContainer(image)
      .withEnvironment({ POSTGRES_PASSWORD: password, POSTGRES_USER: 'postgres' })
      .withExposedPorts(5432)
      .withHealthCheck({ test: ['CMD', 'pg_isready', '-h', '127.0.0.1', '-U', 'postgres'], interval: 500, timeout: 3000, retries: 120 })
      .withWaitStrategy(Wait.forHealthCheck())
      .withStartupTimeout(120_000);
    if (network) container = container.withNetwork(network).withNetworkAliases(ALIAS);
    const started = await container.start();
    const host = started.getHost() === 'localhost' ? '127.0.0.1' : started.getHost();
    return {
      image,
      urlFromHost: `postgres://postgres:${password}@${host}:${started.getMappedPort(5432)}/postgres`,
      urlInNetwork: `postgres://postgres:${password}@${ALIAS}:5432/postgres`,
      network,
      async stop() {
        await started.stop();
        await network?.stop();
      },
    };
  } catch (error) {
    await network?.stop();
    throw new ContainerError(
      `PostgreSQL did not start from image ${image}: ${firstLine(error)}. Set APC_POSTGRES_IMAGE to a PostgreSQL image Docker has or can pull.`,
    );
  }
}
