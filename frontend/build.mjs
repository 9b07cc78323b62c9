// Build the light page's bundle: `npm ci && node build.mjs [OUT_FOLDER]`.
//
// Writes light.js, light.css and THIRD-PARTY-LICENSES.txt (every npm package the bundle
// holds, with its version from package-lock.json and its licence text) into OUT_FOLDER,
// by default the package's copy, dekbovinoj_edu/serving/light/. The build is
// reproducible: the same lock file gives the same bytes (tests/test_light_page.py checks
// that the shipped files are exactly what this builds).
import { build } from 'esbuild';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const OUT = resolve(process.argv[2] || join(HERE, '..', 'dekbovinoj_edu', 'serving', 'light'));
const LICENCE_FILES = /^(licen[cs]e|copying|notice)(\.(md|txt))?$/i;
/** The licence texts of the packages whose npm releases ship none (see licences/README.md). */
const SHIPPED_ELSEWHERE = [
  ['@jupyter-widgets/', 'licences/ipywidgets.txt'],
  ['@jupyterlab/', 'licences/jupyterlab.txt'],
  ['@lumino/', 'licences/lumino.txt'],
];

/** The npm package a bundled file belongs to, as its node_modules path, or null. */
function packageOf(input) {
  const parts = input.split('/');
  const at = parts.lastIndexOf('node_modules');
  if (at < 0) {
    return null;
  }
  const scoped = parts[at + 1].startsWith('@');
  return parts.slice(0, at + (scoped ? 3 : 2)).join('/');
}

function licences(inputs) {
  const lock = JSON.parse(readFileSync(join(HERE, 'package-lock.json'), 'utf8'));
  const folders = [...new Set(inputs.map(packageOf).filter((p) => p !== null))].sort();
  const parts = [
    'The light page (light.js, light.css) holds these npm packages, built with esbuild from',
    'frontend/package-lock.json (name, version, licence from the lock file; the licence texts from',
    'the packages).',
    '',
  ];
  for (const folder of folders) {
    const locked = lock.packages[folder];
    const name = folder.slice(folder.lastIndexOf('node_modules/') + 'node_modules/'.length);
    parts.push(`${name} ${locked.version} (${locked.license})`);
  }
  for (const folder of folders) {
    const locked = lock.packages[folder];
    const name = folder.slice(folder.lastIndexOf('node_modules/') + 'node_modules/'.length);
    const texts = readdirSync(join(HERE, folder))
      .filter((file) => LICENCE_FILES.test(file))
      .sort();
    parts.push('', '='.repeat(78), `${name} ${locked.version}: ${locked.license}`, '='.repeat(78));
    if (texts.length === 0) {
      const kept = SHIPPED_ELSEWHERE.find(([scope]) => name.startsWith(scope));
      if (kept === undefined) {
        throw new Error(`${name} ships no licence text: add one to licences/`);
      }
      parts.push('', readFileSync(join(HERE, kept[1]), 'utf8').trimEnd());
    }
    for (const file of texts) {
      parts.push('', readFileSync(join(HERE, folder, file), 'utf8').trimEnd());
    }
  }
  return parts.join('\n') + '\n';
}

/** The kernel connection's one import of @jupyterlab/services' index, to src/services.js. */
const KERNEL_CONNECTION = /node_modules\/@jupyterlab\/services\/lib\/kernel\/default\.js$/;
const onlyTheKernelConnection = {
  name: 'only-the-kernel-connection',
  setup(builder) {
    builder.onResolve({ filter: /^\.\.$/ }, (args) =>
      KERNEL_CONNECTION.test(args.importer.split('\\').join('/'))
        ? { path: join(HERE, 'src', 'services.js') }
        : undefined,
    );
  },
};

const result = await build({
  absWorkingDir: HERE,
  entryPoints: { light: 'src/index.js' },
  bundle: true,
  minify: true,
  format: 'iife',
  target: ['chrome100', 'firefox100', 'safari15'],
  legalComments: 'none',
  charset: 'utf8',
  loader: { '.woff': 'empty', '.woff2': 'empty', '.ttf': 'empty', '.eot': 'empty', '.svg': 'dataurl' },
  define: { 'process.env.NODE_ENV': '"production"' },
  // The kernel connection's debug messages (the websocket it opens, every status change): with
  // developer tools or a test's browser attached, each one takes a stack trace, and the first
  // re-parses the whole bundle for it (60-75 ms of a page's start).
  pure: ['console.debug'],
  // Stand-ins for two packages the widgets import but the light page never uses: an HTML
  // sanitizer (descriptions are text) and jQuery (views keep `$el`, but use `el` only); jQuery
  // was 90 KB of the bundle and its start 0.1-0.3 processor-seconds of a page.
  alias: { 'sanitize-html': './src/no-sanitizer.js', jquery: './src/no-jquery.js' },

  plugins: [onlyTheKernelConnection],
  metafile: true,
  write: false,
  outdir: OUT,
  logLevel: 'warning',
});

if (!existsSync(OUT)) {
  mkdirSync(OUT, { recursive: true });
}
for (const file of result.outputFiles) {
  writeFileSync(file.path, file.contents);
}
writeFileSync(join(OUT, 'THIRD-PARTY-LICENSES.txt'), licences(Object.keys(result.metafile.inputs)));
const sizes = result.outputFiles.map((f) => `${f.path.slice(OUT.length + 1)} ${f.contents.length} B`);
console.log(`built into ${OUT}: ${sizes.join(', ')}`);
