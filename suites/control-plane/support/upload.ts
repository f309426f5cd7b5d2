// The source tarball upload flow (spec 2.3, 4.1; shapes from the field notes): ask the control
// plane for an upload location, PUT a small gzip tarball there, then name the object path in a
// PATCH. The location is a signed URL, possibly on another host: it gets no API key, and it is
// redacted from reports like a credential.
import { gzipSync } from 'node:zlib';
import { type Check, type Exchange } from '../../../harness/conformance/index.ts';
import { isObject, statusOf } from './steps.ts';

/** A ustar archive of the given files (512-byte headers, contents padded to 512 bytes). */
export function tarball(files: Record<string, string>): Buffer {
  const blocks: Buffer[] = [];
  for (const [name, text] of Object.entries(files)) {
    const content = Buffer.from(text, 'utf8');
    const header = Buffer.alloc(512);
    const put = (value: string, offset: number, length: number) => header.write(value, offset, length, 'ascii');
    put(name, 0, 100);
    put('0000644\0', 100, 8);
    put('0000000\0', 108, 8);
    put('0000000\0', 116, 8);
    put(`${content.length.toString(8).padStart(11, '0')}\0`, 124, 12);
    put('00000000000\0', 136, 12);
    put('        ', 148, 8);
    put('0', 156, 1);
    put('ustar\0', 257, 6);
    put('00', 263, 2);
    const checksum = header.reduce((sum, byte) => sum + byte, 0);
    put(`${checksum.toString(8).padStart(6, '0')}\0 `, 148, 8);
    blocks.push(header, content, Buffer.alloc((512 - (content.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

/** The smallest source tree of a graph: the configuration file and the module it names. */
export function sourceTarball(graphConfigPath: string, graphId: string): Buffer {
  return gzipSync(
    tarball({
      [graphConfigPath]: JSON.stringify({ dependencies: ['.'], graphs: { [graphId]: './agent.py:graph' } }),
      'agent.py': 'def graph(state):\n    return state\n',
    }),
  );
}

export interface UploadGrant {
  exchange: Exchange;
  /** The upload location and object path, when the answer had them. */
  uploadUrl?: string;
  objectPath?: string;
}

/** The upload location and object path of an answer: the field notes' names, else the likeliest fields. */
function readGrant(body: unknown): { uploadUrl?: string; objectPath?: string } {
  if (!isObject(body)) return {};
  const strings = Object.entries(body).filter((e): e is [string, string] => typeof e[1] === 'string');
  const uploadUrl = (typeof body.upload_url === 'string' ? body.upload_url : undefined) ?? strings.find(([, v]) => /^https?:\/\//.test(v))?.[1];
  const objectPath = (typeof body.object_path === 'string' ? body.object_path : undefined) ?? strings.find(([k, v]) => /path/i.test(k) && v !== uploadUrl)?.[1];
  return { ...(uploadUrl ? { uploadUrl } : {}), ...(objectPath ? { objectPath } : {}) };
}

/**
 * POST .../upload-url for a deployment: the spec's unversioned path, and the /v2 path real clients
 * use when the target does not serve the other (404 or 405).
 */
export async function requestUpload(t: Check, deploymentId: string): Promise<UploadGrant> {
  let exchange = await t.cp.post(`/deployments/${deploymentId}/upload-url`);
  if (statusOf(exchange) === 404 || statusOf(exchange) === 405) exchange = await t.cp.post(`/v2/deployments/${deploymentId}/upload-url`);
  const grant = readGrant(exchange.response?.json);
  t.redactor.add(grant.uploadUrl);
  return { exchange, ...grant };
}

/** PUTs the bytes to a signed upload location, with no API key; the client records the exchange. */
export function putTarball(t: Check, uploadUrl: string, bytes: Buffer): Promise<Exchange> {
  return t.cp.request({ method: 'PUT', path: '', url: uploadUrl, rawBody: bytes, auth: 'none', headers: { 'Content-Type': 'application/gzip' } });
}
