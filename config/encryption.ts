import env from '#start/env'
import { defineConfig, drivers } from '@adonisjs/core/encryption'

/** Encrypts provider tokens and client secrets at rest, keyed by APP_KEY. */
const encryptionConfig = defineConfig({
  default: 'legacy',
  list: {
    legacy: drivers.legacy({
      keys: [env.get('APP_KEY')],
    }),
  },
})

export default encryptionConfig

declare module '@adonisjs/core/types' {
  export interface EncryptorsList extends InferEncryptors<typeof encryptionConfig> {}
}
