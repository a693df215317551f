/* /api/v1/docs: Swagger UI on the API's own OpenAPI schema, every file served by us.
   No inline script (the content security policy forbids it): the schema's address is
   read from the page's data attribute. validatorUrl null: Swagger UI would otherwise
   send the schema to an outside validator. */
"use strict";
(function () {
  var root = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    url: root.dataset.openapiUrl,
    dom_id: "#swagger-ui",
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
    validatorUrl: null,
    tryItOutEnabled: true,
  });
})();
