import { inject } from '@adonisjs/core'
import NotFoundException from '#exceptions/not_found_exception'
import ActivitySample from '#models/activity_sample'
import type { StepRun, ZoneChange } from '#services/polar/mappers/activity_samples_mapper'
import { stepsPerMinute, zonePeriods, type ZonePeriod } from '#services/records/activity_minutes'
import { RecordWindowService, type WindowInput } from '#services/records/record_window'
import { listWindow, NEWEST_DATE_FIRST, type ListRequest, type RecordList } from '#services/records/record_list'
import { parseJson } from '#services/records/units'
import { UserService } from '#services/user_service'

/** One day of activity samples in the per-minute form a chart plots. */
export interface ActivitySampleDay {
  date: string
  intervalMs: number | null
  totalSteps: number | null
  /** 1440 counts, index = minute of the day from 00:00; null entries were not measured. */
  stepsPerMinute: Array<number | null> | null
  zones: ZonePeriod[] | null
  /** Local times `YYYY-MM-DD HH:MM:SS` of the inactivity alerts. */
  inactivityStamps: string[] | null
}

/** A stored day expanded for reading: step runs to minutes, zone changes to periods. */
export function activitySampleDay(row: ActivitySample): ActivitySampleDay {
  const runs = parseJson<StepRun[]>(row.stepSamples)
  const zones = parseJson<ZoneChange[]>(row.zoneSamples)
  const stamps = parseJson<string[]>(row.inactivityStamps)
  return {
    date: row.date,
    intervalMs: row.intervalMs,
    totalSteps: row.totalSteps,
    stepsPerMinute: Array.isArray(runs) ? stepsPerMinute(row.date, runs, row.intervalMs, row.totalSteps) : null,
    zones: Array.isArray(zones) ? zonePeriods(row.date, zones) : null,
    inactivityStamps: Array.isArray(stamps) ? stamps : null,
  }
}

@inject()
export class ActivitySamplesService {
  constructor(
    protected windows: RecordWindowService,
    protected users: UserService
  ) {}

  /** Sample days of the window (APP_TIMEZONE), newest first; 404 for an unknown user. */
  async list(userId: string, request: ListRequest): Promise<RecordList<ActivitySampleDay>> {
    const { user, from, to } = await this.windows.open(userId, request.window)
    const query = ActivitySample.query().where('userId', user.id)
    const list = await listWindow(query, { model: ActivitySample, date: 'date', order: NEWEST_DATE_FIRST, range: { from, to }, page: request.page })
    return { ...list, rows: list.rows.map(activitySampleDay) }
  }

  /** Sample days of the last `days` calendar days (or a range), newest first: the whole window. */
  async listRecent(userId: string, window: WindowInput): Promise<ActivitySampleDay[]> {
    return (await this.list(userId, { window, page: null })).rows
  }

  /** The samples of `date`; NotFoundException (404) when none are stored. */
  async findByDate(userId: string, date: string): Promise<ActivitySampleDay> {
    const user = await this.users.refOrFail(userId)
    const row = await ActivitySample.query().where('userId', user.id).where('date', date).first()
    if (!row) throw new NotFoundException(`No activity samples for ${date}.`)
    return activitySampleDay(row)
  }
}
