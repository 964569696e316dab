// Loads the wasm UI. Kept as a file (not inline) so the CSP needs no 'unsafe-inline' script.
import init from './pkg/studio_ui.js';
init({ module_or_path: new URL('./pkg/studio_ui_bg.wasm', import.meta.url) });
