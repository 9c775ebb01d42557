import env from '#start/env'
import app from '@adonisjs/core/services/app'
import { join } from 'node:path'
import { defineConfig, targets } from '@adonisjs/core/logger'
import { logDir } from '#config/paths'

/**
 * Logs go to stdout (pretty in development) and, as pino JSON lines, into
 * rotated files under LOG_DIR (read back by the operations API).
 */
const loggerConfig = defineConfig({
  default: 'app',
  loggers: {
    app: {
      enabled: true,
      name: 'hrvault',
      level: env.get('LOG_LEVEL', app.inTest ? 'warn' : 'info'),
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers["x-api-key"]',
          'req.headers["x-provider-token"]',
          'req.headers.cookie',
          '*.token',
          '*.accessToken',
          '*.access_token',
          '*.password',
          '*.secret',
          '*.clientSecret',
        ],
        censor: '[redacted]',
      },
      transport: {
        targets: targets()
          .pushIf(!app.inProduction && !app.inTest, targets.pretty())
          .pushIf(app.inProduction, targets.file({ destination: 1 }))
          .push({
            target: 'pino-roll',
            level: env.get('LOG_LEVEL', 'info'),
            options: {
              file: join(logDir, 'hrvault'),
              extension: '.log',
              frequency: 'daily',
              size: '20m',
              limit: { count: 14 },
              mkdir: true,
              // Owner-only, like `.env`: log lines carry user ids and addresses.
              mode: 0o600,
            },
          })
          .toArray(),
      },
    },
  },
})

export default loggerConfig

declare module '@adonisjs/core/types' {
  export interface LoggersList extends InferLoggers<typeof loggerConfig> {}
}
