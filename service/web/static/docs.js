// /docs: Swagger UI over the service's OpenAPI spec, started from this file: the page runs no
// inline script (its Content-Security-Policy allows the service's own scripts only). The
// settings come from the page (data-config, written by service/web/__init__.py).
const container = document.getElementById("swagger-ui-container");
window.ui = SwaggerUIBundle(JSON.parse(container.dataset.config));
