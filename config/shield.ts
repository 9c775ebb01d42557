import { defineConfig } from '@adonisjs/shield'
import { isMachineApiPath } from '#config/surfaces'

const shieldConfig = defineConfig({
  csp: {
    enabled: false,
    directives: {},
    reportOnly: false,
  },
  csrf: {
    enabled: true,
    // The analytics and operations APIs authenticate with headers, not cookies.
    exceptRoutes: (ctx) => isMachineApiPath(ctx.request.url()),
    enableXsrfCookie: true,
    methods: ['POST', 'PUT', 'PATCH', 'DELETE'],
  },
  xFrame: {
    enabled: true,
    action: 'DENY',
  },
  hsts: {
    enabled: true,
    maxAge: '180 days',
  },
  contentTypeSniffing: {
    enabled: true,
  },
})

export default shieldConfig
