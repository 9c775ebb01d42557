import { defineConfig } from '@adonisjs/inertia'

/** The admin UI: Vue 3 pages rendered client-side (no SSR). */
const inertiaConfig = defineConfig({
  rootView: 'inertia_layout',
  ssr: { enabled: false, entrypoint: 'inertia/ssr.ts' },
})

export default inertiaConfig

/*
 * Page props are checked by the Vue components (vue-tsc); the server side
 * accepts any JSON props per page name.
 */
declare module '@adonisjs/inertia/types' {
  export interface InertiaPages {
    [page: string]: Record<string, any>
  }
}
