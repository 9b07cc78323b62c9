// The output widget (ipywidgets' Output) without JupyterLab's output area and renderers.
//
// The app writes a failing callback's traceback into an Output (``append_stderr``): the
// view shows every output of the model's ``outputs`` as text (streams, errors, plain text)
// or as HTML (the kernel's own ``text/html``). While the kernel sets ``msg_id`` (Python's
// ``with output:``), the model takes the kernel's outputs of that message, as JupyterLab's
// output widget does, and sends them back to the kernel.
import { DOMWidgetModel, DOMWidgetView } from '@jupyter-widgets/base';

export const OUTPUT_MODULE = '@jupyter-widgets/output';
const OUTPUT_VERSION = '1.0.0';
const CAPTURED = new Set(['stream', 'error', 'display_data', 'execute_result']);
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;

export class OutputModel extends DOMWidgetModel {
  defaults() {
    return {
      ...super.defaults(),
      _model_name: 'OutputModel',
      _model_module: OUTPUT_MODULE,
      _model_module_version: OUTPUT_VERSION,
      _view_name: 'OutputView',
      _view_module: OUTPUT_MODULE,
      _view_module_version: OUTPUT_VERSION,
      msg_id: '',
      outputs: [],
    };
  }

  initialize(attributes, options) {
    super.initialize(attributes, options);
    const kernel = this.widget_manager.kernel;
    if (kernel !== undefined) {
      kernel.iopubMessage.connect(this._heard, this);
    }
    this._clearBeforeNext = false;
  }

  _heard(_kernel, msg) {
    const msgId = this.get('msg_id');
    if (!msgId || msg.parent_header === undefined || msg.parent_header.msg_id !== msgId) {
      return;
    }
    const type = msg.header.msg_type;
    if (type === 'clear_output') {
      if (msg.content.wait) {
        this._clearBeforeNext = true;
      } else {
        this._keep([]);
      }
      return;
    }
    if (!CAPTURED.has(type)) {
      return;
    }
    const kept = this._clearBeforeNext ? [] : this.get('outputs');
    this._clearBeforeNext = false;
    this._keep([...kept, { output_type: type, ...msg.content }]);
  }

  _keep(outputs) {
    this.set('outputs', outputs);
    this.save_changes();
  }
}

function text(value) {
  return Array.isArray(value) ? value.join('') : String(value === undefined ? '' : value);
}

/** One output (nbformat JSON) as a DOM node. */
export function outputNode(output) {
  const data = output.data || {};
  if (output.output_type !== 'stream' && output.output_type !== 'error' && 'text/html' in data) {
    const html = document.createElement('div');
    html.className = 'dkb-output-html';
    html.innerHTML = text(data['text/html']);
    return html;
  }
  const pre = document.createElement('pre');
  if (output.output_type === 'stream') {
    pre.className = `dkb-output-${output.name === 'stderr' ? 'stderr' : 'stdout'}`;
    pre.textContent = text(output.text);
  } else if (output.output_type === 'error') {
    pre.className = 'dkb-output-stderr';
    const lines = output.traceback || [`${output.ename}: ${output.evalue}`];
    pre.textContent = lines.join('\n').replace(ANSI, '');
  } else {
    pre.textContent = text(data['text/plain']);
  }
  return pre;
}

export class OutputView extends DOMWidgetView {
  render() {
    this.el.classList.add('jupyter-widgets', 'widget-output');
    this.listenTo(this.model, 'change:outputs', this._show);
    this._show();
  }

  _show() {
    this.el.replaceChildren(...this.model.get('outputs').map(outputNode));
  }
}
