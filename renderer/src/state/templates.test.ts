import { describe, expect, it } from 'vitest';
import { newFileContent } from './templates.js';

describe('newFileContent', () => {
  it('starts a spec with a working OpenAPI document mounted at the file name', () => {
    const text = newFileContent('specs/orders-api.openapi.yaml');
    expect(text).toMatch(/^openapi: 3\.0\.3\n/);
    expect(text).toContain('title: orders-api');
    expect(text).toContain('- url: /api/adaptive/orders-api');
    expect(text).toContain('message: Hello from orders-api');
  });

  it('accepts .yml and nested spec folders', () => {
    expect(newFileContent('specs/team/pets.openapi.yml')).toContain('/api/adaptive/pets');
  });

  it('starts a handler with a router', () => {
    const text = newFileContent('handlers/orders_api_handler.ts');
    expect(text).toContain("from 'adaptive-workbench/handler'");
    expect(text).toContain("router.get('/hello/{name}'");
    expect(newFileContent('handlers/x_handler.mts')).toContain('new Router()');
  });

  it('starts anything else empty, including look-alikes in the wrong folder', () => {
    expect(newFileContent('notes.md')).toBe('');
    expect(newFileContent('handlers/pets.openapi.yaml')).toBe('');
    expect(newFileContent('specs/orders_handler.ts')).toBe('');
    expect(newFileContent('')).toBe('');
  });
});
