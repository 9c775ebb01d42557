/*
|--------------------------------------------------------------------------
| Webhook receivers (public, signature-authenticated)
|--------------------------------------------------------------------------
*/
import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const PolarWebhooksController = () => import('#controllers/polar_webhooks_controller')

router.post('/webhooks/polar', [PolarWebhooksController, 'receive']).as('webhooks.polar').use(middleware.webhookBody())
