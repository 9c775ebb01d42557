/*
|--------------------------------------------------------------------------
| Codegen: the committed type indexes under .adonisjs/
|--------------------------------------------------------------------------
|
| `npm run codegen` runs the `init` hooks of adonisrc.ts once: `Data.*` from
| app/transformers (.adonisjs/client/data.d.ts and its manifest.d.ts) and the
| props of every Inertia page (.adonisjs/server/pages.d.ts). Only the files
| on disk are read; the application is not booted (no database, no workers).
| Run it after adding or renaming a transformer or a page, then commit them.
|
*/
import { CodeGen } from '@adonisjs/assembler'
import rcFile from '../adonisrc.js'
import { APP_ROOT } from './app_root.js'

await new CodeGen(APP_ROOT, { hooks: rcFile.hooks }).run()
