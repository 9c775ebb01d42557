window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/schema/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: 'StandaloneLayout',
  })
})
