import { send, type AdminSession, type Answer, type Call } from '#simulators/openapi_examples/http'
import { trimJson, trimLines, trimXml } from '#simulators/openapi_examples/trim'

type Operation = Record<string, any>
type Document = Record<string, any>

/** What the examples file holds: per operationId, per status, per media type, the example. */
export interface ExamplesFile {
  about: string
  generated_at: string
  simulator_today: string
  operations: Record<string, Record<string, Record<string, unknown>>>
  /** Problem bodies by id (`<status>-<code>`), referenced from the operations as `{ "$problem": id }`. */
  problems: Record<string, { summary: string; value: Record<string, unknown> }>
}

/** A documented operation of the served document. */
export interface OperationRef {
  method: string
  path: string
  id: string
  operation: Operation
  surface: 'api' | 'ops' | 'coolify' | 'public' | 'oauth' | 'webhooks'
}

export interface Credentials {
  serviceKey: string
  /** A key scoped to another user than the one in the path (403). */
  otherUserKey: string
  opsToken: string
  /** Ops tokens with one scope (stats:read, health:read): a 403 on the other routes. */
  opsLimitedToken: string
  opsHealthOnlyToken: string
  admin: AdminSession
}

/** How one operation is called successfully, and how each of its documented problems is provoked. */
export interface Recipe {
  success?: () => Promise<Call | null> | Call | null
  /** Shortens a JSON answer further than trimming does (the OpenAPI document itself). */
  transform?: (json: any) => unknown
  problems?: Partial<Record<number, () => Promise<Call | Answer | null> | Call | Answer | null>>
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete']

export function operationsOf(document: Document): OperationRef[] {
  const refs: OperationRef[] = []
  for (const [path, item] of Object.entries<Record<string, Operation>>(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method]
      if (!operation) continue
      refs.push({ method: method.toUpperCase(), path, id: operation.operationId, operation, surface: surfaceOf(path) })
    }
  }
  return refs
}

function surfaceOf(path: string): OperationRef['surface'] {
  if (path.startsWith('/api/')) return 'api'
  if (path.startsWith('/webhooks/')) return 'webhooks'
  if (path.startsWith('/oauth/') || path.startsWith('/.well-known/')) return 'oauth'
  if (path === '/health' || path.startsWith('/schema/')) return 'public'
  if (/\/api\//.test(path)) return 'coolify'
  return 'ops'
}

/** Statuses of the operation's problem+json responses. */
export function problemStatuses(operation: Operation): number[] {
  return Object.entries<any>(operation.responses ?? {})
    .filter(([, response]) => response.content?.['application/problem+json'])
    .map(([status]) => Number(status))
}

/** The operation's 2xx responses whose media type can carry a text or JSON example. */
function exampleMediaTypes(operation: Operation): Array<{ status: number; type: string; schema: any }> {
  const out: Array<{ status: number; type: string; schema: any }> = []
  for (const [status, response] of Object.entries<any>(operation.responses ?? {})) {
    if (!/^2\d\d$/.test(status)) continue
    for (const [type, media] of Object.entries<any>(response.content ?? {})) {
      // Files the documentation pages load and binary downloads carry no example.
      if (media.schema?.format === 'binary' || /^(text\/(html|css|javascript)|image\/)/.test(type)) continue
      out.push({ status: Number(status), type, schema: media.schema })
    }
  }
  return out
}

/**
 * Records examples from real answers: an answer counts only when its status and content type are
 * the ones the document declares for it.
 */
export class ExampleRecorder {
  operations: ExamplesFile['operations'] = {}
  problems: ExamplesFile['problems'] = {}
  /** Operation statuses that still have no example, for the run's report. */
  missing: string[] = []

  constructor(
    protected document: Document,
    protected baseUrl: string
  ) {}

  protected put(id: string, status: number, type: string, value: unknown) {
    const byStatus = (this.operations[id] ??= {})
    ;(byStatus[String(status)] ??= {})[type] = value
  }

  has(id: string, status: number) {
    return Boolean(this.operations[id]?.[String(status)])
  }

  /** Records a successful answer of `ref` when it matches a documented 2xx media type. */
  success(ref: OperationRef, answer: Answer, transform?: (json: any) => unknown) {
    const media = exampleMediaTypes(ref.operation).find((m) => m.status === answer.status && sameType(m.type, answer.type))
    if (!media) return false
    const schemas = this.document.components.schemas
    let value: unknown
    if (answer.type.endsWith('json') && answer.type !== 'application/x-ndjson') {
      value = trimJson(transform ? transform(answer.json) : answer.json, media.schema, schemas)
    }
    else if (/csv/.test(answer.type)) value = trimLines(answer.text, 3)
    else if (answer.type === 'application/x-ndjson') value = trimLines(answer.text, 2)
    else if (/gpx/.test(answer.type)) value = trimXml(answer.text, 'trkpt', 2)
    else if (/tcx/.test(answer.type)) value = trimXml(answer.text, 'Trackpoint', 2)
    else value = answer.text
    this.put(ref.id, answer.status, media.type, value)
    return true
  }

  /** Records a problem answer under its code; identical bodies share one id. */
  problem(ref: OperationRef, status: number, answer: Answer) {
    if (answer.status !== status || answer.type !== 'application/problem+json' || !answer.json) return false
    const body = answer.json as Record<string, unknown>
    const code = String(body.code ?? 'E_PROBLEM')
    // A validation problem is named by its fields; other bodies of one code are numbered.
    const fields = Array.isArray(body.errors) ? body.errors.map((error: { field: string }) => error.field).join('-') : ''
    const base = fields ? `${status}-${code}-${fields}` : `${status}-${code}`
    const same = (id: string) => JSON.stringify(this.problems[id]?.value) === JSON.stringify(body)
    let id = base
    for (let n = 2; this.problems[id] && !same(id); n++) id = `${base}-${n}`
    this.problems[id] ??= { summary: `${code}: ${String(body.detail ?? '')}`.slice(0, 120), value: body }
    const existing = (this.operations[ref.id]?.[String(status)]?.['application/problem+json'] ?? []) as Array<{ $problem: string }>
    if (!existing.some((entry) => entry.$problem === id)) {
      this.put(ref.id, status, 'application/problem+json', [...existing, { $problem: id }])
    }
    return true
  }

  /** Runs the recipe of `ref`: the success call, then one provocation per documented problem. */
  async run(ref: OperationRef, recipe: Recipe) {
    const call = recipe.success ? await recipe.success() : null
    if (call) {
      const answer = await send(this.baseUrl, call)
      if (answer.status === 204 && ref.operation.responses?.['204']) {
        // No content: nothing to show.
      } else if (!this.success(ref, answer, recipe.transform)) {
        this.missing.push(`${ref.id} success: ${call.method} ${call.path} answered ${answer.status} ${answer.type} ${answer.text.slice(0, 200)}`)
      }
    }
    for (const status of problemStatuses(ref.operation)) {
      if (this.has(ref.id, status)) continue
      const provoke = recipe.problems?.[status]
      const result = provoke ? await provoke() : null
      if (!result) continue
      const answer = 'status' in result ? result : await send(this.baseUrl, result)
      if (!this.problem(ref, status, answer)) {
        const shown = 'status' in result ? 'a shared answer' : `${result.method} ${result.path}`
        this.missing.push(`${ref.id} ${status}: ${shown} answered ${answer.status} ${answer.text.slice(0, 200)}`)
      }
    }
  }

  /** Operation statuses the document declares that have no example yet. */
  uncovered(refs: OperationRef[]): string[] {
    const out: string[] = []
    for (const ref of refs) {
      for (const media of exampleMediaTypes(ref.operation)) {
        const written = ref.operation.responses[String(media.status)].content[media.type].example !== undefined
        if (!written && !this.operations[ref.id]?.[String(media.status)]?.[media.type]) out.push(`${ref.id} ${media.status} ${media.type}`)
      }
      for (const status of problemStatuses(ref.operation)) {
        if (!this.has(ref.id, status)) out.push(`${ref.id} ${status} problem`)
      }
    }
    return out
  }
}

const sameType = (declared: string, actual: string) => declared.split(';')[0].trim() === actual
