import { test } from '@japa/runner'
import { readdir } from 'node:fs/promises'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import type { LucidModel } from '@adonisjs/lucid/types/model'

/** Every model attribute maps to a column that exists in its table. */
test.group('Models | column names', () => {
  test('every attribute of every model maps to an existing column', async ({ assert }) => {
    const files = (await readdir(app.makePath('app/models'))).filter((file) => file.endsWith('.ts'))
    const problems: string[] = []
    for (const file of files) {
      const model = (await import(`#models/${file.replace(/\.ts$/, '')}`)).default as LucidModel
      model.boot()
      const columns = Object.keys(await db.connection().columnsInfo(model.table))
      for (const [attribute, definition] of model.$columnsDefinitions) {
        if (!columns.includes(definition.columnName)) {
          problems.push(`${model.name}.${attribute} -> ${definition.columnName} (missing in ${model.table})`)
        }
      }
    }
    assert.deepEqual(problems, [])
  })
})
