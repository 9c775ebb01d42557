import { BaseCommand, args, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import { PolarWebhookService } from '#services/polar/polar_webhook_service'

/**
 * `node ace polar:webhook register [--url <public receiver URL>]`, `status`, `delete`: Polar's push
 * notifications for this AccessLink client. The signature secret Polar returns once is stored
 * encrypted and never printed.
 */
export default class PolarWebhookCommand extends BaseCommand {
  static commandName = 'polar:webhook'
  static description = 'Register, show or delete the Polar webhook (register | status | delete)'
  static options: CommandOptions = { startApp: true }

  @args.string({ description: 'register, status or delete' })
  declare action: string

  @flags.string({ description: 'Public URL of the receiver (default APP_URL + /webhooks/polar)' })
  declare url?: string

  async run() {
    const webhooks = await this.app.container.make(PolarWebhookService)
    try {
      switch (this.action) {
        case 'register':
          return await this.register(webhooks)
        case 'status':
          return await this.status(webhooks)
        case 'delete':
          return await this.remove(webhooks)
        default:
          this.logger.error(`Unknown action "${this.action}". Use register, status or delete.`)
          this.exitCode = 1
      }
    } catch (error) {
      this.logger.error((error as Error).message)
      this.exitCode = 1
    }
  }

  protected async register(webhooks: PolarWebhookService) {
    const url = this.url ?? webhooks.defaultUrl()
    this.logger.info(`Registering ${url} with Polar (Polar first sends a PING there, which must answer 200)…`)
    const result = await webhooks.register(url)
    if (!result.ok) {
      this.logger.error(result.message)
      this.exitCode = 1
      return
    }
    this.logger.success(`Webhook ${result.webhook.id} registered for ${result.webhook.events.join(', ')}`)
    this.logger.info('The signature secret is stored encrypted; it is not shown.')
  }

  protected async status(webhooks: PolarWebhookService) {
    const status = await webhooks.status()
    const remote = status.remote
    const rows: Array<[string, string]> = [
      ['URL', remote?.url ?? status.url ?? '—'],
      ['Events', remote?.events.join(', ') ?? '—'],
      ['Active', remote ? (remote.active ? 'yes' : 'no (Polar deactivates a webhook after 7 days of failed deliveries)') : 'no webhook at Polar'],
      ['Secret stored', status.secretStored ? 'yes' : 'no'],
      ['Last event', status.lastEvent ? `${status.lastEvent.event} at ${status.lastEvent.receivedAt}` : 'none yet'],
    ]
    if (status.remoteError) rows.push(['Polar', `could not be asked: ${status.remoteError}`])
    const table = this.ui.table()
    table.head(['', 'Polar webhook'])
    for (const row of rows) table.row(row)
    table.render()
    if (remote && !status.secretStored) {
      this.logger.warning('Polar has a webhook but its secret is not stored here: run `polar:webhook delete`, then `register`.')
    }
  }

  protected async remove(webhooks: PolarWebhookService) {
    const deleted = await webhooks.delete()
    this.logger.success(deleted > 0 ? `Deleted ${deleted} webhook(s) at Polar; the secret is forgotten.` : 'Polar had no webhook; the stored secret is forgotten.')
  }
}
