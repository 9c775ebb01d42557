import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import encryption from '@adonisjs/core/services/encryption'
import { configDir } from '#config/paths'

/** The token obtained by `node ace polar:auth`, as kept on the local configuration volume. */
export interface LocalPolarToken {
  polarUserId: string
  memberId: string
  accessToken: string
  /** ISO time the token was obtained. */
  obtainedAt: string
  /** ISO time Polar says the token expires, null when unknown. */
  expiresAt: string | null
}

interface StoredFile {
  polar_user_id: string
  member_id: string
  access_token_encrypted: string
  obtained_at: string
  expires_at: string | null
}

/**
 * The self-hosted provider token in `CONFIG_DIR/polar_token.json` (spec: "stores the token on the
 * server's local configuration volume"). The token itself is encrypted with APP_KEY; the file is
 * written with mode 0600.
 */
export class LocalTokenStore {
  constructor(readonly directory: string = configDir) {}

  get path() {
    return join(this.directory, 'polar_token.json')
  }

  /** The stored token, or null when none is stored or it cannot be decrypted (APP_KEY changed). */
  async read(): Promise<LocalPolarToken | null> {
    let text: string
    try {
      text = await readFile(this.path, 'utf8')
    } catch {
      return null
    }
    try {
      const stored = JSON.parse(text) as StoredFile
      const accessToken = encryption.decrypt<string>(stored.access_token_encrypted)
      if (typeof accessToken !== 'string' || accessToken === '') return null
      return {
        polarUserId: String(stored.polar_user_id),
        memberId: stored.member_id,
        accessToken,
        obtainedAt: stored.obtained_at,
        expiresAt: stored.expires_at ?? null,
      }
    } catch {
      return null
    }
  }

  /** Writes (replaces) the stored token. */
  async write(token: LocalPolarToken): Promise<void> {
    await mkdir(this.directory, { recursive: true })
    const stored: StoredFile = {
      polar_user_id: token.polarUserId,
      member_id: token.memberId,
      access_token_encrypted: encryption.encrypt(token.accessToken),
      obtained_at: token.obtainedAt,
      expires_at: token.expiresAt,
    }
    await writeFile(this.path, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 })
  }

  /** Deletes the stored token (no-op when none). */
  async remove(): Promise<void> {
    await rm(this.path, { force: true })
  }
}
