// Monaco, loaded only with the editor chunk: the editor core, its features and markdown. Since
// monaco-editor 0.56 entry points drop "esm/vs/". Markdown needs no language worker, so every
// label gets the base editor worker, bundled by Vite — never fetched from a CDN.
import * as monaco from 'monaco-editor/editor';
import 'monaco-editor/features/register.all';
import 'monaco-editor/languages/definitions/markdown/register';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';

self.MonacoEnvironment = { getWorker: () => new EditorWorker() };

export { monaco };

const dark = window.matchMedia?.('(prefers-color-scheme: dark)');

/** Follow the page's light or dark theme. */
export function currentTheme(): string {
  return dark?.matches ? 'vs-dark' : 'vs';
}

// Monaco's theme is global and set when an editor is made: the page follows a scheme switched
// while it is open (its CSS does), so every editor and diff follows it too.
dark?.addEventListener('change', () => monaco.editor.setTheme(currentTheme()));
