// The light app page: the app's widgets against the kernel Voilà started for this page.
//
// Voilà renders the page (serving/light_page.py writes its template): the spinner with the
// busy page's messages, the page's configuration (#jupyter-config-data: the base URL and the
// kernel's id) and each cell's outputs as JSON (script type
// application/vnd.voila.cell-output+json). This script connects to that kernel over
// Voilà's websocket (the same route, token and refusal of execute requests as Voilà's own
// page), asks the kernel for its widgets, draws every output in place of its JSON, and
// only then takes the spinner away. A kernel that restarts or a connection that is lost for
// good shows the page's "the app stopped" message and reloads the page once: a new page gets
// a new kernel with the app.
import { PageConfig } from '@jupyterlab/coreutils';
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

/** A performance mark (benchmarks/bench_app.py reads them: where a page's time goes). */
function mark(name) {
  performance.mark(`dkb-${name}`);
}

function settings() {
  const token = new URLSearchParams(window.location.search).get('token') || PageConfig.getToken();
  return ServerConnection.makeSettings(token ? { token, appendToken: true } : {});
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
  const kernel = new KernelConnection({
    model: { id: kernelId, name: '' },
    serverSettings: settings(),
    handleComms: true,
    // Comms on the kernel's main shell, as Voila's own page sends them: Voila refuses
    // every other request (subshells' too).
    commsOverSubshells: 'disabled',
  });
  window.dekbovinojKernel = kernel;
  kernel.statusChanged.connect((_, status) => {
    if (STOPPED.has(status)) {
      showStopped(`kernel ${status}`);
    }
  });
  kernel.connectionStatusChanged.connect((_, status) => {
    if (status === 'disconnected') {
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
