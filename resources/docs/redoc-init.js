window.addEventListener('load', function () {
  Redoc.init('/schema/openapi.json', { hideDownloadButton: false }, document.getElementById('redoc'))
})
