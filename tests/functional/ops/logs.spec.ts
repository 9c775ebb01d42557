import { test } from '@japa/runner'
import { mkdir, open, rm, symlink, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import app from '@adonisjs/core/services/app'
import env from '#start/env'
import { logDir } from '#config/paths'
import AppSetting from '#models/app_setting'
import {
  POLAR_CLIENT_ID_SETTING,
  POLAR_CLIENT_SECRET_SETTING,
  PolarCredentialsService,
} from '#services/polar/polar_credentials_service'
import { bearer, useTestTokens } from '#tests/functional/ops/helpers'

const LEVELS: Array<[number, string]> = [
  [10, 'TRACE'],
  [20, 'DEBUG'],
  [30, 'INFO'],
  [40, 'WARNING'],
  [50, 'ERROR'],
  [60, 'FATAL'],
]
const time = Date.parse('2026-11-20T10:00:00Z')
const pinoLine = (level: number, msg: string, extra: Record<string, unknown> = {}, offset = 0) =>
  JSON.stringify({ level, time: time + offset, pid: 7, hostname: 'test', msg, ...extra })

/** Two lines per level: `<name> one` then `<name> two`, with a user id in the context. */
async function writeLevelsLog(name = 'levels.log') {
  const lines: string[] = []
  LEVELS.forEach(([level, label], i) => {
    lines.push(pinoLine(level, `${label} one`, { userId: `u-${i}` }, i * 2000))
    lines.push(pinoLine(level, `${label} two (sync)`, { userId: `u-${i}` }, i * 2000 + 1000))
  })
  await writeFile(join(logDir, name), lines.join('\n') + '\n')
}

test.group('Ops | logs', (group) => {
  group.setup(async () => {
    const restore = useTestTokens()
    await mkdir(logDir, { recursive: true })
    await writeLevelsLog()
    return async () => {
      restore()
      await rm(join(logDir, 'levels.log'), { force: true })
    }
  })

  test('lists the log files of LOG_DIR', async ({ client, assert }) => {
    const response = await client.get('/ops/logs').header('Authorization', bearer('logs:read'))
    response.assertStatus(200)
    assert.include(response.body().files, 'levels.log')
    assert.isTrue(response.body().files.every((name: string) => typeof name === 'string'))
  })

  test('returns parsed entries newest first with the default of 100 lines', async ({ client, assert }) => {
    const response = await client.get('/ops/logs/levels.log').header('Authorization', bearer('logs:read'))
    response.assertStatus(200)
    const { entries, file, has_more: hasMore } = response.body()
    assert.equal(file, 'levels.log')
    assert.isFalse(hasMore)
    assert.lengthOf(entries, 12)
    assert.deepEqual(entries[0], {
      line: 12,
      timestamp: '2026-11-20T10:00:11.000Z',
      level: 'FATAL',
      message: 'FATAL two (sync)',
      pid: 7,
      hostname: 'test',
      userId: 'u-5',
    })
    assert.deepEqual(entries.map((e: any) => e.line), [12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1])
  })

  test('level={$self} returns only that level, any case')
    .with(['debug', 'INFO', 'Warning', 'warn', 'WARN', 'error', 'fatal', 'trace'])
    .run(async ({ client, assert }, level) => {
      const expected = level.toUpperCase() === 'WARN' ? 'WARNING' : level.toUpperCase()
      const response = await client
        .get('/ops/logs/levels.log')
        .qs({ level })
        .header('Authorization', bearer('logs:read'))
      response.assertStatus(200)
      const entries = response.body().entries
      assert.deepEqual(entries.map((e: any) => e.message), [`${expected} two (sync)`, `${expected} one`])
      assert.isTrue(entries.every((e: any) => e.level === expected))
    })

  test('search is literal and case-insensitive, alone and with a level', async ({ client, assert }) => {
    const search = await client
      .get('/ops/logs/levels.log')
      .qs({ search: '(SYNC)' })
      .header('Authorization', bearer('logs:read'))
    search.assertStatus(200)
    assert.lengthOf(search.body().entries, 6)
    const context = await client
      .get('/ops/logs/levels.log')
      .qs({ search: 'U-3' })
      .header('Authorization', bearer('logs:read'))
    assert.deepEqual(context.body().entries.map((e: any) => e.message), ['WARNING two (sync)', 'WARNING one'])
    const regex = await client
      .get('/ops/logs/levels.log')
      .qs({ search: '.*' })
      .header('Authorization', bearer('logs:read'))
    assert.lengthOf(regex.body().entries, 0)
    const both = await client
      .get('/ops/logs/levels.log')
      .qs({ search: 'sync', level: 'error', lines: 5 })
      .header('Authorization', bearer('logs:read'))
    assert.deepEqual(both.body().entries.map((e: any) => e.message), ['ERROR two (sync)'])
  })

  test('a listed name with spaces is read through its URL encoding', async ({ client, assert }) => {
    await writeFile(join(logDir, 'with space.log'), pinoLine(30, 'spaced') + '\n')
    try {
      const response = await client.get('/ops/logs/with%20space.log').header('Authorization', bearer('logs:read'))
      response.assertStatus(200)
      assert.equal(response.body().entries[0].message, 'spaced')
    } finally {
      await rm(join(logDir, 'with space.log'), { force: true })
    }
  })

  test('entries come back without known secrets or absolute paths, and a search cannot probe for them', async ({ client, assert, cleanup }) => {
    const secret = 'coolify-log-secret-9f8e7d6c'
    const previous = env.get('COOLIFY_TOKEN')
    env.set('COOLIFY_TOKEN', secret)
    // The Polar client secret saved in the admin UI (stored encrypted) is known too.
    const storedSecret = 'stored-polar-secret-5a4b3c2d'
    await new PolarCredentialsService().save('polar-client-id', storedSecret)
    const file = join(logDir, 'secrets.log')
    cleanup(async () => {
      env.set('COOLIFY_TOKEN', previous ?? '')
      await AppSetting.query().whereIn('key', [POLAR_CLIENT_ID_SETTING, POLAR_CLIENT_SECRET_SETTING]).delete()
      await rm(file, { force: true })
    })
    const stack = `Error: boom\n    at run (${app.makePath('app', 'jobs', 'sync_user_job.ts')}:44:7)\n    at next (/usr/lib/node_modules/x/index.js:3:9)`
    await writeFile(
      file,
      [
        pinoLine(50, `coolify answered 401 for token ${secret}`, { err: { stack }, url: '/api/v1/users/alice/sleep' }),
        pinoLine(30, `token exchange with ${storedSecret}`),
      ].join('\n') + '\n'
    )

    const response = await client.get('/ops/logs/secrets.log').header('Authorization', bearer('logs:read'))
    response.assertStatus(200)
    const [entry] = response.body().entries.filter((e: any) => e.level === 'ERROR')
    assert.equal(entry.message, 'coolify answered 401 for token [redacted]')
    assert.equal(entry.err.stack, 'Error: boom\n    at run (./app/jobs/sync_user_job.ts:44:7)\n    at next (<path>:3:9)')
    assert.equal(entry.url, '/api/v1/users/alice/sleep')
    assert.notInclude(JSON.stringify(response.body()), secret)
    assert.include(response.body().entries.map((e: any) => e.message), 'token exchange with [redacted]')
    assert.notInclude(JSON.stringify(response.body()), app.makePath())

    // The filters see what the operator sees: a piece of the secret finds nothing, the redaction does.
    for (const search of [secret.slice(0, 12), app.makePath()]) {
      const probe = await client.get('/ops/logs/secrets.log').qs({ search }).header('Authorization', bearer('logs:read'))
      assert.deepEqual(probe.body().entries, [], search)
    }
    const redacted = await client.get('/ops/logs/secrets.log').qs({ search: 'token [REDACTED]' }).header('Authorization', bearer('logs:read'))
    assert.lengthOf(redacted.body().entries, 1)
    const storedProbe = await client.get('/ops/logs/secrets.log').qs({ search: storedSecret }).header('Authorization', bearer('logs:read'))
    assert.deepEqual(storedProbe.body().entries, [])
    const relative = await client.get('/ops/logs/secrets.log').qs({ search: './app/jobs' }).header('Authorization', bearer('logs:read'))
    assert.lengthOf(relative.body().entries, 1)
  })

  test('lines limits the result and reports has_more', async ({ client, assert }) => {
    const response = await client
      .get('/ops/logs/levels.log')
      .qs({ lines: 3 })
      .header('Authorization', bearer('logs:read'))
    response.assertStatus(200)
    assert.deepEqual(response.body().entries.map((e: any) => e.line), [12, 11, 10])
    assert.isTrue(response.body().has_more)
  })

  test('{$self} is a 422 problem')
    .with(['lines=0', 'lines=1001', 'lines=abc', 'lines=2.5', 'level=verbose'])
    .run(async ({ client, assert }, pair) => {
      const [key, value] = pair.split('=')
      const qs = { [key]: value }
      const response = await client.get('/ops/logs/levels.log').qs(qs).header('Authorization', bearer('logs:read'))
      response.assertStatus(422)
      assert.include(response.header('content-type'), 'application/problem+json')
      assert.equal(response.body().errors[0].field, Object.keys(qs)[0])
    })

  test('traversal attempt {$self} is refused with 404')
    .with([
      '..%2F..%2Fpackage.json',
      '..%2Flevels.log',
      '%2Fetc%2Fpasswd',
      '..',
      '%2E%2E',
      'levels.log%00.txt',
      'escape.log',
      'not-there.log',
      'notes.txt',
    ])
    .run(async ({ client, assert }, name) => {
      await writeFile(join(dirname(logDir), 'outside-secret.log'), 'secret line\n')
      await writeFile(join(logDir, 'notes.txt'), 'not a log')
      await rm(join(logDir, 'escape.log'), { force: true })
      await symlink(join(dirname(logDir), 'outside-secret.log'), join(logDir, 'escape.log'))
      try {
        const response = await client.get(`/ops/logs/${name}`).header('Authorization', bearer('logs:read'))
        assert.oneOf(response.status(), [404])
        assert.include(response.header('content-type'), 'application/problem+json')
        assert.notInclude(response.text(), 'secret line')
        assert.notInclude(response.text(), 'root:')
        const listing = await client.get('/ops/logs').header('Authorization', bearer('logs:read'))
        assert.notInclude(listing.body().files, 'escape.log')
      } finally {
        await rm(join(logDir, 'escape.log'), { force: true })
        await rm(join(logDir, 'notes.txt'), { force: true })
      }
    })
})

test.group('Ops | logs of 200 MB', (group) => {
  const name = 'huge.log'
  let size = 0
  group.setup(async () => {
    const restore = useTestTokens()
    await mkdir(logDir, { recursive: true })
    const handle = await open(join(logDir, name), 'w')
    const block = Buffer.from(
      Array.from({ length: 4000 }, (_, i) =>
        pinoLine([20, 30, 30, 40][i % 4], `request ${i} served`, { path: '/api/v1/users/u1/sleep', padding: 'x'.repeat(80) })
      ).join('\n') + '\n'
    )
    while (size < 200 * 1024 * 1024) {
      await handle.write(block)
      size += block.length
    }
    const last = Buffer.from(pinoLine(50, 'the newest line') + '\n')
    await handle.write(last)
    size += last.length
    await handle.close()
    return async () => {
      restore()
      await rm(join(logDir, name), { force: true })
    }
  })

  test('the newest entries of a 200 MB file come back with bounded memory', async ({ client, assert }) => {
    global.gc?.()
    const before = process.memoryUsage().rss
    let peak = before
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss)
    }, 5)
    try {
      const response = await client.get(`/ops/logs/${name}`).header('Authorization', bearer('logs:read'))
      response.assertStatus(200)
      const entries = response.body().entries
      assert.lengthOf(entries, 100)
      assert.equal(entries[0].message, 'the newest line')
      assert.equal(entries[0].level, 'ERROR')
      assert.equal(entries[1].line, entries[0].line - 1)
      const filtered = await client
        .get(`/ops/logs/${name}`)
        .qs({ level: 'warn', lines: 1000 })
        .header('Authorization', bearer('logs:read'))
      filtered.assertStatus(200)
      assert.lengthOf(filtered.body().entries, 1000)
    } finally {
      clearInterval(sampler)
    }
    peak = Math.max(peak, process.memoryUsage().rss)
    // The file is 200 MB; reading it whole would add at least that much.
    assert.isAbove(size, 200 * 1024 * 1024)
    assert.isBelow(peak - before, 64 * 1024 * 1024)
  }).timeout(120_000)
})
