import { useCallback } from 'react';
import { useSessionState, useWorkbench } from '../platform/workbench-context.js';

/** Session key of the log line the logs panel is asked to show. */
export const revealLogKey = 'logs:reveal';

/** A request to show log line `id`; `nonce` tells a second request for the same line from the first. */
export interface LogReveal {
  id: number;
  nonce: number;
}

/** The function that opens the logs panel scrolled to log line `id`, highlighted. */
export function useRevealLog(): (id: number) => void {
  const { showPanel } = useWorkbench();
  const [, setReveal] = useSessionState<LogReveal | undefined>(revealLogKey, undefined);
  return useCallback(
    (id: number) => {
      setReveal((previous) => ({ id, nonce: (previous?.nonce ?? 0) + 1 }));
      showPanel('logs');
    },
    [setReveal, showPanel],
  );
}
