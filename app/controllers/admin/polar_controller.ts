import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import type { InferData } from '@adonisjs/core/types/transformers'
import ProviderNotConfiguredException from '#exceptions/provider_not_configured_exception'
import { PolarError } from '#services/polar/errors/polar_error'
import { PolarConnectService } from '#services/polar/polar_connect_service'
import { PolarCredentialsService } from '#services/polar/polar_credentials_service'
import { PolarWebhookService } from '#services/polar/polar_webhook_service'
import PolarWebhookTransformer from '#transformers/admin/polar_webhook_transformer'
import PolarBudgetTransformer from '#transformers/admin/polar_budget_transformer'
import { PolarBudgetService } from '#services/sync/polar_budget_service'
import PolarConnectionTransformer from '#transformers/admin/polar_connection_transformer'
import { polarCallbackValidator, polarCredentialsValidator, polarWebhookValidator } from '#validators/admin'

/** /admin/polar: client credentials, the callback URL to register, Connect → OAuth → key once → back-fill. */
@inject()
export default class PolarController {
  constructor(
    protected credentials: PolarCredentialsService,
    protected connection: PolarConnectService,
    protected webhooks: PolarWebhookService,
    protected budget: PolarBudgetService
  ) {}

  async show({ inertia, session }: HttpContext) {
    const credentials = await this.credentials.summary()
    const webhook = credentials.configured
      ? new PolarWebhookTransformer({ ...(await this.webhooks.status({ timeoutMs: 3000 })), defaultUrl: this.webhooks.defaultUrl() }).toObject()
      : null
    return inertia.render('polar', {
      credentials,
      webhook,
      // Loaded by the page after it is shown (a second request), so the page never waits on it.
      budget: inertia.defer(async () => new PolarBudgetTransformer(await this.budget.budget()).toObject()),
      callbackUrl: this.connection.callbackUrl(),
      // The user-scoped key exists only in this one flash message, right after connecting.
      connected:
        (session.flashMessages.get('connected') as InferData<PolarConnectionTransformer> | undefined) ?? null,
    })
  }

  async updateCredentials({ request, response, session }: HttpContext) {
    if (this.credentials.fromEnv()) {
      session.flash('error', 'POLAR_CLIENT_ID and POLAR_CLIENT_SECRET are set in the environment; change them there.')
      return response.redirect('/admin/polar')
    }
    const { client_id: clientId, client_secret: clientSecret } = await request.validateUsing(polarCredentialsValidator)
    await this.credentials.save(clientId, clientSecret)
    session.flash('success', 'Polar client credentials saved (the secret is stored encrypted).')
    return response.redirect('/admin/polar')
  }

  /**
   * Sends the browser to Polar's consent page. A plain link (top-level GET),
   * so the navigation leaves the site without a form post or script; the
   * state it creates is single-use and useless to anyone else.
   */
  async connect({ response, session }: HttpContext) {
    const start = await this.connection.start()
    if (!start.ok) {
      session.flash('error', start.message)
      return response.redirect('/admin/polar')
    }
    return response.redirect(start.url)
  }

  /** Polar redirects here with `code` and `state` (or `error`). */
  async callback({ request, response, session }: HttpContext) {
    const { code, state, error } = await request.validateUsing(polarCallbackValidator)
    const result = await this.connection.finish(code, state, error)
    if (!result.ok) {
      session.flash('error', result.message)
      return response.redirect('/admin/polar')
    }
    session.flash('connected', new PolarConnectionTransformer(result).toObject())
    return response.redirect('/admin/polar')
  }

  /** Registers the push-sync receiver with Polar (Polar PINGs it first, so it must be reachable). */
  async registerWebhook({ request, response, session }: HttpContext) {
    const { url } = await request.validateUsing(polarWebhookValidator)
    try {
      const result = await this.webhooks.register(url ?? this.webhooks.defaultUrl())
      if (result.ok) session.flash('success', `Webhook registered: Polar now pushes ${result.webhook.events.length} kinds of events to ${result.webhook.url}.`)
      else session.flash('error', result.message)
    } catch (error) {
      session.flash('error', webhookFailure(error))
    }
    return response.redirect('/admin/polar')
  }

  /** Deletes the webhook at Polar and forgets its secret (the scheduler polls hourly again). */
  async deleteWebhook({ response, session }: HttpContext) {
    try {
      const deleted = await this.webhooks.delete()
      session.flash('success', deleted > 0 ? 'Webhook deleted at Polar.' : 'Polar had no webhook; the stored secret is forgotten.')
    } catch (error) {
      session.flash('error', webhookFailure(error))
    }
    return response.redirect('/admin/polar')
  }
}

/** The page's message for a webhook call that could not be made (no credentials, Polar failing). */
function webhookFailure(error: unknown): string {
  if (error instanceof ProviderNotConfiguredException) return 'Save the AccessLink client credentials first.'
  if (error instanceof PolarError) return `Polar could not be asked: ${error.message}`
  throw error
}
