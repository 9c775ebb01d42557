/*
|--------------------------------------------------------------------------
| Task: the app-side steps of the capacity benchmark
|--------------------------------------------------------------------------
|
| `--mode setup --users N`: N active users with a stored (encrypted) Polar token `cap_user_<i>`,
|   bound to the simulator account of that token; prints `{users}`.
| `--mode seed`: one first sync per user (28 days, queued SyncUserJob, trigger `connect`), so the
|   measured day starts from stored history; prints `{jobs}`.
| `--mode plan [--users-at 10000]`: the real SyncSchedulerService.plan() for this database (with or
|   without the registered webhook), plus the planner's arithmetic (polar_budget.ts) for other
|   populations; prints `{plan, at}`.
| `--mode reconcile --start <epoch ms> --offsets <file>`: one scheduled full sync per user, each
|   enqueued the way SyncSchedulerService.tick() does (SyncUserJob, trigger `scheduler`, delayed), at
|   `start + offset[i]` for the i-th user (by id); prints `{jobs}`.
|
*/
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { bootConsoleApp, emit } from '../lib/console_app.js'

const { values } = parseArgs({
  options: {
    'mode': { type: 'string' },
    'users': { type: 'string', default: '1' },
    'users-at': { type: 'string', default: '' },
    'start': { type: 'string', default: '0' },
    'offsets': { type: 'string', default: '' },
  },
})

const app = await bootConsoleApp()
const { default: User } = await import('#models/user')
const { default: SyncUserJob } = await import('#jobs/sync_user_job')

const tokenOf = (i: number) => `cap_user_${i}`

switch (values.mode) {
  case 'setup': {
    const { ProviderTokenService } = await import('#services/polar/provider_token_service')
    const { polarUserIdFor } = await import('#simulators/polar/profile')
    const tokens = await app.container.make(ProviderTokenService)
    const count = Number(values.users)
    for (let i = 0; i < count; i++) {
      const token = tokenOf(i)
      const user = await User.create({ externalId: `cap_${i}`, isActive: true, polarUserId: String(polarUserIdFor(token)) })
      await tokens.store(user, token)
    }
    emit({ users: count })
    break
  }
  case 'seed': {
    const users = await User.query().orderBy('id')
    for (const user of users) await SyncUserJob.dispatch({ userId: user.id, days: 28, trigger: 'connect' }).run()
    emit({ jobs: users.length })
    break
  }
  case 'plan': {
    const { SyncSchedulerService } = await import('#services/sync/sync_scheduler_service')
    const { requiredIntervalMs, effectiveIntervalMs, formulaLimits, CALLS_PER_FULL_SYNC } = await import('#services/sync/polar_budget')
    const scheduler = await app.container.make(SyncSchedulerService)
    const plan = await scheduler.plan()
    const at = values['users-at']
      .split(',')
      .filter(Boolean)
      .map(Number)
      .map((users) => {
        const limits = formulaLimits(users)
        const requiredMs = requiredIntervalMs(users, limits, CALLS_PER_FULL_SYNC)
        return {
          users,
          limits,
          required_minutes: Math.ceil(requiredMs / 60_000),
          effective_minutes_from_60: effectiveIntervalMs(60 * 60_000, requiredMs) / 60_000,
          effective_minutes_from_1440: effectiveIntervalMs(1440 * 60_000, requiredMs) / 60_000,
        }
      })
    emit({ plan, callsPerFullSync: CALLS_PER_FULL_SYNC, at })
    // Read-only: leave without terminate(), whose Redis shutdown can race the budget reads' connection.
    process.exit(0)
  }
  case 'reconcile': {
    const offsets = JSON.parse(readFileSync(values.offsets!, 'utf8')) as number[]
    const start = Number(values.start)
    const users = await User.query().orderBy('id')
    let jobs = 0
    for (const [index, user] of users.entries()) {
      const delayMs = Math.max(0, start + (offsets[index] ?? 0) - Date.now())
      const dispatcher = SyncUserJob.dispatch({ userId: user.id, trigger: 'scheduler' })
      await (delayMs > 0 ? dispatcher.in(delayMs) : dispatcher).run()
      jobs++
    }
    emit({ jobs })
    break
  }
  default:
    throw new Error(`unknown --mode ${values.mode}`)
}
await app.terminate()
