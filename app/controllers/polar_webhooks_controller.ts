import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import MalformedRequestException from '#exceptions/malformed_request_exception'
import { WebhookIntakeService } from '#services/sync/webhook_intake_service'
import { polarWebhookEventValidator } from '#validators/polar_webhook'

/**
 * `POST /webhooks/polar`: Polar's push notifications. Answers within milliseconds; the fetch runs
 * in a queued job.
 */
@inject()
export default class PolarWebhooksController {
  constructor(protected intake: WebhookIntakeService) {}

  async receive({ request, response }: HttpContext) {
    const raw = request.raw()
    const body = request.body()
    if (!raw || typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new MalformedRequestException('The body must be a JSON object.')
    }
    if (body.event === 'PING') return response.ok({ status: 'pong' })

    await this.intake.authenticate(raw, request.header('polar-webhook-signature'), request.ip())
    const event = await polarWebhookEventValidator.validate(body)
    const result = await this.intake.accept(event)
    return response.ok(result.status === 'queued' ? { status: result.status, job_id: result.jobId } : result)
  }
}
