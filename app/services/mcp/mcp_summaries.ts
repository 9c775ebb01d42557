import db from '@adonisjs/lucid/services/db'
import { dataType, type DataTypeKey } from '#services/records/data_types'
import { UserService } from '#services/user_service'
import { daysBetween } from '#services/analytics/metrics'
import type { ToolCall } from '#services/mcp/mcp_tool'

/** Data older than this many days before today is called stale in a summary. */
const STALE_AFTER_DAYS = 2

/** How a list tool describes its records. */
export interface ListDescription {
  /** Plural noun: "sleep records", "exercise sessions". */
  noun: string
  /** The catalogue type the records come from (for "most recent data is from …"). */
  type: DataTypeKey
  /**
   * True for a record per day (sleep, recharge, activity…): a gap of days means the data is stale.
   * Sessions and spot tests (exercises, SpO2, ECG) come when they come: only an empty window is noted.
   */
  daily: boolean
  units: string
  /** The local date of a record of the REST answer. */
  dateOf(record: any): string
  /** A few words about the newest record ("score 82, 7.4 h asleep"), optional. */
  latest?(record: any): string | null
}

/** The newest stored date of a data type for a user, or null when none is stored. */
export async function latestStoredDate(call: ToolCall, type: DataTypeKey): Promise<string | null> {
  const user = await (await call.make(UserService)).findOrFail(call.userId)
  const { table, dateColumn } = dataType(type)
  const row = await db.from(table).where('user_id', user.id).max(`${dateColumn} as latest`).first()
  const latest = row?.latest
  if (latest === null || latest === undefined) return null
  return latest instanceof Date ? latest.toISOString().slice(0, 10) : String(latest).slice(0, 10)
}

/** "The most recent data is from …" when `newest` is older than STALE_AFTER_DAYS, else null. */
export function stalenessNote(call: ToolCall, newest: string | null, noun: string): string | null {
  const today = call.clock.today().toISODate()!
  if (newest === null) return `No ${noun} are stored for this user yet; trigger_sync fetches them from Polar.`
  const age = daysBetween(newest, today)
  if (age <= STALE_AFTER_DAYS) return null
  return `The most recent data is from ${newest} (${age} days ago); get_sync_status shows when the user was last synced.`
}

/** Summary of a list answer: count, window, units, the newest record and staleness. */
export async function listSummary(call: ToolCall, description: ListDescription, days: number, records: any[]) {
  const { from, to } = call.clock.window(days)
  const lines = [
    `${records.length} ${description.noun} of user ${call.userId} from ${from} to ${to} (${days} day${days === 1 ? '' : 's'}), newest first.`,
  ]
  const dates = records.map((record) => description.dateOf(record)).sort()
  const newest = dates.length > 0 ? dates[dates.length - 1] : await latestStoredDate(call, description.type)
  if (records.length > 0) {
    const latest = description.latest?.(records[0])
    if (latest) lines.push(`Newest (${description.dateOf(records[0])}): ${latest}.`)
  } else if (newest !== null) {
    lines.push(`None in this window.`)
  }
  lines.push(`Units: ${description.units}.`)
  if (description.daily || records.length === 0) {
    const stale = stalenessNote(call, newest, description.noun)
    if (stale) lines.push(stale)
  }
  return lines.join(' ')
}

/** `value unit`, or null when the value is missing. */
export function withUnit(value: unknown, unit: string): string | null {
  return value === null || value === undefined ? null : `${value}${unit}`
}

/** Joins labelled values, leaving out missing ones: "score 82, HRV 48 ms". */
export function facts(parts: Array<[string, string | null]>): string | null {
  const present = parts.filter(([, value]) => value !== null).map(([label, value]) => `${label} ${value}`)
  return present.length > 0 ? present.join(', ') : null
}

/** "1 observation", "3 observations". */
export function count(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`
}

/** A sentence: the text with a full stop unless it ends with one already. */
export function sentence(text: string): string {
  return /[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`
}

/** A number for texts: at most `digits` decimals, or "none" when missing. */
export function num(value: unknown, digits = 2): string {
  return typeof value === 'number' ? String(Number(value.toFixed(digits))) : 'none'
}
