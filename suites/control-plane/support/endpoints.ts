// Where the control plane's resources live, and how the suites read an answer.
import type { Exchange } from '../../../harness/conformance/index.ts';
import { isObject } from '../../../schemas/is-object.ts';

export const DEPLOYMENTS = '/v2/deployments';
export const deploymentPath = (id: string) => `${DEPLOYMENTS}/${id}`;
export const revisionsPath = (id: string) => `${DEPLOYMENTS}/${id}/revisions`;
export const revisionPath = (id: string, revisionId: string) => `${revisionsPath(id)}/${revisionId}`;

export const field = (body: unknown, key: string): unknown => (isObject(body) ? body[key] : undefined);
export const statusOf = (exchange: Exchange): number | undefined => exchange.response?.status;
export const is2xx = (exchange: Exchange) => (statusOf(exchange) ?? 0) >= 200 && (statusOf(exchange) ?? 0) < 300;
export const is4xx = (exchange: Exchange) => (statusOf(exchange) ?? 0) >= 400 && (statusOf(exchange) ?? 0) < 500;
