// What the light page shows around the app: the app once it is drawn, or "the app stopped".
//
// The messages are the page's own (serving/light_page.py puts them, in every language of the
// app, in window.dekbovinojPage.stopped); the spinner and "Starting the app…" are the busy
// page's, shown until showApp().
const RELOADED_KEY = 'dekbovinoj-light:reloaded-at';
const RELOAD_AFTER_MS = 3000;
const RELOAD_AT_MOST_EVERY_MS = 60000;

let stopped = false;

function language(messages) {
  const wanted = (navigator.languages || [navigator.language || 'en']).map((tag) =>
    String(tag).slice(0, 2).toLowerCase(),
  );
  return wanted.find((code) => code in messages) || 'en';
}

/** Take the spinner away and show the drawn app. */
export function showApp() {
  if (stopped) {
    return;
  }
  const loading = document.getElementById('loading');
  if (loading) {
    loading.remove();
  }
  const cells = document.getElementById('rendered_cells');
  if (cells) {
    cells.style.display = '';
  }
  document.body.dataset.dkbApp = 'ready';
}

function reloadedLately() {
  try {
    const last = Number(window.sessionStorage.getItem(RELOADED_KEY) || 0);
    return Date.now() - last < RELOAD_AT_MOST_EVERY_MS;
  } catch (e) {
    return true;
  }
}

/** Say that the app stopped (``why`` goes to the console), and reload the page once. */
export function showStopped(why) {
  if (stopped) {
    return;
  }
  stopped = true;
  console.warn('dekbovinoj light page: the app stopped:', why);
  const page = window.dekbovinojPage || {};
  const messages = page.stopped || { en: ['The app stopped.', 'Start it again'] };
  const [said, button] = messages[language(messages)];
  const box = document.createElement('div');
  box.className = 'dkb-stopped';
  box.setAttribute('role', 'alert');
  const text = document.createElement('p');
  text.textContent = said;
  const again = document.createElement('button');
  again.type = 'button';
  again.className = 'dkb-stopped-reload';
  again.textContent = button;
  again.addEventListener('click', () => window.location.reload());
  box.append(text, again);
  const loading = document.getElementById('loading');
  if (loading) {
    loading.remove();
  }
  document.body.prepend(box);
  document.body.dataset.dkbApp = 'stopped';
  if (!reloadedLately()) {
    try {
      window.sessionStorage.setItem(RELOADED_KEY, String(Date.now()));
    } catch (e) {
      return;
    }
    window.setTimeout(() => window.location.reload(), RELOAD_AFTER_MS);
  }
}
