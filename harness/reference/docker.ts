// The container runtime behind `--reference container` and `--database postgres`, through
// testcontainers (which reads DOCKER_HOST and the usual Docker settings). testcontainers is
// imported only when a container is asked for: loading it costs a third of a second.
import type { ContainerRuntimeClient } from 'testcontainers';
import { UsageError } from '../usage-error.ts';
import { dockerSocketProblem } from './docker-socket.ts';

/** testcontainers' reaper image, as it chooses it (build/reaper/reaper.js). */
const REAPER_IMAGE = process.env.RYUK_CONTAINER_IMAGE ?? 'testcontainers/ryuk';

/** Docker is missing or refused a step: the user's setup, reported with exit code 2. */
export class ContainerError extends UsageError {}

function noDocker(why: string): ContainerError {
  return new ContainerError(
    `--reference container and --database postgres need Docker, and none answered (${why}). ` +
      'Start Docker, or set DOCKER_HOST to its socket; `--reference process` (the default) needs no Docker.',
  );
}

export async function dockerClient(): Promise<ContainerRuntimeClient> {
  // Where no socket answers, say so at once rather than after testcontainers' seconds of trying.
  const problem = await dockerSocketProblem();
  if (problem !== undefined) throw noDocker(problem);
  const { getContainerRuntimeClient, getReaper } = await import('testcontainers');
  let client: ContainerRuntimeClient;
  try {
    client = await getContainerRuntimeClient();
  } catch (error) {
    throw noDocker(firstLine(error));
  }
  // testcontainers starts its reaper (Ryuk, an image of its own to pull) before the first build or
  // container; started here, a failed pull is named as Ryuk's, not blamed on the base image.
  try {
    await getReaper(client);
  } catch (error) {
    throw new ContainerError(
      `testcontainers could not start Ryuk, its reaper of leftover containers (image ${REAPER_IMAGE}, pulled from a registry): ${firstLine(error)}. ` +
        'Where no registry is reachable, set TESTCONTAINERS_RYUK_DISABLED=true: apc stops the containers it starts itself.',
    );
  }
  return client;
}

export function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
}

/** A URL on the Docker host for a mapped port; `localhost` pinned to IPv4, where Docker publishes. */
export function hostUrl(host: string, port: number): string {
  return `http://${host === 'localhost' ? '127.0.0.1' : host}:${port}`;
}
