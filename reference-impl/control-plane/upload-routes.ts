// Source tarball uploads (field notes, upload flow): `POST .../upload-url` hands out a signed upload
// URL and an object path; `PUT` on that URL stores the gzip tarball in the store (memory, or a
// PostgreSQL bytea); a PATCH may then name the object path as `source_tarball_path`.
import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest, forbidden, HttpError } from '../http-errors.ts';
import { pathUuid } from './request-params.ts';
import { requireDeployment, tenantOfRequest, type RouteDeps } from './route-deps.ts';

/** Largest tarball accepted, as the real platform's client allows. */
export const MAX_TARBALL_BYTES = 200 * 1024 * 1024;
/** How long an upload URL stays valid. */
export const UPLOAD_URL_TTL_MS = 60 * 60 * 1000;
/** Path of the upload target; the last segment is the grant's token. */
export const UPLOAD_PATH = '/uploads/source-tarballs';
const GZIP_TYPES = ['application/gzip', 'application/x-gzip'];

function origin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/** `POST .../upload-url`, under the spec's unversioned path and the /v2 path real clients use. */
export function registerUploadUrlRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const handOut = async (request: FastifyRequest) => {
    const tenantId = tenantOfRequest(deps, request);
    const deploymentId = pathUuid(request.params, 'deployment_id');
    await requireDeployment(deps, tenantId, deploymentId);
    // Each hand-out clears the grants that expired unused, so they never pile up.
    await deps.store.purgeExpiredGrants(Date.now());
    const token = randomBytes(32).toString('base64url');
    const objectPath = `deployments/${deploymentId}/source-tarballs/${randomUUID()}.tar.gz`;
    await deps.store.saveUploadGrant({
      token,
      tenantId,
      deploymentId,
      objectPath,
      expiresAt: Date.now() + UPLOAD_URL_TTL_MS,
      uploaded: false,
    });
    return { upload_url: `${origin(request)}${deps.prefix}${UPLOAD_PATH}/${token}`, object_path: objectPath };
  };
  // The spec writes the path unversioned; real clients use /v2. Both are served.
  app.post('/v2/deployments/:deployment_id/upload-url', handOut);
  app.post('/deployments/:deployment_id/upload-url', handOut);
}

/** The upload target: the URL itself is the credential, so no X-Api-Key is needed. */
export function registerUploadTarget(app: FastifyInstance, deps: RouteDeps): void {
  // It takes raw bytes of any declared type (checked in the handler) up to the tarball limit; the
  // scope keeps this parser away from the JSON routes.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_TARBALL_BYTES }, (_request, body, done) => done(null, body));
    scope.put(`${UPLOAD_PATH}/:token`, async (request, reply) => {
      const { token } = request.params as { token: string };
      const grant = await deps.store.findUploadGrant(token);
      if (!grant || grant.expiresAt < Date.now()) {
        throw forbidden('This upload URL is unknown or has expired. Request a new one with POST /v2/deployments/{deployment_id}/upload-url.');
      }
      const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (!GZIP_TYPES.includes(type)) {
        throw new HttpError(415, `Expected Content-Type application/gzip for a source tarball; got "${type || 'none'}".`);
      }
      const body = request.body;
      if (!Buffer.isBuffer(body) || body.length < 2 || body[0] !== 0x1f || body[1] !== 0x8b) {
        throw badRequest('The body is not gzip data. Upload the source as a gzip-compressed tarball (.tar.gz).');
      }
      if (!(await deps.store.storeUpload(token, body))) {
        throw forbidden('The deployment of this upload URL no longer exists.');
      }
      return reply.code(200).send({ object_path: grant.objectPath, size: body.length });
    });
  });
}
