/**
 * Webhooks of the Polar simulator (reference §12, peers-2026-11 §6.4): the management API under
 * `/v3/webhooks` (HTTP Basic) and signed push deliveries of the events a watch sync would cause.
 *
 * Wire facts: creating a webhook first POSTs an unsigned `{"timestamp","event":"PING"}` to the URL
 * and needs a 200; the `signature_secret_key` is only in the 201 answer; events are POSTed as raw
 * JSON with `Polar-Webhook-Event` and `Polar-Webhook-Signature` (hex HMAC-SHA256 of the raw body
 * keyed with the secret); payloads carry `user_id`, a timestamp and the URL to fetch (by hashed id,
 * by date, or by `from`/`to` range for SleepWise).
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto'
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { Rng } from '#simulators/polar/random'
import { polarError, type SimRequest, type SimResponse } from '#simulators/polar/routes'
import type { SimState } from '#simulators/polar/state'
import type { SimUser } from '#simulators/polar/user_model'
import { activityFor, alertnessFor, bedtimeFor, heartRateFor, sleepFor } from '#simulators/polar/wire_days'
import { sessionsBetween } from '#simulators/polar/wire_training'

/** Event types a webhook can subscribe to (Polar's `webhookType` enum). */
export const WEBHOOK_EVENTS = [
  'EXERCISE',
  'SLEEP',
  'CONTINUOUS_HEART_RATE',
  'ACTIVITY_SUMMARY',
  'SLEEP_WISE_CIRCADIAN_BEDTIME',
  'SLEEP_WISE_ALERTNESS',
  'PHYSICAL_INFORMATION',
] as const

export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number]

/** The client's webhook as the simulator keeps it (`secret` = `signature_secret_key`). */
export interface SimWebhook {
  id: string
  url: string
  events: WebhookEvent[]
  active: boolean
  secret: string
}

/** How events are delivered. All optional; change them with `setWebhookOptions`. */
export interface SimWebhookOptions {
  /** Send every event twice (same body and signature), as an at-least-once sender may. */
  duplicates?: boolean
  /** Shuffle each batch (deterministic per batch; never left in the original order when it can differ). */
  reorder?: boolean
  /** Wait this long before each delivery, in milliseconds. */
  delayMs?: number
  /** Sign with a wrong key (the receiver must reject the events). PINGs are not affected. */
  badSignature?: boolean
  /** Give up on a delivery or ping after this long (status null); default 10 000 ms. */
  timeoutMs?: number
  /** Clock of the payload `timestamp`s; default the simulated clock (wall clock + `advanceClock`). */
  now?: () => Date
}

/** Fields of an event payload; `emitEvent` fills what is missing. */
export interface WebhookEventFields {
  user_id?: number
  entity_id?: string
  date?: string
  from?: string
  to?: string
  timestamp?: string
  url?: string
}

/** A payload as sent (keys in Polar's order). */
export interface WebhookPayload extends WebhookEventFields {
  event: WebhookEvent | 'PING'
  timestamp: string
}

/** One POST to the webhook URL, as logged by `deliveries()`. */
export interface WebhookDelivery {
  event: WebhookEvent | 'PING'
  /** Polar user id of the payload (null for PINGs). */
  userId: number | null
  /** Target URL. */
  url: string
  /** Raw JSON body sent (what the signature covers). */
  body: string
  payload: WebhookPayload
  /** Request headers sent (besides Content-Length / Host / Connection). */
  headers: Record<string, string>
  /** `Polar-Webhook-Signature` sent, or null (unsigned ping). */
  signature: string | null
  /** Receiver's status, or null when the request failed (`error`). */
  status: number | null
  error?: string
  /** Receiver's answer body (first 2 000 characters). */
  response: string
  /** Round trip in milliseconds. */
  ms: number
  /** When it was sent (wall clock ISO). */
  at: string
  /** True for the second copy sent by the `duplicates` option. */
  duplicate: boolean
}

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/
const MAX_LOGGED_DELIVERIES = 10_000

const isEvent = (value: unknown): value is WebhookEvent =>
  typeof value === 'string' && (WEBHOOK_EVENTS as readonly string[]).includes(value)

/** `2026-11-22T07:15:30Z` (Polar's timestamps carry no fractions). */
function isoSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z')
}

function timestampNow(state: SimState): string {
  return isoSeconds(state.webhookOptions.now?.() ?? new Date(state.now()))
}

/** The webhook as `GET /v3/webhooks` lists it. */
function info(hook: SimWebhook) {
  return { id: hook.id, events: [...hook.events], url: hook.url, active: hook.active }
}

// ---------------------------------------------------------------------------------------------
// Outgoing HTTP
// ---------------------------------------------------------------------------------------------

interface PostResult {
  status: number | null
  error?: string
  response: string
  ms: number
}

/** POSTs a raw body (no keep-alive, so receivers close cleanly); never rejects. */
function post(target: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<PostResult> {
  const started = performance.now()
  const elapsed = () => Math.round((performance.now() - started) * 10) / 10
  return new Promise((resolve) => {
    let url: URL
    try {
      url = new URL(target)
    } catch {
      resolve({ status: null, error: `invalid url ${target}`, response: '', ms: 0 })
      return
    }
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest
    const req = send(
      url,
      {
        method: 'POST',
        agent: false,
        timeout: timeoutMs,
        headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
      },
      (res: IncomingMessage) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () =>
          resolve({ status: res.statusCode ?? null, response: Buffer.concat(chunks).toString('utf8').slice(0, 2000), ms: elapsed() })
        )
        res.on('error', (error) => resolve({ status: res.statusCode ?? null, error: error.message, response: '', ms: elapsed() }))
      }
    )
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)))
    req.on('error', (error) => resolve({ status: null, error: error.message, response: '', ms: elapsed() }))
    req.end(body)
  })
}

function log(state: SimState, delivery: WebhookDelivery) {
  state.deliveries.push(delivery)
  if (state.deliveries.length > MAX_LOGGED_DELIVERIES) {
    state.deliveries.splice(0, state.deliveries.length - MAX_LOGGED_DELIVERIES)
  }
}

const sign = (key: string, body: string) => createHmac('sha256', key).update(body).digest('hex')

/**
 * POSTs `{"timestamp","event":"PING"}` to a URL: unsigned when creating (no secret exists yet),
 * signed with the current secret when an update or activation checks the URL.
 */
async function ping(state: SimState, url: string, secret: string | null): Promise<WebhookDelivery> {
  const payload: WebhookPayload = { timestamp: timestampNow(state), event: 'PING' }
  const body = JSON.stringify(payload)
  const headers: Record<string, string> = { 'Content-Type': 'application/json', 'Polar-Webhook-Event': 'PING' }
  const signature = secret === null ? null : sign(secret, body)
  if (signature !== null) headers['Polar-Webhook-Signature'] = signature
  return deliver(state, { url, body, payload, headers, signature, duplicate: false }, state.webhookOptions.timeoutMs)
}

/** POSTs one body to the receiver and logs the delivery with its answer. */
async function deliver(
  state: SimState,
  sent: Pick<WebhookDelivery, 'url' | 'body' | 'payload' | 'headers' | 'signature' | 'duplicate'>,
  timeoutMs = 10_000
): Promise<WebhookDelivery> {
  const at = new Date().toISOString()
  const result = await post(sent.url, sent.body, sent.headers, timeoutMs)
  const delivery: WebhookDelivery = {
    event: sent.payload.event,
    userId: sent.payload.user_id ?? null,
    ...sent,
    status: result.status,
    response: result.response,
    ms: result.ms,
    at,
    ...(result.error ? { error: result.error } : {}),
  }
  log(state, delivery)
  return delivery
}

const pingFailure = (action: string, delivery: WebhookDelivery) =>
  polarError(
    400,
    'BAD_REQUEST',
    `Webhook cannot be ${action}: ping to ${delivery.url} was answered with ${delivery.status ?? delivery.error}, expected 200.`
  )

// ---------------------------------------------------------------------------------------------
// Management API
// ---------------------------------------------------------------------------------------------

type Parsed = { events?: WebhookEvent[]; url?: string } | SimResponse

function parseBody(raw: string, required: boolean): Parsed {
  let body: unknown
  try {
    body = JSON.parse(raw || '{}')
  } catch {
    return polarError(400, 'BAD_REQUEST', 'Malformed JSON body')
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return polarError(400, 'BAD_REQUEST', 'JSON object expected')
  const { events, url } = body as Record<string, unknown>
  const out: { events?: WebhookEvent[]; url?: string } = {}
  if (events !== undefined || required) {
    if (!Array.isArray(events) || events.length === 0) return polarError(400, 'BAD_REQUEST', 'events must be a non-empty array')
    const unknown = events.filter((e) => !isEvent(e))
    if (unknown.length > 0) {
      return polarError(400, 'BAD_REQUEST', `Unknown event type(s): ${unknown.map((e) => JSON.stringify(e)).join(', ')}. Supported: ${WEBHOOK_EVENTS.join(', ')}`)
    }
    out.events = [...new Set(events as WebhookEvent[])]
  }
  if (url !== undefined || required) {
    let parsed: URL | null = null
    try {
      parsed = typeof url === 'string' ? new URL(url) : null
    } catch {
      parsed = null
    }
    if (!parsed || !['http:', 'https:'].includes(parsed.protocol)) return polarError(400, 'BAD_REQUEST', 'url must be an http(s) URL')
    out.url = url as string
  }
  if (out.events === undefined && out.url === undefined) return polarError(400, 'BAD_REQUEST', 'events and/or url required')
  return out
}

const isResponse = (value: Parsed): value is SimResponse => 'status' in value

/** `/v3/webhooks…` (Basic auth already checked). */
export async function webhooksRoute(state: SimState, req: SimRequest): Promise<SimResponse> {
  const path = req.path.replace(/\/+$/, '')
  const notAllowed = () => polarError(405, 'METHOD_NOT_ALLOWED', 'Method not allowed')

  if (path === '/v3/webhooks') {
    if (req.method === 'GET') return { status: 200, body: { data: state.webhook ? [info(state.webhook)] : [] } }
    if (req.method !== 'POST') return notAllowed()
    const parsed = parseBody(req.body, true)
    if (isResponse(parsed)) return parsed
    if (state.webhook) return polarError(409, 'CONFLICT', 'Webhook already exists.')
    const check = await ping(state, parsed.url!, null)
    if (check.status !== 200) return pingFailure('created', check)
    if (state.webhook) return polarError(409, 'CONFLICT', 'Webhook already exists.')
    const hook: SimWebhook = {
      id: randomBytes(4).toString('hex'),
      url: parsed.url!,
      events: parsed.events!,
      active: true,
      secret: randomUUID(),
    }
    state.webhook = hook
    return {
      status: 201,
      body: { data: { id: hook.id, events: [...hook.events], url: hook.url, signature_secret_key: hook.secret } },
    }
  }

  if (path === '/v3/webhooks/activate' || path === '/v3/webhooks/deactivate') {
    if (req.method !== 'POST') return notAllowed()
    const hook = state.webhook
    if (!hook) return { status: 204 }
    if (path.endsWith('/deactivate')) {
      hook.active = false
      return { status: 200 }
    }
    const check = await ping(state, hook.url, hook.secret)
    if (check.status !== 200) return pingFailure('activated', check)
    hook.active = true
    return { status: 200 }
  }

  const m = /^\/v3\/webhooks\/([^/]+)$/.exec(path)
  if (!m) return polarError(404, 'NOT_FOUND', `No such resource: ${path}`)
  if (req.method !== 'PATCH' && req.method !== 'DELETE') return notAllowed()
  const hook = state.webhook
  if (!hook || hook.id !== m[1]) return polarError(404, 'NOT_FOUND', 'Webhook not found.')
  if (req.method === 'DELETE') {
    state.webhook = null
    return { status: 204 }
  }
  const parsed = parseBody(req.body, false)
  if (isResponse(parsed)) return parsed
  if (parsed.url !== undefined) {
    const check = await ping(state, parsed.url, hook.secret)
    if (check.status !== 200) return pingFailure('updated', check)
    hook.url = parsed.url
  }
  if (parsed.events !== undefined) hook.events = parsed.events
  return { status: 200, body: { data: [info(hook)] } }
}

// ---------------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------------

/** Token and Polar user id behind a token or a Polar user id (number or digit string). */
export function resolveUser(state: SimState, tokenOrPolarUserId: string | number): { token: string; polarUserId: number } {
  if (typeof tokenOrPolarUserId === 'number' || /^\d+$/.test(tokenOrPolarUserId)) {
    const polarUserId = Number(tokenOrPolarUserId)
    // An unseen id gets a `sim_<id>_…` token, which the simulator maps back to that id.
    return { token: state.knownUsers.get(polarUserId) ?? `sim_${polarUserId}_webhook`, polarUserId }
  }
  return { token: tokenOrPolarUserId, polarUserId: state.polarUserIdOf(tokenOrPolarUserId) }
}

const exerciseWindow = (state: SimState) => Math.max(30, state.window)

/** Whether the served history (of `days` days ending today) contains `date`. */
function served(state: SimState, date: string, days = state.window): boolean {
  return date >= state.windowStart(days) && date <= state.today()
}

/** The payload of one event, with Polar's key order and URL. */
export function buildPayload(
  state: SimState,
  user: SimUser,
  polarUserId: number,
  event: WebhookEvent,
  fields: WebhookEventFields = {}
): WebhookPayload {
  const base = state.baseUrl
  const userId = fields.user_id ?? polarUserId
  const timestamp = fields.timestamp ?? timestampNow(state)
  const today = state.today()
  switch (event) {
    case 'EXERCISE': {
      let entity = fields.entity_id
      if (entity === undefined) {
        const latest = sessionsBetween(user, state.windowStart(exerciseWindow(state)), today).at(-1)
        if (!latest) throw new Error(`emitEvent: user ${polarUserId} has no exercise in the served window; pass entity_id`)
        entity = latest.id
      }
      return { event, user_id: userId, entity_id: entity, timestamp, url: fields.url ?? `${base}/v3/exercises/${entity}` }
    }
    case 'SLEEP':
    case 'CONTINUOUS_HEART_RATE':
    case 'ACTIVITY_SUMMARY': {
      const date = fields.date ?? today
      const path = { SLEEP: 'sleep', CONTINUOUS_HEART_RATE: 'continuous-heart-rate', ACTIVITY_SUMMARY: 'activities' }[event]
      return { event, user_id: userId, date, timestamp, url: fields.url ?? `${base}/v3/users/${path}/${date}` }
    }
    case 'SLEEP_WISE_CIRCADIAN_BEDTIME':
    case 'SLEEP_WISE_ALERTNESS': {
      const from = fields.from ?? fields.date ?? today
      const to = fields.to ?? from
      const path = event === 'SLEEP_WISE_ALERTNESS' ? 'alertness' : 'circadian-bedtime'
      return { event, user_id: userId, from, to, timestamp, url: fields.url ?? `${base}/v3/users/sleepwise/${path}/date?from=${from}&to=${to}` }
    }
    case 'PHYSICAL_INFORMATION':
      return { event, user_id: userId, timestamp, url: fields.url ?? `${base}/v3/users/physical-info` }
  }
}

/**
 * The events a watch sync of `date` causes for one user, limited to what the data endpoints serve
 * for that date: SLEEP (the night ending that morning), ACTIVITY_SUMMARY, one EXERCISE per session
 * started that date, CONTINUOUS_HEART_RATE, then SleepWise bedtime and alertness when the profile
 * has them. Missing days produce no event.
 */
export function dayEvents(state: SimState, token: string, date: string): WebhookPayload[] {
  const user = state.userFor(token)
  const id = state.polarUserIdOf(token)
  const out: WebhookPayload[] = []
  const make = (event: WebhookEvent, fields: WebhookEventFields = {}) => out.push(buildPayload(state, user, id, event, { date, ...fields }))
  const inWindow = served(state, date)
  if (inWindow && sleepFor(user, date)) make('SLEEP')
  if (inWindow && activityFor(user, date)) make('ACTIVITY_SUMMARY')
  if (served(state, date, exerciseWindow(state))) {
    for (const session of user.sessions(date)) make('EXERCISE', { entity_id: session.id })
  }
  if (inWindow && heartRateFor(user, date)) make('CONTINUOUS_HEART_RATE')
  if (inWindow && bedtimeFor(user, date)) make('SLEEP_WISE_CIRCADIAN_BEDTIME', { from: date, to: date })
  if (inWindow && alertnessFor(user, date)) make('SLEEP_WISE_ALERTNESS', { from: date, to: date })
  return out
}

/** Tokens `publishDay` covers: users seen with a valid Bearer token, minus revoked ones (and unregistered ones under `requireRegistration`). */
export function publishableTokens(state: SimState): string[] {
  return [...state.knownUsers.entries()]
    .sort(([a], [b]) => a - b)
    .filter(([id, token]) => !state.revoked.has(token) && (!state.options.requireRegistration || state.registered.has(id)))
    .map(([, token]) => token)
}

function shuffled<T>(items: T[], seed: string): T[] {
  const rng = new Rng(seed)
  const out = [...items]
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1))
    ;[out[i], out[j]] = [out[j], out[i]]
  }
  if (out.length > 1 && out.every((item, i) => item === items[i])) out.reverse()
  return out
}

/**
 * Delivers payloads to the webhook one after another (deterministic for tests), applying the
 * delivery options; skips everything when there is no active webhook, and events it does not
 * subscribe to. Resolves when every delivery has been answered (or has failed).
 */
export async function deliverAll(state: SimState, payloads: WebhookPayload[]): Promise<WebhookDelivery[]> {
  const hook = state.webhook
  if (!hook || !hook.active) return []
  const options = state.webhookOptions
  let batch = payloads
    .filter((p) => p.event !== 'PING' && hook.events.includes(p.event))
    .flatMap((payload) => (options.duplicates ? [{ payload, duplicate: false }, { payload, duplicate: true }] : [{ payload, duplicate: false }]))
  state.deliveryBatches++
  if (options.reorder) batch = shuffled(batch, `reorder|${state.deliveryBatches}`)

  const out: WebhookDelivery[] = []
  for (const { payload, duplicate } of batch) {
    if (state.webhook !== hook || !hook.active) break
    if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs))
    const body = JSON.stringify(payload)
    const key = options.badSignature ? `${hook.secret}-not-the-secret` : hook.secret
    const signature = sign(key, body)
    const headers = {
      'Content-Type': 'application/json',
      'Polar-Webhook-Event': payload.event,
      'Polar-Webhook-Signature': signature,
    }
    out.push(await deliver(state, { url: hook.url, body, payload, headers, signature, duplicate }, options.timeoutMs))
  }
  return out
}

/** `emitEvent`: one event for one user (fields filled in), delivered like any other. */
export async function emitEvent(
  state: SimState,
  tokenOrPolarUserId: string | number,
  event: WebhookEvent,
  fields: WebhookEventFields = {}
): Promise<WebhookDelivery | null> {
  if (!isEvent(event)) throw new Error(`emitEvent: unknown event ${String(event)}; expected one of ${WEBHOOK_EVENTS.join(', ')}`)
  const { token, polarUserId } = resolveUser(state, tokenOrPolarUserId)
  const hook = state.webhook
  if (!hook || !hook.active || !hook.events.includes(event)) return null
  const payload = buildPayload(state, state.userFor(token), polarUserId, event, fields)
  const [first] = await deliverAll(state, [payload])
  return first ?? null
}

/** `publishDay`: the events of `date` (default today) for every publishable user, or for `users`. */
export async function publishDay(
  state: SimState,
  date = state.today(),
  options: { users?: Array<string | number> } = {}
): Promise<WebhookDelivery[]> {
  const parsed = new Date(`${date}T00:00:00Z`)
  if (!DATE_RE.test(date) || Number.isNaN(parsed.getTime()) || !parsed.toISOString().startsWith(date)) {
    throw new Error(`publishDay: invalid date ${date}`)
  }
  if (date > state.today()) {
    throw new Error(`publishDay: ${date} is after the simulator's today (${state.today()}); call setToday('${date}') first`)
  }
  if (!state.webhook || !state.webhook.active) return []
  const tokens = options.users ? options.users.map((u) => resolveUser(state, u).token) : publishableTokens(state)
  return deliverAll(state, tokens.flatMap((token) => dayEvents(state, token, date)))
}
