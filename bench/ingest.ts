/*
|--------------------------------------------------------------------------
| Ingest figures: tasks/ingest.ts against a fresh PostgreSQL database
|--------------------------------------------------------------------------
*/
import { baseEnv, createDatabase } from './lib/databases.js'
import { lastJson, runNode } from './lib/processes.js'

export interface IngestPass {
  users: number
  rows: number
  seconds: number
  rows_per_s: number
  /** PostgreSQL WAL bytes written per row (absent in results before 2026-12-02). */
  wal_bytes_per_row?: number
}

export interface IngestResult {
  calls_per_user_sync: { first_sync: number; resync: number; samples: unknown[] }
  rows_per_user_sync: number
  ingest: Record<string, IngestPass>
  /** The 4-at-a-time passes over the row mix of 2026-11-24 (before exercise and activity samples were stored). */
  ingest_row_mix_of_2026_11_24?: { rows_per_user_sync: number; passes: Record<string, IngestPass> }
}

export async function runIngestBench(users: number, log: (line: string) => void): Promise<IngestResult> {
  const db = await createDatabase('pg', { redis: true })
  try {
    const result = lastJson<IngestResult>(await runNode(['bench/tasks/ingest.ts', '--users', String(users)], { ...baseEnv(), ...db.env }))
    log(`ingest/pg: calls per user-sync first ${result.calls_per_user_sync.first_sync}, re-sync ${result.calls_per_user_sync.resync}`)
    for (const [name, pass] of Object.entries(result.ingest)) log(`ingest/pg: ${name.padEnd(40)} ${pass.rows_per_s} rows/s, ${pass.wal_bytes_per_row} WAL bytes/row`)
    for (const [name, pass] of Object.entries(result.ingest_row_mix_of_2026_11_24?.passes ?? {})) {
      log(`ingest/pg: ${name.padEnd(40)} ${pass.rows_per_s} rows/s, ${pass.wal_bytes_per_row} WAL bytes/row (row mix of 2026-11-24)`)
    }
    return result
  } finally {
    await db.drop()
  }
}
