/* Taps reach the kernel in the order they were made (the page template includes this
   script; the browser tests add the same file to every page they open).

   ipywidgets holds back a widget's change while its previous change is still unanswered
   by the kernel (WidgetModel.sync: "_pending_msgs >= 1" keeps it in "_msg_buffer" until
   the kernel says idle), but a button's click is sent at once.  On a busy laptop a
   player who picks "2●" (or "Reactor", or a trade station) and then taps a hex could
   have the tap reach the kernel before the pick: the tap was recorded with the old
   choice.  Seen in a test run: a tile typed as two homeworlds.  This script lets every
   change go at once, so changes and clicks reach the kernel in the order they were made
   (the throttle is meant for sliders dragged fast; this dashboard has none).  Installed
   once, on the widget model's prototype, as soon as the page's first widget model
   exists.  window.companionOrderedSync() says whether it is installed. */
(function () {
  'use strict';
  if (window.companionOrderedSync) { return; }
  var installed = false;
  window.companionOrderedSync = function () { return installed; };

  function patch(model) {
    var proto = Object.getPrototypeOf(model);
    while (proto && !Object.prototype.hasOwnProperty.call(proto, 'sync')) {
      proto = Object.getPrototypeOf(proto);
    }
    if (!proto || proto.__companionOrdered) { installed = !!proto; return; }
    var sync = proto.sync, status = proto._handle_status;
    if (typeof sync !== 'function' || typeof status !== 'function') { return; }
    proto.sync = function () {
      this._pending_msgs = 0;             // nothing held back: sent now, in order
      return sync.apply(this, arguments);
    };
    proto._handle_status = function () {
      if (!(this._pending_msgs > 0)) { this._pending_msgs = 1; }   // no "< 0" complaint
      return status.apply(this, arguments);
    };
    proto.__companionOrdered = true;
    installed = true;
  }

  function first(models) {               // a Map, or an object keyed by model id
    if (!models) { return null; }
    if (typeof models.values === 'function' && typeof models.size === 'number') {
      var it = models.values().next();
      return it.done ? null : it.value;
    }
    var keys = Object.keys(models);
    return keys.length ? models[keys[0]] : null;
  }

  function attempt() {
    try {
      var mgr = window.jupyterapp && window.jupyterapp.widgetManager;
      var model = mgr && (first(mgr._modelsSync) || first(mgr._models));
      if (!model) { return false; }
      Promise.resolve(model).then(patch).catch(function () {});
      return true;
    } catch (err) { return false; }
  }

  var timer = setInterval(function () {
    if (installed || (attempt() && installed)) { clearInterval(timer); }
  }, 200);
})();
