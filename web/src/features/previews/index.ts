// The public entry of features/previews: what other features may use (eslint.config.js).
// Everything else in the folder is the feature's own.
export { LinkPreviewSection } from './components/link-preview-section';
