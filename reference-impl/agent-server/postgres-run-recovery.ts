// After a crash, a thread whose run was cut off would stay `busy` for ever: the run never got to
// save its end state. The reference keeps no run records (a run lives only in its stream), so the
// thread's status is the only trace of the run, and recovering the run means failing it there:
// `error`, the status a run that fails normally leaves its thread in (routes/runs.ts).
//
// Who owns a busy thread needs no extra column: a run holds its thread's session-level advisory
// lock (PostgresStore.withThreadLock) from before it marks the thread busy until after it saves
// the end state, and PostgreSQL drops a session's advisory locks when its connection ends, which
// the kernel does for a killed process. So a busy thread whose lock can be taken has no live run,
// and one whose lock is held belongs to a live process (another server on the same database) and
// is left alone. Threads whose ids share a lock hash may be skipped until the next start; that is
// harmless. A process that hangs without dying keeps its locks and its threads stay busy, as they
// should while its runs might still finish.
import type { Pool } from '../db.ts';

/** First key of the two-key advisory lock a thread's runs take ('THRD'). */
export const THREAD_LOCK_NAMESPACE = 0x54485244;

/** Marks `error` every busy thread whose run's process is gone; returns the ids it changed. */
export async function failRunsOfGoneProcesses(pool: Pool): Promise<string[]> {
  const { rows } = await pool.query<{ thread_id: string }>("SELECT thread_id FROM agent_threads WHERE status = 'busy'");
  if (rows.length === 0) return [];
  const failed: string[] = [];
  // One connection: a session lock must be released by the session that took it.
  const client = await pool.connect();
  try {
    for (const { thread_id: threadId } of rows) {
      const taken = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS ok', [THREAD_LOCK_NAMESPACE, threadId]);
      if (!taken.rows[0]!.ok) continue;
      try {
        // Read again under the lock: the run may have finished between the scan and the lock.
        const updated = await client.query("UPDATE agent_threads SET status = 'error', updated_at = $2 WHERE thread_id = $1 AND status = 'busy'", [
          threadId,
          new Date().toISOString(),
        ]);
        if (updated.rowCount === 1) failed.push(threadId);
      } finally {
        await client.query('SELECT pg_advisory_unlock($1, hashtext($2))', [THREAD_LOCK_NAMESPACE, threadId]);
      }
    }
  } finally {
    client.release();
  }
  return failed;
}
