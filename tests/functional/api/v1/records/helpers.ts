import { DateTime } from 'luxon'
import { OpenApiDocumentService } from '#services/docs/openapi_document_service'

/** ISO date `n` days before `today` (negative n: after). */
export const minusDays = (today: string, n: number) => DateTime.fromISO(today).minus({ days: n }).toISODate()!

type Schema = Record<string, any>

let documentPromise: Promise<Record<string, any>> | undefined
const openApiDocument = () => (documentPromise ??= new OpenApiDocumentService().document())

const TYPE_CHECKS: Record<string, (value: unknown) => boolean> = {
  null: (value) => value === null,
  string: (value) => typeof value === 'string',
  boolean: (value) => typeof value === 'boolean',
  integer: (value) => typeof value === 'number' && Number.isInteger(value),
  number: (value) => typeof value === 'number' && Number.isFinite(value),
  array: (value) => Array.isArray(value),
  object: (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
}

/**
 * Checks `value` against a JSON Schema of the served OpenAPI document:
 * types (integer vs number, nullability through type arrays), required
 * keys, no undocumented keys, enums, patterns, `date` format, bounds.
 * Returns the violations, `[]` when the value conforms.
 */
export async function schemaViolations(value: unknown, schemaName: string): Promise<string[]> {
  const document = await openApiDocument()
  const schemas = document.components.schemas as Record<string, Schema>
  const errors: string[] = []

  const visit = (node: unknown, schema: Schema, path: string) => {
    if (schema.$ref) return visit(node, schemas[String(schema.$ref).split('/').pop()!], path)
    const types: string[] = schema.type === undefined ? [] : [schema.type].flat()
    if (types.length && !types.some((type) => TYPE_CHECKS[type](node))) {
      errors.push(`${path}: ${JSON.stringify(node)} is not ${types.join('|')}`)
      return
    }
    if (node === null) return
    if (schema.enum && !schema.enum.includes(node)) errors.push(`${path}: ${JSON.stringify(node)} not in enum`)
    if (typeof node === 'string') {
      if (schema.pattern && !new RegExp(schema.pattern).test(node)) errors.push(`${path}: "${node}" !~ ${schema.pattern}`)
      if (schema.format === 'date' && !DateTime.fromISO(node).isValid) errors.push(`${path}: "${node}" is not a date`)
      if (schema.format === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(node)) errors.push(`${path}: "${node}" is not YYYY-MM-DD`)
    }
    if (typeof node === 'number') {
      if (schema.minimum !== undefined && node < schema.minimum) errors.push(`${path}: ${node} < ${schema.minimum}`)
      if (schema.maximum !== undefined && node > schema.maximum) errors.push(`${path}: ${node} > ${schema.maximum}`)
    }
    if (Array.isArray(node) && schema.items) node.forEach((item, index) => visit(item, schema.items, `${path}[${index}]`))
    if (TYPE_CHECKS.object(node) && schema.properties) {
      const record = node as Record<string, unknown>
      for (const key of schema.required ?? []) if (!(key in record)) errors.push(`${path}.${key}: missing`)
      for (const [key, child] of Object.entries(record)) {
        if (!(key in schema.properties)) errors.push(`${path}.${key}: not documented`)
        else visit(child, schema.properties[key], `${path}.${key}`)
      }
    }
  }

  visit(value, schemas[schemaName] ?? {}, schemaName)
  if (!schemas[schemaName]) errors.push(`${schemaName}: no such component schema`)
  return errors
}
