/**
 * When the file editor is up: what else the page loads at start (Swagger UI, language typings) waits for
 * it, so the first file opens and takes keystrokes before they take the main thread and the network.
 */
let markMounted: () => void = () => undefined;
const mounted = new Promise<void>((resolve) => (markMounted = resolve));

/** Called by the file editor once Monaco has mounted it. */
export function editorMounted(): void {
  markMounted();
}

/** How long after the first call the work that waits for the editor starts anyway when no file opens. */
const noEditorMs = 3000;
/** The editor's own start (its language worker, the first check of the file) after it mounted. */
const settleMs = 1000;

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Resolves a second after the file editor has mounted, at an idle moment (or, when no file is open, a few
 * seconds after the first call): the time to start what the first view does not need.
 */
export function afterEditorSettled(): Promise<void> {
  return Promise.race([mounted.then(() => delay(settleMs)), delay(noEditorMs)]).then(
    () => new Promise<void>((resolve) => requestIdleCallback(() => resolve(), { timeout: 1000 })),
  );
}
