import { inject } from '@adonisjs/core'
import logger from '@adonisjs/core/services/logger'
import { Job, exponentialBackoff } from '@adonisjs/queue'
import type { JobOptions } from '@adonisjs/queue/types'
import User from '#models/user'
import { PolarBudgetExhaustedError } from '#services/polar/errors/polar_budget_exhausted_error'
import { PolarEventService, type PolarEvent } from '#services/sync/polar_event_service'

/** Payload of {@link PolarEventJob}: the event and our internal user id (never a token). */
export interface PolarEventPayload extends PolarEvent {
  userId: number
}

/**
 * The targeted fetch of one Polar webhook event, queued by the receiver so Polar gets its 200 at
 * once. Runs before scheduled syncs (lower priority number) and retries with backoff when Polar
 * fails or rate-limits; duplicates are harmless (idempotent upserts). When the whole Polar budget
 * window is used (PolarBudgetService; events may use all of it), nothing is sent and the job
 * dispatches itself again for the window's reset: a new job, not a failed attempt.
 */
@inject()
export default class PolarEventJob extends Job<PolarEventPayload> {
  static options: JobOptions = {
    name: 'PolarEventJob',
    queue: 'default',
    priority: 1,
    retry: { maxRetries: 3, backoff: exponentialBackoff() },
    timeout: '5m',
  }

  constructor(protected events: PolarEventService) {
    super()
  }

  async execute(): Promise<void> {
    const { userId, ...event } = this.payload
    const user = await User.find(userId)
    if (!user || !user.isActive) {
      logger.info({ userId, event: event.event }, 'webhook event skipped: user missing or inactive')
      return
    }
    try {
      await this.events.handle(user, event)
    } catch (error) {
      if (!(error instanceof PolarBudgetExhaustedError)) throw error
      const delayMs = error.retryAfterSeconds * 1000
      const { jobId } = await PolarEventJob.dispatch(this.payload).in(delayMs).run()
      logger.info({ userId, event: event.event, retryAfter: error.retryAfterSeconds, jobId }, 'webhook event deferred: Polar budget used up')
    }
  }
}
