import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { ApiKeyService } from '#services/auth/api_key_service'
import { PolarConnectService } from '#services/polar/polar_connect_service'
import { SYNC_TYPES } from '#services/sync/sync_types'

export interface DemoConnection {
  userId: string
  apiKey: string
  /** True when `previousKey` was still valid for this user and no key was minted. */
  reused: boolean
  /** Stored rows per type, e.g. `sleep 90, recharge 90, …`. */
  summary: string
}

/**
 * `npm run demo`: connects a user through the real OAuth flow against the Polar simulator (authorize
 * URL with state → the simulator's "Authorize" decision → code exchange → registration → token stored
 * encrypted → API key → back-fill job) and waits until the back-fill has run on the in-process worker.
 * `previousKey`, the key an earlier start printed, is kept when it is still valid for the user:
 * restarting the demo mints no new key.
 */
export async function connectDemoUser(options: {
  login: string
  days: number
  appUrl: string
  previousKey?: string | null
}): Promise<DemoConnection> {
  const connect = await app.container.make(PolarConnectService)
  const redirectUri = `${options.appUrl}/oauth/polar/callback`
  const { url } = await connect.authorizeUrl(redirectUri)

  // The browser step, done by hand: the simulator's consent page redirects with ?code&state.
  const decision = new URL(url)
  decision.pathname = '/oauth2/authorization/decision'
  decision.searchParams.set('decision', 'allow')
  decision.searchParams.set('login', options.login)
  const response = await fetch(decision, { redirect: 'manual' })
  const location = new URL(response.headers.get('location') ?? '')
  const code = location.searchParams.get('code')
  const state = location.searchParams.get('state')
  if (!code || !state) throw new Error('The simulator did not return an authorisation code')

  const connected = await connect.connect(code, state, options.days)
  const userId = connected.user.id
  const keys = await app.container.make(ApiKeyService)
  const reused = options.previousKey ? await keyOfUser(keys, options.previousKey, connected.user.externalId) : false
  const apiKey = reused
    ? options.previousKey!
    : (await keys.create(`polar-${connected.user.polarUserId}`, connected.user.externalId)).plain

  const deadline = Date.now() + 10 * 60_000
  let run: { status: string } | null = null
  while (Date.now() < deadline) {
    run = await db
      .from('sync_runs')
      .where('user_id', userId)
      .where('job_id', connected.backfillJobId)
      .whereNotNull('finished_at')
      .first()
    if (run) break
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  if (!run) throw new Error('The back-fill did not finish within 10 minutes')

  const parts: string[] = []
  for (const type of SYNC_TYPES) {
    const [{ n }] = await db.from(type.table).where('user_id', userId).count('* as n')
    parts.push(`${type.key} ${Number(n)}`)
  }
  return { userId: connected.user.externalId, apiKey, reused, summary: `${run.status}: ${parts.join(', ')}` }
}

/** Whether `plain` is an active key scoped to this user. */
async function keyOfUser(keys: ApiKeyService, plain: string, externalId: string) {
  try {
    return (await keys.authenticate(plain)).userExternalId === externalId
  } catch {
    return false
  }
}
