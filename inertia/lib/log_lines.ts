/** One line of an application's output: a pino JSON line read as time, level, message and context. */
export interface LogLine {
  raw: string
  time: string | null
  level: string | null
  message: string
  context: Array<[string, string]>
}

const PINO_LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' }
const KNOWN = new Set(['level', 'time', 'msg', 'message', 'pid', 'hostname', 'v'])

/** A pino line (optionally after a container timestamp prefix); other lines keep their text as the message. */
export function parseLogLine(raw: string): LogLine {
  const start = raw.indexOf('{')
  if (start >= 0) {
    try {
      const value = JSON.parse(raw.slice(start)) as Record<string, unknown>
      if (value && typeof value === 'object' && ('msg' in value || 'level' in value)) {
        const level = typeof value.level === 'number' ? (PINO_LEVELS[value.level] ?? String(value.level)) : value.level ? String(value.level).toUpperCase() : null
        const time = typeof value.time === 'number' || typeof value.time === 'string' ? new Date(value.time).toISOString() : null
        const context = Object.entries(value)
          .filter(([key, v]) => !KNOWN.has(key) && v !== undefined && v !== null)
          .map(([key, v]): [string, string] => [key, typeof v === 'object' ? JSON.stringify(v) : String(v)])
        return { raw, time, level, message: String(value.msg ?? value.message ?? ''), context }
      }
    } catch {}
  }
  return { raw, time: null, level: null, message: raw, context: [] }
}

export function parseLog(text: string): LogLine[] {
  return text.split('\n').filter((line) => line.trim() !== '').map(parseLogLine)
}

/** Fields of an operations API log entry that are not its context. */
const ENTRY_FIELDS = new Set(['line', 'timestamp', 'level', 'message', 'pid', 'hostname', 'time', 'msg', 'v'])

/**
 * An entry of the operations API's log reader (`{line, timestamp, level, message, …context}`) as a
 * log line; `raw` is the message and context as text, which the search reads.
 */
export function fromOpsEntry(entry: Record<string, unknown>): LogLine {
  const context = Object.entries(entry)
    .filter(([key, value]) => !ENTRY_FIELDS.has(key) && value !== undefined && value !== null)
    .map(([key, value]): [string, string] => [key, typeof value === 'object' ? JSON.stringify(value) : String(value)])
  const message = String(entry.message ?? '')
  return {
    raw: [message, ...context.map(([key, value]) => `${key}=${value}`)].join(' '),
    time: typeof entry.timestamp === 'string' ? entry.timestamp : null,
    level: typeof entry.level === 'string' ? entry.level.toUpperCase() : null,
    message,
    context,
  }
}

/** A level name as the filter compares it: WARNING and WARN are the same level. */
export function levelKey(level: string | null): string {
  const name = String(level ?? '').toUpperCase()
  return name === 'WARNING' ? 'WARN' : name
}

/** Lines of `level` (any when empty) whose text contains `search` (case-insensitive; message, context, raw line). */
export function filterLines(lines: LogLine[], level: string, search: string): LogLine[] {
  const wanted = levelKey(level)
  const term = search.trim().toLowerCase()
  return lines.filter((line) => {
    if (wanted && levelKey(line.level) !== wanted) return false
    if (!term) return true
    const text = `${line.raw}\n${line.message}\n${line.context.map(([key, value]) => `${key}=${value}`).join(' ')}`
    return text.toLowerCase().includes(term)
  })
}

/** Badge tone of a level name. */
export function levelTone(level: string | null): string {
  const name = String(level ?? '').toUpperCase()
  if (name === 'ERROR' || name === 'FATAL') return 'bad'
  if (name.startsWith('WARN')) return 'warn'
  return ''
}
