// The widget manager of the light page: ipywidgets' ManagerBase on one kernel connection.
//
// It knows the widget classes the app's widgets use and nothing else: @jupyter-widgets/base,
// the parts of @jupyter-widgets/controls that hold the app's controls (boxes and tabs,
// buttons and toggle buttons, HTML, text and text areas, drop-downs, Play and the other
// number widgets, links) and the output widget of ./output.js. A widget of another module or
// of the other controls (dates, colours, files, media, controllers, tags) is drawn as
// ipywidgets' error widget, never fetched from elsewhere: such a notebook wants Voila's own
// page (serve --page voila). Descriptions are text: an HTML description
// (description_allow_html) is shown as its text, not as HTML, so the bundle needs no HTML
// sanitizer.
import { ManagerBase } from '@jupyter-widgets/base-manager';
import * as base from '@jupyter-widgets/base';
import * as bool from '@jupyter-widgets/controls/lib/widget_bool';
import * as box from '@jupyter-widgets/controls/lib/widget_box';
import * as button from '@jupyter-widgets/controls/lib/widget_button';
import * as core from '@jupyter-widgets/controls/lib/widget_core';
import * as description from '@jupyter-widgets/controls/lib/widget_description';
import * as float from '@jupyter-widgets/controls/lib/widget_float';
import * as int from '@jupyter-widgets/controls/lib/widget_int';
import * as link from '@jupyter-widgets/controls/lib/widget_link';
import * as selection from '@jupyter-widgets/controls/lib/widget_selection';
import * as selectioncontainer from '@jupyter-widgets/controls/lib/widget_selectioncontainer';
import * as string from '@jupyter-widgets/controls/lib/widget_string';
import { OutputModel, OutputView, OUTPUT_MODULE } from './output.js';

const CONTROLS = {
  ...core,
  ...description,
  ...link,
  ...bool,
  ...button,
  ...box,
  ...int,
  ...float,
  ...selection,
  ...selectioncontainer,
  ...string,
};

const MODULES = {
  '@jupyter-widgets/base': base,
  '@jupyter-widgets/controls': CONTROLS,
  [OUTPUT_MODULE]: { OutputModel, OutputView },
};

function escaped(text) {
  const holder = document.createElement('div');
  holder.textContent = text;
  return holder.innerHTML;
}

export class LightManager extends ManagerBase {
  /** @param kernel a @jupyterlab/services KernelConnection (handleComms: true) */
  constructor(kernel) {
    super();
    this.kernel = kernel;
    kernel.registerCommTarget(this.comm_target_name, async (comm, msg) => {
      await this.handle_comm_open(new base.shims.services.Comm(comm), msg);
    });
  }

  /** The widgets the kernel already has (ipywidgets 8: one request_states on the control comm). */
  async loadFromKernel() {
    await this._loadFromKernel();
  }

  async loadClass(className, moduleName, moduleVersion) {
    const module = MODULES[moduleName];
    const found = module === undefined ? undefined : module[className];
    if (found === undefined) {
      throw new Error(`the light page has no ${className} of ${moduleName} ${moduleVersion}`);
    }
    return found;
  }

  async _create_comm(targetName, modelId, data, metadata, buffers) {
    const comm = this.kernel.createComm(targetName, modelId);
    if (data || metadata) {
      comm.open(data, metadata, buffers);
    }
    return new base.shims.services.Comm(comm);
  }

  /** An HTML description, as its text (see the module's comment). */
  inline_sanitize(source) {
    return escaped(source);
  }

  async _get_comm_info() {
    const reply = await this.kernel.requestCommInfo({ target_name: this.comm_target_name });
    return reply.content.status === 'ok' ? reply.content.comms : {};
  }
}
