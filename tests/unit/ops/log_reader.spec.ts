import { test } from '@japa/runner'
import { mkdtemp, mkdir, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { LogReader, normaliseLevelName, parseLogLine } from '#services/ops/log_reader'

const pinoLine = (level: number, msg: string, extra: Record<string, unknown> = {}, time = 1_763_800_000_000) =>
  JSON.stringify({ level, time, pid: 42, hostname: 'box', msg, ...extra })

async function logDir() {
  const root = await mkdtemp(join(tmpdir(), 'hrvault-logs-'))
  const dir = join(root, 'logs')
  await mkdir(dir)
  return { root, dir }
}

test.group('Ops logs | parsing', () => {
  test('maps pino levels and times to names and ISO timestamps', ({ assert }) => {
    const entry = parseLogLine(pinoLine(40, 'disk almost full', { free: 0, user: null }), 7)
    assert.deepEqual(entry, {
      line: 7,
      timestamp: '2025-11-22T08:26:40.000Z',
      level: 'WARNING',
      message: 'disk almost full',
      pid: 42,
      hostname: 'box',
      free: 0,
      user: null,
    })
  })

  test('keeps a non-JSON line as its message', ({ assert }) => {
    assert.deepEqual(parseLogLine('plain text', 3), { line: 3, timestamp: null, level: null, message: 'plain text' })
  })

  test('level names are case-insensitive and WARN is WARNING', ({ assert }) => {
    assert.equal(normaliseLevelName('warn'), 'WARNING')
    assert.equal(normaliseLevelName('Warning'), 'WARNING')
    assert.equal(normaliseLevelName('error'), 'ERROR')
    assert.isNull(normaliseLevelName('verbose'))
  })
})

test.group('Ops logs | reading', (group) => {
  let root = ''
  let dir = ''
  group.each.setup(async () => {
    ;({ root, dir } = await logDir())
    return () => rm(root, { recursive: true, force: true })
  })

  test('lists only log files, newest first', async ({ assert }) => {
    await writeFile(join(dir, 'hrvault.1.log'), pinoLine(30, 'a') + '\n')
    await writeFile(join(dir, 'notes.txt'), 'x')
    await mkdir(join(dir, 'nested.log'))
    const reader = new LogReader(dir)
    assert.deepEqual(await reader.listFiles(), ['hrvault.1.log'])
    assert.deepEqual(await new LogReader(join(root, 'missing')).listFiles(), [])
  })

  test('returns the newest entries first with physical line numbers', async ({ assert }) => {
    const lines = [pinoLine(30, 'one'), '', pinoLine(30, 'two'), 'garbage', pinoLine(50, 'three')]
    await writeFile(join(dir, 'app.log'), lines.join('\n') + '\n')
    const result = await new LogReader(dir).read('app.log', { lines: 2 })
    assert.deepEqual(
      result.entries.map((e) => [e.line, e.message]),
      [
        [5, 'three'],
        [4, 'garbage'],
      ]
    )
    assert.isTrue(result.has_more)
    const all = await new LogReader(dir).read('app.log', { lines: 10 })
    assert.deepEqual(all.entries.map((e) => e.line), [5, 4, 3, 1])
    assert.isFalse(all.has_more)
  })

  test('handles files without a final newline, CRLF endings and empty files', async ({ assert }) => {
    await writeFile(join(dir, 'a.log'), `${pinoLine(30, 'x')}\r\n${pinoLine(30, 'y')}`)
    await writeFile(join(dir, 'empty.log'), '')
    const reader = new LogReader(dir)
    const result = await reader.read('a.log', { lines: 5 })
    assert.deepEqual(result.entries.map((e) => [e.line, e.message]), [[2, 'y'], [1, 'x']])
    assert.deepEqual((await reader.read('empty.log', { lines: 5 })).entries, [])
  })

  test('filters by exact level', async ({ assert }) => {
    const levels = [10, 20, 30, 40, 50, 60]
    await writeFile(join(dir, 'app.log'), levels.map((l) => pinoLine(l, `at ${l}`)).join('\n') + '\n')
    const reader = new LogReader(dir)
    for (const [name, message] of [
      ['TRACE', 'at 10'],
      ['DEBUG', 'at 20'],
      ['INFO', 'at 30'],
      ['WARNING', 'at 40'],
      ['ERROR', 'at 50'],
      ['FATAL', 'at 60'],
    ] as const) {
      const result = await reader.read('app.log', { lines: 10, level: name })
      assert.deepEqual(result.entries.map((e) => e.message), [message])
      assert.equal(result.entries[0].level, name)
    }
  })

  test('searches literally and case-insensitively in message and context', async ({ assert }) => {
    await writeFile(
      join(dir, 'app.log'),
      [
        pinoLine(30, 'Sync OK for user.1'),
        pinoLine(30, 'sync ok for userX1'),
        pinoLine(50, 'boom', { err: { message: 'Polar said "No"' } }),
      ].join('\n') + '\n'
    )
    const reader = new LogReader(dir)
    const dot = await reader.read('app.log', { lines: 10, search: 'USER.1' })
    assert.deepEqual(dot.entries.map((e) => e.line), [1])
    const quoted = await reader.read('app.log', { lines: 10, search: 'said "no"' })
    assert.deepEqual(quoted.entries.map((e) => e.line), [3])
    const keyOnly = await reader.read('app.log', { lines: 10, search: 'hostname' })
    assert.deepEqual(keyOnly.entries, [])
    const combined = await reader.read('app.log', { lines: 10, search: 'sync', level: 'ERROR' })
    assert.deepEqual(combined.entries, [])
  })

  test('reports an oversized line without holding it', async ({ assert }) => {
    await writeFile(join(dir, 'app.log'), `${pinoLine(30, 'before')}\n${'x'.repeat(2 * 1024 * 1024)}\n${pinoLine(30, 'after')}\n`)
    const result = await new LogReader(dir).read('app.log', { lines: 3 })
    assert.deepEqual(result.entries.map((e) => e.line), [3, 2, 1])
    assert.match(result.entries[1].message, /omitted/)
  })

  test('refuses traversal, absolute paths, unlisted files and symlinks leaving the directory', async ({ assert }) => {
    await writeFile(join(root, 'outside.log'), 'secret\n')
    await writeFile(join(dir, 'app.log'), pinoLine(30, 'inside') + '\n')
    await writeFile(join(dir, 'config.json'), '{}')
    await symlink(join(root, 'outside.log'), join(dir, 'escape.log'))
    await symlink('app.log', join(dir, 'current.log'))
    const reader = new LogReader(dir)
    assert.deepEqual((await reader.listFiles()).sort(), ['app.log', 'current.log'])
    for (const name of ['../outside.log', '..%2Foutside.log', join(root, 'outside.log'), 'escape.log', 'config.json', '..', '.', '', 'a\\b.log', 'nul\0.log']) {
      await assert.rejects(() => reader.read(name, { lines: 1 }), /not one of the listed log files/)
    }
    assert.equal((await reader.read('current.log', { lines: 1 })).entries[0].message, 'inside')
  })
})
