import app from '@adonisjs/core/services/app'
import { InsightsService } from '#services/analytics/insights_service'
import { ClockService } from '#services/clock_service'
import { CsvExportService, csvHeaders } from '#services/export/csv_export_service'
import { SleepLines } from '#services/records/sleep_lines'
import type { UserRef } from '#services/user_service'

/** An answer rendered by the database in one statement, with its content headers. */
export interface RenderedAnswer {
  body: string
  headers: Record<string, string>
}

type Render = (user: UserRef, days: number) => Promise<RenderedAnswer>

const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8' }

/** The `days` bound of the sleep list's and the CSV exports' validators. */
const MAX_DAYS = 365

const make = app.container.make.bind(app.container)

/**
 * The reads whose whole answer the database renders in one statement, and the exact URLs of them
 * that need no validation beyond a plain `days` (1–365, no sign, no leading zero, nothing else in
 * the query): the whole-window sleep list and sleep.csv (SleepLines) and the insights (their stored
 * answer, InsightsService.insightsJson). Each is what the route's controller answers for that URL,
 * through the same services; any other spelling of a query, valid or not, is the pipeline's.
 */
const ROUTES: Array<[RegExp, Render]> = [
  [
    /^\/api\/v1\/users\/[^/?]+\/sleep\?days=([1-9]\d{0,2})$/,
    async (user, days) => {
      const { from, to } = (await make(ClockService)).window(days)
      return { body: await SleepLines.json(user.id, from, to), headers: JSON_HEADERS }
    },
  ],
  [
    /^\/api\/v1\/users\/[^/?]+\/export\/sleep\.csv\?days=([1-9]\d{0,2})$/,
    async (user, days) => {
      const { from, to } = (await make(ClockService)).window(days)
      const file = await (await make(CsvExportService)).sleepWindow(user, from, to)
      return { body: file.content, headers: csvHeaders(file.filename) }
    },
  ],
  [
    /^\/api\/v1\/users\/[^/?]+\/insights$/,
    async (user) => ({ body: await (await make(InsightsService)).insightsJson(user.externalId), headers: JSON_HEADERS }),
  ],
]

/** The renderer of a URL (a GET of `/api/v1/users/{user_id}/…`), or null when it is not one of them. */
export function renderedRead(url: string): ((user: UserRef) => Promise<RenderedAnswer>) | null {
  for (const [pattern, render] of ROUTES) {
    const match = pattern.exec(url)
    if (!match) continue
    const days = match[1] === undefined ? 0 : Number(match[1])
    return days > MAX_DAYS ? null : (user) => render(user, days)
  }
  return null
}
