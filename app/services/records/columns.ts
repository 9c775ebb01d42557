import type { LucidModel, ModelAttributes } from '@adonisjs/lucid/types/model'

/**
 * Column names derived from the models, for the data-access idioms (one per concern):
 * - reads of one model use `Model.query()` and attribute names: hydrated models where a request
 *   returns few records, `.pojo()` with `selectAttributes` where it reads hundreds (the sleep,
 *   recharge and activity lists, analytics series, CSV pages), keeping their speed without a
 *   model instance per row;
 * - counts over catalogued types (export summary, admin counts, `data_days`) use `db.from()` with
 *   the catalogue's table and date column;
 * - the sync's bulk upsert is raw SQL in `sync/queries.ts`, its columns from the model.
 */

/**
 * An attribute (camelCase property backed by a column) of a model; any name for a model known
 * only as `LucidModel` (a catalogue entry), checked when the query is built.
 */
export type AttributeOf<Model extends LucidModel> = LucidModel extends Model
  ? string
  : keyof ModelAttributes<InstanceType<Model>> & string

/**
 * The column of a model attribute, as the model maps it (naming strategy or an explicit
 * `columnName`): the one attribute → column mapping every query and write derives its names from.
 */
export function columnOf<Model extends LucidModel>(model: Model, attribute: AttributeOf<Model>): string {
  const column = model.$keys.attributesToColumns.get(attribute)
  if (column === undefined) throw new Error(`${model.name} has no attribute ${attribute}`)
  return column
}

/** `table.column` of a model attribute, for queries joining tables that share column names. */
export function qualifiedColumnOf<Model extends LucidModel>(model: Model, attribute: AttributeOf<Model>): string {
  return `${model.table}.${columnOf(model, attribute)}`
}

/**
 * A select list that reads `attributes` under their own names (`hrv_avg as hrvAvg`), so plain
 * rows (`.pojo()`, no model hydrated per row) have the model's shape. `qualified` prefixes the
 * table, for joins.
 */
export function selectAttributes<Model extends LucidModel>(
  model: Model,
  attributes: readonly AttributeOf<Model>[],
  { qualified = false } = {}
): string[] {
  return attributes.map((attribute) => {
    const column = qualified ? qualifiedColumnOf(model, attribute) : columnOf(model, attribute)
    return column === attribute ? column : `${column} as ${attribute}`
  })
}
