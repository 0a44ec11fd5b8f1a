/**
 * Request and response shapes shared by the server and the workbench renderer. Type-only: the
 * renderer imports this file with `import type`, so no server code reaches the browser bundle.
 */

/** A file that failed to load, with the position of the fault when known. */
export interface LoadProblem {
  file: string;
  message: string;
  line?: number;
  column?: number;
}

/** `POST /api/adaptive/actuator/refresh`. */
export interface RefreshResult {
  status: 'success' | 'partial' | 'failed';
  message: string;
  handlers: string[];
  specs: string[];
  errors: LoadProblem[];
}

/** One route of `GET /api/adaptive/`. */
export interface EndpointInfo {
  method: string;
  path: string;
  source: 'spec' | 'handler';
  file: string;
}

/** `GET /api/adaptive/`. */
export interface GatewayInfo {
  name: string;
  version: string;
  specs: string[];
  handlers: string[];
  endpoints: EndpointInfo[];
}

/** `GET /api/adaptive/actuator/info`. */
export interface ActuatorInfo {
  app: { name: string; version: string };
  node: string;
  uptime_s: number;
  hot_reload: boolean;
  auth_enabled: boolean;
  specs: string[];
  handlers: string[];
}

/** Every error body. */
export interface ErrorBody {
  detail: string;
  errors?: Array<{ in: string; name: string; message: string }>;
}
