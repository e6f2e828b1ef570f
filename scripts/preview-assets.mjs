// The link-preview picture's files (docs/decisions/0106-the-picture.md): the
// resvg wasm and the Noto Sans fonts are copied from node_modules into
// supabase/functions/api/routes/previews/assets/, where the function reads
// them (Deno.readFile) and `supabase functions deploy` bundles them
// (supabase/config.toml `static_files`). Nothing is committed and nothing is
// fetched at run time. Runs as npm's postinstall, and again (cheaply, only what
// is missing or changed) before the API starts (scripts/lib/services.ts), so
// `npm ci`, `npm start`, `npm test` and the documented deploy all have them.
// Plain `node`, no dependencies: postinstall runs it before anything else.
/* global process, console */
import { copyFileSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PREVIEWS = path.join(ROOT, 'supabase/functions/api/routes/previews');

/** [from under node_modules, to] for every file the picture needs. */
export function previewAssetFiles() {
  const manifest = JSON.parse(readFileSync(path.join(PREVIEWS, 'picture-assets.json'), 'utf8'));
  const folder = path.join(PREVIEWS, manifest.folder);
  const files = [
    [manifest.wasm.from, manifest.wasm.file],
    [manifest.fontLicense.from, manifest.fontLicense.file],
  ];
  const fontName = manifest.fontPackage.split('/').pop();
  for (const subset of Object.keys(manifest.subsets)) {
    for (const weight of manifest.weights) {
      const file = `${fontName}-${subset}-${weight}-normal.woff`;
      files.push([`${manifest.fontPackage}/files/${file}`, file]);
    }
  }
  return files.map(([from, to]) => [path.join(ROOT, 'node_modules', from), path.join(folder, to)]);
}

/** Copy what is missing or differs in size; returns how many files were copied. */
export function ensurePreviewAssets() {
  let copied = 0;
  for (const [from, to] of previewAssetFiles()) {
    const source = statSync(from);
    let target;
    try {
      target = statSync(to);
    } catch {
      target = undefined;
    }
    if (target && target.size === source.size && target.mtimeMs >= source.mtimeMs) continue;
    mkdirSync(path.dirname(to), { recursive: true });
    copyFileSync(from, to);
    copied++;
  }
  return copied;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const copied = ensurePreviewAssets();
  if (copied) console.log(`preview assets: copied ${copied} file(s) into ${path.relative(ROOT, PREVIEWS)}/assets`);
}
