window.addEventListener('load', function () {
  var root = document.getElementById('redoc')
  Redoc.init('/schema/openapi.json', { hideDownloadButton: false }, root)
  // Accessibility touches, applied once the rendering settles (a pass per mutation would cost a
  // query per node ReDoc adds). Code samples scroll sideways: keyboard users reach them with Tab.
  var pending = null
  new MutationObserver(function () {
    if (pending) return
    pending = setTimeout(function () {
      pending = null
      root.querySelectorAll('pre:not([tabindex])').forEach(function (pre) {
        pre.setAttribute('tabindex', '0')
      })
      // A tag group's menu entry is labelled with the group's name alone although it holds the
      // group's whole list: its name comes from what it shows instead.
      root.querySelectorAll('li[role="menuitem"][data-item-id^="group/"][aria-label]').forEach(function (item) {
        item.removeAttribute('aria-label')
      })
    }, 100)
  }).observe(root, { childList: true, subtree: true })
})
