window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/schema/openapi.json',
    dom_id: '#swagger-ui',
    // Without the top bar (a URL box and Explore button for other documents) and without links
    // nested in the operations' toggle buttons, which screen readers and touch cannot tell apart.
    deepLinking: false,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: 'BaseLayout',
    // The schemas are shown with each operation; the separate Schemas section is left out.
    defaultModelsExpandDepth: -1,
    // No badge from validator.swagger.io: the page makes no request beyond this server.
    validatorUrl: null,
  })
  // Swagger UI renders the server choice without an accessible name.
  var root = document.getElementById('swagger-ui')
  function label() {
    root.querySelectorAll('select#servers:not([aria-label])').forEach(function (select) {
      select.setAttribute('aria-label', 'Server')
    })
  }
  label()
  var pending = null
  new MutationObserver(function () {
    if (pending) return
    pending = setTimeout(function () {
      pending = null
      label()
    }, 100)
  }).observe(root, { childList: true, subtree: true })
})
