import { useEffect, useEffectEvent } from 'react';
import type { MenuCommand, WorkbenchBridge } from '../../../server/src/contract/index.js';

/** Runs the commands of the desktop app's native menu; nothing happens in a browser (no bridge). */
export function useMenuCommands(run: (command: MenuCommand) => void): void {
  const onCommand = useEffectEvent(run);
  useEffect(() => {
    const bridge = (window as { workbench?: WorkbenchBridge }).workbench;
    return bridge?.onMenuCommand((command) => onCommand(command));
  }, []);
}
