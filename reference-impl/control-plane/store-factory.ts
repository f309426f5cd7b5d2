// Opens the control plane's store. Apart from store.ts, which the two backends implement, so
// that the interface and its implementations do not import each other.
import type { ReferenceContext } from '../context.ts';
import { MemoryStore } from './memory-store.ts';
import { PostgresStore } from './pg-store.ts';
import type { ControlPlaneStore, StoreOptions } from './store.ts';

/** The PostgreSQL store when the context has a pool, else the memory store. */
export async function openStore(ctx: ReferenceContext, options: StoreOptions): Promise<ControlPlaneStore> {
  if (ctx.pool) return PostgresStore.open(ctx.pool, options);
  return new MemoryStore(options);
}
