// Types of scripts/preview-assets.mjs (plain node, run by npm's postinstall).
/** [from under node_modules, to] for every file the picture needs. */
export function previewAssetFiles(): Array<[string, string]>;
/** Copy what is missing or differs; returns how many files were copied. */
export function ensurePreviewAssets(): number;
