// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { LoggedError } from '../../../server/src/contract/index.js';
import { renderInWorkbench } from '../platform/workbench.test-support.js';
import { StackTrace } from './StackTrace.js';

afterEach(cleanup);

const error: LoggedError = {
  type: 'TypeError',
  message: "Cannot read properties of undefined (reading 'id')",
  frames: [
    { function: 'Router.dispatch', file: 'server/src/handler-sdk/router.ts', line: 40, place: 'server' },
    { function: 'explode', file: 'handlers/ledger_handler.ts', line: 3, column: 9, place: 'workspace' },
    { function: 'processTicksAndRejections', file: 'node:internal/process/task_queues', line: 95, place: 'node' },
    { file: 'node_modules/zod/lib/index.js', line: 1, place: 'node_modules' },
    { file: 'node_modules/zod/lib/types.js', line: 2, place: 'node_modules' },
  ],
};

describe('StackTrace', () => {
  it('shows the workspace frames first and folds the packages and the runtime', () => {
    renderInWorkbench(<StackTrace error={error} />);
    const stack = screen.getByLabelText('Stack trace');
    expect(stack.querySelector('.stack-error')?.textContent).toBe(
      "TypeError: Cannot read properties of undefined (reading 'id')",
    );
    const shown = stack.querySelector(':scope > .stack-frames') as HTMLElement;
    expect([...shown.children].map((li) => li.textContent)).toEqual([
      'at explode (handlers/ledger_handler.ts:3:9)',
      'at Router.dispatch (server/src/handler-sdk/router.ts:40)',
    ]);
    expect([...stack.querySelectorAll('summary')].map((s) => s.textContent)).toEqual([
      '2 frames in node_modules',
      '1 frame in Node internals',
    ]);
  });

  it("opens a workspace frame's file at its line and column; a server frame is not a link", () => {
    const { workbench } = renderInWorkbench(<StackTrace error={error} />);
    const frames = screen.getAllByRole('listitem');
    expect(within(frames[1]).queryByRole('button')).toBeNull();
    fireEvent.click(within(frames[0]).getByRole('button'));
    expect(workbench.openFile).toHaveBeenCalledWith('handlers/ledger_handler.ts', { line: 3, column: 9 });
  });
});
