import vine from '@vinejs/vine'
import { DEFAULT_LOG_LINES, MAX_LOG_LINES } from '#services/ops/log_reader'

/** Level filter names accepted on `/logs/{file}` (case-insensitive; WARN means WARNING). */
const LEVEL_FILTERS = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'WARNING', 'ERROR', 'FATAL']

/** GET {ops}/logs/:file — `lines` 1–1000 (default 100), optional `level` and `search`. */
export const readLogValidator = vine.create({
  lines: vine.number().withoutDecimals().range([1, MAX_LOG_LINES]).optional(),
  level: vine.string().trim().toUpperCase().in(LEVEL_FILTERS).optional(),
  search: vine.string().maxLength(500).optional(),
  params: vine.object({ file: vine.string().minLength(1).maxLength(255) }),
})

/** Documented default of `lines`. */
export const defaultLogLines = DEFAULT_LOG_LINES

/** GET {ops}/queue/failed — `page` (default 1) and `per_page` 1–100 (default 50). */
export const listFailedJobsValidator = vine.create({
  page: vine.number().withoutDecimals().min(1).max(1_000_000).optional(),
  per_page: vine.number().withoutDecimals().range([1, 100]).optional(),
})

/** POST {ops}/queue/retry/:id — a positive integer id. */
export const retryFailedJobValidator = vine.create({
  params: vine.object({ id: vine.number().withoutDecimals().min(1).max(Number.MAX_SAFE_INTEGER) }),
})

/** POST {ops}/console — `{command}` (a name, optionally followed by arguments) and optional `args`. */
export const runConsoleCommandValidator = vine.create({
  command: vine.string().trim().minLength(1).maxLength(1000),
  args: vine.array(vine.string().maxLength(512)).maxLength(32).optional(),
})
