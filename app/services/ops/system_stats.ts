import { readFile, statfs } from 'node:fs/promises'
import os from 'node:os'
import { dirname, resolve } from 'node:path'
import { storageDir } from '#config/paths'

/** `used_bytes`, `total_bytes` and `used_percent` (0–100, two decimals) of one resource. */
export interface UsageFigures {
  used_bytes: number
  total_bytes: number
  used_percent: number
}

export interface CpuStats {
  cores: number
  /** Host-wide load averages (os.loadavg), also inside a container. */
  load_average: { '1m': number; '5m': number; '15m': number }
  /** Busy share of the sampling window, 0–100; relative to the cgroup CPU limit when one exists. */
  usage_percent: number
}

export interface MemoryStats extends UsageFigures {
  /** `cgroup` when a container memory limit applies, else `host`. */
  source: 'cgroup' | 'host'
}

export interface ProcessStats {
  uptime_seconds: number
  rss_bytes: number
  heap_used_bytes: number
}

export interface SystemStatsReport {
  cpu: CpuStats
  memory: MemoryStats
  disk: UsageFigures
  process: ProcessStats
}

export interface SystemStatsOptions {
  /** Directory whose file system is reported as `disk` (the storage volume). */
  storagePath: string
  /** Root of the cgroup v2 hierarchy (tests point it at a fixture directory). */
  cgroupRoot?: string
  /** Length of the CPU sampling window in milliseconds. */
  sampleMs?: number
}

const round2 = (value: number) => Math.round(value * 100) / 100
const percent = (used: number, total: number) => (total > 0 ? round2(Math.min(100, Math.max(0, (used / total) * 100))) : 0)
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function readText(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8')
  } catch {
    return null
  }
}

/** statfs of the path, or of its nearest existing ancestor when it does not exist yet. */
async function statfsNearest(path: string) {
  let current = resolve(path)
  while (true) {
    try {
      return await statfs(current)
    } catch (error) {
      const parent = dirname(current)
      if (parent === current) throw error
      current = parent
    }
  }
}

/** Parses `key value` lines (cgroup `memory.stat`, `cpu.stat`) into numbers. */
export function parseKeyValues(text: string): Record<string, number> {
  const result: Record<string, number> = {}
  for (const line of text.split('\n')) {
    const [key, value] = line.trim().split(/\s+/)
    if (key && value !== undefined && /^\d+$/.test(value)) result[key] = Number(value)
  }
  return result
}

/** Parses `/proc/meminfo` into bytes per key. */
export function parseMeminfo(text: string): Record<string, number> {
  const result: Record<string, number> = {}
  for (const line of text.split('\n')) {
    const match = /^(\w+):\s+(\d+)(?:\s+kB)?/.exec(line)
    if (match) result[match[1]] = Number(match[2]) * (line.includes('kB') ? 1024 : 1)
  }
  return result
}

/**
 * `GET {ops}/stats`: CPU, memory, disk and process figures of the running instance (DESIGN §5),
 * the disk being the storage volume unless given. Memory follows the cgroup v2 limit when the
 * process runs under one (used = memory.current minus reclaimable inactive file cache); CPU usage is
 * sampled over a short window from the cgroup's usage counter when a CPU limit exists, else from
 * the host's CPU times.
 */
export class SystemStats {
  protected cgroupRoot: string
  protected sampleMs: number

  constructor(protected options: SystemStatsOptions = { storagePath: storageDir }) {
    this.cgroupRoot = options.cgroupRoot ?? '/sys/fs/cgroup'
    this.sampleMs = options.sampleMs ?? 150
  }

  /** All figures; each section falls back to host values rather than failing. */
  async collect(): Promise<SystemStatsReport> {
    const [cpu, memory, disk] = await Promise.all([this.cpu(), this.memory(), this.disk()])
    const usage = process.memoryUsage()
    return {
      cpu,
      memory,
      disk,
      process: {
        uptime_seconds: round2(process.uptime()),
        rss_bytes: usage.rss,
        heap_used_bytes: usage.heapUsed,
      },
    }
  }

  /** Cores available to this process, load averages and sampled usage. */
  async cpu(): Promise<CpuStats> {
    const [one, five, fifteen] = os.loadavg()
    const cores = os.availableParallelism()
    const limit = await this.cgroupCpuLimit()
    const usage = limit !== null ? await this.sampleCgroupUsage(limit) : null
    return {
      cores,
      load_average: { '1m': round2(one), '5m': round2(five), '15m': round2(fifteen) },
      usage_percent: usage ?? (await this.sampleHostUsage()),
    }
  }

  /** The cgroup v2 CPU quota in cores (`cpu.max` quota / period), or null without a limit. */
  protected async cgroupCpuLimit(): Promise<number | null> {
    const text = await readText(`${this.cgroupRoot}/cpu.max`)
    if (text === null) return null
    const [quota, period] = text.trim().split(/\s+/)
    if (quota === undefined || quota === 'max' || !/^\d+$/.test(quota) || !period || !/^\d+$/.test(period)) return null
    const cores = Number(quota) / Number(period)
    return cores > 0 ? cores : null
  }

  protected async cgroupUsageMicros(): Promise<number | null> {
    const text = await readText(`${this.cgroupRoot}/cpu.stat`)
    if (text === null) return null
    const usage = parseKeyValues(text).usage_usec
    return usage === undefined ? null : usage
  }

  protected async sampleCgroupUsage(limitCores: number): Promise<number | null> {
    const before = await this.cgroupUsageMicros()
    const started = process.hrtime.bigint()
    if (before === null) return null
    await sleep(this.sampleMs)
    const after = await this.cgroupUsageMicros()
    if (after === null) return null
    const elapsedMicros = Number(process.hrtime.bigint() - started) / 1000
    return percent(after - before, elapsedMicros * limitCores)
  }

  protected async sampleHostUsage(): Promise<number> {
    const totals = () =>
      os.cpus().reduce(
        (sum, cpu) => {
          const t = cpu.times
          sum.busy += t.user + t.nice + t.sys + t.irq
          sum.all += t.user + t.nice + t.sys + t.irq + t.idle
          return sum
        },
        { busy: 0, all: 0 }
      )
    const before = totals()
    await sleep(this.sampleMs)
    const after = totals()
    return percent(after.busy - before.busy, after.all - before.all)
  }

  /** Memory of the container when `memory.max` sets a limit, else of the host. */
  async memory(): Promise<MemoryStats> {
    const cgroup = await this.cgroupMemory()
    if (cgroup) return cgroup
    const meminfo = await readText('/proc/meminfo')
    const info = meminfo === null ? {} : parseMeminfo(meminfo)
    const total = info.MemTotal ?? os.totalmem()
    const available = info.MemAvailable ?? info.MemFree ?? os.freemem()
    const used = Math.max(0, total - available)
    return { used_bytes: used, total_bytes: total, used_percent: percent(used, total), source: 'host' }
  }

  protected async cgroupMemory(): Promise<MemoryStats | null> {
    const max = (await readText(`${this.cgroupRoot}/memory.max`))?.trim()
    if (!max || !/^\d+$/.test(max)) return null
    const current = (await readText(`${this.cgroupRoot}/memory.current`))?.trim()
    if (!current || !/^\d+$/.test(current)) return null
    const total = Number(max)
    // The host's total caps a limit set above the machine's memory.
    const effectiveTotal = Math.min(total, os.totalmem())
    const statText = await readText(`${this.cgroupRoot}/memory.stat`)
    const inactiveFile = statText === null ? 0 : (parseKeyValues(statText).inactive_file ?? 0)
    const used = Math.max(0, Number(current) - inactiveFile)
    return { used_bytes: used, total_bytes: effectiveTotal, used_percent: percent(used, effectiveTotal), source: 'cgroup' }
  }

  /** The file system holding the storage directory (like `df`: used = total − free blocks). */
  async disk(): Promise<UsageFigures> {
    const info = await statfsNearest(this.options.storagePath)
    const total = info.blocks * info.bsize
    const used = (info.blocks - info.bfree) * info.bsize
    return { used_bytes: used, total_bytes: total, used_percent: percent(used, total) }
  }
}
