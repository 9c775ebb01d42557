import type { Json } from '#simulators/coolify/seed'
import {
  baseStatus,
  bodyOf,
  findBy,
  message,
  newUuid,
  nextId,
  notFound,
  nowIso,
  ok,
  rejectUnknown,
  route,
  validationFailed,
  type SimRoute,
} from '#simulators/coolify/helpers'

const DB_PATCH_FIELDS = [
  'name', 'description', 'image', 'is_public', 'public_port', 'limits_memory', 'limits_memory_swap',
  'limits_memory_swappiness', 'limits_memory_reservation', 'limits_cpus', 'limits_cpuset', 'limits_cpu_shares',
  'postgres_user', 'postgres_password', 'postgres_db', 'postgres_initdb_args', 'postgres_host_auth_method',
  'postgres_conf', 'redis_password', 'redis_conf', 'mysql_root_password', 'mysql_password', 'mysql_user',
  'mysql_database', 'mysql_conf', 'mariadb_root_password', 'mariadb_password', 'mariadb_user', 'mariadb_database',
  'mariadb_conf', 'mongo_conf', 'mongo_initdb_root_username', 'mongo_initdb_root_password',
  'mongo_initdb_database',
]
const BACKUP_FIELDS = [
  'save_s3', 'enabled', 'dump_all', 'frequency', 'databases_to_backup', 'database_backup_retention_amount_locally',
  'database_backup_retention_days_locally', 'database_backup_retention_max_storage_locally',
  'database_backup_retention_amount_s3', 'database_backup_retention_days_s3',
  'database_backup_retention_max_storage_s3', 's3_storage_uuid', 'backup_now', 'timeout',
]
const FREQUENCIES = ['every_minute', 'hourly', 'daily', 'weekly', 'monthly', 'yearly']
const isCron = (v: string) => /^[\d*/,-]+(\s+[\d*/,-]+){4}$/.test(v.trim())

function runBackup(schedule: Json) {
  const executions = (schedule.executions as Json[]) ?? []
  const now = nowIso()
  executions.unshift({
    id: Date.now(),
    uuid: newUuid(),
    scheduled_database_backup_id: schedule.id,
    status: 'running',
    message: null,
    size: 0,
    filename: null,
    database_name: schedule.databases_to_backup ?? null,
    s3_uploaded: null,
    local_storage_deleted: false,
    s3_storage_deleted: false,
    finished_at: null,
    created_at: now,
    updated_at: now,
  })
  schedule.executions = executions
}

function checkFrequency(body: Json, required: boolean) {
  const freq = body.frequency
  if (freq === undefined && !required) return null
  if (typeof freq !== 'string' || (!FREQUENCIES.includes(freq) && !isCron(freq))) {
    return validationFailed({ frequency: ['The frequency field must be a valid cron expression or a predefined frequency.'] })
  }
  return null
}

function stateChange(kind: 'start' | 'stop' | 'restart') {
  return route(['POST'], `/databases/{uuid}/${kind}`, ({ state, params }) => {
    const db = findBy(state.databases, params.uuid)
    if (!db) return notFound('Database')
    const running = baseStatus(db.status) === 'running'
    if (kind === 'start') {
      if (running) return message(400, 'Database is already running.')
      db.status = 'running:healthy'
      return message(200, 'Database starting request queued.')
    }
    if (kind === 'stop') {
      if (!running) return message(400, 'Database is already stopped.')
      db.status = 'exited:unhealthy'
      return message(200, 'Database stopping request queued.')
    }
    db.status = 'running:healthy'
    return message(200, 'Database restarting request queued.')
  }, true)
}

export const databaseRoutes: SimRoute[] = [
  route(['GET'], '/databases', ({ state }) =>
    ok(state.databases.map((db) => ({ ...db, backup_configs: (state.backups[db.uuid as string] ?? []).map(({ executions: _e, ...b }) => b) })))
  ),
  route(['GET', 'PATCH', 'DELETE'], '/databases/{uuid}', (ctx) => {
    const db = findBy(ctx.state.databases, ctx.params.uuid)
    if (!db) return notFound('Database')
    if (ctx.method === 'GET') return ok(db)
    if (ctx.method === 'DELETE') {
      ctx.state.databases = ctx.state.databases.filter((d) => d !== db)
      return message(200, 'Database deletion request queued.')
    }
    const rejected = rejectUnknown(ctx.body, DB_PATCH_FIELDS)
    if (rejected) return rejected
    const body = bodyOf(ctx)
    if (body.limits_cpus !== undefined && typeof body.limits_cpus !== 'string') {
      return validationFailed({ limits_cpus: ['The limits cpus field must be a string.'] })
    }
    Object.assign(db, body, { updated_at: nowIso() })
    return message(200, 'Database updated.')
  }),
  stateChange('start'),
  stateChange('stop'),
  stateChange('restart'),
  route(['GET', 'POST'], '/databases/{uuid}/backups', (ctx) => {
    const db = findBy(ctx.state.databases, ctx.params.uuid)
    if (!db) return notFound('Database')
    const list = (ctx.state.backups[db.uuid as string] ??= [])
    if (ctx.method === 'GET') return ok(list)
    const rejected = rejectUnknown(ctx.body, BACKUP_FIELDS)
    if (rejected) return rejected
    const body = bodyOf(ctx)
    const invalid = checkFrequency(body, true)
    if (invalid) return invalid
    const { backup_now: backupNow, s3_storage_uuid: _s3, ...fields } = body
    const schedule: Json = {
      id: nextId(ctx.state),
      uuid: newUuid(),
      team_id: 0,
      enabled: true,
      save_s3: false,
      databases_to_backup: null,
      dump_all: false,
      database_backup_retention_amount_locally: 0,
      database_id: db.id,
      created_at: nowIso(),
      updated_at: nowIso(),
      ...fields,
      executions: [],
    }
    if (backupNow === true) runBackup(schedule)
    list.push(schedule)
    return ok({ uuid: schedule.uuid, message: 'Backup configuration created successfully.' }, 201)
  }),
  route(['PATCH', 'DELETE'], '/databases/{uuid}/backups/{backup_uuid}', (ctx) => {
    const db = findBy(ctx.state.databases, ctx.params.uuid)
    if (!db) return notFound('Database')
    const list = (ctx.state.backups[db.uuid as string] ??= [])
    const schedule = findBy(list, ctx.params.backup_uuid)
    if (!schedule) return notFound('Backup config')
    if (ctx.method === 'DELETE') {
      ctx.state.backups[db.uuid as string] = list.filter((b) => b !== schedule)
      return message(200, 'Backup configuration and all executions deleted.')
    }
    const rejected = rejectUnknown(ctx.body, BACKUP_FIELDS)
    if (rejected) return rejected
    const body = bodyOf(ctx)
    const invalid = checkFrequency(body, false)
    if (invalid) return invalid
    const { backup_now: backupNow, s3_storage_uuid: _s3, ...fields } = body
    Object.assign(schedule, fields, { updated_at: nowIso() })
    if (backupNow === true) runBackup(schedule)
    return message(200, 'Database backup configuration updated')
  }),
  route(['GET'], '/databases/{uuid}/backups/{backup_uuid}/executions', ({ state, params }) => {
    const schedule = findBy(state.backups[params.uuid] ?? [], params.backup_uuid)
    if (!schedule) return notFound('Backup configuration')
    return ok({ executions: schedule.executions ?? [] })
  }),
]
