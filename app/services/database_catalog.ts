import db from '@adonisjs/lucid/services/db'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import { rawRows } from '#services/hot_queries'

/** How a stored value is read back for an export (from the column's declared type). */
export type ColumnKind = 'boolean' | 'integer' | 'number' | 'timestamp' | 'date' | 'json' | 'text' | 'binary' | 'string'

/** One column of a table as the database itself declares it. */
export interface TableColumn {
  name: string
  /** The declared type, lower case (`varchar(10)`, `timestamp with time zone`, …). */
  type: string
  kind: ColumnKind
  nullable: boolean
}

/** A table holding rows of one user: through a `user_id` column or a foreign key to `users`. */
export interface UserTable {
  table: string
  /** The column naming the user (`user_id` unless a foreign key to `users` says otherwise). */
  column: string
  /** Tables of the same kind that reference this one (their rows go first). */
  referencedBy: string[]
}

/** The kind of a declared column type, the same on SQLite and PostgreSQL. */
export function columnKind(type: string): ColumnKind {
  const t = type.toLowerCase()
  if (t.includes('bool')) return 'boolean'
  if (t.includes('timestamp') || t.includes('datetime')) return 'timestamp'
  if (t === 'date') return 'date'
  if (t.includes('int') || t.includes('serial')) return 'integer'
  if (/(real|float|double|numeric|decimal)/.test(t)) return 'number'
  if (t.includes('json')) return 'json'
  if (t.includes('blob') || t.includes('bytea') || t.includes('binary')) return 'binary'
  if (t === 'text' || t.includes('clob')) return 'text'
  return 'string'
}

/**
 * What the database says about its own tables, read from its catalogue (SQLite `sqlite_master` and
 * `pragma_table_info`/`pragma_foreign_key_list`, PostgreSQL `information_schema`), so code that must
 * cover every table of a user (erasure, takeout) cannot miss one added later. The raw statements of
 * the two dialects live here, with bindings.
 */
export class DatabaseCatalog {
  /** Columns of `table` in declaration order; empty for a table that does not exist. */
  async columns(table: string, client: QueryClientContract = db.connection()): Promise<TableColumn[]> {
    if (client.dialect.name === 'postgres') {
      const result = await client.rawQuery(
        `select column_name as name, data_type as type, is_nullable as nullable from information_schema.columns
         where table_schema = current_schema() and table_name = ? order by ordinal_position`,
        [table]
      )
      return rawRows<{ name: string; type: string; nullable: string }>(result).map((row) => ({
        name: row.name,
        type: row.type.toLowerCase(),
        kind: columnKind(row.type),
        nullable: row.nullable === 'YES',
      }))
    }
    const result = await client.rawQuery('select name, type, "notnull" as not_null, pk from pragma_table_info(?) order by cid', [
      table,
    ])
    return rawRows<{ name: string; type: string; not_null: number; pk: number }>(result).map((row) => ({
      name: row.name,
      type: String(row.type).toLowerCase(),
      kind: columnKind(String(row.type)),
      nullable: Number(row.not_null) === 0 && Number(row.pk) === 0,
    }))
  }

  /** Every table of the current schema (SQLite internals excluded). */
  async tables(client: QueryClientContract = db.connection()): Promise<string[]> {
    if (client.dialect.name === 'postgres') {
      const result = await client.rawQuery(
        `select table_name as name from information_schema.tables
         where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`,
        []
      )
      return rawRows<{ name: string }>(result).map((row) => row.name)
    }
    const result = await client.rawQuery(
      `select name from sqlite_master where type = 'table' and name not like 'sqlite\\_%' escape '\\' order by name`,
      []
    )
    return rawRows<{ name: string }>(result).map((row) => row.name)
  }

  /** Foreign keys of every table: `table.column` → referenced table. */
  async foreignKeys(client: QueryClientContract = db.connection()): Promise<Array<{ table: string; column: string; references: string }>> {
    if (client.dialect.name === 'postgres') {
      const result = await client.rawQuery(
        `select kcu.table_name as "table", kcu.column_name as "column", ccu.table_name as "references"
         from information_schema.table_constraints tc
         join information_schema.key_column_usage kcu
           on kcu.constraint_name = tc.constraint_name and kcu.table_schema = tc.table_schema
         join information_schema.constraint_column_usage ccu
           on ccu.constraint_name = tc.constraint_name and ccu.table_schema = tc.table_schema
         where tc.constraint_type = 'FOREIGN KEY' and tc.table_schema = current_schema()`,
        []
      )
      return rawRows<{ table: string; column: string; references: string }>(result)
    }
    const result = await client.rawQuery(
      `select m.name as "table", f."from" as "column", f."table" as "references"
       from sqlite_master m join pragma_foreign_key_list(m.name) f
       where m.type = 'table'`,
      []
    )
    return rawRows<{ table: string; column: string; references: string }>(result)
  }

  /**
   * Every table that holds rows of a user: each one with a `user_id` column or a foreign key to
   * `users` (the `users` table itself and `except` left out), ordered so that a table comes before
   * the tables it references: deleting in this order never trips a foreign key.
   */
  async userTables(except: readonly string[] = [], client: QueryClientContract = db.connection()): Promise<UserTable[]> {
    const skip = new Set(['users', ...except])
    const found = new Map<string, string>()
    for (const table of await this.tables(client)) {
      if (skip.has(table)) continue
      if ((await this.columns(table, client)).some((column) => column.name === 'user_id')) found.set(table, 'user_id')
    }
    const keys = await this.foreignKeys(client)
    for (const key of keys) {
      if (key.references === 'users' && !skip.has(key.table) && !found.has(key.table)) found.set(key.table, key.column)
    }
    const referencedBy = new Map<string, Set<string>>([...found.keys()].map((table) => [table, new Set<string>()]))
    for (const key of keys) {
      if (key.table !== key.references && found.has(key.table) && found.has(key.references)) {
        referencedBy.get(key.references)!.add(key.table)
      }
    }
    // Depth-first: every referencing table is placed before the table it references.
    const ordered: UserTable[] = []
    const placed = new Set<string>()
    const place = (table: string, path: Set<string>) => {
      if (placed.has(table) || path.has(table)) return
      path.add(table)
      for (const child of [...referencedBy.get(table)!].sort()) place(child, path)
      path.delete(table)
      placed.add(table)
      ordered.push({ table, column: found.get(table)!, referencedBy: [...referencedBy.get(table)!].sort() })
    }
    for (const table of [...found.keys()].sort()) place(table, new Set())
    return ordered
  }
}
