// Stands in for jQuery, which Backbone and @jupyter-widgets/base import to keep a view's
// element as `view.$el` beside `view.el`. The views the light page draws use `el` only: their
// events are NativeView's (@jupyter-widgets/base/lib/nativeview.js, no jQuery), their DOM is
// lumino's and their own. So `$(element)` is an array-like of that one element, and nothing else.
export default function jQueryStandIn(element) {
  if (!(this instanceof jQueryStandIn)) {
    return new jQueryStandIn(element);
  }
  this[0] = element;
  this.length = element === undefined || element === null ? 0 : 1;
}
