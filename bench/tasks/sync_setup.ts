/*
|--------------------------------------------------------------------------
| Task: N connected users, one queued sync each
|--------------------------------------------------------------------------
|
| Creates `--users` users with a stored (encrypted) Polar token each, then
| enqueues one SyncUserJob per user, the way the scheduler does (without the
| spreading delay). Prints `{users, dispatchMs}`.
|
*/
import { parseArgs } from 'node:util'
import { performance } from 'node:perf_hooks'
import { bootConsoleApp, emit } from '../lib/console_app.js'

const { values } = parseArgs({ options: { users: { type: 'string', default: '1' }, days: { type: 'string', default: '28' } } })
const count = Number(values.users)

const app = await bootConsoleApp()
const { default: User } = await import('#models/user')
const { default: SyncUserJob } = await import('#jobs/sync_user_job')
const { ProviderTokenService } = await import('#services/polar/provider_token_service')

const tokens = await app.container.make(ProviderTokenService)
const users = []
for (let i = 0; i < count; i++) {
  const user = await User.create({ externalId: `load_${i}`, isActive: true })
  await tokens.store(user, `load_user_${i}`)
  users.push(user)
}
const started = performance.now()
for (const user of users) {
  await SyncUserJob.dispatch({ userId: user.id, days: Number(values.days), trigger: 'scheduler' }).run()
}
emit({ users: users.length, dispatchMs: Math.round(performance.now() - started) })
await app.terminate()
