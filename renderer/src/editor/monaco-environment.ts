import EditorWorker from 'monaco-editor/esm/vs/editor/editor.worker.js?worker';
import JsonWorker from 'monaco-editor/esm/vs/language/json/json.worker.js?worker';
import TypeScriptWorker from 'monaco-editor/esm/vs/language/typescript/ts.worker.js?worker';
import YamlWorker from './yaml.worker.js?worker';

/**
 * A new Monaco web worker for a language's label, bundled by Vite as a separate file of this server (never a
 * CDN) and started only when a file of its language opens.
 */
export function workerFor(label: string): Worker {
  switch (label) {
    case 'yaml':
      return new YamlWorker();
    case 'json':
      return new JsonWorker();
    case 'typescript':
    case 'javascript':
      return new TypeScriptWorker();
    default:
      return new EditorWorker();
  }
}

self.MonacoEnvironment = { getWorker: (_workerId: string, label: string) => workerFor(label) };
