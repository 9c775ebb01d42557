import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * On PostgreSQL 14 and later, the application's text columns compress with LZ4 instead of the
 * default pglz once a value is large enough to be TOASTed (about 2 kB): sample streams, routes
 * and hypnograms. pglz made an exercise's samples (about 30 kB of JSON) cost most of a sync's
 * insert time; LZ4 compresses and decompresses several times faster for a somewhat larger table.
 * Values already stored keep pglz until they are rewritten; both read the same. A server built
 * without LZ4 keeps pglz (the whole change is skipped).
 */
export default class extends BaseSchema {
  async up() {
    if (this.db.dialect.name === 'postgres') this.schema.raw(setCompression('lz4'))
  }

  async down() {
    if (this.db.dialect.name === 'postgres') this.schema.raw(setCompression('default'))
  }
}

function setCompression(method: 'lz4' | 'default') {
  return `do $$
declare c record;
begin
  if current_setting('server_version_num')::int < 140000 then return; end if;
  for c in select table_name, column_name from information_schema.columns
           where table_schema = current_schema() and data_type = 'text' and table_name not like 'adonis_schema%'
  loop
    execute format('alter table %I alter column %I set compression ${method}', c.table_name, c.column_name);
  end loop;
exception when feature_not_supported then null;
end $$`
}
