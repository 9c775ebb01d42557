import { randomBytes } from 'node:crypto'
import type { Json, SimState } from '#simulators/coolify/seed'

/** What a simulated route handler returns. */
export interface SimResponse {
  status: number
  body?: unknown
  headers?: Record<string, string>
}

export interface SimContext {
  state: SimState
  params: Record<string, string>
  query: Record<string, string>
  body: unknown
  method: string
}

export interface SimRoute {
  /** The route key used by setFault, e.g. `GET /applications/{uuid}` minus the method. */
  pattern: string
  methods: string[]
  regex: RegExp
  /** State-changing endpoint that answered GET before Coolify v4.2 (now 405). */
  postOnly?: boolean
  handle(ctx: SimContext): SimResponse
}

/** Builds a route from a `/things/{uuid}` pattern. */
export function route(
  methods: string[],
  pattern: string,
  handle: (ctx: SimContext) => SimResponse,
  postOnly = false
): SimRoute {
  const source = pattern.replace(/\{(\w+)\}/g, (_m, name) => `(?<${name}>[^/]+)`)
  return { pattern, methods, regex: new RegExp(`^${source}$`), handle, postOnly }
}

export const ok = (body: unknown, status = 200): SimResponse => ({ status, body })
export const message = (status: number, text: string): SimResponse => ({ status, body: { message: text } })
export const notFound = (thing: string) => message(404, `${thing} not found.`)

/** Coolify's 422 shape. */
export function validationFailed(errors: Record<string, string[]>): SimResponse {
  return { status: 422, body: { message: 'Validation failed.', errors } }
}

/** Rejects fields outside the allowlist the way Coolify does ("This field is not allowed."). */
export function rejectUnknown(body: unknown, allowed: string[]): SimResponse | null {
  if (body === null || body === undefined) return null
  if (typeof body !== 'object' || Array.isArray(body)) return message(400, 'Invalid request.')
  const errors: Record<string, string[]> = {}
  for (const key of Object.keys(body as Json)) {
    if (!allowed.includes(key)) errors[key] = ['This field is not allowed.']
  }
  return Object.keys(errors).length > 0 ? validationFailed(errors) : null
}

export function bodyOf(ctx: SimContext): Json {
  return ctx.body && typeof ctx.body === 'object' && !Array.isArray(ctx.body) ? (ctx.body as Json) : {}
}

export function truthy(value: unknown): boolean {
  return value === true || value === 'true' || value === '1' || value === 1
}

/** A Coolify-like cuid (24 lowercase alphanumerics). */
export function newUuid(): string {
  const alphabet = '0123456789abcdefghijklmnopqrstuvwxyz'
  return Array.from(randomBytes(24), (b) => alphabet[b % alphabet.length]).join('')
}

export function nowIso(): string {
  return new Date().toISOString().replace('Z', '000Z')
}

export function nextId(state: SimState): number {
  state.nextId += 1
  return state.nextId
}

export const findBy = (list: Json[], uuid: string) => list.find((x) => x.uuid === uuid)

/** Base state of a Coolify status string (`running:healthy` → `running`). */
export const baseStatus = (status: unknown) => String(status ?? '').split(':')[0]
