// The container runtime behind `--reference container` and `--database postgres`, through
// testcontainers (which reads DOCKER_HOST and the usual Docker settings).
import { getContainerRuntimeClient, type ContainerRuntimeClient } from 'testcontainers';

/** Docker is missing or refused a step: the user's setup, reported with exit code 2. */
export class ContainerError extends Error {}

export async function dockerClient(): Promise<ContainerRuntimeClient> {
  try {
    return await getContainerRuntimeClient();
  } catch (error) {
    throw new ContainerError(
      `--reference container and --database postgres need Docker, and none answered (${firstLine(error)}). ` +
        'Start Docker, or set DOCKER_HOST to its socket; `--reference process` (the default) needs no Docker.',
    );
  }
}

export function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
}

/** A URL on the Docker host for a mapped port; `localhost` pinned to IPv4, where Docker publishes. */
export function hostUrl(host: string, port: number): string {
  return `http://${host === 'localhost' ? '127.0.0.1' : host}:${port}`;
}
