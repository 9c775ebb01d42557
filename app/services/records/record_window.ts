import { inject } from '@adonisjs/core'
import type User from '#models/user'
import { ClockService } from '#services/clock_service'
import { UserService } from '#services/user_service'

/** A known user and the ISO dates `from` … `to` of a `days=N` window. */
export interface RecordWindow {
  user: User
  from: string
  to: string
}

/**
 * Opens the window of a raw-data or export request: resolves the user
 * (UnknownUserException, 404) and the N calendar days ending today in
 * APP_TIMEZONE (DESIGN §3).
 */
@inject()
export class RecordWindowService {
  constructor(
    protected clock: ClockService,
    protected users: UserService
  ) {}

  /** The user and `today-(days-1)` … `today`. */
  async open(userId: string, days: number): Promise<RecordWindow> {
    const user = await this.users.findOrFail(userId)
    return { user, ...this.clock.window(days) }
  }
}
