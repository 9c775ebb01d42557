import { defineConfig } from '@adonisjs/cors'

/** The APIs are called server-to-server; browsers only use the same-origin admin UI. */
const corsConfig = defineConfig({
  enabled: true,
  origin: [],
  methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
  headers: true,
  exposeHeaders: ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After'],
  credentials: false,
  maxAge: 90,
})

export default corsConfig
