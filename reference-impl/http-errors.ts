// Error bodies in the spec's shapes (section 7), shared by every listener of the reference
// implementation: 4xx `{detail: string}`, 422 HTTPValidationError `{detail: [{loc, msg, type}]}`.
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { BARE_ANSWER_HTTP_OPTIONS, installBareAnswers } from './bare-answers.ts';
import type { Server } from 'node:http';
import type { FastifyError, FastifyHttpOptions, FastifyInstance, FastifyReply, FastifyServerOptions } from 'fastify';

export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/** Thrown by handlers; the error handler turns it into the documented body. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly detail: string | ValidationIssue[],
  ) {
    super(typeof detail === 'string' ? detail : detail.map((d) => d.msg).join('; '));
  }
}

export const badRequest = (detail: string) => new HttpError(400, detail);
export const unauthorized = (detail: string) => new HttpError(401, detail);
export const forbidden = (detail: string) => new HttpError(403, detail);
export const notFound = (detail: string) => new HttpError(404, detail);
export const conflict = (detail: string) => new HttpError(409, detail);
export const unprocessable = (issues: ValidationIssue[]) => new HttpError(422, issues);

export function sendError(reply: FastifyReply, error: HttpError): FastifyReply {
  return reply.code(error.statusCode).type('application/json').send({ detail: error.detail });
}

/**
 * Maps every failure to a documented 4xx body. Framework errors (malformed JSON, an oversized
 * body, a wrong content type) become 400/413/415 with `{detail}`; anything unexpected is logged
 * and answered 500 with a `{detail}` that leaks nothing.
 */
export function installErrorHandling(app: FastifyInstance): void {
  installBareAnswers(app);
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) return sendError(reply, error);
    const status = error.statusCode;
    if (status !== undefined && status >= 400 && status < 500) {
      return sendError(reply, new HttpError(status, frameworkMessage(error)));
    }
    request.log.error({ err: { message: error.message, stack: error.stack } }, 'unhandled error');
    return sendError(reply, new HttpError(500, 'Internal server error'));
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, notFound(`No route for ${request.method} ${request.url.split('?')[0]}`)),
  );
}

/**
 * Fastify options every listener shares, so that errors raised before any route runs get the
 * documented shape too: a URL that is not valid percent-encoding (400), a request Node's HTTP
 * parser refuses (oversized headers 431, a malformed request 400), and what Node answers on its own
 * (no Host, an unmet `Expect`, `CONNECT`: bare-answers.ts). Path parameters may be as long
 * as the headers allow: a long id is then judged by its route like any other bad id.
 */
export const FRAMEWORK_OPTIONS = {
  http: BARE_ANSWER_HTTP_OPTIONS,
  routerOptions: { maxParamLength: 16 * 1024 },
  frameworkErrors: (error: FastifyError, _request: unknown, reply: FastifyReply) => {
    const status = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
    return sendError(reply, new HttpError(error.code === 'FST_ERR_BAD_URL' ? 400 : status, frameworkMessage(error)));
  },
  // As Fastify's own handler (write, then destroy the socket), with a `{detail}` body.
  clientErrorHandler: (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const body = JSON.stringify({ detail: status === 431 ? 'Request headers are too large.' : `The request could not be read (${error.code ?? 'malformed'}).` });
    if (socket.writable) {
      socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json\r\n\r\n${body}`);
    }
    socket.destroy(error);
  },
  // Bodies are judged by the spec's schemas (schemas/index.ts) in the handlers, never by route
  // schemas: Fastify's own compilers (a second Ajv and fast-json-stringify) would be loaded at each
  // start for nothing, a tenth of the reference's start. A route schema would reach these and fail.
  schemaController: { compilersFactory: { buildValidator: noRouteSchemas, buildSerializer: noRouteSchemas } },
} satisfies Partial<FastifyServerOptions> & Pick<FastifyHttpOptions<Server>, 'http'>;

function noRouteSchemas(): never {
  throw new Error('The reference declares no Fastify route schemas: requests are validated with schemas/index.ts in the handlers.');
}

function frameworkMessage(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return 'The URL is not valid: a path segment has a malformed percent-encoding.';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'Request body is empty; a JSON object was expected.';
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return `Request body is not valid JSON: ${error.message}`;
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'Request body is too large.';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Unsupported content type; send application/json.';
    default:
      return error.message;
  }
}
