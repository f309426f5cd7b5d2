// The product image (Dockerfile at the root) for `--reference container`: built once per state
// of the sources and reused while they stay the same. Its tag carries a hash of everything the
// build reads (the paths .dockerignore lets in, the Dockerfile, the base image's id), so an unchanged
// checkout finds its image by name without sending the build context again.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { GenericContainer, ImageName } from 'testcontainers';
import { ROOT } from '../root.ts';
import { ContainerError, dockerClient, firstLine } from './docker.ts';

export const DEFAULT_BASE_IMAGE = 'node:20-bookworm-slim';
const REPOSITORY = 'agent-platform-conformance';

export interface ProductImage {
  /** name:tag */
  name: string;
  /** sha256:... */
  id: string;
}

/** The paths the build context holds: the `!` lines of .dockerignore (it ignores everything else). */
function contextPaths(root: string): string[] {
  return readFileSync(join(root, '.dockerignore'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('!'))
    .map((line) => line.slice(1));
}

function hashTree(hash: ReturnType<typeof createHash>, root: string, path: string): void {
  const full = join(root, path);
  if (!existsSync(full)) return;
  if (statSync(full).isDirectory()) {
    for (const name of readdirSync(full).sort()) hashTree(hash, root, join(path, name));
    return;
  }
  hash.update(`${path}\0`).update(readFileSync(full)).update('\0');
}

/** A hash of the build's inputs. node_modules counts by npm's record of what it installed. */
export function sourceHash(root: string, baseImageId: string): string {
  const hash = createHash('sha256').update(`${baseImageId}\0`);
  for (const file of ['Dockerfile', '.dockerignore']) hashTree(hash, root, file);
  for (const path of contextPaths(root)) hashTree(hash, root, path === 'node_modules' ? join('node_modules', '.package-lock.json') : path);
  return hash.digest('hex').slice(0, 16);
}

/** Builds the image unless one of the same sources exists; `log` tells which. */
export async function productImage(env: NodeJS.ProcessEnv, log: (line: string) => void): Promise<ProductImage> {
  const client = await dockerClient();
  const baseImage = env.APC_BASE_IMAGE ?? DEFAULT_BASE_IMAGE;
  const hint = 'Where no registry is reachable, build a local base with scripts/build-local-images.sh and set APC_BASE_IMAGE to it.';
  const base = ImageName.fromString(baseImage);
  if (!(await client.image.exists(base))) {
    log(`Pulling the base image ${baseImage}.`);
    await client.image.pull(base).catch((error: unknown) => {
      throw new ContainerError(`The base image ${baseImage} is not here and could not be pulled: ${firstLine(error)}. ${hint}`);
    });
  }
  // A rebuilt base image (same name, new content) must give a new product image too.
  const name = `${REPOSITORY}:src-${sourceHash(ROOT, (await client.image.inspect(base)).Id)}`;
  const image = ImageName.fromString(name);
  if (await client.image.exists(image)) {
    log(`Reusing image ${name} (sources unchanged).`);
  } else {
    if (!existsSync(join(ROOT, 'node_modules', '.package-lock.json'))) {
      throw new ContainerError('The image is built from an installed checkout: run `npm ci` first.');
    }
    log(`Building image ${name} from ${baseImage} (a few minutes the first time)...`);
    try {
      await GenericContainer.fromDockerfile(ROOT).withBuildArgs({ BASE_IMAGE: baseImage }).build(name, { deleteOnExit: false });
    } catch (error) {
      throw new ContainerError(`Building the image from ${baseImage} failed: ${firstLine(error)}. ${hint}`);
    }
  }
  return { name, id: (await client.image.inspect(image)).Id };
}
