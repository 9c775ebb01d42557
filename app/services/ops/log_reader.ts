import { constants } from 'node:fs'
import { lstat, open, readdir, realpath, stat } from 'node:fs/promises'
import type { FileHandle } from 'node:fs/promises'
import { isAbsolute, join, sep } from 'node:path'
import { logDir } from '#config/paths'
import OpsLogFileNotFoundException from '#exceptions/ops_log_file_not_found_exception'
import { currentSecretScrubber } from '#services/ops/known_secrets'
import { PATH_PLACEHOLDER, REDACTED, type SecretScrubber } from '#services/ops/secret_scrubber'

/** Level names reported in log entries (pino's numeric levels mapped to these). */
export const LOG_LEVEL_NAMES = ['TRACE', 'DEBUG', 'INFO', 'WARNING', 'ERROR', 'FATAL'] as const
export type LogLevelName = (typeof LOG_LEVEL_NAMES)[number]

/** Default and maximum number of entries returned by one read (DESIGN §5). */
export const DEFAULT_LOG_LINES = 100
export const MAX_LOG_LINES = 1000

/** Bytes read per step when walking a file backwards. */
const CHUNK_BYTES = 64 * 1024
/** A line longer than this is reported as an omitted entry instead of being held in memory. */
const MAX_LINE_BYTES = 1024 * 1024
/** Names of files that count as log files: `x.log` and rotated `x.log.3`. */
const LOG_FILE_NAME = /\.log(\.\d+)?$/i
/** Lower-cased text the scrubber writes into entries (`./` stands for the application root). */
const SCRUBBER_OUTPUT = [REDACTED.toLowerCase(), PATH_PLACEHOLDER.toLowerCase(), './']
/** Keys of a pino line that become the fixed fields of an entry. */
const RESERVED_KEYS = new Set(['line', 'timestamp', 'level', 'message', 'msg', 'time'])

/** One parsed log line: fixed fields first, then the line's own context keys. */
export interface LogEntry {
  /** 1-based physical line number in the file. */
  line: number
  /** ISO 8601 (UTC, `Z` offset) when the line carried a time, else null. */
  timestamp: string | null
  /** Null for lines that are not pino JSON. */
  level: LogLevelName | null
  message: string
  [context: string]: unknown
}

export interface LogReadOptions {
  /** Number of entries wanted, newest first (1 … MAX_LOG_LINES). */
  lines: number
  /** Only entries of exactly this level. */
  level?: LogLevelName | null
  /** Literal, case-insensitive term searched in the message and the context values. */
  search?: string | null
}

export interface LogReadResult {
  file: string
  entries: LogEntry[]
  /** True when older entries matching the same filters exist before the returned ones. */
  has_more: boolean
}

/**
 * Maps a level filter as typed by a user (any case; WARN and WARNING are the same) to a level
 * name, or null when it is not a level.
 */
export function normaliseLevelName(input: string): LogLevelName | null {
  const upper = input.trim().toUpperCase()
  if (upper === 'WARN') return 'WARNING'
  return (LOG_LEVEL_NAMES as readonly string[]).includes(upper) ? (upper as LogLevelName) : null
}

/** pino numeric level → name; custom levels fall into the nearest standard band. */
export function pinoLevelName(level: number): LogLevelName {
  if (level <= 10) return 'TRACE'
  if (level <= 20) return 'DEBUG'
  if (level <= 30) return 'INFO'
  if (level <= 40) return 'WARNING'
  if (level <= 50) return 'ERROR'
  return 'FATAL'
}

function levelOf(value: unknown): LogLevelName | null {
  if (typeof value === 'number' && Number.isFinite(value)) return pinoLevelName(value)
  if (typeof value === 'string') return normaliseLevelName(value)
  return null
}

function timestampOf(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) {
    const date = new Date(value)
    return Number.isNaN(date.getTime()) ? null : date.toISOString()
  }
  if (typeof value === 'string') {
    const date = new Date(value)
    return Number.isNaN(date.getTime()) ? null : date.toISOString()
  }
  return null
}

/**
 * Parses one pino JSON line into an entry. A line that is not a JSON object becomes an entry
 * with null timestamp and level and the raw text as message.
 */
export function parseLogLine(text: string, line: number): LogEntry {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    parsed = undefined
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { line, timestamp: null, level: null, message: text }
  }
  const record = parsed as Record<string, unknown>
  const rawMessage = record.msg ?? record.message
  const entry: LogEntry = {
    line,
    timestamp: timestampOf(record.time ?? record.timestamp),
    level: levelOf(record.level),
    message: typeof rawMessage === 'string' ? rawMessage : rawMessage === undefined ? '' : JSON.stringify(rawMessage),
  }
  for (const [key, value] of Object.entries(record)) {
    if (!RESERVED_KEYS.has(key)) entry[key] = value
  }
  return entry
}

/** Lower-cased text an entry is searched in: its message and every scalar context value. */
function searchableText(entry: LogEntry): string {
  const parts: string[] = [entry.message]
  const visit = (value: unknown) => {
    if (value === null || value === undefined) return
    if (typeof value === 'object') {
      for (const inner of Object.values(value as Record<string, unknown>)) visit(inner)
    } else {
      parts.push(String(value))
    }
  }
  for (const [key, value] of Object.entries(entry)) {
    if (!RESERVED_KEYS.has(key)) visit(value)
  }
  return parts.join('\n').toLowerCase()
}

/** A physical line found while walking backwards; `bytes` is null for an oversized line. */
interface RawLine {
  bytes: Buffer | null
  length: number
  /** Byte offset of the line's first byte. */
  start: number
}

/**
 * Yields the lines of an open file from the last to the first, reading CHUNK_BYTES at a time, so
 * memory stays bounded by one chunk plus one line whatever the file size. A terminating newline
 * does not produce an empty last line.
 */
async function* linesBackwards(handle: FileHandle, size: number): AsyncGenerator<RawLine> {
  let end = size
  if (size > 0) {
    const last = Buffer.alloc(1)
    await handle.read(last, 0, 1, size - 1)
    if (last[0] === 0x0a) end = size - 1
  }
  let parts: Buffer[] = []
  let partsLength = 0
  let oversized = false

  const take = (piece: Buffer, start: number): RawLine => {
    const length = partsLength + piece.length
    const bytes = oversized || length > MAX_LINE_BYTES ? null : Buffer.concat([piece, ...parts], length)
    parts = []
    partsLength = 0
    oversized = false
    return { bytes, length, start }
  }

  let position = end
  const buffer = Buffer.alloc(CHUNK_BYTES)
  while (position > 0) {
    const chunkStart = Math.max(0, position - CHUNK_BYTES)
    const wanted = position - chunkStart
    const { bytesRead } = await handle.read(buffer, 0, wanted, chunkStart)
    const chunk = buffer.subarray(0, bytesRead)
    let cursor = chunk.length
    while (cursor > 0) {
      const newline = chunk.lastIndexOf(0x0a, cursor - 1)
      if (newline === -1) break
      yield take(chunk.subarray(newline + 1, cursor), chunkStart + newline + 1)
      cursor = newline
    }
    if (cursor > 0) {
      // The start of a line that continues into the bytes read before: keep a copy (the shared
      // buffer is reused) unless the line is already too long to keep.
      partsLength += cursor
      if (oversized || partsLength > MAX_LINE_BYTES) {
        oversized = true
        parts = []
      } else {
        parts.unshift(Buffer.from(chunk.subarray(0, cursor)))
      }
    }
    position = chunkStart
  }
  // What is left (possibly nothing, when the file starts with a newline) is the first line.
  if (end > 0) yield take(Buffer.alloc(0), 0)
}

/** Counts newline bytes in [0, end) of an open file, reading 1 MiB at a time. */
async function countNewlines(handle: FileHandle, end: number): Promise<number> {
  const buffer = Buffer.alloc(1024 * 1024)
  let count = 0
  let position = 0
  while (position < end) {
    const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, end - position), position)
    if (bytesRead === 0) break
    let index = buffer.indexOf(0x0a, 0)
    while (index !== -1 && index < bytesRead) {
      count++
      index = buffer.indexOf(0x0a, index + 1)
    }
    position += bytesRead
  }
  return count
}

/**
 * `GET {ops}/logs[/:file]`: lists and reads the application's log files in one directory (LOG_DIR
 * unless given). Only files listed by `listFiles` can be read; names with separators, `..` or
 * absolute paths, and symbolic links whose real path leaves the directory, are refused with
 * OpsLogFileNotFoundException (404). Entries come back scrubbed of known secrets and absolute
 * paths (by default currentSecretScrubber), and the filters see the scrubbed entry, so a search
 * cannot probe for a redacted value.
 */
export class LogReader {
  constructor(
    protected directory: string = logDir,
    protected scrubber: () => Promise<SecretScrubber> = currentSecretScrubber
  ) {}

  /** True when `name` is a plain file name: no separators, no `..`, not absolute, no NUL. */
  static isPlainName(name: string): boolean {
    return (
      name.length > 0 &&
      name.length <= 255 &&
      !isAbsolute(name) &&
      !name.includes('/') &&
      !name.includes('\\') &&
      !name.includes('\0') &&
      !name.includes('..') &&
      name !== '.'
    )
  }

  /** Real path of the directory, or null when it does not exist. */
  protected async realDirectory(): Promise<string | null> {
    try {
      return await realpath(this.directory)
    } catch {
      return null
    }
  }

  /** Real path of a directory entry when it is a regular file inside the directory, else null. */
  protected async containedFile(realDir: string, name: string): Promise<{ path: string; mtimeMs: number } | null> {
    const candidate = join(realDir, name)
    try {
      const info = await lstat(candidate)
      if (!info.isFile() && !info.isSymbolicLink()) return null
      const real = await realpath(candidate)
      if (!real.startsWith(realDir + sep)) return null
      const target = await stat(real)
      return target.isFile() ? { path: real, mtimeMs: target.mtimeMs } : null
    } catch {
      return null
    }
  }

  /** Names of the readable log files, most recently modified first. */
  async listFiles(): Promise<string[]> {
    const realDir = await this.realDirectory()
    if (realDir === null) return []
    let names: string[]
    try {
      names = await readdir(realDir)
    } catch {
      return []
    }
    const found: { name: string; mtimeMs: number }[] = []
    for (const name of names) {
      if (!LogReader.isPlainName(name) || !LOG_FILE_NAME.test(name)) continue
      const file = await this.containedFile(realDir, name)
      if (file) found.push({ name, mtimeMs: file.mtimeMs })
    }
    found.sort((a, b) => b.mtimeMs - a.mtimeMs || a.name.localeCompare(b.name))
    return found.map((file) => file.name)
  }

  /** Real path of a listed file; throws OpsLogFileNotFoundException for anything else. */
  async resolve(name: string): Promise<string> {
    const notFound = () => new OpsLogFileNotFoundException(`Log file "${LogReader.isPlainName(name) ? name : '(invalid name)'}" is not one of the listed log files`)
    if (!LogReader.isPlainName(name)) throw notFound()
    const listed = await this.listFiles()
    if (!listed.includes(name)) throw notFound()
    const realDir = await this.realDirectory()
    const file = realDir === null ? null : await this.containedFile(realDir, name)
    if (!file) throw notFound()
    return file.path
  }

  /**
   * The newest `lines` entries of a listed file matching the filters, newest first. The file is
   * read backwards in chunks and only as far as needed, so a tail of a huge file costs one chunk;
   * line numbers are then found by counting newlines in a streamed pass over the earlier part.
   */
  async read(name: string, options: LogReadOptions): Promise<LogReadResult> {
    const path = await this.resolve(name)
    let handle: FileHandle
    try {
      handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW)
    } catch {
      throw new OpsLogFileNotFoundException(`Log file "${name}" is not one of the listed log files`)
    }
    try {
      return await this.readFrom(handle, name, options, await this.scrubber())
    } finally {
      await handle.close()
    }
  }

  protected async readFrom(handle: FileHandle, name: string, options: LogReadOptions, scrubber: SecretScrubber): Promise<LogReadResult> {
    const { size } = await handle.stat()
    const wanted = options.lines
    const level = options.level ?? null
    const search = options.search !== undefined && options.search !== null && options.search !== '' ? options.search.toLowerCase() : null
    // Quick test on the raw line, skipped for terms that only the scrubbed text can contain.
    const searchRaw =
      search === null || SCRUBBER_OUTPUT.some((piece) => search.includes(piece)) ? null : JSON.stringify(search).slice(1, -1)
    const levelPrefix = /^\{"level":(\d+)[,}]/

    const matches: { entry: LogEntry; index: number }[] = []
    let processed = 0
    let earliestStart = size
    for await (const raw of linesBackwards(handle, size)) {
      const index = processed++
      earliestStart = raw.start
      if (raw.bytes === null) {
        if (level === null && search === null) {
          matches.push({ entry: { line: 0, timestamp: null, level: null, message: `[log line of ${raw.length} bytes omitted]` }, index })
        }
      } else if (raw.bytes.length > 0) {
        const text = raw.bytes.toString('utf8').replace(/\r$/, '')
        if (text.trim() === '') continue
        if (searchRaw !== null && !text.toLowerCase().includes(searchRaw)) continue
        if (level !== null) {
          const quick = levelPrefix.exec(text)
          if (quick && pinoLevelName(Number(quick[1])) !== level) continue
        }
        const entry = scrubber.scrubValue(parseLogLine(text, 0))
        if (level !== null && entry.level !== level) continue
        if (search !== null && !searchableText(entry).includes(search)) continue
        matches.push({ entry, index })
      }
      if (matches.length > wanted) break
    }

    const hasMore = matches.length > wanted
    if (hasMore) matches.pop()
    const firstLineNumber = (await countNewlines(handle, earliestStart)) + 1
    const entries = matches.map(({ entry, index }) => {
      entry.line = firstLineNumber + (processed - 1 - index)
      return entry
    })
    return { file: name, entries, has_more: hasMore }
  }
}
