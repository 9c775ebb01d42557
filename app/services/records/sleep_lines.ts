import db from '@adonisjs/lucid/services/db'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import NightlyRecharge from '#models/nightly_recharge'
import SleepRecord from '#models/sleep_record'
import SleepRecordTransformer from '#transformers/sleep_record_transformer'
import { csvLine } from '#services/export/csv_format'
import { CSV_TABLES } from '#services/export/csv_tables'
import { DataVersionService } from '#services/data_version_service'
import { HotQueries, rawRows } from '#services/hot_queries'
import type { SleepLineRow } from '#models/mixins/renders_sleep_lines'
import { codeDigest } from '#services/code_digest'

/**
 * The rendered lines of a user's nights (table `sleep_list_lines`, one row per user and night):
 * the night's item of the sleep list as JSON and its row of sleep.csv, both with the same night's
 * recharge values joined in, rendered by the list's transformer and the export's row mapping.
 *
 * A year-long list or export then reads one short text per night from one narrow table, in key
 * order, with no join and no per-night shaping; the answer is the lines joined. The lines are a
 * projection of `sleep_records` and `nightly_recharges` and can never be older than them:
 * - every write HRVault makes rewrites the lines of its dates in the same transaction (the sync's
 *   upsert, `upsertRows`; a model save or delete, the models' hooks);
 * - any other write (SQL by hand, a restore of one table) drops the lines of the rows it touches
 *   (database triggers, created with the table), and a read that finds fewer lines than nights in
 *   its window renders the window's lines again before it answers;
 * - each line carries the digest of the code that rendered it (`format`, codeDigest): a read counts
 *   only lines of the running code's format, so after a release that changes the item or the CSV
 *   row the window is rendered again on its first read.
 */
export const SLEEP_LINES_TABLE = 'sleep_list_lines'

/**
 * On PostgreSQL, the lines of each user's calendar month joined (table `sleep_list_months`): the
 * month's part of the sleep list (newest first) and of sleep.csv (oldest first), with the count and
 * format of the lines it joins. A window's answer is then the stored months between its first and
 * last month plus those two months' lines: a value a statement computes is built and sent at a cost
 * per byte there, a stored one is not (README "Rendered sleep lines").
 * Every writer of lines joins the months it touched again in the same transaction, after taking the
 * user's row (`refreshMonths`); the triggers of a write made outside HRVault drop the month with the
 * line. A read uses them only when the lines they and the edge months hold are the window's nights.
 */
export const SLEEP_MONTHS_TABLE = 'sleep_list_months'

/** The tables whose rows the lines render: a write to either refreshes the lines of its dates. */
export const SLEEP_LINE_SOURCES = new Set([SleepRecord.table, NightlyRecharge.table])

/** A night joined with its recharge, under the attribute names the transformer and CSV row read. */
interface SleepLineSource {
  id: number
  date: string
  sleepScore: number | null
  lightSleepSeconds: number | null
  deepSleepSeconds: number | null
  remSleepSeconds: number | null
  heartRateAvg: number | null
  hrvAvg: number | null
  breathingRateAvg: number | null
  rechargeId: number | null
}

const SOURCE_SQL =
  'select s.id as "id", s.date as "date", s.sleep_score as "sleepScore", s.light_sleep_seconds as "lightSleepSeconds", ' +
  's.deep_sleep_seconds as "deepSleepSeconds", s.rem_sleep_seconds as "remSleepSeconds", s.heart_rate_avg as "heartRateAvg", ' +
  'r.hrv_avg as "hrvAvg", r.breathing_rate_avg as "breathingRateAvg", r.id as "rechargeId" ' +
  `from ${SleepRecord.table} s left join ${NightlyRecharge.table} r on r.user_id = s.user_id and r.date = s.date where s.user_id = ?`

/** Dates per refresh query (well under every driver's bound-parameter limit). */
const DATES_PER_QUERY = 500
/** Lines per insert statement. */
const LINES_PER_INSERT = 200

/** The night's list item (JSON) and CSV row (with its CRLF), as the list and the export render them. */
export function renderSleepLine(night: SleepLineSource): { json: string; csv: string } {
  const recharge = night.rechargeId === null ? null : night
  return {
    json: JSON.stringify(new SleepRecordTransformer({ record: night, recharge }).toObject()),
    csv: csvLine(CSV_TABLES.sleep.row(night)),
  }
}

export const SleepLines = {
  /**
   * Rewrites the lines of a user's nights from the stored rows, on `client` (the writer's
   * transaction): on `dates`, or in a `{ from, to }` range. A date without a night loses its line.
   */
  async refresh(client: QueryClientContract, userId: number, scope: readonly string[] | DateRange): Promise<void> {
    if (!Array.isArray(scope)) {
      await refreshRange(client, userId, scope as DateRange)
      return
    }
    const unique = [...new Set(scope)]
    for (let i = 0; i < unique.length; i += DATES_PER_QUERY) {
      const chunk = unique.slice(i, i + DATES_PER_QUERY)
      const nights = rawRows<SleepLineSource>(
        await client.rawQuery(`${SOURCE_SQL} and s.date in (${chunk.map(() => '?').join(', ')})`, [userId, ...chunk])
      )
      const kept = new Set(nights.map((night) => night.date))
      const gone = chunk.filter((date) => !kept.has(date))
      if (gone.length > 0) await client.from(SLEEP_LINES_TABLE).where('user_id', userId).whereIn('date', gone).delete()
      await writeLines(client, userId, nights)
    }
    await refreshMonths(client, userId, unique)
  },

  /**
   * Before a model save or delete of a night or a recharge in a transaction (the models' hooks):
   * the user's row is taken before the write's triggers take the night's line, the order of
   * every other writer and of a read's re-render (`rerender`), so none of them wait on each other
   * in a circle. Outside a transaction each statement commits on its own and holds nothing.
   */
  async beforeModelWrite(row: SleepLineRow): Promise<void> {
    if (row.$trx) await lockUserRow(row.$trx, row.userId)
  },

  /**
   * After a model save or delete of a night or a recharge (the models' hooks): the night's line
   * rewritten and the user's data version bumped, as the sync's upsert does for its rows, so a
   * cached answer never outlives the write.
   */
  async afterModelWrite(row: SleepLineRow): Promise<void> {
    const write = async (client: QueryClientContract) => {
      await DataVersionService.bump(client, row.userId)
      await SleepLines.refresh(client, row.userId, [row.date])
    }
    // Outside a transaction the refresh gets its own, the bump first taking the user's row as
    // every writer does: two writers of one month never store its join from older lines.
    if (row.$trx) await write(row.$trx)
    else await db.connection(row.$options?.connection).transaction(write)
  },

  /** The sleep list of the window, newest first, as a JSON array: the nights' lines joined. */
  async json(userId: number, from: string, to: string): Promise<string> {
    return joined('json', 'desc', { before: '[', separator: ',', after: ']' }, userId, from, to)
  },

  /** sleep.csv of the window, oldest first: `header` then the nights' rows (each with its CRLF). */
  async csv(userId: number, from: string, to: string, header: string): Promise<string> {
    return joined('csv', 'asc', { before: header, separator: '', after: '' }, userId, from, to)
  },
}

/** A stored line: the night's date, the running code's format, the JSON item and the CSV row. */
type SleepLine = { user_id: number; date: string; format: string; json: string; csv: string }

/** Renders and stores the nights' lines; returns them in the order given. */
async function writeLines(client: QueryClientContract, userId: number, nights: SleepLineSource[]): Promise<SleepLine[]> {
  const format = codeDigest()
  const lines = nights.map((night) => ({ user_id: userId, date: night.date, format, ...renderSleepLine(night) }))
  const postgres = client.dialect.name === 'postgres'
  for (let i = 0; i < lines.length; i += LINES_PER_INSERT) {
    const chunk = lines.slice(i, i + LINES_PER_INSERT)
    // One statement of SQL text kept per dialect and size (a sync writes a handful of sizes).
    const bindings = postgres
      ? [userId, format, chunk.map((line) => line.date), chunk.map((line) => line.json), chunk.map((line) => line.csv)]
      : chunk.flatMap((line) => [userId, line.date, format, line.json, line.csv])
    await client.rawQuery(upsertLinesSql(postgres, chunk.length), bindings)
  }
  return lines
}

const upsertLinesSqls = new Map<string, string>()

/** `INSERT … ON CONFLICT (user_id, date) DO UPDATE` of `count` lines: arrays on PostgreSQL, rows of values on SQLite. */
function upsertLinesSql(postgres: boolean, count: number): string {
  const key = `${postgres}:${postgres ? 0 : count}`
  let sql = upsertLinesSqls.get(key)
  if (!sql) {
    const rows = postgres
      ? `select ?::integer, d, ?::varchar, j, c from unnest(?::varchar[], ?::text[], ?::text[]) as u(d, j, c)`
      : `values ${Array.from({ length: count }, () => '(?, ?, ?, ?, ?)').join(', ')}`
    sql =
      `insert into ${SLEEP_LINES_TABLE} (user_id, "date", format, json, csv) ${rows} ` +
      'on conflict (user_id, "date") do update set json = excluded.json, csv = excluded.csv, format = excluded.format'
    upsertLinesSqls.set(key, sql)
  }
  return sql
}

/** Every line of a date range rewritten from the stored nights; returns them oldest first. */
async function refreshRange(client: QueryClientContract, userId: number, { from, to }: DateRange): Promise<SleepLine[]> {
  await client.from(SLEEP_LINES_TABLE).where('user_id', userId).whereBetween('date', [from, to]).delete()
  const sql = `${SOURCE_SQL} and s.date between ? and ? order by s.date`
  const lines = await writeLines(client, userId, rawRows<SleepLineSource>(await client.rawQuery(sql, [userId, from, to])))
  await refreshMonths(client, userId, monthsOf(from, to))
  return lines
}

/** The calendar months (`YYYY-MM`) from the month of `from` to that of `to`. */
function monthsOf(from: string, to: string): string[] {
  const months: string[] = []
  let [year, month] = [Number(from.slice(0, 4)), Number(from.slice(5, 7))]
  for (let at = from.slice(0, 7); at <= to.slice(0, 7); at = `${year}-${String(month).padStart(2, '0')}`) {
    months.push(at)
    if (++month > 12) [year, month] = [year + 1, 1]
  }
  return months
}

/**
 * The months of `dates` (any date of a month stands for it) joined again from their lines, on
 * `client` (the writer's transaction, which holds the user's row): a month without lines loses
 * its row. PostgreSQL only (SQLite joins a window's lines in process at no such cost).
 */
async function refreshMonths(client: QueryClientContract, userId: number, dates: readonly string[]): Promise<void> {
  if (client.dialect.name !== 'postgres' || dates.length === 0) return
  const months = [...new Set(dates.map((date) => date.slice(0, 7)))].sort()
  await client.rawQuery(REFRESH_MONTHS_SQL, [userId, months, `${months[0]}-01`, `${months.at(-1)}-31`, userId, months, userId])
}

const MONTH_OF = 'substr("date", 1, 7)'

/** A month's row from its lines (grouped by month): the list newest first, the CSV oldest first, as the answers order them. */
const MONTH_JOINED =
  `${MONTH_OF} as month, case when min(format) = max(format) then min(format) else '' end as format, count(*)::integer as lines, ` +
  `string_agg(json, ',' order by "date" desc) as json, string_agg(csv, '' order by "date") as csv`

/** One statement: the months' lines joined and written over the months' rows; a touched month left without lines loses its row. */
const REFRESH_MONTHS_SQL =
  `with joined as (select ${MONTH_JOINED} from ${SLEEP_LINES_TABLE} ` +
  `where user_id = ? and ${MONTH_OF} = any(?::varchar[]) and "date" between ? and ? group by ${MONTH_OF}), ` +
  `emptied as (delete from ${SLEEP_MONTHS_TABLE} where user_id = ? and month = any(?::varchar[]) and month not in (select month from joined)) ` +
  `insert into ${SLEEP_MONTHS_TABLE} (user_id, month, format, lines, json, csv) select ?::integer, month, format, lines, json, csv from joined ` +
  'on conflict (user_id, month) do update set format = excluded.format, lines = excluded.lines, json = excluded.json, csv = excluded.csv'

/** Every user's months joined from the lines already stored (the table's migration). */
export const FILL_SLEEP_MONTHS_SQL =
  `insert into ${SLEEP_MONTHS_TABLE} (user_id, month, format, lines, json, csv) ` +
  `select user_id, ${MONTH_JOINED} from ${SLEEP_LINES_TABLE} group by user_id, ${MONTH_OF}`

/** A window of one user's dates (bindings: user id, from, to). */
const WINDOW = `where user_id = ? and "date" between ? and ?`
/** The window's count of nights: what its lines are checked against. */
const NIGHTS_IN_WINDOW = `select count(*) from ${SleepRecord.table} ${WINDOW}`

/** A range of no ISO date at all (`between '1' and '0'`). */
const NO_DATES = ['1', '0']

const joinedSql = new Map<string, string>()
/**
 * One column of the window's lines in date order between `before` and `after`, checked against the
 * window's count of nights, in one statement (one round trip). Only lines of the running code's
 * format count; fewer lines than nights (a write made outside HRVault dropped some, see the
 * triggers, or a release changed the format): the window is rendered again (`rerender`) and
 * answered from that render.
 *
 * SQLite joins the lines itself (`group_concat` over a subquery walking the primary key in the
 * wanted direction: SQLite never flattens an ordered subquery into an aggregate, where the
 * aggregate's own ORDER BY would build a temporary b-tree) and hands the body over as text: as a
 * blob it reached Node as a 61 kB Buffer outside the JavaScript heap per answer, freed only by the
 * young generation's collections, and the answers per second halved (measured).
 *
 * PostgreSQL reads the window's whole months as stored (`sleep_list_months`) and the lines of its
 * first and last month as rows, each row with the window's count of nights; Node sorts and joins
 * them. Any value a statement computes costs the server per byte to build and send there: the
 * whole year's 61 kB list as one value 2.6–3.0 ms of CPU per answer, the year joined per month at
 * each read 0.7–0.8 ms (profile note, "Eleventh look"); stored months are read, not built, and the
 * edge months' lines are sent as they are stored (joining them there took a fifth of the statement).
 */
async function joined(
  column: 'json' | 'csv',
  order: 'asc' | 'desc',
  text: { before: string; separator: string; after: string },
  userId: number,
  from: string,
  to: string
): Promise<string> {
  const postgres = db.connection().dialect.name === 'postgres'
  const key = `${postgres}:${column}:${order}:${text.separator}`
  let sql = joinedSql.get(key)
  if (!sql) {
    const nights = `(${NIGHTS_IN_WINDOW})`
    const current = `from ${SLEEP_LINES_TABLE} ${WINDOW} and format = ?`
    // Each edge month's lines as rows of their own, keyed by date: a month key ('2026-05') sorts
    // between the dates of the months around it, so sorting by key puts every part in place.
    const edgeLines = `select "date", 1, ${column} from ${SLEEP_LINES_TABLE} where user_id = ? and format = ? and "date" between ? and ?`
    sql = postgres
      ? `select ${nights}::integer as "nights", m.part, m.lines, m.body from (` +
        `select month as part, lines, ${column} as body from ${SLEEP_MONTHS_TABLE} where user_id = ? and month > ? and month < ? and format = ? ` +
        `union all ${edgeLines} union all ${edgeLines}) m`
      : `select ${nights} as "nights", count(*) as "lines", ? || coalesce(group_concat(${column}, '${text.separator}'), '') || ? as "body" ` +
        `from (select ${column} ${current} order by "date" ${order}) lines`
    joinedSql.set(key, sql)
  }
  const window = [userId, from, to]
  const format = codeDigest()
  if (postgres) {
    // The days of the window's first and last month (when both are one month, the second range is empty).
    const [first, last] = [from.slice(0, 7), to.slice(0, 7)]
    const [firstDays, lastDays] = first === last ? [[from, to], NO_DATES] : [[from, `${first}-31`], [`${last}-01`, to]]
    const bindings = [...window, userId, first, last, format, userId, format, ...firstDays, userId, format, ...lastDays]
    const months = await HotQueries.all<JoinedLines>(sql, bindings)
    const nights = months.length > 0 ? Number(months[0].nights) : await countNights(userId, from, to)
    if (months.reduce((lines, month) => lines + Number(month.lines), 0) === nights) {
      months.sort(order === 'asc' ? byPart : (a, b) => byPart(b, a))
      return text.before + months.map((month) => month.body).join(text.separator) + text.after
    }
  } else {
    const [row] = await HotQueries.all<JoinedLines>(sql, [...window, text.before, text.after, ...window, format])
    if (Number(row.lines) === Number(row.nights)) return row.body
  }
  // The body is joined from the lines just rendered, not read back: another process's writes
  // meanwhile cannot make it miss a night.
  const lines = await rerender(userId, { from, to })
  if (order === 'desc') lines.reverse()
  return text.before + lines.map((line) => line[column]).join(text.separator) + text.after
}

/** The window's count of nights (a window without lines: none at all, or none rendered yet). */
async function countNights(userId: number, from: string, to: string): Promise<number> {
  const [row] = await HotQueries.all<{ nights: number }>(`select (${NIGHTS_IN_WINDOW})::integer as "nights"`, [userId, from, to])
  return Number(row.nights)
}

/**
 * A window's lines rendered again by a read. On PostgreSQL it first takes the user's row, as every
 * writer does when it bumps the data version before it rewrites lines: a sync committing a night
 * meanwhile either committed before (its rows are read here) or waits and rewrites its nights'
 * lines after this (a read never writes an older line over a newer one), and the two never wait
 * on each other's lines. SQLite runs one writer at a time.
 */
async function rerender(userId: number, window: DateRange): Promise<SleepLine[]> {
  return db.transaction(async (trx) => {
    await lockUserRow(trx, userId)
    return refreshRange(trx, userId, window)
  })
}

/** The user's row taken for the rest of the transaction (PostgreSQL; SQLite runs one writer at a time). */
async function lockUserRow(trx: QueryClientContract, userId: number) {
  if (trx.dialect.name === 'postgres') await trx.rawQuery('select id from users where id = ? for update', [userId])
}

/** The window's nights and lines, and the lines joined (SQLite: the whole body; PostgreSQL: one month's). */
type JoinedLines = { nights: number | string; part?: string; lines: number | string; body: string }

/**
 * The parts of a PostgreSQL window in key order. Sorted here rather than by the statement: a dozen
 * to sixty rows cost Node next to nothing, and PostgreSQL's sort compared them under the database's
 * collation (6–12 % of the statement's rate, profile note "Twenty-first look").
 */
function byPart(a: JoinedLines, b: JoinedLines): number {
  return a.part! < b.part! ? -1 : a.part! > b.part! ? 1 : 0
}

/** An inclusive range of ISO dates. */
interface DateRange {
  from: string
  to: string
}

const WRITE_EVENTS = ['insert', 'update', 'delete'] as const

/**
 * The triggers that drop the lines of the nights any write touches, on each source table, as
 * the statements that create and drop them (the table's migration runs them).
 */
export function sleepLineTriggers(dialect: 'postgres' | 'sqlite'): { create: string[]; drop: string[] } {
  const sources = [...SLEEP_LINE_SOURCES]
  if (dialect === 'postgres') {
    return {
      create: [
        dropLineFunction({ months: false }),
        ...sources.map(
          (table) => `create trigger ${table}_drops_line after insert or update or delete on ${table} for each row execute function drop_sleep_line()`
        ),
      ],
      drop: [...sources.map((table) => `drop trigger if exists ${table}_drops_line on ${table}`), 'drop function if exists drop_sleep_line()'],
    }
  }
  const triggers = sources.flatMap((table) => WRITE_EVENTS.map((event) => ({ table, event, name: `${table}_${event}_drops_line` })))
  return {
    create: triggers.map(({ table, event, name }) => {
      const rows = event === 'insert' ? ['new'] : event === 'delete' ? ['old'] : ['old', 'new']
      const drops = rows.map((row) => `delete from ${SLEEP_LINES_TABLE} where user_id = ${row}.user_id and "date" = ${row}."date"; `)
      return `create trigger ${name} after ${event} on ${table} begin ${drops.join('')}end`
    }),
    drop: triggers.map(({ name }) => `drop trigger if exists ${name}`),
  }
}

/**
 * PostgreSQL's row triggers do not fire on TRUNCATE: a statement trigger on each source table drops
 * every line when one is truncated (a restore of one table), so the reads render them again.
 * SQLite has no TRUNCATE (its DELETE of a whole table fires the row triggers).
 */
export function sleepLineTruncateTriggers(): { create: string[]; drop: string[] } {
  const sources = [...SLEEP_LINE_SOURCES]
  return {
    create: [
      dropAllLinesFunction({ months: false }),
      ...sources.map(
        (table) => `create trigger ${table}_truncate_drops_lines after truncate on ${table} for each statement execute function drop_all_sleep_lines()`
      ),
    ],
    drop: [...sources.map((table) => `drop trigger if exists ${table}_truncate_drops_lines on ${table}`), 'drop function if exists drop_all_sleep_lines()'],
  }
}

/**
 * The PostgreSQL trigger functions above, given `sleep_list_months` (its migration replaces them,
 * and puts the first versions back when rolled back): a write made outside HRVault drops the
 * month of each line it drops, so a stored month never outlives one of its lines.
 */
export function sleepMonthTriggerFunctions(): { create: string[]; drop: string[] } {
  return {
    create: [dropLineFunction({ months: true }), dropAllLinesFunction({ months: true })],
    drop: [dropLineFunction({ months: false }), dropAllLinesFunction({ months: false })],
  }
}

/**
 * The row trigger's function: drops the line of a night's old and new row and, when there was one,
 * its month (a month is stale only once one of its lines is gone; a new night without a line is
 * seen by a read's count of nights, so a first sync's inserts pay no month delete).
 */
function dropLineFunction({ months }: { months: boolean }) {
  const drop = (row: 'old' | 'new') =>
    `delete from ${SLEEP_LINES_TABLE} where user_id = ${row}.user_id and "date" = ${row}."date";` +
    (months ? ` if found then delete from ${SLEEP_MONTHS_TABLE} where user_id = ${row}.user_id and month = substr(${row}."date", 1, 7); end if;` : '')
  return (
    'create or replace function drop_sleep_line() returns trigger language plpgsql as $$ begin ' +
    `if tg_op in ('UPDATE', 'DELETE') then ${drop('old')} end if; ` +
    `if tg_op in ('INSERT', 'UPDATE') then ${drop('new')} end if; ` +
    'return null; end $$'
  )
}

/** The TRUNCATE trigger's function: drops every line (and month). */
function dropAllLinesFunction({ months }: { months: boolean }) {
  const drops = `delete from ${SLEEP_LINES_TABLE};` + (months ? ` delete from ${SLEEP_MONTHS_TABLE};` : '')
  return `create or replace function drop_all_sleep_lines() returns trigger language plpgsql as $$ begin ${drops} return null; end $$`
}
