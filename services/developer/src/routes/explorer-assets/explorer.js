/* global document, MutationObserver */
// Links to the description's other forms, in the top bar where Swagger UI's spec URL box was.
const LINKS = [
  ['OpenAPI JSON', '/openapi.json'],
  ['Postman collection', '/postman'],
];

function addLinks(wrapper) {
  const nav = document.createElement('nav');
  nav.className = 'earshot-links';
  nav.setAttribute('aria-label', 'Downloads');
  for (const [text, href] of LINKS) {
    const a = document.createElement('a');
    a.textContent = text;
    a.href = href;
    nav.appendChild(a);
  }
  wrapper.appendChild(nav);
}

new MutationObserver((_changes, observer) => {
  const wrapper = document.querySelector('#swagger-ui .topbar .topbar-wrapper');
  if (!wrapper) return;
  observer.disconnect();
  addLinks(wrapper);
}).observe(document.body, { childList: true, subtree: true });
