window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/schema/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: 'StandaloneLayout',
    // No badge from validator.swagger.io: the page makes no request beyond this server.
    validatorUrl: null,
  })
})
