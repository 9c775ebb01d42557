import env from '#start/env'
import app from '@adonisjs/core/services/app'
import { isAbsolute } from 'node:path'

/*
|--------------------------------------------------------------------------
| Storage paths
|--------------------------------------------------------------------------
|
| Every file HRVault writes lives under STORAGE_DIR (default `storage/`):
| the SQLite database, logs and the local configuration volume.
|
*/
const absolute = (path: string) => (isAbsolute(path) ? path : app.makePath(path))

export const storageDir = absolute(env.get('STORAGE_DIR', 'storage'))
export const logDir = absolute(env.get('LOG_DIR', `${storageDir}/logs`))
export const configDir = absolute(env.get('CONFIG_DIR', `${storageDir}/config`))
export const sqlitePath = absolute(env.get('SQLITE_PATH', `${storageDir}/hrvault.sqlite`))
