// The light app page: the app's widgets against the kernel Voilà started for this page.
//
// Voilà renders the page (serving/light_page.py writes its template): the spinner with the
// busy page's messages, the page's configuration (#jupyter-config-data: the base URL and the
// kernel's id) and each cell's outputs as JSON (script type
// application/vnd.voila.cell-output+json). This script connects to that kernel over
// Voilà's websocket (the same route, token and refusal of execute requests as Voilà's own
// page; the socket the page's first script opened as soon as the page named its kernel, so
// that the server connects it while this script still compiles), asks the kernel for its
// widgets, draws every output in place of its JSON, and only then takes the spinner away. A
// kernel that restarts or a connection that is lost for good shows the page's "the app
// stopped" message and reloads the page once: a new page gets a new kernel with the app.
// When the tab closes (or the page is left or reloaded), the page gives its kernel back at
// once, as Voila's own page does: Voila's shutdown route (voila/api/shutdown/ID), sent as a
// beacon with the _xsrf cookie the server set on the page.
import { PageConfig, URLExt } from '@jupyterlab/coreutils';
import { KernelConnection } from '@jupyterlab/services/lib/kernel/default';
import { ServerConnection } from '@jupyterlab/services/lib/serverconnection';
import { Widget } from '@lumino/widgets';
import { LightManager } from './manager.js';
import { outputNode } from './output.js';
import { showApp, showStopped } from './page.js';
import './light.css';

const OUTPUT_TYPE = 'application/vnd.voila.cell-output+json';
const WIDGET_VIEW = 'application/vnd.jupyter.widget-view+json';
const STOPPED = new Set(['restarting', 'autorestarting', 'dead']);
const SHUTDOWN_ROUTE = 'voila/api/shutdown';

let leaving = false;

/** A performance mark (benchmarks/bench_app.py reads them: where a page's time goes). */
function mark(name) {
  performance.mark(`dkb-${name}`);
}

function pageToken() {
  return new URLSearchParams(window.location.search).get('token') || PageConfig.getToken();
}

/**
 * The WebSocket class the kernel connection opens its sockets with. The first time: the socket
 * the page's first script opened for this kernel while this script loaded
 * (window.dekbovinojEarly, see serving/light_page.py), if it is still open or opening, and the
 * messages it got before the connection listened. A new socket otherwise, and for every
 * reconnection.
 */
function socketMaker(kernelId) {
  let early = window.dekbovinojEarly;
  return function EarlyOrNewSocket(url, protocols) {
    const socket = early && early.kernelId === kernelId ? early.socket : null;
    const got = early ? early.messages : [];
    early = null;
    if (socket === null || socket.readyState > WebSocket.OPEN) {
      if (socket !== null) {
        socket.onmessage = null;
      }
      return new WebSocket(url, protocols);
    }
    const opened = socket.readyState === WebSocket.OPEN; // else its own open event comes
    queueMicrotask(() => {
      // The connection listens now: it set its handlers as this returned.
      if (opened) {
        socket.dispatchEvent(new Event('open'));
      }
      for (const data of got.splice(0)) {
        socket.dispatchEvent(new MessageEvent('message', { data }));
      }
    });
    return socket;
  };
}

function settings(token, kernelId) {
  const options = token ? { token, appendToken: true } : {};
  return ServerConnection.makeSettings({ ...options, WebSocket: socketMaker(kernelId) });
}

/** Ask the server to shut the page's kernel down (once): the page is going away. */
function giveBack(kernel, token) {
  if (leaving) {
    return;
  }
  leaving = true;
  const form = new FormData();
  const xsrf = document.cookie.match('\\b_xsrf=([^;]*)\\b');
  form.append('_xsrf', (xsrf && xsrf[1]) || '');
  const query = token ? `?token=${encodeURIComponent(token)}` : '';
  const url = URLExt.join(PageConfig.getBaseUrl(), SHUTDOWN_ROUTE, encodeURIComponent(kernel.id));
  navigator.sendBeacon(url + query, form);
  kernel.dispose();
}

async function draw(manager, output, place) {
  const view = (output.data || {})[WIDGET_VIEW];
  if (view === undefined) {
    place.appendChild(outputNode(output));
    return;
  }
  const model = await manager.get_model(view.model_id);
  const widget = await manager.create_view(model);
  Widget.attach(widget.luminoWidget, place);
}

async function start() {
  mark('script');
  const kernelId = PageConfig.getOption('kernelId');
  if (!kernelId) {
    throw new Error('the page names no kernel');
  }
  const token = pageToken();
  const kernel = new KernelConnection({
    model: { id: kernelId, name: '' },
    serverSettings: settings(token, kernelId),
    handleComms: true,
    // Comms on the kernel's main shell, as Voila's own page sends them: Voila refuses
    // every other request (subshells' too).
    commsOverSubshells: 'disabled',
  });
  window.dekbovinojKernel = kernel;
  window.addEventListener('pagehide', () => giveBack(kernel, token));
  window.addEventListener('pageshow', (event) => {
    if (event.persisted) {
      window.location.reload(); // back from the browser's cache: its kernel was given back
    }
  });
  kernel.statusChanged.connect((_, status) => {
    if (STOPPED.has(status) && !leaving) {
      showStopped(`kernel ${status}`);
    }
  });
  kernel.connectionStatusChanged.connect((_, status) => {
    if (status === 'disconnected' && !leaving) {
      showStopped('connection lost');
    }
  });
  await kernel.info;
  mark('connected');
  const manager = new LightManager(kernel);
  await manager.loadFromKernel();
  mark('widgets');
  const drawn = [];
  for (const script of document.querySelectorAll(`script[type="${OUTPUT_TYPE}"]`)) {
    const place = document.createElement('div');
    place.className = 'dkb-light-output';
    script.replaceWith(place);
    drawn.push(draw(manager, JSON.parse(script.textContent), place));
  }
  await Promise.all(drawn);
  showApp();
  mark('drawn');
}

start().catch((error) => {
  console.error('dekbovinoj light page:', error);
  showStopped(String(error && error.message ? error.message : error));
});
