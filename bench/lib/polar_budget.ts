/*
|--------------------------------------------------------------------------
| Polar's rate-limit ceiling turned into users per sync interval
|--------------------------------------------------------------------------
|
| AccessLink allows 500 + 20·U requests per 15 minutes and 5000 + 100·U per
| 24 hours for a client with U registered users. The scheduler spreads a
| round of syncs evenly over the interval, so with c calls per user-sync and
| an interval of I minutes a client sends U·c·15/I calls per 15 minutes
| and U·c·1440/I per day.
|
*/
export interface PolarCeiling {
  interval_minutes: number
  calls_per_user_sync: number
  /** Largest U the 15-minute limit allows (null: no limit at any U). */
  max_users_15min: number | null
  /** Largest U the daily limit allows (null: no limit at any U). */
  max_users_24h: number | null
  max_users: number | null
}

/** Largest U with U·perUser ≤ base + perUserAllowance·U. */
function maxUsers(perUser: number, base: number, allowance: number): number | null {
  const excess = perUser - allowance
  return excess <= 0 ? null : Math.floor(base / excess)
}

export function polarCeiling(intervalMinutes: number, callsPerSync: number): PolarCeiling {
  const per15 = (callsPerSync * 15) / intervalMinutes
  const perDay = (callsPerSync * 1440) / intervalMinutes
  const short = maxUsers(per15, 500, 20)
  const long = maxUsers(perDay, 5000, 100)
  const limits = [short, long].filter((v): v is number => v !== null)
  return {
    interval_minutes: intervalMinutes,
    calls_per_user_sync: Math.round(callsPerSync * 10) / 10,
    max_users_15min: short,
    max_users_24h: long,
    max_users: limits.length > 0 ? Math.min(...limits) : null,
  }
}

/** Shortest interval (minutes) at which the daily limit never binds: c·1440/I ≤ 100. */
export const unlimitedFromMinutes = (callsPerSync: number) => Math.ceil((callsPerSync * 1440) / 100)
