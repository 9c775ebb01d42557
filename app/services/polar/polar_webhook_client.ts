import env from '#start/env'
import { DEFAULT_POLAR_API_BASE_URL } from '#services/polar/accesslink_client'
import { PolarUpstreamError } from '#services/polar/errors/polar_upstream_error'
import { PolarTransport, type TransportOptions } from '#services/polar/transport'

/** The webhook of an AccessLink client as `GET /v3/webhooks` lists it. */
export interface PolarWebhook {
  id: string
  events: string[]
  url: string
  active: boolean
}

/** Answer of {@link PolarWebhookClient.create}. */
export type WebhookCreation =
  | { created: true; webhook: PolarWebhook; signatureSecretKey: string }
  | { created: false; reason: 'exists' | 'refused'; detail: string }

export interface PolarWebhookClientOptions extends TransportOptions {
  clientId: string
  clientSecret: string
  baseUrl?: string
}

/**
 * AccessLink's webhook management (`/v3/webhooks`, HTTP Basic client credentials; one webhook per
 * client covering every user; reference/polar-accesslink.md §12).
 */
export class PolarWebhookClient {
  readonly baseUrl: string
  readonly transport: PolarTransport
  readonly #authorization: string

  constructor(options: PolarWebhookClientOptions) {
    this.baseUrl = (options.baseUrl ?? env.get('POLAR_API_BASE_URL') ?? DEFAULT_POLAR_API_BASE_URL).replace(/\/+$/, '')
    this.transport = new PolarTransport({ retries: 0, ...options })
    this.#authorization = `Basic ${Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64')}`
  }

  /** The client's webhooks (zero or one). */
  async list(): Promise<PolarWebhook[]> {
    const { data } = await this.call('GET', '/v3/webhooks', 'GET /v3/webhooks')
    const items = (data as { data?: unknown } | null)?.data
    if (data === null || items === undefined || items === null) return []
    if (!Array.isArray(items)) throw malformed('GET /v3/webhooks')
    return items.map((item) => toWebhook(item, 'GET /v3/webhooks'))
  }

  /**
   * Creates the webhook. Polar first POSTs an unsigned PING to `url`, which must answer 200; the
   * 201 then carries `signature_secret_key`, shown this once. 409: a webhook already exists (its
   * secret cannot be read again); 400: Polar could not create it (e.g. the PING failed).
   */
  async create(url: string, events: readonly string[]): Promise<WebhookCreation> {
    const endpoint = 'POST /v3/webhooks'
    const { status, data } = await this.call('POST', '/v3/webhooks', endpoint, { events, url }, [400, 409])
    if (status === 409) return { created: false, reason: 'exists', detail: describe(data) }
    if (status === 400) return { created: false, reason: 'refused', detail: describe(data) }
    const body = (data as { data?: Record<string, unknown> } | null)?.data
    const secret = body?.signature_secret_key
    if (!body || typeof secret !== 'string' || secret === '') throw malformed(endpoint)
    return { created: true, webhook: toWebhook({ active: true, ...body }, endpoint), signatureSecretKey: secret }
  }

  /** Deletes the webhook; false when Polar did not know it (404). */
  async delete(id: string): Promise<boolean> {
    const { status } = await this.call('DELETE', `/v3/webhooks/${encodeURIComponent(id)}`, 'DELETE /v3/webhooks/{id}', undefined, [404])
    return status !== 404
  }

  private call(method: 'GET' | 'POST' | 'DELETE', path: string, endpoint: string, body?: unknown, passThrough: number[] = []) {
    return this.transport.send({
      method,
      url: `${this.baseUrl}${path}`,
      endpoint,
      headers: {
        'Accept': 'application/json',
        'Authorization': this.#authorization,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      passThrough,
      retryable: method === 'GET',
    })
  }
}

function toWebhook(item: unknown, endpoint: string): PolarWebhook {
  const record = (item ?? {}) as Record<string, unknown>
  if (typeof record.id !== 'string' && typeof record.id !== 'number') throw malformed(endpoint)
  return {
    id: String(record.id),
    events: Array.isArray(record.events) ? record.events.map(String) : [],
    url: typeof record.url === 'string' ? record.url : '',
    active: record.active !== false,
  }
}

/** Polar's error text (`message`, `error`) for a refused call, or a short fallback. */
function describe(data: unknown): string {
  const record = (data ?? {}) as Record<string, unknown>
  const text = record.message ?? record.error ?? record.detail
  return typeof text === 'string' ? text.slice(0, 300) : 'no reason given'
}

function malformed(endpoint: string) {
  return new PolarUpstreamError(`Polar sent an unexpected body on ${endpoint}`, endpoint, 200, 'malformed')
}
