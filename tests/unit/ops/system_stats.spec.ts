import { test } from '@japa/runner'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SystemStats, parseMeminfo } from '#services/ops/system_stats'

test.group('Ops stats | system figures', (group) => {
  let cgroup = ''
  group.each.setup(async () => {
    cgroup = await mkdtemp(join(tmpdir(), 'hrvault-cgroup-'))
    return () => rm(cgroup, { recursive: true, force: true })
  })

  test('uses the cgroup memory limit and leaves out inactive file cache', async ({ assert }) => {
    await writeFile(join(cgroup, 'memory.max'), '536870912\n')
    await writeFile(join(cgroup, 'memory.current'), '268435456\n')
    await writeFile(join(cgroup, 'memory.stat'), 'anon 100\ninactive_file 134217728\nactive_file 5\n')
    const memory = await new SystemStats({ storagePath: tmpdir(), cgroupRoot: cgroup }).memory()
    assert.deepEqual(memory, { used_bytes: 134217728, total_bytes: 536870912, used_percent: 25, source: 'cgroup' })
  })

  test('falls back to host memory when the cgroup has no limit', async ({ assert }) => {
    await writeFile(join(cgroup, 'memory.max'), 'max\n')
    await writeFile(join(cgroup, 'memory.current'), '1000\n')
    const memory = await new SystemStats({ storagePath: tmpdir(), cgroupRoot: cgroup }).memory()
    assert.equal(memory.source, 'host')
    assert.isAbove(memory.total_bytes, 0)
    assert.isAtMost(memory.used_bytes, memory.total_bytes)
  })

  test('samples cgroup CPU usage against the CPU quota', async ({ assert }) => {
    await writeFile(join(cgroup, 'cpu.max'), '200000 100000\n')
    await writeFile(join(cgroup, 'cpu.stat'), 'usage_usec 1000\nuser_usec 600\n')
    const stats = new SystemStats({ storagePath: tmpdir(), cgroupRoot: cgroup, sampleMs: 20 })
    const cpu = await stats.cpu()
    // The counter did not move during the window: 0 % of the 2-core quota.
    assert.equal(cpu.usage_percent, 0)
    assert.isAbove(cpu.cores, 0)
    assert.properties(cpu.load_average, ['1m', '5m', '15m'])
  })

  test('reports every section with integers for byte counts', async ({ assert }) => {
    const report = await new SystemStats({ storagePath: join(tmpdir(), 'not', 'created', 'yet'), cgroupRoot: cgroup, sampleMs: 20 }).collect()
    for (const section of [report.memory, report.disk]) {
      assert.isTrue(Number.isInteger(section.used_bytes))
      assert.isTrue(Number.isInteger(section.total_bytes))
      assert.isAtLeast(section.used_percent, 0)
      assert.isAtMost(section.used_percent, 100)
    }
    assert.isAtLeast(report.cpu.usage_percent, 0)
    assert.isAtMost(report.cpu.usage_percent, 100)
    assert.isAbove(report.process.rss_bytes, 0)
    assert.isAbove(report.process.uptime_seconds, 0)
  })

  test('parses /proc/meminfo in bytes', ({ assert }) => {
    assert.deepEqual(parseMeminfo('MemTotal:       2048 kB\nMemAvailable:    1024 kB\nHugePages_Total: 0\n'), {
      MemTotal: 2048 * 1024,
      MemAvailable: 1024 * 1024,
      HugePages_Total: 0,
    })
  })
})
