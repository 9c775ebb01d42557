import { test } from '@japa/runner'
import logger from '@adonisjs/core/services/logger'
import { rm, writeFile, mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { storageDir } from '#config/paths'
import { bearer, eventually, refreshQueueManager, useTestTokens } from '#tests/functional/ops/helpers'

const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/

test.group('Ops | health and stats', (group) => {
  group.setup(async () => {
    await refreshQueueManager()
    return useTestTokens()
  })

  test('health runs every check and reports healthy', async ({ client, assert }) => {
    const response = await client.get('/ops/health').header('Authorization', bearer('health:read'))
    response.assertStatus(200)
    const body = response.body()
    assert.equal(body.status, 'healthy')
    assert.match(body.timestamp, ISO_WITH_OFFSET)
    for (const name of ['database', 'cache', 'storage', 'queue']) {
      assert.equal(body.checks[name].status, 'healthy', name)
      assert.isAtLeast(body.checks[name].latency_ms, 0)
    }
    // Polar's budget rides along as information, not as a fifth check.
    assert.sameMembers(Object.keys(body.checks), ['database', 'cache', 'storage', 'queue'])
    assert.sameMembers(body.polar_budget.windows.map((w: { window: string }) => w.window), ['short', 'long'])
    for (const window of body.polar_budget.windows) assert.isAbove(window.limit, 0)
  })

  test('health is 503 unhealthy when storage cannot be written, without internals', async ({ client, assert }) => {
    // A plain file where the check's temp directory should be: every write below it fails.
    await mkdir(storageDir, { recursive: true })
    const blocker = join(storageDir, 'tmp')
    await rm(blocker, { recursive: true, force: true })
    await writeFile(blocker, 'not a directory')
    try {
      const response = await client.get('/ops/health').header('Authorization', bearer('health:read'))
      response.assertStatus(503)
      assert.equal(response.body().status, 'unhealthy')
      assert.containsSubset(response.body().checks, {
        storage: { status: 'unhealthy', message: 'storage check failed' },
        database: { status: 'healthy' },
      })
      assert.notInclude(response.text(), storageDir)
    } finally {
      await rm(blocker, { force: true })
    }
    const recovered = await client.get('/ops/health').header('Authorization', bearer('health:read'))
    recovered.assertStatus(200)
  })

  test('stats report CPU, memory, disk and the process', async ({ client, assert }) => {
    const response = await client.get('/ops/stats').header('Authorization', bearer('stats:read'))
    response.assertStatus(200)
    const { stats, timestamp } = response.body()
    assert.match(timestamp, ISO_WITH_OFFSET)
    assert.isTrue(Number.isInteger(stats.cpu.cores) && stats.cpu.cores > 0)
    assert.properties(stats.cpu.load_average, ['1m', '5m', '15m'])
    assert.isAtLeast(stats.cpu.usage_percent, 0)
    assert.isAtMost(stats.cpu.usage_percent, 100)
    for (const section of [stats.memory, stats.disk]) {
      assert.isTrue(Number.isInteger(section.used_bytes) && Number.isInteger(section.total_bytes))
      assert.isAtMost(section.used_bytes, section.total_bytes)
      assert.isAtLeast(section.used_percent, 0)
      assert.isAtMost(section.used_percent, 100)
    }
    assert.oneOf(stats.memory.source, ['cgroup', 'host'])
    assert.isAbove(stats.process.rss_bytes, 0)
    assert.isAbove(stats.process.uptime_seconds, 0)
    assert.notInclude(response.text(), '/work/')
  })
})

test.group('Ops | application logs', (group) => {
  group.setup(() => useTestTokens())

  test('what the application logs is listed and readable as parsed JSON entries', async ({ client, assert }) => {
    const marker = `ops-marker-${Date.now()}`
    logger.warn({ marker, component: 'ops-test' }, `end to end ${marker}`)
    const entry = await eventually(async () => {
      const files = (await client.get('/ops/logs').header('Authorization', bearer('logs:read'))).body().files as string[]
      for (const file of files) {
        const read = await client
          .get(`/ops/logs/${file}`)
          .qs({ search: marker, level: 'warn' })
          .header('Authorization', bearer('logs:read'))
        if (read.body().entries?.length) return { file, entry: read.body().entries[0] }
      }
      return null
    })
    assert.isNotNull(entry)
    assert.match(entry!.file, /^hrvault\.\d+\.log$/)
    assert.containsSubset(entry!.entry, { level: 'WARNING', message: `end to end ${marker}`, marker, component: 'ops-test' })
    assert.match(entry!.entry.timestamp, ISO_WITH_OFFSET)
  })
})
