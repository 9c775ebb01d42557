import { inject } from '@adonisjs/core'
import logger from '@adonisjs/core/services/logger'
import lock from '@adonisjs/lock/services/main'
import env from '#start/env'
import User from '#models/user'
import PolarEventJob from '#jobs/polar_event_job'
import InvalidWebhookEventException from '#exceptions/invalid_webhook_event_exception'
import WebhookSignatureException from '#exceptions/webhook_signature_exception'
import { HANDLED_POLAR_EVENTS, PolarWebhookService } from '#services/polar/polar_webhook_service'
import { RateLimitService, type RateLimitPolicy } from '#services/rate_limit_service'
import type { PolarEvent, PolarEventName } from '#services/sync/polar_event_service'

/** Events with a bad or missing signature allowed per address and window, then 429. */
export const WEBHOOK_FAILURE_POLICY: RateLimitPolicy = { bucket: 'webhook_signature_failure', requests: 30, window: '1 minute' }

/** POLAR_WEBHOOK_DEDUP_SECONDS (60): the same event within this window is fetched once. */
const dedupSeconds = () => Math.max(1, env.get('POLAR_WEBHOOK_DEDUP_SECONDS') ?? 60)

/** A validated webhook body (see polarWebhookEventValidator). */
export interface WebhookBody {
  event: string
  user_id?: number | string
  date?: string
  entity_id?: string
  from?: string
  to?: string
}

/** What the receiver did with one delivery (the 200 answer's `status`). */
export type IntakeResult =
  | { status: 'pong' }
  | { status: 'queued'; jobId: string }
  | { status: 'duplicate' }
  | { status: 'ignored'; reason: string }

const handled = new Set<string>(HANDLED_POLAR_EVENTS)

/**
 * The receiver's work between "body read" and "200": a PING passes unsigned (Polar sends it while
 * the webhook is being created, before the secret exists); every other event needs a valid
 * signature, is matched to the user bound to its Polar account, deduplicated across processes for
 * a short window, and queued as a PolarEventJob. Nothing is fetched inside the request.
 */
@inject()
export class WebhookIntakeService {
  constructor(
    protected webhooks: PolarWebhookService,
    protected rateLimits: RateLimitService
  ) {}

  /** Checks the signature; a failure counts against the sender's address (429 past the policy). */
  async authenticate(rawBody: string, signature: string | undefined, ip: string): Promise<void> {
    if (await this.webhooks.verify(rawBody, signature)) return
    await this.rateLimits.hitIfAvailable(WEBHOOK_FAILURE_POLICY, ip)
    throw new WebhookSignatureException()
  }

  async accept(body: WebhookBody): Promise<IntakeResult> {
    if (!handled.has(body.event)) {
      logger.info({ event: body.event }, 'webhook event ignored: not an event HRVault fetches')
      return { status: 'ignored', reason: `event ${body.event} is not handled` }
    }
    const event = toEvent(body)
    await this.webhooks.recordEvent(event.event, event.polarUserId)

    const user = await User.findBy('polarUserId', event.polarUserId)
    if (!user || !user.isActive) {
      logger.info({ event: event.event }, 'webhook event ignored: no active user is bound to its Polar account')
      return { status: 'ignored', reason: 'no user is bound to this Polar account' }
    }
    // The first delivery holds the key for the window; duplicates in it (any process) stop here.
    const first = await lock.createLock(dedupKey(event), `${dedupSeconds()}s`).acquireImmediately()
    if (!first) return { status: 'duplicate' }

    const { jobId } = await PolarEventJob.dispatch({ ...event, userId: user.id }).run()
    return { status: 'queued', jobId }
  }
}

/** The event's fields, or InvalidWebhookEventException when its name needs one that is missing. */
function toEvent(body: WebhookBody): PolarEvent {
  const name = body.event as PolarEventName
  if (body.user_id === undefined) throw new InvalidWebhookEventException(`A ${name} event needs user_id.`)
  const event: PolarEvent = { event: name, polarUserId: String(body.user_id) }
  if (name === 'EXERCISE') {
    if (!body.entity_id) throw new InvalidWebhookEventException('An EXERCISE event needs entity_id.')
    event.entityId = body.entity_id
  } else if (name === 'SLEEP_WISE_ALERTNESS' || name === 'SLEEP_WISE_CIRCADIAN_BEDTIME') {
    if (!body.from && !body.to) throw new InvalidWebhookEventException(`A ${name} event needs from and to.`)
    event.from = (body.from ?? body.to)!.slice(0, 10)
    event.to = (body.to ?? body.from)!.slice(0, 10)
  } else if (name !== 'PHYSICAL_INFORMATION') {
    if (!body.date) throw new InvalidWebhookEventException(`A ${name} event needs date.`)
    event.date = body.date
  }
  return event
}

const dedupKey = (event: PolarEvent) =>
  `webhook:${event.polarUserId}:${event.event}:${event.entityId ?? event.date ?? (event.from ? `${event.from}_${event.to}` : 'latest')}`
