import { lazy, useState, type ComponentType } from 'react';

/**
 * Like React's `lazy`, but the module starts loading on the next task (not at the first render), and a component
 * rendered once it has loaded is the module's own: `lazy` suspends at its first render even then, and React
 * holds back what a suspended boundary reveals for 300 ms, which would all come on top of the file
 * editor's first paint. Each mount keeps the component it started with, so nothing mounts twice.
 */
export function preloadedLazy<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): ComponentType<P> {
  let loaded: ComponentType<P> | undefined;
  // On the next task, after the page's first render has asked for what it shows first (the workspace listing): the
  // module's chunks would otherwise take every connection the browser opens to the server (six over HTTP/1.1).
  const loading = new Promise((resolve) => setTimeout(resolve)).then(load);
  void loading.then((module) => (loaded = module.default));
  const Lazy = lazy(() => loading);
  return function Preloaded(props: P) {
    const [Component] = useState<ComponentType<P>>(() => loaded ?? Lazy);
    return <Component {...props} />;
  };
}
