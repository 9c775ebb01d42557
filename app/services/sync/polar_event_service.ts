import { inject } from '@adonisjs/core'
import logger from '@adonisjs/core/services/logger'
import db from '@adonisjs/lucid/services/db'
import type User from '#models/user'
import ProviderNotConnectedException from '#exceptions/provider_not_connected_exception'
import { AnalyticsService } from '#services/analytics/analytics_service'
import { ClockService } from '#services/clock_service'
import type { AccessLinkClient } from '#services/polar/accesslink_client'
import { AccountBindingService } from '#services/polar/account_binding_service'
import { addDays, daysBetween, isIsoDate } from '#services/polar/local_times'
import { PolarClientFactory } from '#services/polar/polar_client_factory'
import type { HANDLED_POLAR_EVENTS } from '#services/polar/polar_webhook_service'
import { ProviderTokenService } from '#services/polar/provider_token_service'
import { RawArchiveService } from '#services/records/raw_archive_service'
import { EXERCISE_DETAIL, dataType, typesFedBy, type DataTypeKey } from '#services/records/data_types'
import { latestSleepOffset, upsertRows } from '#services/sync/queries'

export type PolarEventName = (typeof HANDLED_POLAR_EVENTS)[number]

/** One webhook event as the receiver queued it: what changed, for which Polar account. */
export interface PolarEvent {
  event: PolarEventName
  polarUserId: string
  /** SLEEP, ACTIVITY_SUMMARY, CONTINUOUS_HEART_RATE. */
  date?: string
  /** EXERCISE: the hashed exercise id. */
  entityId?: string
  /** SLEEP_WISE_*: the changed range. */
  from?: string
  to?: string
}

/** Wire items of catalogued types fetched for an event. */
type Pulled = Array<{ key: DataTypeKey; items: unknown[] }>

const present = <T>(value: T | null): T[] => (value === null ? [] : [value])

/** The longest SleepWise range one call may ask for (AccessLink's 28-day range limit). */
const MAX_RANGE_DAYS = 28

/**
 * What each event fetches: only the item it names, never the 28-day lists (issue: at most a couple
 * of calls per event). SLEEP → that night and that date's Nightly Recharge; EXERCISE → that
 * exercise with zones, samples and route; ACTIVITY_SUMMARY → that day's activity and cardio load;
 * CONTINUOUS_HEART_RATE → that day's samples; SLEEP_WISE_* → the range named;
 * PHYSICAL_INFORMATION → the current physical information (a new version when it changed). The catalogue maps
 * the items, as in a full sync.
 */
const PULL: Record<PolarEventName, (client: AccessLinkClient, event: PolarEvent) => Promise<Pulled>> = {
  SLEEP: async (client, { date }) => [
    { key: 'sleep', items: present(await client.getSleep(date!)) },
    { key: 'recharge', items: present(await client.getNightlyRecharge(date!)) },
  ],
  EXERCISE: async (client, { entityId }) => [
    { key: 'exercises', items: present(await client.getExercise(entityId!, EXERCISE_DETAIL)) },
  ],
  ACTIVITY_SUMMARY: async (client, { date }) => {
    const day = { from: date!, to: date! }
    return [
      { key: 'activity', items: await client.listDailyActivities(day, { samples: true }) },
      { key: 'cardio_load', items: await client.listCardioLoad(day) },
    ]
  },
  CONTINUOUS_HEART_RATE: async (client, { date }) => [
    { key: 'heart_rate', items: present(await client.getContinuousHeartRate(date!)) },
  ],
  SLEEP_WISE_ALERTNESS: async (client, event) => [
    { key: 'sleepwise_alertness', items: await client.listSleepwiseAlertness(rangeOf(event)) },
  ],
  PHYSICAL_INFORMATION: async (client) => [{ key: 'physical_info', items: present(await client.getPhysicalInfo()) }],
  SLEEP_WISE_CIRCADIAN_BEDTIME: async (client, event) => [
    { key: 'sleepwise_bedtime', items: await client.listSleepwiseBedtime(rangeOf(event)) },
  ],
}

/** The SleepWise range of an event as dates, at most MAX_RANGE_DAYS long (ending at `to`). */
function rangeOf({ from, to }: PolarEvent): { from: string; to: string } {
  const end = (to ?? from ?? '').slice(0, 10)
  let start = (from ?? to ?? '').slice(0, 10)
  if (!isIsoDate(start) || !isIsoDate(end)) throw new RangeError('a SleepWise event needs from/to dates')
  if (daysBetween(start, end) >= MAX_RANGE_DAYS) start = addDays(end, -(MAX_RANGE_DAYS - 1))
  return { from: start, to: end }
}

/** What one event fetch did. */
export interface PolarEventOutcome {
  rowsWritten: number
  providerCalls: number
  counts: Partial<Record<DataTypeKey, number>>
}

/**
 * Push sync: turns one Polar webhook event into a targeted fetch with the user's stored token and
 * stores the rows through the same idempotent upserts as a full sync (duplicate or reordered
 * events rewrite nothing), after checking the data belongs to the user's Polar account.
 * Analytics are recomputed when rows changed; the read cache follows the data version.
 */
@inject()
export class PolarEventService {
  constructor(
    protected clock: ClockService,
    protected clients: PolarClientFactory,
    protected tokens: ProviderTokenService,
    protected accounts: AccountBindingService,
    protected analytics: AnalyticsService,
    protected rawArchive: RawArchiveService
  ) {}

  async handle(user: User, event: PolarEvent): Promise<PolarEventOutcome> {
    const token = await this.tokens.tokenFor(user)
    if (!token) throw new ProviderNotConnectedException(user.externalId)
    const client = this.clients.accessLink(token)
    const pulled = await PULL[event.event](client, event)
    await this.accounts.confirm(user, client.accountIds)

    let rowsWritten = 0
    const counts: Partial<Record<DataTypeKey, number>> = {}
    const mapContext = { offsetMinutes: () => latestSleepOffset(db.connection(), user.id) }
    for (const { key, items } of pulled) {
      // Archived before mapping, so a mapper failing on them loses nothing; a failure is logged.
      await this.rawArchive.keep(user.id, key, items)
      // The type itself, and the types that map its items (e.g. samples derived from the same answer).
      for (const type of [dataType(key), ...typesFedBy(key)]) {
        const rows = await type.map(items, mapContext)
        rowsWritten += await upsertRows(db.connection(), type.table, user.id, type.naturalKey, rows, this.clock.now())
        counts[type.key] = rows.length
      }
    }
    if (rowsWritten > 0) await this.analytics.recomputeAfterSync(user.id)
    logger.info(
      { userId: user.id, event: event.event, rowsWritten, providerCalls: client.callCount },
      'webhook event stored'
    )
    return { rowsWritten, providerCalls: client.callCount, counts }
  }
}
