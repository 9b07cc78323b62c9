// Stands in for sanitize-html, which @jupyter-widgets/base-manager imports for HTML
// descriptions: the light page's manager shows every description as text
// (LightManager.inline_sanitize), so nothing calls it.
export default function sanitize() {
  throw new Error('the light page shows descriptions as text: no HTML sanitizer is bundled');
}
