import { createHmac } from 'node:crypto'
import app from '@adonisjs/core/services/app'
import { PolarWebhookService } from '#services/polar/polar_webhook_service'
import type { PolarSimulator } from '#simulators/polar/simulator'
import { send, type Call } from '#simulators/openapi_examples/http'
import type { ExampleRecorder, OperationRef } from '#simulators/openapi_examples/capture'

/**
 * The webhook receiver's answers: the webhook is registered at the simulator (which PINGs this
 * server and hands out the signature secret), then events are sent as Polar signs them.
 */
export async function captureWebhook(baseUrl: string, ref: OperationRef, recorder: ExampleRecorder, polar: PolarSimulator, polarUserId: string, date: string) {
  await (await app.container.make(PolarWebhookService)).register(`${baseUrl}/webhooks/polar`)
  const secret = polar.webhook()?.secret
  if (!secret) throw new Error('the simulator returned no webhook secret')

  const signed = (body: Record<string, unknown>): Call => {
    const raw = JSON.stringify(body)
    return {
      method: 'POST',
      path: '/webhooks/polar',
      raw,
      headers: { 'Polar-Webhook-Signature': createHmac('sha256', secret).update(raw).digest('hex') },
    }
  }
  const event = {
    event: 'SLEEP',
    user_id: Number(polarUserId),
    date,
    timestamp: `${date}T07:02:11Z`,
    url: `https://www.polaraccesslink.com/v3/users/sleep/${date}`,
  }

  recorder.success(ref, await send(baseUrl, signed(event)))
  recorder.problem(ref, 400, await send(baseUrl, { method: 'POST', path: '/webhooks/polar', raw: '[]' }))
  recorder.problem(ref, 413, await send(baseUrl, { method: 'POST', path: '/webhooks/polar', raw: JSON.stringify({ ...event, padding: 'x'.repeat(2_000_000) }) }))
  const { date: _date, ...withoutDate } = event
  recorder.problem(ref, 422, await send(baseUrl, signed(withoutDate)))
  const forged: Call = { ...signed(event), headers: { 'Polar-Webhook-Signature': '0'.repeat(64) } }
  recorder.problem(ref, 401, await send(baseUrl, forged))
  // Failed signatures are limited per address: spend the budget.
  for (let i = 0; i < 40; i++) {
    const answer = await send(baseUrl, forged)
    if (answer.status === 429) {
      recorder.problem(ref, 429, answer)
      break
    }
  }
}
