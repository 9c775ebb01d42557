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

/** Badge tone of a level name. */
export function levelTone(level: string | null): string {
  const name = String(level ?? '').toUpperCase()
  if (name === 'ERROR' || name === 'FATAL') return 'bad'
  if (name.startsWith('WARN')) return 'warn'
  return ''
}
