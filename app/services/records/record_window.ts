import { inject } from '@adonisjs/core'
import { ClockService } from '#services/clock_service'
import { UserService, type UserRef } from '#services/user_service'

/** A known user and the ISO dates `from` … `to` (inclusive) of a request's window. */
export interface RecordWindow {
  user: UserRef
  from: string
  to: string
}

/**
 * Which days a list or export covers: `days=N` (the N calendar days ending today) or an inclusive
 * `from`/`to` range of ISO dates reaching any stored date (`to` null: today).
 */
export type WindowInput = number | { from: string; to: string | null }

/** The window of a validated query: a `from`/`to` range when `from` is sent, else `days` (or the route's default). */
export function windowInput(query: { days?: number | null; from?: string | null; to?: string | null }, defaultDays: number): WindowInput {
  if (query.from) return { from: query.from, to: query.to ?? null }
  return query.days ?? defaultDays
}

/**
 * Opens the window of a raw-data or export request: resolves the user
 * (UnknownUserException, 404) and the window's dates in APP_TIMEZONE
 * (DESIGN §3).
 */
@inject()
export class RecordWindowService {
  constructor(
    protected clock: ClockService,
    protected users: UserService
  ) {}

  /** The user and `today-(days-1)` … `today`, or the range `from` … `to` (today when `to` is null). */
  async open(userId: string, window: WindowInput): Promise<RecordWindow> {
    const user = await this.users.refOrFail(userId)
    return { user, ...this.range(window) }
  }

  range(window: WindowInput): { from: string; to: string } {
    if (typeof window === 'number') return this.clock.window(window)
    return { from: window.from, to: window.to ?? this.clock.today().toISODate()! }
  }
}
