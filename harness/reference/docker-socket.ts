// A quick look for a Docker daemon before testcontainers is loaded: where no daemon runs, loading
// it and trying each of its ways to find one costs seconds, for an answer a socket gives at once.
// The places looked at are testcontainers' own, in its order (container-runtime/strategies): a
// setup it would find is never refused here, and a setup this cannot judge is left to it.
import { existsSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { homedir, userInfo } from 'node:os';
import { join } from 'node:path';

/** How long one endpoint may take to accept a connection: a local daemon accepts in milliseconds. */
const CONNECT_TIMEOUT_MS = 500;

/** The rootful socket testcontainers' UnixSocketStrategy tries. */
export const SYSTEM_SOCKETS = ['/var/run/docker.sock'];

type Endpoint = { path: string } | { host: string; port: number };

export interface SocketLookup {
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  systemSockets?: string[];
}

/**
 * Why no Docker daemon can answer (every place testcontainers would look refused a connection),
 * or undefined when one accepted or the setup is one this does not judge (Windows pipes, SSH,
 * a ~/.testcontainers.properties file).
 */
export async function dockerSocketProblem(lookup: SocketLookup = {}): Promise<string | undefined> {
  const endpoints = endpointsOf(lookup);
  if (endpoints === undefined) return undefined;
  const refusals = await Promise.all(endpoints.map(refusal));
  if (refusals.some((r) => r === undefined)) return undefined;
  return `no Docker socket answers: ${refusals.join('; ')}`;
}

/** The endpoints testcontainers would try, or undefined where it has ways this does not judge. */
function endpointsOf({ env = process.env, platform = process.platform, systemSockets = SYSTEM_SOCKETS }: SocketLookup): Endpoint[] | undefined {
  if (platform !== 'linux' && platform !== 'darwin') return undefined;
  // os.homedir() reads HOME first, as testcontainers' lookups do.
  const home = env.HOME ?? homedir();
  if (existsSync(join(home, '.testcontainers.properties'))) return undefined;
  const endpoints: Endpoint[] = [];
  if (env.DOCKER_HOST) {
    const url = safeUrl(env.DOCKER_HOST);
    if (url?.protocol === 'unix:') endpoints.push({ path: url.pathname });
    else if (url?.protocol === 'tcp:' && url.hostname) endpoints.push({ host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || 2375) });
    else return undefined;
  }
  const rootless = [
    env.XDG_RUNTIME_DIR && join(env.XDG_RUNTIME_DIR, 'docker.sock'),
    join(home, '.docker', 'run', 'docker.sock'),
    join(home, '.docker', 'desktop', 'docker.sock'),
    join('/run', 'user', String(userInfo().uid), 'docker.sock'),
  ];
  for (const path of [...systemSockets, ...rootless]) if (path) endpoints.push({ path });
  return endpoints;
}

function safeUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** Why the endpoint refused, or undefined when it accepted a connection. */
function refusal(endpoint: Endpoint): Promise<string | undefined> {
  const name = 'path' in endpoint ? endpoint.path : `tcp://${endpoint.host}:${endpoint.port}`;
  if ('path' in endpoint && !existsSync(endpoint.path)) return Promise.resolve(`${name} does not exist`);
  return new Promise((resolve) => {
    const socket: Socket = 'path' in endpoint ? connect(endpoint.path) : connect(endpoint.port, endpoint.host);
    const done = (why: string | undefined) => {
      socket.destroy();
      resolve(why);
    };
    socket.setTimeout(CONNECT_TIMEOUT_MS, () => done(`${name} did not accept a connection within ${CONNECT_TIMEOUT_MS} ms`));
    socket.once('connect', () => done(undefined));
    socket.once('error', (error: NodeJS.ErrnoException) => done(`${name} refused (${error.code ?? error.message})`));
  });
}
