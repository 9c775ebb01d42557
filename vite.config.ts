import { defineConfig } from 'vite'
import vue from '@vitejs/plugin-vue'
import adonisjs from '@adonisjs/vite/client'

export default defineConfig({
  plugins: [vue(), adonisjs({ entryPoints: ['inertia/app.ts'], reload: ['resources/views/**/*.edge'] })],
  resolve: { alias: { '~/': `${import.meta.dirname}/inertia/` } },
  // Pre-bundle the client dependencies when the dev server starts, so a first
  // page load never triggers a re-optimisation reload.
  optimizeDeps: {
    include: ['vue', '@inertiajs/vue3', 'chart.js', 'vue-chartjs'],
  },
  // Only `node ace serve --hmr` needs the HMR socket; the test runner's dev
  // server opens none (parallel runs would fight over its port).
  server: process.env.DEV_MODE ? {} : { hmr: false, ws: false },
  build: {
    chunkSizeWarningLimit: 800,
  },
  // @adonisjs/vite's build hook calls buildApp(), which would also build the
  // default ssr environment over the client manifest: build the client only.
  builder: {
    async buildApp(builder) {
      await builder.build(builder.environments.client)
    },
  },
})
