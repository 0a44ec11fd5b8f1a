import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A module of the built query service (`server/dist/src/query/<module>`); run `npm run build:server` first. */
export const queryModule = (module) => import(path.join(root, 'server/dist/src/query', module));
