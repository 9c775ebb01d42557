import type { HttpContext } from '@adonisjs/core/http'

/**
 * The objects of a flat transformer (its `toObject()` returns plain values, no nested transformer
 * and no injected arguments), built directly: the same objects `ctx.serialize(T.transform(rows))`
 * resolves, without resolving each row through the container, which was a tenth of a year-long list.
 */
export function plainObjects<Resource, Output>(
  Transformer: new (resource: Resource) => { toObject(): Output },
  resources: readonly Resource[]
): Output[] {
  const objects = new Array<Output>(resources.length)
  for (let i = 0; i < resources.length; i++) objects[i] = new Transformer(resources[i]).toObject()
  return objects
}

/**
 * Sends plain JSON data (strings, numbers, booleans, null, arrays and objects of them) serialized
 * with JSON.stringify, which gives the framework's output for such data at a fraction of its
 * cost. The read cache keeps the string as it is.
 */
export function sendJson(response: HttpContext['response'], value: unknown) {
  sendJsonText(response, JSON.stringify(value))
}

/** Sends JSON text already rendered (stored lines joined). */
export function sendJsonText(response: HttpContext['response'], text: string) {
  response.header('Content-Type', 'application/json; charset=utf-8')
  response.send(text)
}
