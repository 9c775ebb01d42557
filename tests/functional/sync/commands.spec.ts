import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import ace from '@adonisjs/core/services/ace'
import db from '@adonisjs/lucid/services/db'
import User from '#models/user'
import SyncCommand from '#commands/sync'
import SyncStatusCommand from '#commands/sync_status'
import { ProviderTokenService } from '#services/polar/provider_token_service'
import { completeToken, freshDatabase, startSimulatorContext, type SimulatorContext } from '#tests/functional/sync/simulator_context'

async function connectedUser(externalId: string, token: string) {
  const user = await User.create({ externalId, isActive: true })
  await (await app.container.make(ProviderTokenService)).store(user, token)
  return user
}

test.group('Sync | ace sync and sync:status', (group) => {
  let ctx: SimulatorContext
  group.each.setup(async () => {
    ctx = await startSimulatorContext('2026-03-15')
    const cleanup = await freshDatabase()
    return async () => {
      await ctx.close()
      await cleanup()
    }
  })

  test('sync syncs every connected user and prints a per-type table', async ({ assert }) => {
    const a = await connectedUser('cli-a', completeToken('cli-a'))
    const b = await connectedUser('cli-b', completeToken('cli-b'))
    await User.create({ externalId: 'cli-none', isActive: true })
    const command = await ace.create(SyncCommand, ['--days', '5'])
    command.ui.switchMode('raw')
    await command.exec()
    assert.equal(command.exitCode ?? 0, 0)
    const printed = command.logger.getLogs().map((l) => l.message).join('\n')
    assert.include(printed, 'cli-a: success')
    assert.include(printed, 'cli-b: success')
    assert.include(printed, 'body_temperature')
    assert.match(printed, /rows\/s/)
    for (const user of [a, b]) {
      const runs = await db.from('sync_runs').where('user_id', user.id)
      assert.lengthOf(runs, 1)
      assert.equal(runs[0].trigger, 'command')
      assert.equal(runs[0].days, 5)
    }
  })

  test('sync --user limits the sync to one user; an unknown user fails', async ({ assert }) => {
    const a = await connectedUser('only-a', completeToken('only-a'))
    const b = await connectedUser('only-b', completeToken('only-b'))
    const command = await ace.create(SyncCommand, ['--user', 'only-b'])
    command.ui.switchMode('raw')
    await command.exec()
    assert.lengthOf(await db.from('sync_runs').where('user_id', a.id), 0)
    assert.lengthOf(await db.from('sync_runs').where('user_id', b.id), 1)

    const unknown = await ace.create(SyncCommand, ['--user', 'nobody'])
    unknown.ui.switchMode('raw')
    await unknown.exec()
    assert.equal(unknown.exitCode, 1)
  })

  test('sync:status lists users with their last sync', async ({ assert }) => {
    await connectedUser('status-a', completeToken('status-a'))
    const sync = await ace.create(SyncCommand, ['--user', 'status-a', '--days', '3'])
    sync.ui.switchMode('raw')
    await sync.exec()
    const command = await ace.create(SyncStatusCommand, [])
    command.ui.switchMode('raw')
    await command.exec()
    const printed = command.logger.getLogs().map((l) => l.message).join('\n')
    assert.include(printed, 'status-a')
    assert.include(printed, 'success (command')
    assert.include(printed, 'every 60 min')
  })
})
