import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import AppSetting from '#models/app_setting'
import FailedJob from '#models/failed_job'
import type User from '#models/user'
import { POLAR_WEBHOOK_SETTINGS, type LastWebhookEvent } from '#services/polar/polar_webhook_service'

/** Table of the database queue adapter (QueueSchemaService default). */
const QUEUE_JOBS_TABLE = 'queue_jobs'

const affected = (result: unknown) => (Array.isArray(result) ? Number(result[0] ?? 0) : Number(result ?? 0))

function parse(text: unknown): Record<string, unknown> | null {
  if (typeof text !== 'string') return null
  try {
    const value = JSON.parse(text) as unknown
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : null
  } catch {
    return null
  }
}

/** Ids of rows whose JSON `column` (at `path`) names `userId` as its `userId`; LIKE narrows, JSON decides. */
async function rowsNaming(trx: TransactionClientContract, table: string, column: string, userId: number, path: 'payload' | null) {
  const rows = (await trx
    .from(table)
    .where(column, 'like', `%"userId":${userId}%`)
    .select('id', column)) as Array<Record<string, unknown>>
  return rows
    .filter((row) => {
      const parsed = parse(row[column])
      const payload = path ? (parsed?.[path] as Record<string, unknown> | undefined) : parsed
      return payload?.userId === userId
    })
    .map((row) => row.id as string | number)
}

/**
 * The user's work waiting outside the data tables, deleted in the erasure's transaction: jobs of the
 * database queue not yet running (a running one finds no user and stops; Redis-queued jobs do the
 * same), failed jobs naming the user (their payload and error text), and the webhook receiver's
 * "last event" note when it names the user's Polar account. Returns rows removed per table.
 */
export async function forgetQueuedWork(trx: TransactionClientContract, user: User, tables: string[]) {
  const counts: Record<string, number> = {}
  if (tables.includes(QUEUE_JOBS_TABLE)) {
    const ids = await rowsNaming(trx, QUEUE_JOBS_TABLE, 'data', user.id, 'payload')
    counts[QUEUE_JOBS_TABLE] =
      ids.length === 0
        ? 0
        : affected(await trx.from(QUEUE_JOBS_TABLE).whereIn('id', ids).whereIn('status', ['pending', 'delayed']).delete())
  }
  const failed = await rowsNaming(trx, FailedJob.table, 'payload', user.id, null)
  counts[FailedJob.table] = failed.length === 0 ? 0 : affected(await trx.from(FailedJob.table).whereIn('id', failed).delete())

  counts[AppSetting.table] = 0
  if (user.polarUserId !== null) {
    const setting = await trx.from(AppSetting.table).where('key', POLAR_WEBHOOK_SETTINGS.lastEvent).first()
    const last = parse(setting?.value) as Partial<LastWebhookEvent> | null
    if (last && String(last.polarUserId) === user.polarUserId) {
      counts[AppSetting.table] = affected(
        await trx
          .from(AppSetting.table)
          .where('key', POLAR_WEBHOOK_SETTINGS.lastEvent)
          .update({ value: JSON.stringify({ ...last, polarUserId: null }) })
      )
    }
  }
  return counts
}
