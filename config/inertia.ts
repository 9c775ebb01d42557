import { defineConfig } from '@adonisjs/inertia'

/** The admin UI: Vue 3 pages rendered client-side (no SSR). */
const inertiaConfig = defineConfig({
  rootView: 'inertia_layout',
  ssr: { enabled: false, entrypoint: 'inertia/ssr.ts' },
})

export default inertiaConfig
