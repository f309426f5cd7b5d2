// API keys and tenants of the reference implementation (spec section 5). Keys come from the
// options; with none configured a development key and tenant are generated so a local run works.
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { ApiKeyGrant } from './options.ts';
import { forbidden, unauthorized } from './http-errors.ts';

export interface AuthConfig {
  grants: ApiKeyGrant[];
  /** True when the keys were generated rather than configured. */
  generated: boolean;
}

/** A fresh development key and its own tenant. */
export function developmentGrant(): ApiKeyGrant {
  return { key: `apc-dev-${randomBytes(18).toString('base64url')}`, tenants: [randomUUID()] };
}

export function resolveAuth(configured: ApiKeyGrant[] | undefined): AuthConfig {
  if (configured && configured.length > 0) return { grants: configured, generated: false };
  return { grants: [developmentGrant()], generated: true };
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The grant of the request's `X-Api-Key`, or a 401. */
export function authenticate(auth: AuthConfig, request: FastifyRequest): ApiKeyGrant {
  const key = header(request, 'x-api-key');
  if (!key) throw unauthorized('Missing X-Api-Key header.');
  const grant = auth.grants.find((g) => sameSecret(g.key, key));
  if (!grant) throw unauthorized('Invalid API key.');
  return grant;
}

/**
 * The tenant a control-plane request acts for: `X-Tenant-Id` when given (403 when the key may
 * not use it), else the key's only tenant, else 403 as the real platform answers.
 */
export function tenantOf(auth: AuthConfig, request: FastifyRequest): string {
  const grant = authenticate(auth, request);
  const requested = header(request, 'x-tenant-id');
  if (requested) {
    if (!grant.tenants.includes(requested)) throw forbidden('API key may not act for this workspace.');
    return requested;
  }
  if (grant.tenants.length === 1) return grant.tenants[0]!;
  throw forbidden('requires workspace specification');
}
