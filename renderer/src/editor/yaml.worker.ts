// monaco-yaml's worker, re-exported from our own file: Vite's `?worker` on the package path fails with
// "Unexpected usage" (monaco-yaml FAQ).
import 'monaco-yaml/yaml.worker.js';
