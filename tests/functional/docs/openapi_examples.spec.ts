import { test } from '@japa/runner'
import { Ajv2020 } from 'ajv/dist/2020.js'

const METHODS = ['get', 'put', 'post', 'delete', 'patch']
const DATE = /^\d{4}-\d{2}-\d{2}$/
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/

type Document = Record<string, any>

function operations(document: Document) {
  return Object.entries<Record<string, any>>(document.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({ name: `${method.toUpperCase()} ${path}`, operation: item[method] }))
  )
}

/** Every media type of every response, with the examples it carries (named ones resolved). */
function mediaTypes(document: Document) {
  return operations(document).flatMap(({ name, operation }) =>
    Object.entries<any>(operation.responses ?? {}).flatMap(([status, response]) =>
      Object.entries<any>(response.content ?? {}).map(([type, media]) => {
        const named = Object.entries<any>(media.examples ?? {}).map(([key, example]) => {
          const target = example.$ref ? document.components.examples[example.$ref.replace('#/components/examples/', '')] : example
          return { key, value: target?.value }
        })
        const examples = media.example !== undefined ? [{ key: 'example', value: media.example }, ...named] : named
        return { where: `${name} ${status} ${type}`, status, type, schema: media.schema, examples }
      })
    )
  )
}

const isJson = (type: string) => /^application\/([a-z.+-]+\+)?json$/.test(type.split(';')[0])

/** A validator of the document's schemas: JSON Schema 2020-12, `$ref`s into the document resolved. */
function validatorFor(document: Document) {
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  // A calendar date that exists (2026-02-30 does not: Date would roll it over to March).
  const realDate = (value: string) => DATE.test(value) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value)
  ajv.addFormat('date', realDate)
  ajv.addFormat('date-time', (value: string) => DATE_TIME.test(value) && realDate(value.slice(0, 10)))
  ajv.addFormat('uri', (value: string) => URL.canParse(value))
  ajv.addFormat('binary', () => true)
  ajv.addSchema({ $id: 'openapi.json', components: document.components })
  const qualified = (schema: unknown) => JSON.parse(JSON.stringify(schema).replaceAll('"$ref":"#/', '"$ref":"openapi.json#/'))
  return (schema: unknown, value: unknown) => {
    const validate = ajv.compile({ $id: `example-${Math.random()}`, ...qualified(schema) })
    return validate(value) ? null : ajv.errorsText(validate.errors)
  }
}

test.group('Docs | OpenAPI by example', () => {
  test('every operation has a summary and a description', async ({ client, assert }) => {
    const document = (await client.get('/schema/openapi.json')).body()
    const missing = operations(document)
      .filter(({ operation }) => !operation.summary?.trim() || !operation.description?.trim())
      .map(({ name }) => name)
    assert.deepEqual(missing, [])
  })

  test('every JSON 2xx answer and every problem has an example', async ({ client, assert }) => {
    const document = (await client.get('/schema/openapi.json')).body()
    const media = mediaTypes(document)
    const missing = media
      .filter((m) => (/^2\d\d$/.test(m.status) && isJson(m.type)) || m.type === 'application/problem+json')
      .filter((m) => m.examples.length === 0)
      .map((m) => m.where)
    assert.deepEqual(missing, [])
    // The document describes a good part of the API: not an empty one that would pass the rest.
    assert.isAbove(media.filter((m) => m.type === 'application/problem+json').length, 400)
  })

  test('every example validates against its own response schema', async ({ client, assert }) => {
    const document = (await client.get('/schema/openapi.json')).body()
    const validate = validatorFor(document)
    const invalid: string[] = []
    let checked = 0
    for (const media of mediaTypes(document)) {
      if (!isJson(media.type) || !media.schema) continue
      for (const example of media.examples) {
        checked++
        const error = validate(media.schema, example.value)
        if (error) invalid.push(`${media.where} [${example.key}]: ${error}`)
      }
    }
    assert.deepEqual(invalid, [])
    assert.isAbove(checked, 500)
  })

  test('an example is held to its schema: a wrong one is reported', async ({ client, assert }) => {
    const document = (await client.get('/schema/openapi.json')).body()
    const validate = validatorFor(document)
    const sleep = document.paths['/api/v1/users/{user_id}/sleep'].get.responses['200'].content['application/json']
    assert.isNull(validate(sleep.schema, sleep.example))
    assert.isString(validate(sleep.schema, [{ ...sleep.example[0], date: '2026-02-30' }]))
    assert.isString(validate({ $ref: '#/components/schemas/Problem' }, { type: 'about:blank', title: 'Not Found', status: '404' }))
  })

  test('no user-facing text of the document names the surfaces by letter', async ({ client, assert }) => {
    const text = (await client.get('/schema/openapi.json')).text()
    assert.notMatch(text, /Surface [ABC]\b/)
  })

  test('{$self} sets no cookie')
    .with(['/schema/openapi.json', '/schema/swagger', '/schema/redoc', '/schema/assets/hrvault/swagger-init.js'])
    .run(async ({ assert }, url) => {
      const response = await fetch(`http://${process.env.HOST}:${process.env.PORT}${url}`)
      await response.arrayBuffer()
      assert.equal(response.status, 200)
      assert.deepEqual(response.headers.getSetCookie(), [])
    })

  test('the public documents refuse oversized headers with the documented 431', async ({ assert }) => {
    const response = await fetch(`http://${process.env.HOST}:${process.env.PORT}/health`, { headers: { 'X-Padding': 'x'.repeat(20_000) } })
    await response.arrayBuffer()
    assert.equal(response.status, 431)
  })
})
