import { test } from '@japa/runner'
import router from '@adonisjs/core/services/router'
import SwaggerParser from '@apidevtools/swagger-parser'

/** Adonis `:param` routes as OpenAPI `{param}` paths. */
const toOpenApiPath = (pattern: string) => pattern.replace(/:([A-Za-z0-9_]+)\??/g, '{$1}')

test.group('Docs | OpenAPI', () => {
  test('the served document is valid OpenAPI 3.1', async ({ client, assert }) => {
    const response = await client.get('/schema/openapi.json')
    response.assertStatus(200)
    const document = response.body()
    assert.equal(document.openapi, '3.1.0')
    await SwaggerParser.validate(structuredClone(document))
  })

  test('every API route is in the document with its method', async ({ client, assert }) => {
    const document = (await client.get('/schema/openapi.json')).body()
    const routes = Object.values(router.toJSON()).flat()
    const missing: string[] = []
    for (const route of routes) {
      const path = toOpenApiPath(route.pattern)
      const documented = /^\/(api|ops|coolify\/api|health|schema)(\/|$)/.test(route.pattern)
      if (!documented) continue
      for (const method of route.methods.filter((m: string) => m !== 'HEAD')) {
        if (!document.paths[path]?.[method.toLowerCase()]) missing.push(`${method} ${path}`)
      }
    }
    assert.deepEqual(missing, [])
  })

  test('{$self} renders HTML that loads only local assets')
    .with(['/schema/swagger', '/schema/redoc'])
    .run(async ({ client, assert }, url) => {
      const response = await client.get(url)
      response.assertStatus(200)
      assert.match(response.header('content-type') ?? '', /text\/html/)
      const html = response.text()
      const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1])
      assert.isAbove(sources.length, 0)
      for (const source of sources) {
        assert.match(source, /^\/schema\/assets\//, `${source} must be served locally`)
        const asset = await client.get(source)
        asset.assertStatus(200)
      }
    })

  test('an unknown asset is a 404 problem', async ({ client }) => {
    const response = await client.get('/schema/assets/redoc/..%2F..%2Fpackage.json')
    response.assertStatus(404)
  })
})
