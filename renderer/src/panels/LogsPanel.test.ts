import { describe, expect, it } from 'vitest';
import type { WorkbenchLogLine } from '../../../server/src/contract/index.js';
import { matches } from './LogsPanel.js';

const line = (change: Partial<WorkbenchLogLine>): WorkbenchLogLine =>
  ({ id: 1, time: 0, level: 'info', msg: 'Request done', ...change }) as WorkbenchLogLine;

describe('log filter', () => {
  it('passes lines from the minimum level up (levels by index: info is 2)', () => {
    expect(matches(line({ level: 'debug' }), 2, '')).toBe(false);
    expect(matches(line({ level: 'info' }), 2, '')).toBe(true);
    expect(matches(line({ level: 'fatal' }), 2, '')).toBe(true);
  });

  it('searches the message, the fields and the error, with a lower-case needle', () => {
    expect(matches(line({}), 0, 'request')).toBe(true);
    expect(matches(line({ fields: { mount: 'Orders-API' } }), 0, 'orders-api')).toBe(true);
    expect(
      matches(line({ error: { message: 'ECONNREFUSED 127.0.0.1' } } as Partial<WorkbenchLogLine>), 0, 'econn'),
    ).toBe(true);
    expect(matches(line({ fields: { a: 1 } }), 0, 'nowhere')).toBe(false);
  });
});
