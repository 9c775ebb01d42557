import './css/app.css'
import './css/admin_views.css'
import { createInertiaApp } from '@inertiajs/vue3'
import { createApp, h, type DefineComponent } from 'vue'
import { resolvePageComponent } from '@adonisjs/inertia/helpers'

createInertiaApp({
  title: (title) => (title ? `${title} · HRVault` : 'HRVault'),
  resolve: (name) =>
    resolvePageComponent(`./pages/${name}.vue`, import.meta.glob<DefineComponent>('./pages/**/*.vue')),
  setup({ el, App, props, plugin }) {
    createApp({ render: () => h(App, props) })
      .use(plugin)
      .mount(el)
  },
  // The progress bar injects an inline <style>, which the admin CSP forbids.
  progress: false,
})
