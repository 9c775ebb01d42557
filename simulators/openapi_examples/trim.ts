/**
 * Real answers are long (a night has hundreds of heart-rate samples, a list a year of days). An
 * example keeps the first few items of every array, never fewer than its schema's `minItems`, so
 * it still validates against the schema it illustrates.
 */

type Schema = Record<string, any>

/** Items kept of a top-level list and of any nested array. */
const LIST_ITEMS = 2
const NESTED_ITEMS = 4

export function trimJson(value: unknown, schema: Schema | undefined, components: Record<string, Schema>, depth = 0): unknown {
  const resolved = resolve(schema, components)
  if (Array.isArray(value)) {
    const keep = Math.max(depth === 0 ? LIST_ITEMS : NESTED_ITEMS, Number(resolved?.minItems ?? 0))
    const itemSchema = resolved?.items as Schema | undefined
    return value.slice(0, keep).map((item) => trimJson(item, itemSchema, components, depth + 1))
  }
  if (value && typeof value === 'object') {
    const properties = (resolved?.properties ?? {}) as Record<string, Schema>
    const additional = typeof resolved?.additionalProperties === 'object' ? (resolved.additionalProperties as Schema) : undefined
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, trimJson(item, properties[key] ?? additional, components, depth + 1)])
    )
  }
  return value
}

/** Follows `$ref`s; a `oneOf`/`anyOf` takes its first object or array branch (trimming only needs the shape). */
function resolve(schema: Schema | undefined, components: Record<string, Schema>): Schema | undefined {
  let current = schema
  for (let hops = 0; current && hops < 10; hops++) {
    if (typeof current.$ref === 'string') {
      current = components[current.$ref.replace('#/components/schemas/', '')]
      continue
    }
    const branches = (current.oneOf ?? current.anyOf) as Schema[] | undefined
    if (branches) {
      current = branches.find((branch) => branch.$ref || branch.type === 'object' || branch.type === 'array') ?? current
      if (current.oneOf || current.anyOf) return current
      continue
    }
    return current
  }
  return current
}

/** The first lines of a CSV or JSON Lines body (the header row and `rows` rows). */
export function trimLines(text: string, lines: number): string {
  const separator = text.includes('\r\n') ? '\r\n' : '\n'
  const kept = text.split(separator).filter((line) => line !== '').slice(0, lines)
  return kept.length ? `${kept.join(separator)}${separator}` : ''
}

/** An XML track with only its first `points` elements named `element` (GPX trkpt, TCX Trackpoint). */
export function trimXml(xml: string, element: string, points: number): string {
  let seen = 0
  const pattern = new RegExp(`\\s*<${element}[\\s>][\\s\\S]*?</${element}>`, 'g')
  return xml.replace(pattern, (match) => (++seen <= points ? match : ''))
}
