// swagger-ui-react ships no type declarations; these are the props the API docs panel uses.
declare module 'swagger-ui-react' {
  import type { ComponentType } from 'react';

  export interface SwaggerUIProps {
    url?: string;
    spec?: string | object;
    docExpansion?: 'list' | 'full' | 'none';
    defaultModelsExpandDepth?: number;
    deepLinking?: boolean;
    displayRequestDuration?: boolean;
    tryItOutEnabled?: boolean;
    filter?: boolean | string;
    persistAuthorization?: boolean;
    requestInterceptor?: (request: { url: string; headers: Record<string, string> }) => unknown;
    /** Whether the curl snippet shows the request as `requestInterceptor` returned it (default) or as built. */
    showMutatedRequest?: boolean;
    onComplete?: () => void;
    /** Swagger UI plugins: functions returning a plugin object (`statePlugins`, `wrapComponents`, ...). */
    plugins?: Array<() => object>;
  }

  const SwaggerUI: ComponentType<SwaggerUIProps>;
  export default SwaggerUI;
}

declare module 'swagger-ui-react/swagger-ui.css';
