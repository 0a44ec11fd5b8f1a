import { describe, expect, it } from 'vitest';
import { stemEnd, withSingleSuffix } from './file-names.js';

describe('file name fields', () => {
  it('select the name before the ending the gateway loads the file by', () => {
    const stem = (name: string) => name.slice(0, stemEnd(name));
    expect(stem('new_api_handler.ts')).toBe('new_api');
    expect(stem('new-api.openapi.yaml')).toBe('new-api');
    expect(stem('orders_handler.py')).toBe('orders');
    expect(stem('health.yaml')).toBe('health');
    expect(stem('README')).toBe('README');
    expect(stem('_handler.ts')).toBe('_handler');
  });

  it('keep one ending when the whole name was typed over the selected part', () => {
    expect(withSingleSuffix('orders.openapi.yaml.openapi.yaml')).toBe('orders.openapi.yaml');
    expect(withSingleSuffix('orders.openapi.json.openapi.yaml')).toBe('orders.openapi.json');
    expect(withSingleSuffix('orders_handler.ts_handler.ts')).toBe('orders_handler.ts');
    expect(withSingleSuffix('orders_handler.ts')).toBe('orders_handler.ts');
    expect(withSingleSuffix('orders.openapi.yaml')).toBe('orders.openapi.yaml');
    expect(withSingleSuffix('notes.txt')).toBe('notes.txt');
  });
});
